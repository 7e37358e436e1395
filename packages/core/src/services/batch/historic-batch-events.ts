import { sql } from 'kysely';
import type { CommandContext } from '../../command/command-context.js';
import type { ResolvedEngineConfig } from '../../config.js';
import { isHistoryEventProduced } from '../../history/history-level.js';
import type { Batch } from './batch.js';
import { IncidentAndLogDeletion } from '../../history/incident-and-log-deletion.js';
import { DAY_MS } from '../../history/removal-time.js';
import { flushQueuedHistory } from '../../history/queued-history.js';

/*
 * What the batch framework writes to history (Camunda's batch start, update and end events): only at
 * history level full. Removal times follow historyRemovalTimeStrategy: "start" start time + time to
 * live when the batch starts, "end" end time + time to live when it ends, "none" never.
 */

const writesHistory = (ctx: CommandContext) => isHistoryEventProduced(ctx.config.historyLevel, 'batch-start');

/** Batch start: the historic row, in the creating transaction. */
export async function recordBatchStart(ctx: CommandContext, batch: Batch): Promise<void> {
  if (!writesHistory(ctx)) return;
  await ctx.trx
    .insertInto('trellis_hi_batch')
    .values({
      id: batch.id,
      type: batch.type,
      total_jobs: batch.totalJobs,
      batch_jobs_per_seed: batch.batchJobsPerSeed,
      invocations_per_batch_job: batch.invocationsPerBatchJob,
      seed_job_def_id: batch.seedJobDefinitionId,
      monitor_job_def_id: batch.monitorJobDefinitionId,
      batch_job_def_id: batch.batchJobDefinitionId,
      tenant_id: batch.tenantId,
      create_user_id: batch.createUserId,
      start_time: batch.startTime.getTime(),
      end_time: null,
      removal_time: strategyOf(ctx) === 'start' ? (calculateRemovalTime(ctx.config, batch.type, batch.startTime)?.getTime() ?? null) : null,
      execution_start_time: batch.executionStartTime?.getTime() ?? null,
    })
    .execute();
}

/** The first execution job ran (Camunda's batch update event). */
export async function recordBatchExecutionStart(ctx: CommandContext, batchId: string, time: Date): Promise<void> {
  if (!writesHistory(ctx)) return;
  await ctx.trx.updateTable('trellis_hi_batch').set({ execution_start_time: time.getTime() }).where('id', '=', batchId).execute();
}

/**
 * Batch end (completed or deleted): end time now; under strategy "end" the removal time end + the
 * type's time to live, given to the batch's job logs and incidents too (Camunda's createBatchEndEvent).
 */
export async function recordBatchEnd(ctx: CommandContext, batch: Pick<Batch, 'id' | 'type'>): Promise<void> {
  if (!writesHistory(ctx)) return;
  const end = ctx.clock.now();
  if (strategyOf(ctx) !== 'end') {
    await ctx.trx.updateTable('trellis_hi_batch').set({ end_time: end.getTime() }).where('id', '=', batch.id).execute();
    return;
  }
  const removal = calculateRemovalTime(ctx.config, batch.type, end)?.getTime() ?? null;
  await ctx.trx.updateTable('trellis_hi_batch').set({ end_time: end.getTime(), removal_time: removal }).where('id', '=', batch.id).execute();
  if (removal === null) return;
  // addRemovalTimeToHistoricJobLog: the batch's entries queued in this command first.
  await flushQueuedHistory(ctx);
  await ctx.trx.updateTable('trellis_hi_job_log').set({ removal_time: removal }).where('job_def_configuration', '=', batch.id).execute();
  // addRemovalTimeToHistoricIncidents: those of the batch's three job definitions.
  const row = await ctx.trx.selectFrom('trellis_hi_batch').select(['seed_job_def_id', 'monitor_job_def_id', 'batch_job_def_id']).where('id', '=', batch.id).executeTakeFirst();
  const definitions = row ? [row.seed_job_def_id, row.monitor_job_def_id, row.batch_job_def_id].filter((each): each is string => each !== null) : [];
  if (definitions.length > 0) await ctx.trx.updateTable('trellis_hi_incident').set({ removal_time: removal }).where('job_def_id', 'in', definitions).execute();
}

/**
 * Under strategy "start" a batch job's log entry or incident takes its historic batch's removal time
 * (Camunda's initHistoricJobLogEvent, createHistoricIncidentEvt): by the batch id its job definition holds.
 */
export function batchRemovalTimeOf(ctx: CommandContext, jobDefinitionId: string | null, processInstanceId: string | null) {
  if (strategyOf(ctx) !== 'start' || !jobDefinitionId || processInstanceId !== null) return null;
  return sql<number | null>`(select hb.removal_time from trellis_hi_batch hb where hb.id = (select jd.job_configuration from trellis_job_definition jd where jd.id = ${jobDefinitionId}))`;
}

const strategyOf = (ctx: CommandContext) => ctx.config.historyCleanup.removalTimeStrategy;

/** The historic batch, its historic incidents and job logs. */
export async function deleteHistoricBatch(ctx: CommandContext, batchId: string): Promise<void> {
  await IncidentAndLogDeletion.ofBatch(ctx, batchId);
  await ctx.trx.deleteFrom('trellis_hi_batch').where('id', '=', batchId).execute();
}

/** The time to live of a batch type in days: its own setting, else batchOperationHistoryTimeToLive, else null. */
export function batchTimeToLive(config: ResolvedEngineConfig, type: string): number | null {
  return config.batchOperationsForHistoryCleanup?.[type] ?? config.batchOperationHistoryTimeToLive ?? null;
}

/** Camunda's DefaultHistoryRemovalTimeProvider for batches: the start or end time + time to live, or null. */
export function calculateRemovalTime(config: ResolvedEngineConfig, type: string, time: Date | null): Date | null {
  const days = batchTimeToLive(config, type);
  if (days === null || time === null) return null;
  return new Date(time.getTime() + days * DAY_MS);
}

/** Sets one historic batch's removal time (the set-removal-time batch's work on one id). */
export async function setHistoricBatchRemovalTime(ctx: CommandContext, batchId: string, removal: { hasRemovalTime: boolean; removalTime: Date | null }): Promise<void> {
  const row = await ctx.trx.selectFrom('trellis_hi_batch').select(['type', 'end_time']).where('id', '=', batchId).executeTakeFirst();
  if (!row) return;
  const time = removal.hasRemovalTime ? removal.removalTime : calculateRemovalTime(ctx.config, row.type, row.end_time === null ? null : new Date(Number(row.end_time)));
  await ctx.trx.updateTable('trellis_hi_batch').set({ removal_time: time?.getTime() ?? null }).where('id', '=', batchId).execute();
}
