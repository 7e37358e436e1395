import Router from '@koa/router';
import type { Context } from 'koa';
import type { HistoricDetail, HistoricDetailQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { writeBinaryVariable } from '../dto/binary-variable.js';
import { formatRestDate } from '../dto/dates.js';
import { toVariableValueDto } from '../dto/variable-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, givenMeansTrue, parseBodyQuery, parseListQuery, parsePage, type QuerySpec, jaxRsFlag } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const HISTORIC_DETAIL_QUERY: QuerySpec = {
  params: {
    processInstanceId: 'string', processInstanceIdIn: 'stringArray', executionId: 'string', taskId: 'string', activityInstanceId: 'string',
    variableInstanceId: 'string', variableTypeIn: 'stringArray', variableNameLike: 'string', tenantIdIn: 'stringList', withoutTenantId: 'boolean',
    userOperationId: 'string', formFields: 'boolean', variableUpdates: 'boolean', excludeTaskDetails: 'boolean', initial: 'boolean',
    occurredBefore: 'date', occurredAfter: 'date',
  },
  sortBy: ['processInstanceId', 'variableName', 'variableType', 'variableRevision', 'formPropertyId', 'time', 'occurrence', 'tenantId'],
  // Trellis runs no CMMN cases.
  unsupported: ['caseInstanceId', 'caseExecutionId'],
};

/**
 * Camunda's HistoricDetailDto: a variable update (HistoricVariableUpdateDto, values as the runtime's
 * variable DTOs have them) or a form field (HistoricFormFieldDto).
 */
export function toHistoricDetailDto(detail: HistoricDetail, deserializeValues: boolean) {
  const common = {
    id: detail.id,
    type: detail.type,
    processDefinitionKey: detail.processDefinitionKey,
    processDefinitionId: detail.processDefinitionId,
    processInstanceId: detail.processInstanceId,
    activityInstanceId: detail.activityInstanceId,
    executionId: detail.executionId,
    caseDefinitionKey: null,
    caseDefinitionId: null,
    caseInstanceId: null,
    caseExecutionId: null,
    taskId: detail.taskId,
    tenantId: detail.tenantId,
    userOperationId: detail.userOperationId,
    time: formatRestDate(detail.time),
    removalTime: detail.removalTime ? formatRestDate(detail.removalTime) : null,
    rootProcessInstanceId: detail.rootProcessInstanceId,
  };
  if (detail.type === 'formField') return { ...common, fieldId: detail.fieldId, fieldValue: detail.fieldValue };
  const { type: variableType, value, valueInfo } = toVariableValueDto(detail.value, { deserializeValues });
  return {
    ...common,
    variableName: detail.variableName,
    variableInstanceId: detail.variableInstanceId,
    variableType,
    value,
    valueInfo,
    initial: detail.initial,
    revision: detail.revision,
    errorMessage: null,
  };
}

/** Camunda's HistoricDetailResourceImpl: binary data belongs to variable updates only. */
function binaryValueOf(detail: HistoricDetail, id: string) {
  if (detail.type !== 'variableUpdate') throw new InvalidRequestException(400, `Historic detail with Id '${id}' is not a variable update.`);
  return detail.value;
}

/** The Historic Detail group: query, count, get, and the binary data of variable updates. */
export function historyDetailRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const variables = engine.history.variables;
  const deserialize = (ctx: Context, name: string) => jaxRsFlag(ctx.query, name, true);
  // Camunda's HistoricDetailQueryDto applies these whenever they are given, `false` too.
  const given = (query: HistoricDetailQuery) => givenMeansTrue(query, ['formFields', 'variableUpdates', 'excludeTaskDetails']);
  const fromQueryString = (ctx: Context) => given(parseListQuery<HistoricDetailQuery>(ctx.query, HISTORIC_DETAIL_QUERY));
  const fromBody = async (ctx: Context): Promise<HistoricDetailQuery> => ({
    ...given(parseBodyQuery<HistoricDetailQuery>(await readJsonObject(ctx, rest.bodyLimit), HISTORIC_DETAIL_QUERY)),
    ...parsePage(ctx.query),
  });
  const list = async (ctx: Context, query: HistoricDetailQuery) =>
    (await variables.findDetails(query)).map((detail) => toHistoricDetailDto(detail, deserialize(ctx, 'deserializeValues')));

  router.get('/history/detail', async (ctx) => {
    ctx.body = await list(ctx, fromQueryString(ctx));
  });
  router.post('/history/detail', async (ctx) => {
    ctx.body = await list(ctx, await fromBody(ctx));
  });
  router.get('/history/detail/count', async (ctx) => {
    const query = countCriteria(fromQueryString(ctx));
    ctx.body = { count: await variables.countDetails(query) };
  });

  router.get('/history/detail/:id', async (ctx) => {
    const detail = await variables.getDetail(ctx.params.id);
    if (!detail) throw notFound(ctx.params.id);
    ctx.body = toHistoricDetailDto(detail, deserialize(ctx, 'deserializeValue'));
  });

  router.get('/history/detail/:id/data', async (ctx) => {
    const detail = await variables.getDetail(ctx.params.id, true);
    if (!detail) throw notFound(ctx.params.id);
    writeBinaryVariable(ctx, binaryValueOf(detail, ctx.params.id), ctx.params.id);
  });
}

const notFound = (id: string) => new InvalidRequestException(404, `Historic detail with Id '${id}' does not exist.`);
