import Router from '@koa/router';
import type { StatisticsOptions } from '@trellis/core';
import type { Context } from 'koa';
import { toActivityStatisticsDto, toProcessDefinitionStatisticsDto } from '../dto/statistics-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { looseFlag, type RestContext } from './context.js';
import { DEFINITION_PATHS, resolveDefinitionId } from './process-definition.js';

const onlyOne = (a: string, b: string) => `Only one of the query parameter ${a} or ${b} can be set.`;

/**
 * GET /process-definition/statistics and GET …/statistics in the three single-definition path forms.
 * Mounted before the definition routes so that `statistics` is not taken for an id.
 */
export function processDefinitionStatisticsRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/process-definition/statistics', async (ctx) => {
    const present = presentParams(ctx);
    if (present.incidents && present.incidentsForType) throw new InvalidRequestException(400, onlyOne('includeIncidents', 'includeIncidentsForType'));
    if (present.incidents && present.rootIncidents) throw new InvalidRequestException(400, onlyOne('includeIncidents', 'includeRootIncidents'));
    if (present.rootIncidents && present.incidentsForType) throw new InvalidRequestException(400, onlyOne('includeRootIncidents', 'includeIncidentsForType'));
    const statistics = await engine.statistics.getProcessDefinitionStatistics({ ...statisticsOptions(ctx), rootIncidents: looseFlag(ctx, 'rootIncidents') });
    ctx.body = statistics.map(toProcessDefinitionStatisticsDto);
  });

  for (const path of DEFINITION_PATHS) {
    router.get(`${path}/statistics`, async (ctx) => {
      // Camunda resolves the key (its sub-resource) before the resource method checks its parameters.
      const id = await resolveDefinitionId(rest, ctx);
      const present = presentParams(ctx);
      if (present.incidents && present.incidentsForType) throw new InvalidRequestException(400, onlyOne('includeIncidents', 'includeIncidentsForType'));
      const statistics = await engine.statistics.getActivityStatistics(id, statisticsOptions(ctx));
      ctx.body = statistics.map(toActivityStatisticsDto);
    });
  }
}

/** Which of the (JAX-RS Boolean / String) params were sent at all: Camunda's exclusivity checks test for null. */
function presentParams(ctx: Context) {
  const has = (name: string) => ctx.query[name] !== undefined;
  return { incidents: has('incidents'), incidentsForType: has('incidentsForType'), rootIncidents: has('rootIncidents') };
}

function statisticsOptions(ctx: Context): StatisticsOptions {
  const type = ctx.query.incidentsForType;
  return {
    failedJobs: looseFlag(ctx, 'failedJobs'),
    incidents: looseFlag(ctx, 'incidents'),
    incidentsForType: type === undefined ? undefined : String(Array.isArray(type) ? type[0] : type),
  };
}
