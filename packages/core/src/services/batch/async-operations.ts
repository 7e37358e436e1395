import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, ProcessEngineException } from '../../errors/exceptions.js';
import { engineMessage } from '../../errors/engine-message.js';
import type { JobListQuery } from '../../persistence/repositories/job-repository.js';
import { collectExternalTaskIds, unpaged, type ExternalTaskSelection } from '../external-task/external-task-selection.js';
import type { ProcessInstanceQuery } from '../runtime/process-instance.js';
import { historicInstanceIds } from '../history/historic-instance-ids.js';
import type { HistoricProcessInstanceQuery } from '../history/historic-instances.js';
import { readableInstances } from '../runtime/runtime-service.js';
import { selectedInstanceIds, type InstanceSelection } from '../runtime/instance-selection.js';
import { BatchTypes, type Batch } from './batch.js';
import { createBatch, type CreateBatchOptions } from './batch-service.js';
import type { SetJobRetriesSettings } from './types/set-job-retries.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/** Which jobs a job-retries batch touches: the union of ids, a job query, and the jobs of the given or queried instances. */
export interface JobRetriesSelection {
  jobIds?: readonly string[] | null;
  jobQuery?: JobListQuery | null;
  processInstanceIds?: readonly string[] | null;
  processInstanceQuery?: ProcessInstanceQuery | null;
  /** Adds the jobs of the instances of this history query. */
  historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null;
}

/** Which process instances a suspension batch touches: the union of ids and a query. */
export type { InstanceSelection } from '../runtime/instance-selection.js';

type Sizing = Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'>;

/**
 * Batches that set external-task retries, set job retries, or suspend and activate process instances
 * (Camunda's SetExternalTasksRetriesBatchCmd, SetJobsRetriesBatchCmd / SetJobsRetriesByProcessBatchCmd and
 * UpdateProcessInstancesSuspendStateBatchCmd). Creation checks the selection and BATCH CREATE (or the
 * type's CREATE_BATCH_* permission); the execution jobs check each item as the synchronous call does.
 */
@injectable()
export class RetriesAndSuspensionBatches {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /** POST /external-task/retries-async. Negative retries fail in the execution jobs, as in Camunda. */
  setExternalTaskRetriesAsync(selection: ExternalTaskSelection, retries: number, sizing: Sizing = {}): Promise<Batch> {
    return this.commands.run('SetExternalTasksRetriesBatchCmd', async (ctx) => {
      const ids = await collectExternalTaskIds(ctx, selection);
      if (ids.length === 0) throw new BadUserRequestException('externalTaskIds is empty');
      await checkCreateBatch(ctx, 'CREATE_BATCH_SET_EXTERNAL_TASK_RETRIES');
      OperationLogEntries.externalTask(ctx, 'SetExternalTaskRetries', null, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: true }, { property: 'retries', newValue: retries }]);
      return createBatch(ctx, BatchTypes.setExternalTaskRetries, ids, { retries }, sizing);
    });
  }

  /**
   * POST /job/retries and POST /process-instance/job-retries. `dueDate` undefined keeps each job's due
   * date; null or a date sets it (Camunda's isDueDateSet).
   */
  setJobRetriesAsync(selection: JobRetriesSelection, retries: number, dueDate?: Date | null, sizing: Sizing = {}): Promise<Batch> {
    // Camunda's SetJobRetriesByJobsAsyncBuilderImpl / …ByProcessAsyncBuilderImpl: something must be selected.
    const byProcess = 'processInstanceIds' in selection || 'processInstanceQuery' in selection || 'historicProcessInstanceQuery' in selection;
    if (byProcess && !selection.processInstanceIds?.length && !selection.processInstanceQuery && !selection.historicProcessInstanceQuery) {
      return Promise.reject(new ProcessEngineException(engineMessage('13', '051', 'You must specify at least one of or one of processInstanceIds, processInstanceQuery, or historicProcessInstanceQuery.')));
    }
    if (!byProcess && !selection.jobIds?.length && !selection.jobQuery) {
      return Promise.reject(new ProcessEngineException(engineMessage('13', '050', 'You must specify at least one of jobIds or jobQuery.')));
    }
    return this.commands.run('SetJobsRetriesBatchCmd', async (ctx) => {
      const ids = await collectJobIds(ctx, selection);
      if (ids.length === 0) throw new BadUserRequestException('jobIds is empty');
      if (!(retries >= 0)) throw new ProcessEngineException('Retries count is not greater than or equal to 0');
      await checkCreateBatch(ctx, 'CREATE_BATCH_SET_JOB_RETRIES');
      OperationLogEntries.job(ctx, 'SetJobRetries', {}, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: true }, { property: 'retries', newValue: retries }]);
      const settings: SetJobRetriesSettings = dueDate === undefined ? { retries } : { retries, dueDate: dueDate?.toISOString() ?? null };
      return createBatch(ctx, BatchTypes.setJobRetries, ids, settings, sizing);
    });
  }

  /** POST /process-instance/suspended-async. */
  updateSuspensionStateAsync(selection: InstanceSelection, suspended: boolean, sizing: Sizing = {}): Promise<Batch> {
    return this.commands.run(suspended ? 'SuspendProcessInstancesBatchCmd' : 'ActivateProcessInstancesBatchCmd', async (ctx) => {
      const ids = await selectedInstanceIds(ctx, selection, 'process Instance Ids');
      await checkCreateBatch(ctx, 'CREATE_BATCH_UPDATE_PROCESS_INSTANCES_SUSPEND');
      // Camunda names this operation SuspendJob / ActivateJob (AbstractUpdateProcessInstancesSuspendStateCmd).
      OperationLogEntries.processInstance(ctx, suspended ? 'SuspendJob' : 'ActivateJob', {}, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: true }]);
      return createBatch(ctx, BatchTypes.instanceUpdateSuspensionState, ids, { suspended }, sizing);
    });
  }
}

/** Camunda's checkCreateBatch: the batch type's own CREATE_BATCH_* permission on BATCH, or CREATE there. */
export function checkCreateBatch(ctx: CommandContext, typePermission: string): Promise<void> {
  return ctx.authz.check({ permission: typePermission, resource: Resources.BATCH }, { permission: 'CREATE', resource: Resources.BATCH });
}

/** Queries see only what the caller may read; the jobs of the selected instances are found without that check, as in Camunda. */
async function collectJobIds(ctx: CommandContext, selection: JobRetriesSelection): Promise<string[]> {
  const ids = new Set<string>(selection.jobIds ?? []);
  const now = ctx.clock.now();
  if (selection.jobQuery) {
    for (const job of await ctx.jobs.query(ctx.tenantCheck.query(unpaged(selection.jobQuery)), now, await readableInstances(ctx))) ids.add(job.id);
  }
  const instanceIds = new Set<string>(selection.processInstanceIds ?? []);
  if (selection.processInstanceQuery) {
    for (const instance of await ctx.processInstances.find(ctx.tenantCheck.query(unpaged(selection.processInstanceQuery)), await readableInstances(ctx))) instanceIds.add(instance.id);
  }
  if (selection.historicProcessInstanceQuery) for (const id of await historicInstanceIds(ctx, selection.historicProcessInstanceQuery)) instanceIds.add(id);
  if (instanceIds.size > 0) {
    for (const job of await ctx.jobs.query({ processInstanceIds: [...instanceIds] }, now)) ids.add(job.id);
  }
  return [...ids];
}
