import Router from '@koa/router';
import type { Context } from 'koa';
import type { VariableInstance, VariableInstanceQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { writeBinaryVariable } from '../dto/binary-variable.js';
import { toVariableValueDto } from '../dto/variable-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec, jaxRsFlag } from '../query/parse-query.js';
import { variableCriteria, variableRule } from '../query/variable-criteria.js';
import { type RestContext } from './context.js';

const VARIABLE_QUERY: QuerySpec = {
  params: {
    // Camunda's VariableInstanceQueryDto applies a list only when it holds values, and has no withoutTenantId.
    variableName: 'string', variableNameLike: 'string', processInstanceIdIn: 'stringArray', executionIdIn: 'stringArray',
    caseInstanceIdIn: 'stringArray', caseExecutionIdIn: 'stringArray', taskIdIn: 'stringArray', batchIdIn: 'stringArray',
    activityInstanceIdIn: 'stringArray', tenantIdIn: 'optionalList', variableScopeIdIn: 'stringArray',
    variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean',
  },
  sortBy: ['variableName', 'variableType', 'activityInstanceId', 'tenantId'],
};
const VARIABLE_CRITERIA = { variableValues: variableRule() };

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
    batchId: variable.batchId,
    activityInstanceId: variable.activityInstanceId,
    tenantId: variable.tenantId,
    errorMessage: null,
  };
}

/** The Variable Instance group: query, count, get and binary data of the running instances' variables. */
export function variableInstanceRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const deserialize = (ctx: Context, name: string) => jaxRsFlag(ctx.query, name, true);

  const fromQueryString = (query: Record<string, unknown>): VariableInstanceQuery => ({
    ...parseListQuery<VariableInstanceQuery>(query, VARIABLE_QUERY),
    ...variableCriteria(query, VARIABLE_CRITERIA, 'queryString'),
  });

  /** POST bodies carry the same criteria, `variableValues` as objects and `sorting` as a list; paging stays in the query string. */
  const fromBody = async (ctx: Context): Promise<VariableInstanceQuery> => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    return { ...parseBodyQuery<VariableInstanceQuery>(body, VARIABLE_QUERY), ...variableCriteria(body, VARIABLE_CRITERIA, 'body'), ...parsePage(ctx.query) };
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
