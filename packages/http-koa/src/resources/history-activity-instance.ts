import Router from '@koa/router';
import type { Context } from 'koa';
import type { HistoricActivityInstance, HistoricActivityInstanceQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const HISTORIC_ACTIVITY_INSTANCE_QUERY: QuerySpec = {
  params: {
    activityInstanceId: 'string', processInstanceId: 'string', processDefinitionId: 'string', executionId: 'string',
    activityId: 'string', activityName: 'string', activityNameLike: 'string', activityType: 'string', taskAssignee: 'string', finished: 'boolean',
    unfinished: 'boolean', canceled: 'boolean', completeScope: 'boolean', startedBefore: 'date', startedAfter: 'date',
    finishedBefore: 'date', finishedAfter: 'date', tenantIdIn: 'optionalList', withoutTenantId: 'boolean',
  },
  sortBy: [
    'activityInstanceId', 'instanceId', 'executionId', 'activityId', 'activityName', 'activityType',
    'startTime', 'endTime', 'duration', 'definitionId', 'occurrence', 'tenantId',
  ],
};

/** Camunda's HistoricActivityInstanceDto. */
export function toHistoricActivityInstanceDto(instance: HistoricActivityInstance) {
  return {
    id: instance.id,
    parentActivityInstanceId: instance.parentActivityInstanceId,
    activityId: instance.activityId,
    activityName: instance.activityName,
    activityType: instance.activityType,
    processDefinitionKey: instance.processDefinitionKey,
    processDefinitionId: instance.processDefinitionId,
    processInstanceId: instance.processInstanceId,
    executionId: instance.executionId,
    taskId: instance.taskId,
    assignee: instance.assignee,
    calledProcessInstanceId: instance.calledProcessInstanceId,
    calledCaseInstanceId: null,
    startTime: formatRestDate(instance.startTime),
    endTime: instance.endTime ? formatRestDate(instance.endTime) : null,
    durationInMillis: instance.durationInMillis,
    canceled: instance.canceled,
    completeScope: instance.completeScope,
    tenantId: instance.tenantId,
    removalTime: instance.removalTime ? formatRestDate(instance.removalTime) : null,
    rootProcessInstanceId: instance.rootProcessInstanceId,
  };
}

/** The Historic Activity Instance group: query, count and get. */
export function historyActivityInstanceRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const fromQueryString = (ctx: Context) => parseListQuery<HistoricActivityInstanceQuery>(ctx.query, HISTORIC_ACTIVITY_INSTANCE_QUERY);
  const fromBody = async (ctx: Context): Promise<HistoricActivityInstanceQuery> => ({
    ...parseBodyQuery<HistoricActivityInstanceQuery>(await readJsonObject(ctx, rest.bodyLimit), HISTORIC_ACTIVITY_INSTANCE_QUERY),
    ...parsePage(ctx.query),
  });
  const list = async (query: HistoricActivityInstanceQuery) => (await engine.history.findHistoricActivityInstances(query)).map(toHistoricActivityInstanceDto);
  const count = async (listQuery: HistoricActivityInstanceQuery) => ({
    count: await engine.history.countHistoricActivityInstances(countCriteria(listQuery)),
  });

  router.get('/history/activity-instance', async (ctx) => {
    ctx.body = await list(fromQueryString(ctx));
  });
  router.post('/history/activity-instance', async (ctx) => {
    ctx.body = await list(await fromBody(ctx));
  });
  router.get('/history/activity-instance/count', async (ctx) => {
    ctx.body = await count(fromQueryString(ctx));
  });
  router.post('/history/activity-instance/count', async (ctx) => {
    ctx.body = await count(await fromBody(ctx));
  });
  router.get('/history/activity-instance/:id', async (ctx) => {
    const instance = await engine.history.getHistoricActivityInstance(ctx.params.id);
    if (!instance) throw new InvalidRequestException(404, `Historic activity instance with id '${ctx.params.id}' does not exist`);
    ctx.body = toHistoricActivityInstanceDto(instance);
  });
}
