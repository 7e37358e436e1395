import Router from '@koa/router';
import type { HistoricIdentityLinkLog, HistoricIdentityLinkLogQuery } from '@trellis/core';
import { formatRestDate } from '../dto/dates.js';
import { countCriteria, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const IDENTITY_LINK_LOG_QUERY: QuerySpec = {
  params: {
    type: 'string', userId: 'string', groupId: 'string', dateBefore: 'date', dateAfter: 'date', taskId: 'string',
    processDefinitionId: 'string', processDefinitionKey: 'string', operationType: 'string', assignerId: 'string',
    tenantIdIn: 'stringList', withoutTenantId: 'boolean',
  },
  sortBy: ['time', 'type', 'userId', 'groupId', 'taskId', 'processDefinitionId', 'processDefinitionKey', 'operationType', 'assignerId', 'tenantId'],
};

/** Camunda's HistoricIdentityLinkLogDto. */
export function toHistoricIdentityLinkLogDto(log: HistoricIdentityLinkLog) {
  return {
    id: log.id,
    time: formatRestDate(log.time),
    type: log.type,
    userId: log.userId,
    groupId: log.groupId,
    taskId: log.taskId,
    processDefinitionId: log.processDefinitionId,
    processDefinitionKey: log.processDefinitionKey,
    operationType: log.operationType,
    assignerId: log.assignerId,
    tenantId: log.tenantId,
    removalTime: log.removalTime ? formatRestDate(log.removalTime) : null,
    rootProcessInstanceId: log.rootProcessInstanceId,
  };
}

/** The Historic Identity Link Log group: query and count (GET only, as in Camunda). */
export function historyIdentityLinkLogRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  router.get('/history/identity-link-log', async (ctx) => {
    const query = parseListQuery<HistoricIdentityLinkLogQuery>(ctx.query, IDENTITY_LINK_LOG_QUERY);
    ctx.body = (await engine.history.tasks.findIdentityLinkLogs(query)).map(toHistoricIdentityLinkLogDto);
  });
  router.get('/history/identity-link-log/count', async (ctx) => {
    const query = countCriteria(parseListQuery<HistoricIdentityLinkLogQuery>(ctx.query, IDENTITY_LINK_LOG_QUERY));
    ctx.body = { count: await engine.history.tasks.countIdentityLinkLogs(query) };
  });
}
