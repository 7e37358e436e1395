import Router from '@koa/router';
import { idList, readJsonObject, flag, integer, dateValue } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { toJobDto } from '../dto/job-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { toBatchDto } from './batch.js';
import { type RestContext } from './context.js';
import { historicQueryOf } from './historic-selection.js';

/** JAX-RS @DefaultValue("true") boolean: absent is true, otherwise Boolean.valueOf (only "true", any case). */
const booleanParam = (value: string | string[] | undefined, fallback: boolean) => {
  if (value === undefined) return fallback;
  return (Array.isArray(value) ? value[0] : value)?.toLowerCase() === 'true';
};

/** The History Cleanup group, and POST /history/process-instance/set-removal-time (Camunda's removal time batch). */
export function historyCleanupRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.post('/history/cleanup', async (ctx) => {
    ctx.body = toJobDto(await engine.historyCleanup.cleanUpHistoryAsync(booleanParam(ctx.query.immediatelyDue, true)));
  });
  router.get('/history/cleanup/job', async (ctx) => {
    const job = await engine.historyCleanup.findHistoryCleanupJob();
    if (!job) throw new InvalidRequestException(404, 'History cleanup job does not exist', 'RestException');
    ctx.body = toJobDto(job);
  });
  router.get('/history/cleanup/jobs', async (ctx) => {
    const jobs = await engine.historyCleanup.findHistoryCleanupJobs();
    if (jobs.length === 0) throw new InvalidRequestException(404, 'History cleanup jobs are empty', 'RestException');
    ctx.body = jobs.map(toJobDto);
  });
  router.get('/history/cleanup/configuration', async (ctx) => {
    const configuration = await engine.historyCleanup.configuration();
    ctx.body = {
      batchWindowStartTime: configuration.batchWindowStartTime ? formatRestDate(configuration.batchWindowStartTime) : null,
      batchWindowEndTime: configuration.batchWindowEndTime ? formatRestDate(configuration.batchWindowEndTime) : null,
      enabled: configuration.enabled,
    };
  });
  // SetRemovalTimeToHistoricProcessInstancesDto; engine errors (mode, selection) stay BadUserRequestException 400s.
  router.post('/history/process-instance/set-removal-time', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const ids = idList(body.historicProcessInstanceIds);
    const batch = await engine.historyCleanup.setRemovalTimeAsync({
      absoluteRemovalTime: dateValue(body.absoluteRemovalTime),
      clearedRemovalTime: flag(body.clearedRemovalTime),
      calculatedRemovalTime: flag(body.calculatedRemovalTime),
      historicProcessInstanceIds: ids ? ids.filter((id): id is string => id !== null) : null,
      historicProcessInstanceQuery: historicQueryOf(body),
      hierarchical: flag(body.hierarchical),
      updateInChunks: flag(body.updateInChunks),
      updateChunkSize: integer(body.updateChunkSize),
    });
    ctx.body = toBatchDto(batch);
  });
}


