import type Router from '@koa/router';
import type {
  CleanableHistoricProcessInstanceReportQuery,
  CleanableHistoricProcessInstanceReportResult,
  HistoricActivityStatistics,
  HistoricActivityStatisticsQuery,
} from '@trellis/core';
import { countCriteria, parseListQuery, parseQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const CLEANABLE_REPORT_QUERY: QuerySpec = {
  params: { processDefinitionIdIn: 'stringList', processDefinitionKeyIn: 'stringList', tenantIdIn: 'stringList', withoutTenantId: 'boolean', compact: 'boolean' },
  sortBy: ['finished'],
};

const ACTIVITY_STATISTICS_QUERY: QuerySpec = {
  params: {
    canceled: 'boolean', finished: 'boolean', completeScope: 'boolean', incidents: 'boolean', startedBefore: 'date', startedAfter: 'date',
    finishedBefore: 'date', finishedAfter: 'date', processInstanceIdIn: 'stringList',
  },
  sortBy: ['activityId'],
};

/** Camunda's CleanableHistoricProcessInstanceReportResultDto. */
export function toCleanableReportDto(row: CleanableHistoricProcessInstanceReportResult) {
  return {
    processDefinitionId: row.processDefinitionId,
    processDefinitionKey: row.processDefinitionKey,
    processDefinitionName: row.processDefinitionName,
    processDefinitionVersion: row.processDefinitionVersion,
    historyTimeToLive: row.historyTimeToLive,
    finishedProcessInstanceCount: row.finishedProcessInstanceCount,
    cleanableProcessInstanceCount: row.cleanableProcessInstanceCount,
    tenantId: row.tenantId,
  };
}

/** Camunda's HistoricActivityStatisticsDto. */
export function toHistoricActivityStatisticsDto(stats: HistoricActivityStatistics) {
  return {
    id: stats.id,
    instances: stats.instances,
    canceled: stats.canceled,
    finished: stats.finished,
    completeScope: stats.completeScope,
    openIncidents: stats.openIncidents,
    resolvedIncidents: stats.resolvedIncidents,
    deletedIncidents: stats.deletedIncidents,
  };
}

/** The Historic Process Definition group: the cleanable instance report and activity statistics. */
export function historyProcessDefinitionRoutes(router: Router, rest: RestContext): void {
  const { reports } = rest.engine.history;
  const reportQuery = (query: Record<string, unknown>) => parseListQuery<CleanableHistoricProcessInstanceReportQuery>(query, CLEANABLE_REPORT_QUERY);

  router.get('/history/process-definition/cleanable-process-instance-report', async (ctx) => {
    ctx.body = (await reports.cleanableProcessInstances(reportQuery(ctx.query))).map(toCleanableReportDto);
  });

  router.get('/history/process-definition/cleanable-process-instance-report/count', async (ctx) => {
    const query = countCriteria(reportQuery(ctx.query));
    ctx.body = { count: await reports.countCleanableProcessInstances(query) };
  });

  router.get('/history/process-definition/:id/statistics', async (ctx) => {
    // Camunda lists every activity: paging parameters are not read here.
    const { params, sorting } = parseQuery(ctx.query, ACTIVITY_STATISTICS_QUERY);
    const query = { ...params, sorting, processDefinitionId: ctx.params.id } as HistoricActivityStatisticsQuery;
    ctx.body = (await reports.activityStatistics(query)).map(toHistoricActivityStatisticsDto);
  });
}
