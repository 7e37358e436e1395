import { injectable } from 'inversify';
import { sql } from 'kysely';
import { Resources } from '../authorization/resources.js';
import type { CommandContext } from '../command/command-context.js';
import { createJob } from '../jobs/create-job.js';
import { DEFAULT_JOB_RETRIES, type Job } from '../jobs/job.js';
import { endFailedJobIncident } from '../jobs/job-failure.js';
import { JobLog } from './job-log.js';
import { TaskHistory } from './task-history.js';
import type { JobHandler } from '../jobs/job-handler.js';
import { deleteHistoricBatch } from '../services/batch/historic-batch-events.js';
import { currentOrNextBatchWindow, isBatchWindowConfigured, isWithinBatchWindow, nextBatchWindowStart } from './batch-window.js';
import { INHERITED_THROUGH, INSTANCE_TABLES } from './removal-time.js';
import { deleteAuthorizationsOn } from '../services/authorization/default-authorizations.js';

/** Camunda's HistoryCleanupJobHandler.TYPE. */
export const HISTORY_CLEANUP = 'history-cleanup';

/** Camunda's HistoryCleanupJobHandlerConfiguration: backoff 10 s doubling per empty run, at most an hour. */
const START_DELAY_SECONDS = 10;
const MAX_DELAY_SECONDS = 60 * 60;
/** Camunda's historyCleanupBatchThreshold: an end-time-based run that found this many instances runs again at once. */
const BATCH_THRESHOLD = 10;

/** The job's configuration, as Camunda stores it (JSON). */
export interface HistoryCleanupJobConfiguration {
  countEmptyRuns: number;
  immediatelyDue: boolean;
  /** The minutes (0..59) of removal or end time this job cleans, when several jobs share the work. */
  minuteFrom: number;
  minuteTo: number;
}

/** Every history table with a removal time of its rows' own: the historic instances and their rows. */
const HISTORIC_TABLES = ['trellis_hi_procinst', ...INSTANCE_TABLES.map(([table]) => table)] as const;

/**
 * Instance-keyed tables and their process instance column, the historic instances last; the operation
 * log only by its removal time, as in Camunda.
 */
const BY_INSTANCE: ReadonlyArray<readonly [(typeof HISTORIC_TABLES)[number], string]> = [
  ...INSTANCE_TABLES.filter(([table]) => table !== 'trellis_hi_op_log'),
  ['trellis_hi_procinst', 'id'],
];

export function parseCleanupConfiguration(text: string | null): HistoryCleanupJobConfiguration {
  const parsed = text ? (JSON.parse(text) as Partial<HistoryCleanupJobConfiguration>) : {};
  return { countEmptyRuns: parsed.countEmptyRuns ?? 0, immediatelyDue: parsed.immediatelyDue ?? false, minuteFrom: parsed.minuteFrom ?? 0, minuteTo: parsed.minuteTo ?? 59 };
}

const serialize = (config: HistoryCleanupJobConfiguration) =>
  JSON.stringify({ countEmptyRuns: config.countEmptyRuns, immediatelyDue: config.immediatelyDue, minuteFrom: config.minuteFrom, minuteTo: config.minuteTo });

/** The minute ranges of `degree` jobs sharing the hour (Camunda's HistoryCleanupHelper.listMinuteChunks). */
export function minuteChunks(degree: number): Array<[number, number]> {
  const size = Math.floor(60 / degree);
  return Array.from({ length: degree }, (_, i) => [i * size, i === degree - 1 ? 59 : (i + 1) * size - 1] as [number, number]);
}

/** The history cleanup jobs, in creation order. */
export async function findCleanupJobs(ctx: CommandContext): Promise<Job[]> {
  const rows = await ctx.trx.selectFrom('trellis_job').select('id').where('handler_type', '=', HISTORY_CLEANUP).orderBy('create_time').orderBy('id').execute();
  const jobs: Job[] = [];
  for (const row of rows) {
    const job = await ctx.jobs.findById(row.id);
    if (job) jobs.push(job);
  }
  return jobs;
}

/** When a job with this immediatelyDue runs: now, or at the current or next window's start. */
function dueDateOf(ctx: CommandContext, immediatelyDue: boolean): Date | null {
  const now = ctx.clock.now();
  if (immediatelyDue) return now;
  return currentOrNextBatchWindow(now, ctx.config.historyCleanup)?.start ?? null;
}

