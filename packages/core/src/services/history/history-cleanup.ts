import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../command/command-context.js';
import { CommandExecutor } from '../../command/command-executor.js';
import { BadUserRequestException } from '../../errors/exceptions.js';
import { currentOrNextBatchWindow } from '../../history/batch-window.js';
import { findCleanupJobs, scheduleHistoryCleanup } from '../../history/history-cleanup-job.js';
import { PROCESS_SET_REMOVAL_TIME, type ProcessSetRemovalTimeSettings } from '../../history/process-set-removal-time.js';
import type { Job } from '../../jobs/job.js';
import { tenantCondition } from '../../authorization/tenant-check.js';
import { nonEmpty } from '../../persistence/repositories/query-support.js';
import type { Batch } from '../batch/batch.js';
import { createBatch, type CreateBatchOptions } from '../batch/batch-service.js';
import { REMOVAL_TIME_MODES, removalTimeMode } from '../batch/historic-batches.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { historicInstanceIds } from './historic-instance-ids.js';
import type { HistoricProcessInstanceQuery } from './historic-instances.js';
import { checkCreateBatch } from '../batch/async-operations.js';

/** GET /history/cleanup/configuration: the current or next batch window, and whether this engine cleans up. */
export interface HistoryCleanupConfiguration {
  batchWindowStartTime: Date | null;
  batchWindowEndTime: Date | null;
  enabled: boolean;
}

/** POST /history/process-instance/set-removal-time: exactly one mode; ids and a query are joined. */
export interface SetRemovalTimeToHistoricProcessInstances {
  absoluteRemovalTime?: Date | null;
  clearedRemovalTime?: boolean | null;
  calculatedRemovalTime?: boolean | null;
  historicProcessInstanceIds?: readonly string[] | null;
  historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null;
  hierarchical?: boolean | null;
  /** Camunda's updateInChunks: each instance its own job, which updates a chunk of rows per table and run. */
  updateInChunks?: boolean | null;
  /** Rows per table and run (1..500), also checked when updateInChunks is off; null: the engine's removalTimeUpdateChunkSize. */
  updateChunkSize?: number | null;
}

/**
 * History cleanup (Camunda's HistoryService cleanUpHistoryAsync, findHistoryCleanupJob(s), the
 * cleanup configuration) and setting removal times of historic process instances by a batch.
 * Scheduling the cleanup needs camunda-admin, as in Camunda.
 */
