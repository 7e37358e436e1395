import { injectable } from 'inversify';
import type { CommandContext } from '../command/command-context.js';
import type { Job } from '../jobs/job.js';
import type { JobOutcome } from '../jobs/job-handler.js';
import { BatchExecutionJobHandler, type ExecutionJobConfiguration } from '../services/batch/batch-service.js';
import { addTimeToLive, setInstanceRemovalTime, setInstanceRemovalTimeInChunks, type RemovalTimeTarget } from './removal-time.js';

/** Camunda's Batch.TYPE_PROCESS_SET_REMOVAL_TIME. */
export const PROCESS_SET_REMOVAL_TIME = 'process-set-removal-time';

export interface ProcessSetRemovalTimeSettings {
  /** true: absolute or cleared (removalTime null); false: calculated from each instance by the removal time strategy. */
  hasRemovalTime: boolean;
  /** ISO text. */
  removalTime: string | null;
  hierarchical: boolean;
  /** Camunda's updateInChunks: one instance per job, which runs again until every row is updated. */
  updateInChunks?: boolean;
  /** Rows per table and run; null: the engine's historyCleanup.removalTimeUpdateChunkSize. */
  chunkSize?: number | null;
}

/** process-set-removal-time: the removal time of each historic process instance (and its history) that still exists (ProcessSetRemovalTimeJobHandler). */
@injectable()
export class ProcessSetRemovalTimeJobHandler extends BatchExecutionJobHandler<ProcessSetRemovalTimeSettings> {
  readonly type = PROCESS_SET_REMOVAL_TIME;

  protected async run(ctx: CommandContext, ids: string[], settings: ProcessSetRemovalTimeSettings, { job, configuration }: { job: Job; configuration: ExecutionJobConfiguration }): Promise<JobOutcome> {
    if (!settings.updateInChunks) {
      for (const id of ids) {
        const found = await removalTimeTarget(ctx, id, settings);
        if (found) await setInstanceRemovalTime(ctx, found.target, found.removalTime);
      }
      return;
    }
    // Chunked: the job's one instance, up to a chunk per table; the job runs again at once while
    // rows are left (Camunda's ProcessSetRemovalTimeResultHandler reschedules it).
    const chunkSize = settings.chunkSize ?? ctx.config.historyCleanup.removalTimeUpdateChunkSize;
    const found = await removalTimeTarget(ctx, ids[0], settings);
    const next = found ? await setInstanceRemovalTimeInChunks(ctx, found.target, found.removalTime, chunkSize, configuration.entities ?? []) : [];
    if (next.length === 0) return;
    await ctx.jobs.reschedule(job, { dueDate: ctx.clock.now(), handlerConfiguration: JSON.stringify({ ...configuration, entities: next }), suspended: job.suspended });
    return 'kept';
  }
}

/**
 * What setting the removal time of the instance `id` touches, and to what: the instance, or
 * (hierarchical) its whole hierarchy with the time calculated for its root; null when it is gone.
 */
async function removalTimeTarget(ctx: CommandContext, id: string, settings: ProcessSetRemovalTimeSettings): Promise<{ target: RemovalTimeTarget; removalTime: number | null } | null> {
  const instance = await instanceRow(ctx, id);
  if (!instance) return null;
  const root = instance.root_proc_inst_id;
  if (settings.hierarchical && root !== null) {
    // Camunda: the whole hierarchy takes the removal time calculated for its root.
    const rootInstance = root === instance.id ? instance : await instanceRow(ctx, root);
    return { target: { rootProcessInstanceId: root }, removalTime: await removalTimeOf(ctx, settings, rootInstance) };
  }
  return { target: { processInstanceId: id }, removalTime: await removalTimeOf(ctx, settings, instance) };
}

type InstanceRow = { id: string; root_proc_inst_id: string | null; proc_def_id: string; start_time: number; end_time: number | null };

function instanceRow(ctx: CommandContext, id: string): Promise<InstanceRow | undefined> {
  return ctx.trx.selectFrom('trellis_hi_procinst').select(['id', 'root_proc_inst_id', 'proc_def_id', 'start_time', 'end_time']).where('id', '=', id).executeTakeFirst();
}

/** The given removal time, or Camunda's calculation: base time (start or end, by strategy) + the definition's time to live. */
async function removalTimeOf(ctx: CommandContext, settings: ProcessSetRemovalTimeSettings, instance: InstanceRow | undefined): Promise<number | null> {
  if (settings.hasRemovalTime) return settings.removalTime === null ? null : new Date(settings.removalTime).getTime();
  if (!instance) return null;
  const strategy = ctx.config.historyCleanup.removalTimeStrategy;
  const base = strategy === 'start' ? Number(instance.start_time) : strategy === 'end' && instance.end_time !== null ? Number(instance.end_time) : null;
  if (base === null) return null;
  const definition = await ctx.trx.selectFrom('trellis_process_definition').select('history_time_to_live').where('id', '=', instance.proc_def_id).executeTakeFirst();
  return addTimeToLive(base, definition?.history_time_to_live === undefined || definition.history_time_to_live === null ? null : Number(definition.history_time_to_live));
}
