import Router from '@koa/router';
import type { Context } from 'koa';
import type { VariableComparisonOperator, VariableInstance, VariableInstanceQuery, VariableValueCondition } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { writeBinaryVariable } from '../dto/binary-variable.js';
import { parseRestDate } from '../dto/dates.js';
import { toVariableValueDto } from '../dto/variable-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { type RestContext } from './context.js';

const VARIABLE_QUERY: QuerySpec = {
  params: {
    variableName: 'string', variableNameLike: 'string', processInstanceIdIn: 'stringList', executionIdIn: 'stringList',
    caseInstanceIdIn: 'stringList', caseExecutionIdIn: 'stringList', taskIdIn: 'stringList', batchIdIn: 'stringList',
    activityInstanceIdIn: 'stringList', tenantIdIn: 'stringList', variableScopeIdIn: 'stringList', withoutTenantId: 'boolean',
    variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean',
  },
  sortBy: ['variableName', 'variableType', 'activityInstanceId', 'tenantId'],
};
const SORT_FIELDS = VARIABLE_QUERY.sortBy!;
const OPERATORS: readonly VariableComparisonOperator[] = ['eq', 'neq', 'gt', 'gteq', 'lt', 'lteq', 'like'];

/** Camunda's VariableInstanceDto. */
export function toVariableInstanceDto(variable: VariableInstance, deserializeValues: boolean) {
  return {
    id: variable.id,
    name: variable.name,
    ...toVariableValueDto(variable.value, { deserializeValues }),
    processDefinitionId: variable.processDefinitionId,
    processInstanceId: variable.processInstanceId,
    executionId: variable.executionId,
    caseInstanceId: null,
    caseExecutionId: null,
    taskId: variable.taskId,
    batchId: null,
    activityInstanceId: variable.activityInstanceId,
    tenantId: variable.tenantId,
    errorMessage: null,
  };
}

/** The Variable Instance group: query, count, get and binary data of the running instances' variables. */
export function variableInstanceRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const deserialize = (ctx: Context, name: string) => ctx.query[name] !== 'false';

  const fromQueryString = (query: Record<string, unknown>): VariableInstanceQuery => ({
    ...parseListQuery<VariableInstanceQuery>(query, VARIABLE_QUERY),
    ...variableCriteria(query, ['variableValues'], 'queryString'),
  });

  /** POST bodies carry the same criteria, `variableValues` as objects and `sorting` as a list; paging stays in the query string. */
  const fromBody = async (ctx: Context): Promise<VariableInstanceQuery> => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    return { ...parseBodyQuery<VariableInstanceQuery>(body, VARIABLE_QUERY), ...variableCriteria(body, ['variableValues'], 'body'), ...parsePage(ctx.query) };
  };

  router.get('/variable-instance', async (ctx) => {
    const variables = await engine.variableInstance.findVariableInstances(fromQueryString(ctx.query));
    ctx.body = variables.map((variable) => toVariableInstanceDto(variable, deserialize(ctx, 'deserializeValues')));
  });
  router.post('/variable-instance', async (ctx) => {
    const variables = await engine.variableInstance.findVariableInstances(await fromBody(ctx));
    ctx.body = variables.map((variable) => toVariableInstanceDto(variable, deserialize(ctx, 'deserializeValues')));
  });
  router.get('/variable-instance/count', async (ctx) => {
    const query = countCriteria(fromQueryString(ctx.query));
    ctx.body = { count: await engine.variableInstance.countVariableInstances(query) };
  });
  router.post('/variable-instance/count', async (ctx) => {
    const query = countCriteria(await fromBody(ctx));
    ctx.body = { count: await engine.variableInstance.countVariableInstances(query) };
  });

  router.get('/variable-instance/:id', async (ctx) => {
    const variable = await engine.variableInstance.getVariableInstance(ctx.params.id);
    if (!variable) throw notFound(ctx.params.id);
    ctx.body = toVariableInstanceDto(variable, deserialize(ctx, 'deserializeValue'));
  });

  router.get('/variable-instance/:id/data', async (ctx) => {
    const { id } = ctx.params;
    const variable = await engine.variableInstance.getVariableInstance(id, true);
    if (!variable) throw notFound(id);
    writeBinaryVariable(ctx, variable.value, id);
  });
}

const notFound = (id: string) => new InvalidRequestException(404, `Variable instance with Id '${id}' does not exist.`);

/**
 * The variable criteria `names` of a query (`variables`, `processVariables`, …): `name_op_value`
 * lists in a query string, lists of `{name, operator, value}` in a body; absent ones are left out.
 */
export function variableCriteria<K extends string>(source: Record<string, unknown>, names: readonly K[], from: 'queryString' | 'body'): Partial<Record<K, VariableValueCondition[]>> {
  const criteria: Partial<Record<K, VariableValueCondition[]>> = {};
  for (const name of names) {
    const raw = from === 'queryString' && Array.isArray(source[name]) ? (source[name] as unknown[])[0] : source[name];
    if (from === 'queryString' && typeof raw === 'string') criteria[name] = parseVariableValuesParam(raw);
    if (from === 'body' && raw !== undefined && raw !== null) criteria[name] = parseVariableValuesBody(raw, name);
  }
  return criteria;
}

/** `name_op_value` conditions, comma-separated; values are strings (or dates in Camunda's format), as in Camunda's GET queries. */
export function parseVariableValuesParam(raw: string): VariableValueCondition[] {
  if (raw === '') return [];
  return raw.split(',').map((expression) => {
    const parts = expression.split('_');
    if (parts.length !== 3) throw new InvalidRequestException(400, 'variable query parameter has to have format KEY_OPERATOR_VALUE.');
    const [name, operator, value] = parts as [string, string, string];
    return { name, operator: checkOperator(operator), value: parseRestDate(value) ?? value };
  });
}

/** `[{name, operator, value}]`: a value may be a string (or date string), number, boolean or null. */
export function parseVariableValuesBody(raw: unknown, param = 'variableValues'): VariableValueCondition[] {
  if (!Array.isArray(raw)) throw new InvalidRequestException(400, `Cannot set query parameter '${param}' to value '${JSON.stringify(raw)}'`);
  return raw.map((entry: { name?: unknown; operator?: unknown; value?: unknown }) => {
    const value = entry?.value ?? null;
    if (typeof entry?.name !== 'string' || !['string', 'number', 'boolean'].includes(typeof value) && value !== null) {
      throw new InvalidRequestException(400, `Cannot set query parameter '${param}' to value '${JSON.stringify(entry)}'`);
    }
    const operator = checkOperator(String(entry.operator));
    return { name: entry.name, operator, value: typeof value === 'string' ? (parseRestDate(value) ?? value) : (value as number | boolean | null) };
  });
}

function checkOperator(operator: string): VariableComparisonOperator {
  if (!OPERATORS.includes(operator as VariableComparisonOperator)) throw new InvalidRequestException(400, `Invalid variable comparator specified: ${operator}`);
  return operator as VariableComparisonOperator;
}
