import type { CommandContext } from '../../command/command-context.js';
import type { ResolvedEngineConfig } from '../../config.js';
import { isHistoryEventProduced } from '../../history/history-level.js';
import type { Batch } from './batch.js';
import { IncidentAndLogDeletion } from '../../history/incident-and-log-deletion.js';
import { DAY_MS } from '../../history/removal-time.js';

/*
 * What the batch framework writes to history (Camunda's batch start, update and end events): only at
 * history level full. Removal times follow Camunda's default strategy "end": end time + time to live.
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
      removal_time: null,
      execution_start_time: batch.executionStartTime?.getTime() ?? null,
    })
    .execute();
}

/** The first execution job ran (Camunda's batch update event). */
export async function recordBatchExecutionStart(ctx: CommandContext, batchId: string, time: Date): Promise<void> {
  if (!writesHistory(ctx)) return;
  await ctx.trx.updateTable('trellis_hi_batch').set({ execution_start_time: time.getTime() }).where('id', '=', batchId).execute();
}

/** Batch end (completed or deleted): end time now, removal time end + the type's time to live (strategy "end"). */
export async function recordBatchEnd(ctx: CommandContext, batch: Pick<Batch, 'id' | 'type'>): Promise<void> {
  if (!writesHistory(ctx)) return;
  const end = ctx.clock.now();
  const removal = calculateRemovalTime(ctx.config, batch.type, end);
  await ctx.trx
    .updateTable('trellis_hi_batch')
    .set({ end_time: end.getTime(), removal_time: removal?.getTime() ?? null })
    .where('id', '=', batch.id)
    .execute();
}

/** The historic batch, its historic incidents and job logs. */
export async function deleteHistoricBatch(ctx: CommandContext, batchId: string): Promise<void> {
  await IncidentAndLogDeletion.ofBatch(ctx, batchId);
  await ctx.trx.deleteFrom('trellis_hi_batch').where('id', '=', batchId).execute();
}

/** The time to live of a batch type in days: its own setting, else batchOperationHistoryTimeToLive, else null. */
export function batchTimeToLive(config: ResolvedEngineConfig, type: string): number | null {
  return config.batchOperationsForHistoryCleanup?.[type] ?? config.batchOperationHistoryTimeToLive ?? null;
}

/** Camunda's DefaultHistoryRemovalTimeProvider for batches (strategy "end"): end time + time to live, or null. */
export function calculateRemovalTime(config: ResolvedEngineConfig, type: string, endTime: Date | null): Date | null {
  const days = batchTimeToLive(config, type);
  if (days === null || endTime === null) return null;
  return new Date(endTime.getTime() + days * DAY_MS);
}

/** Sets one historic batch's removal time (the set-removal-time batch's work on one id). */
export async function setHistoricBatchRemovalTime(ctx: CommandContext, batchId: string, removal: { hasRemovalTime: boolean; removalTime: Date | null }): Promise<void> {
  const row = await ctx.trx.selectFrom('trellis_hi_batch').select(['type', 'end_time']).where('id', '=', batchId).executeTakeFirst();
  if (!row) return;
  const time = removal.hasRemovalTime ? removal.removalTime : calculateRemovalTime(ctx.config, row.type, row.end_time === null ? null : new Date(Number(row.end_time)));
  await ctx.trx.updateTable('trellis_hi_batch').set({ removal_time: time?.getTime() ?? null }).where('id', '=', batchId).execute();
}
