import Router from '@koa/router';
import { NotFoundException, type Batch, type BatchQuery, type BatchStatistics, type BatchStatisticsQuery } from '@trellis/core';
import { readJsonObject, flag } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { countCriteria, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { looseFlag, type RestContext } from './context.js';

const BATCH_PARAMS = { batchId: 'string', type: 'string', tenantIdIn: 'optionalList', withoutTenantId: 'boolean', suspended: 'boolean' } as const;

/** Camunda's BatchQueryDto (the 7.22 OpenAPI lists more filters, which BatchQueryDto does not read). */
const BATCH_QUERY: QuerySpec = { params: { ...BATCH_PARAMS }, sortBy: ['batchId', 'tenantId'] };

/** Camunda's BatchStatisticsQueryDto. */
const BATCH_STATISTICS_QUERY: QuerySpec = {
  params: { ...BATCH_PARAMS, createdBy: 'string', startedBefore: 'date', startedAfter: 'date', withFailures: 'boolean', withoutFailures: 'boolean' },
  sortBy: ['batchId', 'tenantId', 'startTime'],
};

/** BatchDto. */
export const toBatchDto = (batch: Batch) => ({
  id: batch.id,
  type: batch.type,
  totalJobs: batch.totalJobs,
  jobsCreated: batch.jobsCreated,
  batchJobsPerSeed: batch.batchJobsPerSeed,
  invocationsPerBatchJob: batch.invocationsPerBatchJob,
  seedJobDefinitionId: batch.seedJobDefinitionId,
  monitorJobDefinitionId: batch.monitorJobDefinitionId,
  batchJobDefinitionId: batch.batchJobDefinitionId,
  suspended: batch.suspended,
  tenantId: batch.tenantId,
  createUserId: batch.createUserId,
  startTime: formatRestDate(batch.startTime),
  executionStartTime: batch.executionStartTime ? formatRestDate(batch.executionStartTime) : null,
});

const toBatchStatisticsDto = (statistics: BatchStatistics) => ({
  ...toBatchDto(statistics),
  remainingJobs: statistics.remainingJobs,
  completedJobs: statistics.completedJobs,
  failedJobs: statistics.failedJobs,
});

/** Unknown batches on suspend/delete: 400 with Camunda's `Unable to … batch with id '<id>'`. */
async function unableTo(action: string, id: string, call: () => Promise<void>): Promise<void> {
  try {
    await call();
  } catch (error) {
    if (error instanceof NotFoundException) throw new InvalidRequestException(400, `Unable to ${action} batch with id '${id}'`, 'InvalidRequestException', error.code);
    throw error;
  }
}

/** The Batch group: query, count, get, suspend/activate, delete, statistics. */
export function batchRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/batch', async (ctx) => {
    ctx.body = (await engine.batch.find(parseListQuery<BatchQuery>(ctx.query, BATCH_QUERY))).map(toBatchDto);
  });
  router.get('/batch/count', async (ctx) => {
    const query = countCriteria(parseListQuery<BatchQuery>(ctx.query, BATCH_QUERY));
    ctx.body = { count: await engine.batch.count(query) };
  });
  router.get('/batch/statistics', async (ctx) => {
    ctx.body = (await engine.batch.statistics(parseListQuery<BatchStatisticsQuery>(ctx.query, BATCH_STATISTICS_QUERY))).map(toBatchStatisticsDto);
  });
  router.get('/batch/statistics/count', async (ctx) => {
    const query = countCriteria(parseListQuery<BatchStatisticsQuery>(ctx.query, BATCH_STATISTICS_QUERY));
    ctx.body = { count: await engine.batch.countStatistics(query) };
  });
  router.get('/batch/:id', async (ctx) => {
    ctx.body = toBatchDto(await notFoundAs404(() => engine.batch.get(ctx.params.id)));
  });
  router.put('/batch/:id/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const suspended = flag(body.suspended);
    await unableTo(suspended ? 'suspend' : 'activate', ctx.params.id, () => engine.batch.setSuspended(ctx.params.id, suspended));
    ctx.status = 204;
  });
  router.delete('/batch/:id', async (ctx) => {
    // A JAX-RS boolean there: `true` in any case.
    const cascade = looseFlag(ctx, 'cascade');
    await unableTo('delete', ctx.params.id, () => engine.batch.delete(ctx.params.id, cascade));
    ctx.status = 204;
  });
}
