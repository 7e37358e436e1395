import Router from '@koa/router';
import type { Context } from 'koa';
import { NotFoundException, type HistoricVariableInstance, type HistoricVariableInstanceQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { writeBinaryVariable } from '../dto/binary-variable.js';
import { formatRestDate } from '../dto/dates.js';
import { toVariableValueDto } from '../dto/variable-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec, jaxRsFlag } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const HISTORIC_VARIABLE_QUERY: QuerySpec = {
  params: {
    variableName: 'string', variableNameLike: 'string', variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean',
    variableTypeIn: 'stringArray', includeDeleted: 'boolean', processInstanceId: 'string', processInstanceIdIn: 'stringArray',
    processDefinitionId: 'string', processDefinitionKey: 'string', executionIdIn: 'stringArray', taskIdIn: 'stringArray',
    activityInstanceIdIn: 'stringArray', tenantIdIn: 'stringList', withoutTenantId: 'boolean', variableNameIn: 'stringArray',
  },
  sortBy: ['instanceId', 'variableName', 'tenantId'],
  // Trellis runs no CMMN cases.
  unsupported: ['caseInstanceId', 'caseExecutionIdIn', 'caseActivityIdIn'],
};

/** Camunda's HistoricVariableInstanceDto; values as the runtime's VariableInstanceDto has them. */
export function toHistoricVariableInstanceDto(variable: HistoricVariableInstance, deserializeValues: boolean) {
  return {
    id: variable.id,
    name: variable.name,
    ...toVariableValueDto(variable.value, { deserializeValues }),
    processDefinitionKey: variable.processDefinitionKey,
    processDefinitionId: variable.processDefinitionId,
    processInstanceId: variable.processInstanceId,
    executionId: variable.executionId,
    activityInstanceId: variable.activityInstanceId,
    caseDefinitionKey: null,
    caseDefinitionId: null,
    caseInstanceId: null,
    caseExecutionId: null,
    taskId: variable.taskId,
    tenantId: variable.tenantId,
    errorMessage: null,
    state: variable.state,
    createTime: formatRestDate(variable.createTime),
    removalTime: variable.removalTime ? formatRestDate(variable.removalTime) : null,
    rootProcessInstanceId: variable.rootProcessInstanceId,
  };
}

/**
 * `variableValue` compares with `variableName`'s value (Camunda's HistoricVariableInstanceQueryDto);
 * the query string carries a string, a POST body any JSON primitive.
 */
function withVariableValue(query: HistoricVariableInstanceQuery, raw: unknown): HistoricVariableInstanceQuery {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined || value === null) return query;
  if (typeof value === 'object') throw new InvalidRequestException(400, `Cannot set query parameter 'variableValue' to value '${JSON.stringify(value)}'`);
  if (query.variableName === undefined) {
    throw new InvalidRequestException(
      400,
      'Only a single variable value parameter specified: variable name and value are required to be able to query after a specific variable value.',
    );
  }
  return { ...query, variableValue: value as string | number | boolean };
}

/** The Historic Variable Instance group: query, count, get, binary data and delete; plus the delete of a historic process instance's variables. */
export function historyVariableInstanceRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const variables = engine.history.variables;
  const deserialize = (ctx: Context, name: string) => jaxRsFlag(ctx.query, name, true);
  const fromQueryString = (ctx: Context) => withVariableValue(parseListQuery<HistoricVariableInstanceQuery>(ctx.query, HISTORIC_VARIABLE_QUERY), ctx.query.variableValue);
  const fromBody = async (ctx: Context): Promise<HistoricVariableInstanceQuery> => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    return { ...withVariableValue(parseBodyQuery<HistoricVariableInstanceQuery>(body, HISTORIC_VARIABLE_QUERY), body.variableValue), ...parsePage(ctx.query) };
  };
  const list = async (ctx: Context, query: HistoricVariableInstanceQuery) =>
    (await variables.find(query)).map((variable) => toHistoricVariableInstanceDto(variable, deserialize(ctx, 'deserializeValues')));
  const count = async (listQuery: HistoricVariableInstanceQuery) => ({ count: await variables.count(countCriteria(listQuery)) });

  router.get('/history/variable-instance', async (ctx) => {
    ctx.body = await list(ctx, fromQueryString(ctx));
  });
  router.post('/history/variable-instance', async (ctx) => {
    ctx.body = await list(ctx, await fromBody(ctx));
  });
  router.get('/history/variable-instance/count', async (ctx) => {
    ctx.body = await count(fromQueryString(ctx));
  });
  router.post('/history/variable-instance/count', async (ctx) => {
    ctx.body = await count(await fromBody(ctx));
  });

  router.get('/history/variable-instance/:id', async (ctx) => {
    const variable = await variables.get(ctx.params.id);
    if (!variable) throw notFound(ctx.params.id);
    ctx.body = toHistoricVariableInstanceDto(variable, deserialize(ctx, 'deserializeValue'));
  });

  router.get('/history/variable-instance/:id/data', async (ctx) => {
    const variable = await variables.get(ctx.params.id, true);
    if (!variable) throw notFound(ctx.params.id);
    writeBinaryVariable(ctx, variable.value, ctx.params.id);
  });

  router.delete('/history/variable-instance/:id', async (ctx) => {
    await rethrowNotFound(() => variables.delete(ctx.params.id));
    ctx.status = 204;
  });

  router.delete('/history/process-instance/:id/variable-instances', async (ctx) => {
    await rethrowNotFound(() => variables.deleteOfProcessInstance(ctx.params.id));
    ctx.status = 204;
  });
}

const notFound = (id: string) => new InvalidRequestException(404, `Historic variable instance with Id '${id}' does not exist.`);

/** Camunda's resources answer the engine's NotFoundException (a 400 elsewhere) as 404 with its message. */
async function rethrowNotFound(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message);
    throw error;
  }
}