@injectable()
export class HistoryCleanupService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /**
   * Camunda's HistoryCleanupCmd: creates or reschedules the cleanup job(s) and returns the first
   * (logged as CreateHistoryCleanupJobs). Not immediately due without a batch window suspends the
   * jobs there are; with none there is no job to return, where Camunda fails with a Java
   * NullPointerException: a BadUserRequestException naming the problem.
   */
  cleanUpHistoryAsync(immediatelyDue = true): Promise<Job> {
    return this.commands.run('HistoryCleanupCmd', async (ctx) => {
      if (!ctx.config.historyCleanup.enabled) throw new BadUserRequestException('History cleanup is disabled for this engine');
      ctx.authz.requireAdmin();
      const [job] = await scheduleHistoryCleanup(ctx, immediatelyDue);
      OperationLogEntries.job(ctx, 'CreateHistoryCleanupJobs', {}, [{ property: 'immediatelyDue', newValue: immediatelyDue }]);
      if (!job) throw new BadUserRequestException('History cleanup job can not be scheduled: immediatelyDue is false and no batch window is configured');
      return job;
    });
  }

  /** The first history cleanup job, or null. */
  findHistoryCleanupJob(): Promise<Job | null> {
    return this.commands.run('GetHistoryCleanupJobsCmd', async (ctx) => (await findCleanupJobs(ctx))[0] ?? null);
  }

  /** All history cleanup jobs (one per degree of parallelism). */
  findHistoryCleanupJobs(): Promise<Job[]> {
    return this.commands.run('GetHistoryCleanupJobsCmd', async (ctx) => findCleanupJobs(ctx));
  }

  /** Camunda's HistoryCleanupRestService configuration: the window around now, both null without one. */
  configuration(): Promise<HistoryCleanupConfiguration> {
    return this.commands.run('HistoryCleanupConfiguration', async (ctx) => {
      const window = currentOrNextBatchWindow(ctx.clock.now(), ctx.config.historyCleanup);
      return { batchWindowStartTime: window?.start ?? null, batchWindowEndTime: window?.end ?? null, enabled: ctx.config.historyCleanup.enabled };
    });
  }

  /**
   * Engine start (Camunda's BootstrapEngineCommand, cleanUpHistoryAsync(false)): with a batch window the
   * cleanup jobs wait for it; without one existing jobs are suspended.
   */
  scheduleOnStart(): Promise<void> {
    return this.commands.run('HistoryCleanupCmd', async (ctx) => {
      if (ctx.config.historyCleanup.enabled) await scheduleHistoryCleanup(ctx, false);
    });
  }

  /** Camunda's SetRemovalTimeToHistoricProcessInstancesCmd: a `process-set-removal-time` batch over the selected instances. */
  setRemovalTimeAsync(request: SetRemovalTimeToHistoricProcessInstances, sizing: Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'> = {}): Promise<Batch> {
    return this.commands.run('SetRemovalTimeToHistoricProcessInstancesCmd', async (ctx) => {
      const mode = removalTimeMode(request);
      const chunkSize = request.updateChunkSize ?? null;
      // Camunda's builder checks the chunk size as it is given, before the command runs.
      if (chunkSize !== null && !(Number.isInteger(chunkSize) && chunkSize >= 1 && chunkSize <= 500)) {
        throw new BadUserRequestException('The value for chunk size should be between 1 and 500');
      }
      const { historicProcessInstanceIds, historicProcessInstanceQuery } = request;
      if (!historicProcessInstanceQuery && !historicProcessInstanceIds) throw new BadUserRequestException('Neither query nor ids provided.');
      const ids = new Set<string>();
      if (historicProcessInstanceQuery) for (const id of await historicInstanceIds(ctx, historicProcessInstanceQuery)) ids.add(id);
      if (historicProcessInstanceIds && historicProcessInstanceIds.length > 0) for (const id of await existing(ctx, historicProcessInstanceIds)) ids.add(id);
      if (mode === null) throw new BadUserRequestException('removalTime is null');
      if (ids.size === 0) throw new BadUserRequestException('historicProcessInstances is empty');
      await checkCreateBatch(ctx, 'CREATE_BATCH_SET_REMOVAL_TIME');
      const settings: ProcessSetRemovalTimeSettings = {
        hasRemovalTime: mode !== 'calculated',
        removalTime: mode === 'absolute' ? request.absoluteRemovalTime!.toISOString() : null,
        hierarchical: request.hierarchical === true,
        updateInChunks: request.updateInChunks === true,
        chunkSize,
      };
      // Chunked, every instance is a job of its own (Camunda's calculateInvocationsPerBatchJob).
      const batch = await createBatch(ctx, PROCESS_SET_REMOVAL_TIME, [...ids], settings, settings.updateInChunks ? { ...sizing, invocationsPerBatchJob: 1 } : sizing);
      OperationLogEntries.processInstance(ctx, 'SetRemovalTime', {}, [
        { property: 'mode', newValue: REMOVAL_TIME_MODES[mode] },
        { property: 'removalTime', newValue: mode === 'absolute' ? request.absoluteRemovalTime : null },
        { property: 'hierarchical', newValue: settings.hierarchical },
        { property: 'nrOfInstances', newValue: ids.size },
        { property: 'async', newValue: true },
        { property: 'updateInChunks', newValue: settings.updateInChunks },
        { property: 'chunkSize', newValue: chunkSize },
      ]);
      return batch;
    });
  }
}

/** The ids among `ids` that name historic process instances, found as Camunda's tenant-checked query finds them. */
async function existing(ctx: CommandContext, ids: readonly string[]): Promise<string[]> {
  const wanted = nonEmpty(ids.filter((id): id is string => typeof id === 'string'));
  const tenants = tenantCondition(ctx.tenantCheck.query({}), 'tenant_id');
  let select = ctx.trx.selectFrom('trellis_hi_procinst').select('id').where('id', 'in', wanted);
  if (tenants) select = select.where(tenants);
  return (await select.execute()).map((row) => row.id);
}
