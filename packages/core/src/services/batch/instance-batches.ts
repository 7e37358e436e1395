import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NullValueException } from '../../errors/exceptions.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { unpaged } from '../external-task/external-task-selection.js';
import type { ProcessInstanceQuery } from '../runtime/process-instance.js';
import { historicInstanceIds } from '../history/historic-instance-ids.js';
import type { HistoricProcessInstanceQuery } from '../history/historic-instances.js';
import { readableInstances } from '../runtime/runtime-service.js';
import { checkCreateBatch } from './async-operations.js';
import { BatchTypes, type Batch } from './batch.js';
import { createBatch, type CreateBatchOptions } from './batch-service.js';
import { storeBatchVariables } from './batch-variables.js';
import type { CorrelateMessageSettings } from './types/correlate-message.js';
import type { InstanceDeletionSettings } from './types/instance-deletion.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/** Which process instances a batch works on: the union of ids and a query (the query sees only readable instances). */
export interface ProcessInstanceSelection {
  processInstanceIds?: ReadonlyArray<string | null> | null;
  processInstanceQuery?: ProcessInstanceQuery | null;
  /** Adds the instances of this history query (as given ids are added). */
  historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null;
}

export interface DeleteProcessInstancesOptions {
  deleteReason?: string | null;
  skipCustomListeners?: boolean;
  skipSubprocesses?: boolean;
  skipIoMappings?: boolean;
}

type Sizing = Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'>;

/**
 * Batches over process instances: deletion, setting variables and correlating a message (Camunda's
 * DeleteProcessInstanceBatchCmd, SetVariablesToProcessInstancesBatchCmd and CorrelateAllMessageBatchCmd).
 * Creation checks the request in Camunda's order, then BATCH CREATE or the type's CREATE_BATCH_* permission;
 * the execution jobs call the synchronous operations.
 */
@injectable()
export class InstanceBatchService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /** POST /process-instance/delete. Ids that do not exist are kept and skipped when their job runs. */
  deleteProcessInstancesAsync(selection: ProcessInstanceSelection, options: DeleteProcessInstancesOptions = {}, sizing: Sizing = {}): Promise<Batch> {
    return this.commands.run('DeleteProcessInstanceBatchCmd', async (ctx) => {
      const ids = await collectInstanceIds(ctx, selection, 'keepUnknown');
      if (ids.length === 0) throw new BadUserRequestException('processInstanceIds is empty');
      await checkCreateBatch(ctx, 'CREATE_BATCH_DELETE_RUNNING_PROCESS_INSTANCES');
      OperationLogEntries.processInstance(ctx, 'Delete', {}, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: true }, { property: 'deleteReason', newValue: options.deleteReason ?? null }]);
      const settings: InstanceDeletionSettings = {
        deleteReason: options.deleteReason ?? null,
        skipCustomListeners: options.skipCustomListeners === true,
        skipSubprocesses: options.skipSubprocesses === true,
        skipIoMappings: options.skipIoMappings === true,
      };
      return createBatch(ctx, BatchTypes.instanceDeletion, ids, settings, sizing);
    });
  }

  /** POST /process-instance/variables-async. Only ids of running instances are taken. */
  setVariablesAsync(selection: ProcessInstanceSelection, variables: Record<string, TypedValue> | null | undefined, sizing: Sizing = {}): Promise<Batch> {
    return this.commands.run('SetVariablesToProcessInstancesBatchCmd', async (ctx) => {
      if (variables === null || variables === undefined) throw new NullValueException('variables is null');
      if (Object.keys(variables).length === 0) throw new BadUserRequestException('variables is empty');
      requireSelection(selection);
      const ids = await collectInstanceIds(ctx, selection, 'dropUnknown');
      if (ids.length === 0) throw new BadUserRequestException('processInstanceIds is empty');
      await checkCreateBatch(ctx, 'CREATE_BATCH_SET_VARIABLES');
      OperationLogEntries.processInstance(ctx, 'SetVariables', {}, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'nrOfVariables', newValue: Object.keys(variables).length }, { property: 'async', newValue: true }]);
      const batch = await createBatch(ctx, BatchTypes.setVariables, ids, {}, sizing);
      await storeBatchVariables(ctx, batch.id, variables);
      return batch;
    });
  }

  /**
   * POST /process-instance/message-async: correlates to the waiting executions of each instance (never to
   * start events). A null message name matches a message of any name, as in Camunda.
   */
  correlateMessageAsync(
    messageName: string | null,
    selection: ProcessInstanceSelection,
    variables?: Record<string, TypedValue> | null,
    sizing: Sizing = {},
  ): Promise<Batch> {
    return this.commands.run('CorrelateAllMessageBatchCmd', async (ctx) => {
      requireSelection(selection);
      const ids = await collectInstanceIds(ctx, selection, 'keepUnknown');
      if (ids.length === 0) throw new BadUserRequestException('Process instance ids cannot be empty: process instance ids is empty');
      await checkCreateBatch(ctx, 'CREATE_BATCH_CORRELATE_MESSAGE');
      OperationLogEntries.processInstance(ctx, 'CorrelateMessage', {}, [{ property: 'messageName', newValue: messageName }, { property: 'nrOfInstances', newValue: ids.length }, { property: 'nrOfVariables', newValue: variables ? Object.keys(variables).length : 0 }, { property: 'async', newValue: true }]);
      const settings: CorrelateMessageSettings = { messageName };
      const batch = await createBatch(ctx, BatchTypes.correlateMessage, ids, settings, sizing);
      if (variables) await storeBatchVariables(ctx, batch.id, variables);
      return batch;
    });
  }
}

/** Camunda's ensureAtLeastOneNotNull over the ids, the query and the historic query. */
function requireSelection(selection: ProcessInstanceSelection): void {
  if (selection.processInstanceIds == null && selection.processInstanceQuery == null && selection.historicProcessInstanceQuery == null) throw new NullValueException('No process instances found.');
}

/**
 * Given ids are looked up without authorization, as Camunda does; `dropUnknown` keeps only those of running
 * instances (set-variables), `keepUnknown` keeps them all. Null ids are dropped.
 */
async function collectInstanceIds(ctx: CommandContext, selection: ProcessInstanceSelection, unknown: 'keepUnknown' | 'dropUnknown'): Promise<string[]> {
  const historic = selection.historicProcessInstanceQuery ? await historicInstanceIds(ctx, selection.historicProcessInstanceQuery) : [];
  const given = [...new Set([...(selection.processInstanceIds ?? []).filter((id): id is string => typeof id === 'string'), ...historic])];
  const ids = new Set<string>();
  if (given.length > 0) {
    if (unknown === 'keepUnknown') for (const id of given) ids.add(id);
    else for (const instance of await ctx.processInstances.find({ processInstanceIds: given })) ids.add(instance.id);
  }
  if (selection.processInstanceQuery) {
    for (const instance of await ctx.processInstances.find(ctx.tenantCheck.query(unpaged(selection.processInstanceQuery)), await readableInstances(ctx))) ids.add(instance.id);
  }
  return [...ids];
}