/**
 * Camunda's HistoryCleanupCmd: creates the cleanup jobs (one per degree of parallelism) or
 * reconfigures them — each with its minute range, its retries reset (a failed one's incident
 * resolved), due now or at the current or next window's start; missing ones created, surplus ones
 * deleted. Without anything to schedule them by (not immediately due, no batch window) existing jobs
 * are suspended. Returns the jobs as they are now.
 */
export async function scheduleHistoryCleanup(ctx: CommandContext, immediatelyDue: boolean): Promise<Job[]> {
  const config = ctx.config.historyCleanup;
  const willBeScheduled = immediatelyDue || isBatchWindowConfigured(config);
  const existing = await findCleanupJobs(ctx);
  if (!willBeScheduled) {
    for (const job of existing) await ctx.jobs.reschedule(job, { dueDate: null, handlerConfiguration: job.handlerConfiguration, suspended: true });
    return findCleanupJobs(ctx);
  }
  const dueDate = dueDateOf(ctx, immediatelyDue);
  const chunks = minuteChunks(config.degreeOfParallelism);
  for (const [index, [minuteFrom, minuteTo]] of chunks.entries()) {
    const handlerConfiguration = serialize({ countEmptyRuns: 0, immediatelyDue, minuteFrom, minuteTo });
    const job = existing[index];
    if (!job) {
      await createJob(ctx, { type: 'timer', handlerType: HISTORY_CLEANUP, handlerConfiguration, dueDate });
      continue;
    }
    await ctx.jobs.reschedule(job, { dueDate, handlerConfiguration, suspended: false, retries: DEFAULT_JOB_RETRIES });
    if (job.retries === 0) await endFailedJobIncident(ctx, job.id);
  }
  for (const surplus of existing.slice(chunks.length)) {
    await ctx.jobs.delete(surplus);
    JobLog.deleted(ctx, surplus);
  }
  if (existing.length > 0) ctx.emitAfterCommit('job.created', { jobId: existing[0]!.id, dueDate });
  return findCleanupJobs(ctx);
}

/**
 * history-cleanup: removes history that is due (removalTimeBased: rows whose removal time passed;
 * endTimeBased: finished instances and batches past end time + their time to live), then reschedules itself as Camunda's HistoryCleanupSchedulerCmd does.
 */
@injectable()
export class HistoryCleanupJobHandler implements JobHandler {
  readonly type = HISTORY_CLEANUP;

  async execute(ctx: CommandContext, job: Job): Promise<'kept'> {
    const config = ctx.config.historyCleanup;
    const configuration = parseCleanupConfiguration(job.handlerConfiguration);
    const now = ctx.clock.now();
    let rescheduleNow = false;
    if (configuration.immediatelyDue || isWithinBatchWindow(now, config)) {
      const run = config.strategy === 'removalTimeBased' ? await cleanByRemovalTime(ctx, configuration, now) : await cleanByEndTime(ctx, configuration, now);
      rescheduleNow = run.full;
      await reportRemoved(ctx, run.removed, now);
    }
    await reschedule(ctx, job, configuration, rescheduleNow, now);
    return 'kept';
  }
}

/** What one cleanup run removed, and whether it found more than it could (run again at once). */
interface CleanupRun {
  full: boolean;
  removed: { processInstances: number; batches: number; taskMetrics: number };
}

/** Camunda's HistoryCleanupSchedulerCmd.reportMetrics: what a run removed goes to the meter log at once. */
async function reportRemoved(ctx: CommandContext, removed: CleanupRun['removed'], timestamp: Date): Promise<void> {
  const counts: Array<[string, number]> = [
    ['history-cleanup-removed-process-instances', removed.processInstances],
    ['history-cleanup-removed-batch-operations', removed.batches],
    ['history-cleanup-removed-task-metrics', removed.taskMetrics],
  ];
  const entries = counts.filter(([, value]) => value > 0).map(([name, value]) => ({ id: ctx.ids.next(), name, reporter: ctx.config.hostname, value, timestamp }));
  await ctx.meterLog.insertAll(entries);
}

