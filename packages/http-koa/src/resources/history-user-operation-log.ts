import Router from '@koa/router';
import type { Context } from 'koa';
import type { UserOperationLogEntry, UserOperationLogQuery } from '@trellis/core';
import { readJsonObject, text } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { countCriteria, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const USER_OPERATION_LOG_QUERY: QuerySpec = {
  params: {
    deploymentId: 'string', processDefinitionId: 'string', processDefinitionKey: 'string', processInstanceId: 'string',
    executionId: 'string', caseDefinitionId: 'string', caseInstanceId: 'string', caseExecutionId: 'string', taskId: 'string',
    externalTaskId: 'string', batchId: 'string', jobId: 'string', jobDefinitionId: 'string', userId: 'string',
    operationId: 'string', operationType: 'string', entityType: 'string', entityTypeIn: 'stringArray', category: 'string',
    categoryIn: 'stringArray', property: 'string', afterTimestamp: 'date', beforeTimestamp: 'date',
  },
  sortBy: ['timestamp'],
};

/** Camunda's UserOperationLogEntryDto. */
export function toUserOperationLogEntryDto(entry: UserOperationLogEntry) {
  return {
    id: entry.id,
    deploymentId: entry.deploymentId,
    processDefinitionId: entry.processDefinitionId,
    processDefinitionKey: entry.processDefinitionKey,
    processInstanceId: entry.processInstanceId,
    executionId: entry.executionId,
    caseDefinitionId: entry.caseDefinitionId,
    caseInstanceId: entry.caseInstanceId,
    caseExecutionId: entry.caseExecutionId,
    taskId: entry.taskId,
    externalTaskId: entry.externalTaskId,
    batchId: entry.batchId,
    jobId: entry.jobId,
    jobDefinitionId: entry.jobDefinitionId,
    userId: entry.userId,
    timestamp: formatRestDate(entry.timestamp),
    operationId: entry.operationId,
    operationType: entry.operationType,
    entityType: entry.entityType,
    property: entry.property,
    orgValue: entry.orgValue,
    newValue: entry.newValue,
    removalTime: entry.removalTime ? formatRestDate(entry.removalTime) : null,
    rootProcessInstanceId: entry.rootProcessInstanceId,
    category: entry.category,
    annotation: entry.annotation,
  };
}

/** The Historic User Operation Log group: query, count, set and clear an operation's annotation. */
export function historyUserOperationLogRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;
  const fromQueryString = (ctx: Context) => parseListQuery<UserOperationLogQuery>(ctx.query, USER_OPERATION_LOG_QUERY);

  router.get('/history/user-operation', async (ctx) => {
    ctx.body = (await engine.history.userOperations.find(fromQueryString(ctx))).map(toUserOperationLogEntryDto);
  });
  router.get('/history/user-operation/count', async (ctx) => {
    const query = countCriteria(fromQueryString(ctx));
    ctx.body = { count: await engine.history.userOperations.count(query) };
  });
  router.put('/history/user-operation/:operationId/set-annotation', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const annotation = text(body.annotation);
    await engine.history.userOperations.setAnnotation(ctx.params.operationId, annotation);
    ctx.status = 204;
  });
  router.put('/history/user-operation/:operationId/clear-annotation', async (ctx) => {
    await engine.history.userOperations.clearAnnotation(ctx.params.operationId);
    ctx.status = 204;
  });
}
