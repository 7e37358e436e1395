import Router from '@koa/router';
import { BadUserRequestException, NotFoundException, type IncidentQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { toIncidentDto } from '../dto/external-task-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const INCIDENT_QUERY: QuerySpec = {
  params: {
    incidentId: 'string', incidentType: 'string', incidentMessage: 'string', incidentMessageLike: 'string',
    processDefinitionId: 'string', processDefinitionKeyIn: 'stringArray', processInstanceId: 'string', executionId: 'string',
    incidentTimestampBefore: 'date', incidentTimestampAfter: 'date', activityId: 'string', failedActivityId: 'string',
    causeIncidentId: 'string', rootCauseIncidentId: 'string', configuration: 'string', tenantIdIn: 'optionalList',
    jobDefinitionIdIn: 'optionalList',
  },
  sortBy: [
    'incidentId', 'incidentMessage', 'incidentTimestamp', 'incidentType', 'executionId', 'activityId',
    'processInstanceId', 'processDefinitionId', 'causeIncidentId', 'rootCauseIncidentId', 'configuration', 'tenantId',
  ],
};

/** The Incident group: query, count, get, resolve, annotation. */
export function incidentRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;

  const parse = (query: Record<string, unknown>): IncidentQuery => {
    const { incidentId, ...parsed } = parseListQuery<IncidentQuery & { incidentId?: string }>(query, INCIDENT_QUERY);
    return incidentId === undefined ? parsed : { ...parsed, id: incidentId };
  };

  router.get('/incident', async (ctx) => {
    ctx.body = (await engine.management.findIncidents(parse(ctx.query))).map(toIncidentDto);
  });
  router.get('/incident/count', async (ctx) => {
    const query = countCriteria(parse(ctx.query));
    ctx.body = { count: await engine.management.countIncidents(query) };
  });
  router.get('/incident/:id', async (ctx) => {
    const incident = await engine.management.getIncident(ctx.params.id);
    if (!incident) throw new InvalidRequestException(404, `No matching incident with id ${ctx.params.id}`);
    ctx.body = toIncidentDto(incident);
  });
  router.delete('/incident/:id', async (ctx) => {
    try {
      await engine.management.resolveIncident(ctx.params.id);
    } catch (error) {
      // Camunda's IncidentResourceImpl: not found → 404, another bad request → 400, both InvalidRequestException.
      // Camunda builds these without the engine's exception as cause: no code.
      if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message);
      if (error instanceof BadUserRequestException) throw new InvalidRequestException(400, error.message);
      throw error;
    }
    ctx.status = 204;
  });
  router.put('/incident/:id/annotation', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const annotation = typeof body.annotation === 'string' ? body.annotation : null;
    await engine.management.setIncidentAnnotation(ctx.params.id, annotation);
    ctx.status = 204;
  });
  router.delete('/incident/:id/annotation', async (ctx) => {
    await engine.management.clearIncidentAnnotation(ctx.params.id);
    ctx.status = 204;
  });
}
