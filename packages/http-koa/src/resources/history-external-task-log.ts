import Router from '@koa/router';
import type { Context } from 'koa';
import type { HistoricExternalTaskLog, HistoricExternalTaskLogQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { plainText } from '../plain-text.js';
import type { RestContext } from './context.js';

const HISTORIC_EXTERNAL_TASK_LOG_QUERY: QuerySpec = {
  params: {
    logId: 'string', externalTaskId: 'string', topicName: 'string', workerId: 'string', errorMessage: 'string', activityIdIn: 'stringArray',
    activityInstanceIdIn: 'stringArray', executionIdIn: 'stringArray', processInstanceId: 'string', processDefinitionId: 'string',
    processDefinitionKey: 'string', tenantIdIn: 'stringArray', withoutTenantId: 'boolean', priorityLowerThanOrEquals: 'long',
    priorityHigherThanOrEquals: 'long', creationLog: 'boolean', failureLog: 'boolean', successLog: 'boolean', deletionLog: 'boolean',
  },
  sortBy: [
    'timestamp', 'externalTaskId', 'topicName', 'workerId', 'retries', 'priority', 'activityId', 'activityInstanceId', 'executionId',
    'processInstanceId', 'processDefinitionId', 'processDefinitionKey', 'tenantId',
  ],
};

/** Camunda's HistoricExternalTaskLogDto. */
export function toHistoricExternalTaskLogDto(log: HistoricExternalTaskLog) {
  return {
    id: log.id,
    externalTaskId: log.externalTaskId,
    timestamp: formatRestDate(log.timestamp),
    topicName: log.topicName,
    workerId: log.workerId,
    retries: log.retries,
    priority: log.priority,
    errorMessage: log.errorMessage,
    activityId: log.activityId,
    activityInstanceId: log.activityInstanceId,
    executionId: log.executionId,
    processInstanceId: log.processInstanceId,
    processDefinitionId: log.processDefinitionId,
    processDefinitionKey: log.processDefinitionKey,
    tenantId: log.tenantId,
    creationLog: log.creationLog,
    failureLog: log.failureLog,
    successLog: log.successLog,
    deletionLog: log.deletionLog,
    removalTime: log.removalTime ? formatRestDate(log.removalTime) : null,
    rootProcessInstanceId: log.rootProcessInstanceId,
  };
}

/** The Historic External Task Log group: query and count (GET and POST), one entry, its error details. */
export function historyExternalTaskLogRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const fromQueryString = (ctx: Context) => parseListQuery<HistoricExternalTaskLogQuery>(ctx.query, HISTORIC_EXTERNAL_TASK_LOG_QUERY);
  const fromBody = async (ctx: Context): Promise<HistoricExternalTaskLogQuery> => ({
    ...parseBodyQuery<HistoricExternalTaskLogQuery>(await readJsonObject(ctx, rest.bodyLimit), HISTORIC_EXTERNAL_TASK_LOG_QUERY),
    ...parsePage(ctx.query),
  });
  const list = async (query: HistoricExternalTaskLogQuery) => (await engine.history.logs.findExternalTaskLogs(query)).map(toHistoricExternalTaskLogDto);
  const count = async (listQuery: HistoricExternalTaskLogQuery) => ({
    count: await engine.history.logs.countExternalTaskLogs(countCriteria(listQuery)),
  });

  router.get('/history/external-task-log', async (ctx) => {
    ctx.body = await list(fromQueryString(ctx));
  });
  router.post('/history/external-task-log', async (ctx) => {
    ctx.body = await list(await fromBody(ctx));
  });
  router.get('/history/external-task-log/count', async (ctx) => {
    ctx.body = await count(fromQueryString(ctx));
  });
  router.post('/history/external-task-log/count', async (ctx) => {
    ctx.body = await count(await fromBody(ctx));
  });
  router.get('/history/external-task-log/:id', async (ctx) => {
    const log = await engine.history.logs.getExternalTaskLog(ctx.params.id);
    if (!log) throw new InvalidRequestException(404, `Historic external task log with id ${ctx.params.id} does not exist`);
    ctx.body = toHistoricExternalTaskLogDto(log);
  });
  router.get('/history/external-task-log/:id/error-details', (ctx) => plainText(ctx, () => engine.history.logs.getExternalTaskLogErrorDetails(ctx.params.id)));
}
