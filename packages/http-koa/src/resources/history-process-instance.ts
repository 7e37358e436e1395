import Router from '@koa/router';
import type { Context } from 'koa';
import { BadUserRequestException, type HistoricProcessInstance, type HistoricProcessInstanceQuery } from '@trellis/core';
import { idList, readJsonObject, text } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, orQueriesFrom, type QuerySpec, jaxRsFlag } from '../query/parse-query.js';
import { toBatchDto } from './batch.js';
import { badUserRequestAs400 } from '../errors/rest-exception.js';
import type { RestContext } from './context.js';
import { historicQueryOf } from './historic-selection.js';
import { variableCriteria, variableRule } from '../query/variable-criteria.js';

const VARIABLE_CRITERIA = { variables: variableRule() };

export const HISTORIC_PROCESS_INSTANCE_QUERY: QuerySpec = {
  params: {
    processInstanceId: 'string', processInstanceIds: 'stringList', processDefinitionId: 'string', processDefinitionKey: 'string',
    processDefinitionKeyIn: 'optionalList', processDefinitionKeyNotIn: 'stringList', processDefinitionName: 'string',
    processDefinitionNameLike: 'string', processInstanceBusinessKey: 'string', processInstanceBusinessKeyIn: 'optionalList',
    processInstanceBusinessKeyLike: 'string', rootProcessInstances: 'boolean', finished: 'boolean', unfinished: 'boolean',
    startedBefore: 'date', startedAfter: 'date', finishedBefore: 'date', finishedAfter: 'date', startedBy: 'string',
    executedActivityIdIn: 'optionalList', activeActivityIdIn: 'optionalList', superProcessInstanceId: 'string', subProcessInstanceId: 'string', tenantIdIn: 'optionalList', withoutTenantId: 'boolean',
    active: 'boolean', suspended: 'boolean', completed: 'boolean', externallyTerminated: 'boolean', internallyTerminated: 'boolean',
    withIncidents: 'boolean', withRootIncidents: 'boolean', incidentIdIn: 'optionalList', incidentType: 'string', incidentStatus: 'string',
    incidentMessage: 'string', incidentMessageLike: 'string', executedActivityAfter: 'date', executedActivityBefore: 'date',
    executedJobAfter: 'date', executedJobBefore: 'date', activityIdIn: 'optionalList',
    variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean',
  },
  sortBy: ['instanceId', 'definitionId', 'definitionKey', 'definitionName', 'definitionVersion', 'businessKey', 'startTime', 'endTime', 'duration', 'tenantId'],
  // Trellis runs no CMMN, so the case criteria stay refused; `variables` is read apart (name_op_value conditions).
  unsupported: ['superCaseInstanceId', 'subCaseInstanceId', 'caseInstanceId'],
};

/** Camunda's HistoricProcessInstanceDto. */
export function toHistoricProcessInstanceDto(instance: HistoricProcessInstance) {
  return {
    id: instance.id,
    rootProcessInstanceId: instance.rootProcessInstanceId,
    superProcessInstanceId: instance.superProcessInstanceId,
    superCaseInstanceId: null,
    caseInstanceId: null,
    processDefinitionName: instance.processDefinitionName,
    processDefinitionKey: instance.processDefinitionKey,
    processDefinitionVersion: instance.processDefinitionVersion,
    processDefinitionId: instance.processDefinitionId,
    businessKey: instance.businessKey,
    startTime: formatRestDate(instance.startTime),
    endTime: instance.endTime ? formatRestDate(instance.endTime) : null,
    removalTime: instance.removalTime ? formatRestDate(instance.removalTime) : null,
    durationInMillis: instance.durationInMillis,
    startUserId: instance.startUserId,
    startActivityId: instance.startActivityId,
    deleteReason: instance.deleteReason,
    tenantId: instance.tenantId,
    state: instance.state,
    restartedProcessInstanceId: instance.restartedProcessInstanceId,
  };
}

/** The Historic Process Instance group: query, count, get, delete and the deletion batch. */
export function historyProcessInstanceRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const fromQueryString = (ctx: Context) => {
    return { ...parseListQuery<HistoricProcessInstanceQuery>(ctx.query, HISTORIC_PROCESS_INSTANCE_QUERY), ...variableCriteria(ctx.query, VARIABLE_CRITERIA, 'queryString') };
  };
  const fromBody = async (ctx: Context): Promise<HistoricProcessInstanceQuery> => ({
    ...historicQueryFromBody(await readJsonObject(ctx, rest.bodyLimit)),
    ...parsePage(ctx.query),
  });
  const list = async (query: HistoricProcessInstanceQuery) => (await engine.history.findHistoricProcessInstances(query)).map(toHistoricProcessInstanceDto);
  const count = async (listQuery: HistoricProcessInstanceQuery) => ({
    count: await engine.history.countHistoricProcessInstances(countCriteria(listQuery)),
  });

  router.get('/history/process-instance', async (ctx) => {
    ctx.body = await list(fromQueryString(ctx));
  });
  router.post('/history/process-instance', async (ctx) => {
    ctx.body = await list(await fromBody(ctx));
  });
  router.get('/history/process-instance/count', async (ctx) => {
    ctx.body = await count(fromQueryString(ctx));
  });
  router.post('/history/process-instance/count', async (ctx) => {
    ctx.body = await count(await fromBody(ctx));
  });

  // DeleteHistoricProcessInstancesDto (its failIfNotExists is not read, as in Camunda's deleteAsync); engine refusals are 400s.
  router.post('/history/process-instance/delete', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const selection = { historicProcessInstanceIds: idList(body.historicProcessInstanceIds), historicProcessInstanceQuery: historicQueryOf(body) };
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.history.deleteHistoricProcessInstancesAsync(selection, text(body.deleteReason))));
  });

  router.get('/history/process-instance/:id', async (ctx) => {
    const instance = await engine.history.getHistoricProcessInstance(ctx.params.id);
    if (!instance) throw notFound(ctx.params.id);
    ctx.body = toHistoricProcessInstanceDto(instance);
  });

  router.delete('/history/process-instance/:id', async (ctx) => {
    const failIfNotExists = jaxRsFlag(ctx.query, 'failIfNotExists', true);
    try {
      await engine.history.deleteHistoricProcessInstance(ctx.params.id, { failIfNotExists });
    } catch (error) {
      // Camunda's resource answers every engine refusal (unknown or still running) as this 404.
      if (error instanceof BadUserRequestException) throw notFound(ctx.params.id);
      throw error;
    }
    ctx.status = 204;
  });
}

/** A HistoricProcessInstanceQueryDto body: criteria, `variables` conditions and `orQueries` (each such a body, sorting aside). */
export function historicQueryFromBody(body: Record<string, unknown>): HistoricProcessInstanceQuery {
  const query: HistoricProcessInstanceQuery = { ...parseBodyQuery<HistoricProcessInstanceQuery>(body, HISTORIC_PROCESS_INSTANCE_QUERY), ...variableCriteria(body, VARIABLE_CRITERIA, 'body') };
  if (body.orQueries !== undefined && body.orQueries !== null) {
    query.orQueries = orQueriesFrom(body.orQueries, historicQueryFromBody);
  }
  return query;
}

const notFound = (id: string) => new InvalidRequestException(404, `Historic process instance with id ${id} does not exist`);
