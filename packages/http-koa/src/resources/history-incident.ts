import Router from '@koa/router';
import type { Context } from 'koa';
import type { HistoricIncident, HistoricIncidentQuery } from '@trellis/core';
import { formatRestDate } from '../dto/dates.js';
import { countCriteria, givenMeansTrue, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const HISTORIC_INCIDENT_QUERY: QuerySpec = {
  params: {
    incidentId: 'string', incidentType: 'string', incidentMessage: 'string', incidentMessageLike: 'string', processDefinitionId: 'string',
    processDefinitionKey: 'string', processDefinitionKeyIn: 'stringArray', processInstanceId: 'string', executionId: 'string',
    createTimeBefore: 'date', createTimeAfter: 'date', endTimeBefore: 'date', endTimeAfter: 'date', activityId: 'string',
    failedActivityId: 'string', causeIncidentId: 'string', rootCauseIncidentId: 'string', configuration: 'string',
    historyConfiguration: 'string', open: 'boolean', resolved: 'boolean', deleted: 'boolean', tenantIdIn: 'stringList',
    withoutTenantId: 'boolean', jobDefinitionIdIn: 'stringList',
  },
  sortBy: [
    'incidentId', 'incidentMessage', 'createTime', 'endTime', 'incidentType', 'executionId', 'activityId', 'processInstanceId',
    'processDefinitionId', 'processDefinitionKey', 'causeIncidentId', 'rootCauseIncidentId', 'configuration', 'historyConfiguration',
    'tenantId', 'incidentState',
  ],
};

const date = (value: Date | null) => (value ? formatRestDate(value) : null);

/** Camunda's HistoricIncidentDto. */
export function toHistoricIncidentDto(incident: HistoricIncident) {
  return {
    id: incident.id,
    processDefinitionKey: incident.processDefinitionKey,
    processDefinitionId: incident.processDefinitionId,
    processInstanceId: incident.processInstanceId,
    executionId: incident.executionId,
    rootProcessInstanceId: incident.rootProcessInstanceId,
    createTime: formatRestDate(incident.createTime),
    endTime: date(incident.endTime),
    removalTime: date(incident.removalTime),
    incidentType: incident.incidentType,
    activityId: incident.activityId,
    failedActivityId: incident.failedActivityId,
    causeIncidentId: incident.causeIncidentId,
    rootCauseIncidentId: incident.rootCauseIncidentId,
    configuration: incident.configuration,
    historyConfiguration: incident.historyConfiguration,
    incidentMessage: incident.incidentMessage,
    tenantId: incident.tenantId,
    jobDefinitionId: incident.jobDefinitionId,
    open: incident.open,
    deleted: incident.deleted,
    resolved: incident.resolved,
    annotation: incident.annotation,
  };
}

/** The Historic Incident group: query and count (Camunda has no POST forms here). */
export function historyIncidentRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  // Camunda's HistoricIncidentQueryDto asks for open incidents whenever `open` is given.
  const fromQueryString = (ctx: Context) => givenMeansTrue(parseListQuery<HistoricIncidentQuery>(ctx.query, HISTORIC_INCIDENT_QUERY), ['open']);

  router.get('/history/incident', async (ctx) => {
    ctx.body = (await engine.history.incidents.find(fromQueryString(ctx))).map(toHistoricIncidentDto);
  });
  router.get('/history/incident/count', async (ctx) => {
    const query = countCriteria(fromQueryString(ctx));
    ctx.body = { count: await engine.history.incidents.count(query) };
  });
}
