import Router from '@koa/router';
import {
  BadUserRequestException,
  type CleanableHistoricBatchReportQuery,
  type CleanableHistoricBatchReportResult,
  type HistoricBatch,
  type HistoricBatchQuery,
} from '@trellis/core';
import { idList, mapNested, readJsonObject, flag, dateValue } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { toBatchDto } from './batch.js';
import { type RestContext } from './context.js';

/** Camunda's HistoricBatchQueryDto (query string of GET /history/batch, JSON of set-removal-time's historicBatchQuery). */
const HISTORIC_BATCH_QUERY: QuerySpec = {
  params: { batchId: 'string', type: 'string', completed: 'boolean', tenantIdIn: 'optionalList', withoutTenantId: 'boolean' },
  sortBy: ['batchId', 'startTime', 'endTime', 'tenantId'],
};

/** Camunda's CleanableHistoricBatchReportDto. */
const CLEANABLE_REPORT_QUERY: QuerySpec = { params: {}, sortBy: ['finished'] };

const date = (value: Date | null) => (value ? formatRestDate(value) : null);

/** HistoricBatchDto. */
const toHistoricBatchDto = (batch: HistoricBatch) => ({
  id: batch.id,
  type: batch.type,
  totalJobs: batch.totalJobs,
  batchJobsPerSeed: batch.batchJobsPerSeed,
  invocationsPerBatchJob: batch.invocationsPerBatchJob,
  seedJobDefinitionId: batch.seedJobDefinitionId,
  monitorJobDefinitionId: batch.monitorJobDefinitionId,
  batchJobDefinitionId: batch.batchJobDefinitionId,
  tenantId: batch.tenantId,
  createUserId: batch.createUserId,
  startTime: date(batch.startTime),
  endTime: date(batch.endTime),
  removalTime: date(batch.removalTime),
  executionStartTime: date(batch.executionStartTime),
});

/** CleanableHistoricBatchReportResultDto. */
const toReportDto = (result: CleanableHistoricBatchReportResult) => ({
  batchType: result.batchType,
  historyTimeToLive: result.historyTimeToLive,
  finishedBatchesCount: result.finishedBatchesCount,
  cleanableBatchesCount: result.cleanableBatchesCount,
});

/** The Historic Batch group: query, count, get, delete, the cleanable report and set-removal-time. */
export function historyBatchRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/history/batch', async (ctx) => {
    ctx.body = (await engine.historicBatches.find(parseListQuery<HistoricBatchQuery>(ctx.query, HISTORIC_BATCH_QUERY))).map(toHistoricBatchDto);
  });
  router.get('/history/batch/count', async (ctx) => {
    const query = countCriteria(parseListQuery<HistoricBatchQuery>(ctx.query, HISTORIC_BATCH_QUERY));
    ctx.body = { count: await engine.historicBatches.count(query) };
  });
  router.get('/history/batch/cleanable-batch-report', async (ctx) => {
    const query = parseListQuery<CleanableHistoricBatchReportQuery>(ctx.query, CLEANABLE_REPORT_QUERY);
    ctx.body = (await engine.historicBatches.cleanableReport(query)).map(toReportDto);
  });
  router.get('/history/batch/cleanable-batch-report/count', async (ctx) => {
    // Camunda builds the report's query here too (its sorting parameters checked), though it counts every row.
    parseListQuery<CleanableHistoricBatchReportQuery>(ctx.query, CLEANABLE_REPORT_QUERY);
    ctx.body = { count: await engine.historicBatches.cleanableReportCount() };
  });
  // SetRemovalTimeToHistoricBatchesDto; engine errors (mode, selection) stay BadUserRequestException 400s.
  router.post('/history/batch/set-removal-time', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const ids = idList(body.historicBatchIds);
    const historicBatchQuery = mapNested(body.historicBatchQuery, (dto) => parseBodyQuery<HistoricBatchQuery>(dto, HISTORIC_BATCH_QUERY));
    const batch = await engine.historicBatches.setRemovalTimeAsync({
      absoluteRemovalTime: dateValue(body.absoluteRemovalTime),
      clearedRemovalTime: flag(body.clearedRemovalTime),
      calculatedRemovalTime: flag(body.calculatedRemovalTime),
      historicBatchIds: (ids as string[] | null | undefined) ?? null,
      historicBatchQuery,
    });
    ctx.body = toBatchDto(batch);
  });
  router.get('/history/batch/:id', async (ctx) => {
    ctx.body = toHistoricBatchDto(await notFoundAs404(() => engine.historicBatches.get(ctx.params.id)));
  });
  // HistoricBatchResourceImpl: an engine BadUserRequestException (unknown id) becomes a 400 InvalidRequestException.
  router.delete('/history/batch/:id', async (ctx) => {
    try {
      await engine.historicBatches.delete(ctx.params.id);
    } catch (error) {
      if (error instanceof BadUserRequestException) throw new InvalidRequestException(400, `Unable to delete historic batch with id '${ctx.params.id}'`, 'InvalidRequestException', error.code);
      throw error;
    }
    ctx.status = 204;
  });
}