async function reschedule(ctx: CommandContext, job: Job, configuration: HistoryCleanupJobConfiguration, rescheduleNow: boolean, now: Date): Promise<void> {
  const config = ctx.config.historyCleanup;
  // A successful run resets the retries and clears the exception (Camunda's EverLivingJobEntity.postExecute).
  const save = (dueDate: Date | null, countEmptyRuns: number, suspended = false) =>
    ctx.jobs.reschedule(job, { dueDate, handlerConfiguration: serialize({ ...configuration, countEmptyRuns }), suspended, retries: DEFAULT_JOB_RETRIES });
  if (rescheduleNow) return save(now, 0);
  if (isWithinBatchWindow(now, config)) {
    const delay = Math.min(2 ** configuration.countEmptyRuns * START_DELAY_SECONDS, MAX_DELAY_SECONDS);
    const next = new Date(now.getTime() + delay * 1000);
    if (isWithinBatchWindow(next, config)) return save(next, configuration.countEmptyRuns + 1);
  }
  const nextWindow = nextBatchWindowStart(now, config);
  // Nothing left to do and no window to wait for: the job sleeps until the next POST /history/cleanup,
  // suspended with its due date kept (HistoryCleanupSchedulerCmd.suspendJob).
  return nextWindow ? save(nextWindow, 0) : save(job.dueDate, 0, true);
}

/** Minutes of an epoch-milliseconds column, for jobs sharing the work. */
const minuteOf = (column: string) => sql<number>`(${sql.ref(column)} / 60000) % 60`;

/**
 * Up to batchSize rows per table whose removal time passed; true when a table had more (run again at
 * once). The historic process instances due go first with the rows that inherit their removal time
 * (inheritedRemovalTime: rows without one of their own).
 */
async function cleanByRemovalTime(ctx: CommandContext, configuration: HistoryCleanupJobConfiguration, now: Date): Promise<CleanupRun> {
  const { batchSize } = ctx.config.historyCleanup;
  const time = now.getTime();
  const inMinutes = configuration.minuteFrom > 0 || configuration.minuteTo < 59;
  const due = (table: (typeof HISTORIC_TABLES)[number] | 'trellis_hi_batch' | 'trellis_authorization') => {
    const select = ctx.trx.selectFrom(table).select('id').where('removal_time', '<=', time);
    return (inMinutes ? select.where(minuteOf('removal_time'), '>=', configuration.minuteFrom).where(minuteOf('removal_time'), '<=', configuration.minuteTo) : select).limit(batchSize);
  };
  const instances = (await due('trellis_hi_procinst').execute()).map((row) => row.id);
  let full = instances.length >= batchSize;
  if (instances.length > 0) {
    for (const [table, column] of Object.entries(INHERITED_THROUGH) as Array<[keyof typeof INHERITED_THROUGH, string]>) {
      await ctx.trx.deleteFrom(table).where(sql.ref(column), 'in', instances).where('removal_time', 'is', null).execute();
    }
    await ctx.trx.deleteFrom('trellis_hi_procinst').where('id', 'in', instances).execute();
  }
  for (const table of HISTORIC_TABLES) {
    if (table === 'trellis_hi_procinst') continue;
    const ids = (await due(table).execute()).map((row) => row.id);
    if (ids.length === 0) continue;
    await ctx.trx.deleteFrom(table).where('id', 'in', ids).execute();
    if (ids.length >= batchSize) full = true;
  }
  // Camunda's deleteAuthorizationsByRemovalTime: grants on historic instances and tasks (see SaveAuthorizationCmd).
  const authorizations = (await due('trellis_authorization').execute()).map((row) => row.id);
  if (authorizations.length > 0) await ctx.trx.deleteFrom('trellis_authorization').where('id', 'in', authorizations).execute();
  if (authorizations.length >= batchSize) full = true;
  const batchIds = (await due('trellis_hi_batch').execute()).map((row) => row.id);
  for (const id of batchIds) await deleteHistoricBatch(ctx, id);
  const taskMetrics = await cleanTaskMetrics(ctx, configuration, now, batchSize);
  return {
    full: full || batchIds.length >= batchSize || taskMetrics >= batchSize,
    removed: { processInstances: instances.length, batches: batchIds.length, taskMetrics },
  };
}

/**
 * Up to batchSize finished instances (sub-instances too) past their own end time + their own
 * definition's time to live, with their history (Camunda's selectHistoricProcessInstanceIdsForCleanup
 * and deleteHistoricProcessInstanceByIds: only those ids).
 */
