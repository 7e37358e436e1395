import Router from '@koa/router';
import type { Context } from 'koa';
import type { HistoricJobLog, HistoricJobLogQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { plainText } from '../plain-text.js';
import type { RestContext } from './context.js';

const HISTORIC_JOB_LOG_QUERY: QuerySpec = {
  params: {
    logId: 'string', jobId: 'string', jobExceptionMessage: 'string', jobDefinitionId: 'string', jobDefinitionType: 'string',
    jobDefinitionConfiguration: 'string', activityIdIn: 'stringArray', failedActivityIdIn: 'stringArray', executionIdIn: 'stringArray',
    processInstanceId: 'string', processDefinitionId: 'string', processDefinitionKey: 'string', deploymentId: 'string',
    tenantIdIn: 'stringList', withoutTenantId: 'boolean', hostname: 'string', jobPriorityLowerThanOrEquals: 'long',
    jobPriorityHigherThanOrEquals: 'long', creationLog: 'boolean', failureLog: 'boolean', successLog: 'boolean', deletionLog: 'boolean',
  },
  sortBy: [
    'timestamp', 'jobId', 'jobDefinitionId', 'jobDueDate', 'jobRetries', 'jobPriority', 'activityId', 'executionId', 'processInstanceId',
    'processDefinitionId', 'processDefinitionKey', 'deploymentId', 'hostname', 'occurrence', 'tenantId',
  ],
};

const date = (value: Date | null) => (value ? formatRestDate(value) : null);

/** Camunda's HistoricJobLogDto. */
export function toHistoricJobLogDto(log: HistoricJobLog) {
  return {
    id: log.id,
    timestamp: formatRestDate(log.timestamp),
    removalTime: date(log.removalTime),
    jobId: log.jobId,
    jobDueDate: date(log.jobDueDate),
    jobRetries: log.jobRetries,
    jobPriority: log.jobPriority,
    jobExceptionMessage: log.jobExceptionMessage,
    failedActivityId: log.failedActivityId,
    jobDefinitionId: log.jobDefinitionId,
    jobDefinitionType: log.jobDefinitionType,
    jobDefinitionConfiguration: log.jobDefinitionConfiguration,
    activityId: log.activityId,
    executionId: log.executionId,
    processInstanceId: log.processInstanceId,
    processDefinitionId: log.processDefinitionId,
    processDefinitionKey: log.processDefinitionKey,
    deploymentId: log.deploymentId,
    rootProcessInstanceId: log.rootProcessInstanceId,
    tenantId: log.tenantId,
    hostname: log.hostname,
    batchId: log.batchId,
    creationLog: log.creationLog,
    failureLog: log.failureLog,
    successLog: log.successLog,
    deletionLog: log.deletionLog,
  };
}

/** The Historic Job Log group: query and count (GET and POST), one entry, its stack trace. */
export function historyJobLogRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const fromQueryString = (ctx: Context) => parseListQuery<HistoricJobLogQuery>(ctx.query, HISTORIC_JOB_LOG_QUERY);
  const fromBody = async (ctx: Context): Promise<HistoricJobLogQuery> => ({
    ...parseBodyQuery<HistoricJobLogQuery>(await readJsonObject(ctx, rest.bodyLimit), HISTORIC_JOB_LOG_QUERY),
    ...parsePage(ctx.query),
  });
  const list = async (query: HistoricJobLogQuery) => (await engine.history.logs.findJobLogs(query)).map(toHistoricJobLogDto);
  const count = async (listQuery: HistoricJobLogQuery) => ({
    count: await engine.history.logs.countJobLogs(countCriteria(listQuery)),
  });

  router.get('/history/job-log', async (ctx) => {
    ctx.body = await list(fromQueryString(ctx));
  });
  router.post('/history/job-log', async (ctx) => {
    ctx.body = await list(await fromBody(ctx));
  });
  router.get('/history/job-log/count', async (ctx) => {
    ctx.body = await count(fromQueryString(ctx));
  });
  router.post('/history/job-log/count', async (ctx) => {
    ctx.body = await count(await fromBody(ctx));
  });
  router.get('/history/job-log/:id', async (ctx) => {
    const log = await engine.history.logs.getJobLog(ctx.params.id);
    if (!log) throw new InvalidRequestException(404, `Historic job log with id ${ctx.params.id} does not exist`);
    ctx.body = toHistoricJobLogDto(log);
  });
  router.get('/history/job-log/:id/stacktrace', (ctx) => plainText(ctx, () => engine.history.logs.getJobLogStacktrace(ctx.params.id)));
}