async function cleanByEndTime(ctx: CommandContext, configuration: HistoryCleanupJobConfiguration, now: Date): Promise<CleanupRun> {
  const { batchSize } = ctx.config.historyCleanup;
  let select = ctx.trx
    .selectFrom('trellis_hi_procinst as p')
    .innerJoin('trellis_process_definition as d', 'd.id', 'p.proc_def_id')
    .select('p.id')
    .where('p.end_time', 'is not', null)
    .where('d.history_time_to_live', 'is not', null)
    .where(sql<number>`p.end_time + d.history_time_to_live * cast(86400000 as bigint)`, '<=', now.getTime());
  if (configuration.minuteFrom > 0 || configuration.minuteTo < 59) {
    select = select.where(minuteOf('p.end_time'), '>=', configuration.minuteFrom).where(minuteOf('p.end_time'), '<=', configuration.minuteTo);
  }
  const instances = (await select.limit(batchSize).execute()).map((row) => row.id);
  await deleteHistoryOf(ctx, instances);
  const batches = await cleanEndedBatches(ctx, configuration, now, batchSize - instances.length);
  // As Camunda's HistoryCleanupHelper: task metrics fill what is left of the batch.
  const taskMetrics = instances.length + batches < batchSize ? await cleanTaskMetrics(ctx, configuration, now, batchSize - instances.length - batches) : 0;
  return {
    full: instances.length >= BATCH_THRESHOLD || batches >= BATCH_THRESHOLD || instances.length + batches + taskMetrics >= BATCH_THRESHOLD,
    removed: { processInstances: instances.length, batches, taskMetrics },
  };
}

/**
 * Up to `limit` rows of the task meter log older than taskMetricsTimeToLive days, oldest first, in the
 * job's minutes of the hour (Camunda's task metrics cleanup); none when no time to live is set.
 */
async function cleanTaskMetrics(ctx: CommandContext, configuration: HistoryCleanupJobConfiguration, now: Date, limit: number): Promise<number> {
  const timeToLive = ctx.config.taskMetricsTimeToLive;
  if (timeToLive === null) return 0;
  let select = ctx.trx
    .selectFrom('trellis_task_meter_log')
    .select('id')
    .where('timestamp', '<=', now.getTime() - timeToLive * 86_400_000);
  if (configuration.minuteFrom > 0 || configuration.minuteTo < 59) {
    select = select.where(minuteOf('timestamp'), '>=', configuration.minuteFrom).where(minuteOf('timestamp'), '<=', configuration.minuteTo);
  }
  const ids = (await select.orderBy('timestamp').limit(limit).execute()).map((row) => row.id);
  if (ids.length > 0) await ctx.trx.deleteFrom('trellis_task_meter_log').where('id', 'in', ids).execute();
  return ids.length;
}

/**
 * Historic batches past end time + their type's time to live (Camunda's selectHistoricBatchIdsForCleanup,
 * whatever their removal time), in the job's minutes of the hour.
 */
async function cleanEndedBatches(ctx: CommandContext, configuration: HistoryCleanupJobConfiguration, now: Date, limit: number): Promise<number> {
  const { batchOperationsForHistoryCleanup: byType, batchOperationHistoryTimeToLive: fallback } = ctx.config;
  const types = Object.keys(byType);
  if (limit <= 0 || (types.length === 0 && fallback === null)) return 0;
  // The time to live of the row's type in days (batchTimeToLive in SQL); null: never cleaned.
  const days = (value: number | null) => sql`cast(${value} as bigint)`;
  const byRow = types.length === 0 ? days(fallback) : sql`case ${sql.join(types.map((type) => sql`when type = ${type} then ${days(byType[type]!)}`), sql` `)} else ${days(fallback)} end`;
  let select = ctx.trx
    .selectFrom('trellis_hi_batch')
    .select('id')
    .where('end_time', 'is not', null)
    .where(sql<number>`end_time + ${byRow} * 86400000`, '<=', now.getTime());
  if (configuration.minuteFrom > 0 || configuration.minuteTo < 59) {
    select = select.where(minuteOf('end_time'), '>=', configuration.minuteFrom).where(minuteOf('end_time'), '<=', configuration.minuteTo);
  }
  const rows = await select.limit(limit).execute();
  for (const row of rows) await deleteHistoricBatch(ctx, row.id);
  return rows.length;
}

/** Every history row of these process instances. */
async function deleteHistoryOf(ctx: CommandContext, processInstanceIds: readonly string[]): Promise<void> {
  for (let i = 0; i < processInstanceIds.length; i += 400) {
    const chunk = processInstanceIds.slice(i, i + 400);
    await TaskHistory.deleteNotesOf(ctx.trx, chunk);
    for (const [table, column] of BY_INSTANCE) {
      await ctx.trx.deleteFrom(table).where(sql.ref(column), 'in', chunk).execute();
    }
    // Camunda's deleteHistoricProcessInstanceByIds: the grants on the historic instances go with them.
    await deleteAuthorizationsOn(ctx, Resources.HISTORIC_PROCESS_INSTANCE, chunk);
  }
}
