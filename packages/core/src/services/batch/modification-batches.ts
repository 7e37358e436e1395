import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotValidException, ProcessEngineException } from '../../errors/exceptions.js';
import { miBodyId } from '../../runtime/multi-instance.js';
import { mapInstructionVariables, modifyInstance, transitionsAt, type ModificationInstruction } from '../../runtime/modification.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import { runnerSkips, type ProcessRunner, type RunnerSkips } from '../../runtime/process-runner.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { unpaged } from '../external-task/external-task-selection.js';
import { noDeployedDefinition } from '../process-definition/process-definition-messages.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import type { ProcessInstanceQuery } from '../runtime/process-instance.js';
import { historicInstanceIds } from '../history/historic-instance-ids.js';
import type { HistoricProcessInstanceQuery } from '../history/historic-instances.js';
import { checkInstance } from '../../authorization/instance-checks.js';
import { readableInstances } from '../runtime/runtime-service.js';
import { BatchTypes, type Batch } from './batch.js';
import { createBatch, type CreateBatchOptions } from './batch-service.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { checkCreateBatch } from './async-operations.js';

/**
 * An instruction of a modification: Camunda's single-instance instructions, plus (for a cancel of
 * all instances of an activity) `cancelCurrentActiveActivityInstances`, which limits the cancel to
 * the activity instances that ran before the modification started.
 */
export type BatchModificationInstruction = ModificationInstruction & { cancelCurrentActiveActivityInstances?: boolean };

/** What POST /modification/execute(Async) selects and does (Camunda's ModificationBuilder). */
export interface InstanceModification {
  processDefinitionId: string | null | undefined;
  instructions: readonly BatchModificationInstruction[];
  processInstanceIds?: ReadonlyArray<string | null> | null;
  processInstanceQuery?: ProcessInstanceQuery | null;
  /** Adds the instances of this history query. */
  historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null;
  /** Kept with the batch; Trellis runs no custom listeners or io mappings on modification yet. */
  skipCustomListeners?: boolean;
  skipIoMappings?: boolean;
  /** For the user operation log, which Trellis does not keep yet. */
  annotation?: string | null;
}

/**
 * The instance-modification batch's settings (Camunda's ModificationBatchConfiguration), kept as
 * JSON: instruction variables hold dates as ISO text and bytes as base64 (see packVariables).
 */
export interface InstanceModificationSettings {
  processDefinitionId: string;
  instructions: BatchModificationInstruction[];
  skipCustomListeners: boolean;
  skipIoMappings: boolean;
}

type Sizing = Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'>;

/**
 * Process instance modification of many instances of one definition (Camunda's
 * ProcessInstanceModificationCmd and ProcessInstanceModificationBatchCmd), and the batch form of the
 * single-instance modification (ModifyProcessInstanceAsyncCmd). Each instance gets the same
 * instructions, checked as POST /process-instance/{id}/modification checks them.
 */
@injectable()
export class ModificationBatches {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  /** Modifies every selected instance in one transaction: one failing instance leaves all unchanged. */
  execute(modification: InstanceModification): Promise<void> {
    return this.commands.run('ProcessInstanceModificationCmd', async (ctx) => {
      const { definition, ids } = await this.validate(ctx, modification);
      OperationLogEntries.processInstance(ctx, 'ModifyProcessInstance', { processDefinitionId: definition.id, processDefinitionKey: definition.key }, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: false }], modification.annotation);
      for (const id of ids) await modifyInstanceOfDefinition(ctx, this.env, definition.id, id, modification.instructions, runnerSkips(modification));
    });
  }

  /** Validates now; the instance-modification batch's jobs modify the instances. Needs BATCH CREATE or CREATE_BATCH_MODIFY_PROCESS_INSTANCES. */
  executeAsync(modification: InstanceModification, sizing: Sizing = {}): Promise<Batch> {
    return this.commands.run('ProcessInstanceModificationBatchCmd', async (ctx) => {
      const { definition, ids } = await this.validate(ctx, modification);
      await checkCreateBatch(ctx, 'CREATE_BATCH_MODIFY_PROCESS_INSTANCES');
      OperationLogEntries.processInstance(ctx, 'ModifyProcessInstance', { processDefinitionId: definition.id, processDefinitionKey: definition.key }, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: true }], modification.annotation);
      return createBatch(ctx, BatchTypes.instanceModification, ids, settingsOf(definition.id, modification), {
        ...sizing,
        tenantId: definition.tenantId,
        deploymentId: definition.deploymentId,
      });
    });
  }

  /**
   * POST /process-instance/{id}/modification-async: a one-instance batch with the single-instance
   * instructions (activity and transition instance cancels, ancestors and variables included).
   */
  modifyProcessInstanceAsync(
    processInstanceId: string,
    instructions: readonly ModificationInstruction[],
    options: Pick<InstanceModification, 'skipCustomListeners' | 'skipIoMappings' | 'annotation'> = {},
  ): Promise<Batch> {
    return this.commands.run('ModifyProcessInstanceAsyncCmd', async (ctx) => {
      const root = await ctx.executions.findById(processInstanceId);
      if (!root || root.parentId !== null) throw instanceDoesNotExist(processInstanceId);
      await checkCreateBatch(ctx, 'CREATE_BATCH_MODIFY_PROCESS_INSTANCES');
      const definition = (await this.env.definition(ctx, root.processDefinitionId))!;
      OperationLogEntries.processInstance(ctx, 'ModifyProcessInstance', { processInstanceId, processDefinitionId: definition.id, processDefinitionKey: definition.key }, [], options.annotation);
      return createBatch(ctx, BatchTypes.instanceModification, [processInstanceId], settingsOf(definition.id, { ...options, instructions }), {
        tenantId: definition.tenantId,
        deploymentId: definition.deploymentId,
      });
    });
  }

  /** Camunda's order: definition id, instructions, instance ids (empty, null), then the definition. */
  private async validate(ctx: CommandContext, modification: InstanceModification): Promise<{ definition: ProcessDefinition; ids: string[] }> {
    const definitionId = modification.processDefinitionId;
    if (definitionId === null || definitionId === undefined) throw new NotValidException('processDefinitionId is null');
    if (modification.instructions.length === 0) throw new BadUserRequestException('Modification instructions cannot be empty is empty');
    const ids = new Set<string | null>(modification.processInstanceIds ?? []);
    if (modification.processInstanceQuery) {
      for (const instance of await ctx.processInstances.find(ctx.tenantCheck.query(unpaged(modification.processInstanceQuery)), await readableInstances(ctx))) ids.add(instance.id);
    }
    if (modification.historicProcessInstanceQuery) for (const id of await historicInstanceIds(ctx, modification.historicProcessInstanceQuery)) ids.add(id);
    if (ids.size === 0) throw new BadUserRequestException('Process instance ids cannot be empty: Process instance ids is empty');
    if (ids.has(null) || ids.has(undefined as never)) {
      throw new BadUserRequestException('Process instance ids cannot be null: Process instance ids contains null value');
    }
    const definition = await this.env.definition(ctx, definitionId);
    if (!definition) throw noDeployedDefinition(definitionId);
    return { definition, ids: [...ids] as string[] };
  }
}

/**
 * One instance's share of a modification inside the caller's command (also the batch's execution
 * job): the instance must exist and run the given definition; then the single-instance rules apply
 * (UPDATE on it or UPDATE_INSTANCE on its definition, not suspended).
 */
export async function modifyInstanceOfDefinition(
  ctx: CommandContext,
  env: RuntimeEnvironment,
  processDefinitionId: string,
  processInstanceId: string,
  instructions: readonly BatchModificationInstruction[],
  skips: RunnerSkips = { skipCustomListeners: false, skipIoMappings: false },
): Promise<void> {
  const runner = await openInstance(ctx, env, processInstanceId);
  if (!runner) throw instanceDoesNotExist(processInstanceId);
  if (runner.definition.id !== processDefinitionId) {
    throw new ProcessEngineException(
      `ENGINE-13037 Process instance '${processInstanceId}' cannot be modified. Its process definition '${runner.definition.id}' does not match given process definition '${processDefinitionId}'`,
    );
  }
  await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', processInstanceId, runner.definition.key, runner.definition.tenantId);
  runner.skips = skips;
  await modifyInstance(runner, instructions.flatMap((instruction) => resolve(runner, instruction)));
  await completeRun(ctx, runner);
}

/**
 * A cancel with cancelCurrentActiveActivityInstances becomes cancels of the activity's instances
 * (and transition instances) present now, before any instruction ran; nested ones go with their
 * outermost match.
 */
function resolve(runner: ProcessRunner, instruction: BatchModificationInstruction): ModificationInstruction[] {
  if (instruction.type !== 'cancel' || !instruction.cancelCurrentActiveActivityInstances || !instruction.activityId) {
    const { cancelCurrentActiveActivityInstances: _ignored, ...plain } = instruction;
    return [plain as ModificationInstruction];
  }
  const activityId = instruction.activityId;
  const instances = runner.tree.activityInstances;
  const matches = new Set([...instances.values()].filter((each) => each.activityId === activityId || each.activityId === miBodyId(activityId)).map((each) => each.id));
  const nested = (id: string) => {
    for (let parent = instances.get(id)?.parentId ?? null; parent !== null; parent = instances.get(parent)?.parentId ?? null) if (matches.has(parent)) return true;
    return false;
  };
  const cancels: ModificationInstruction[] = [...matches].filter((id) => !nested(id)).map((id) => ({ type: 'cancel', activityInstanceId: id }));
  for (const execution of transitionsAt(runner, activityId)) cancels.push({ type: 'cancel', transitionInstanceId: execution.id });
  return cancels;
}

function settingsOf(processDefinitionId: string, modification: Omit<InstanceModification, 'processDefinitionId'>): InstanceModificationSettings {
  return {
    processDefinitionId,
    instructions: modification.instructions.map((instruction) => mapInstructionVariables(instruction, packVariables)),
    skipCustomListeners: modification.skipCustomListeners === true,
    skipIoMappings: modification.skipIoMappings === true,
  };
}

/** Dates and bytes as JSON keeps them: ISO text and base64. */
function packVariables(variables: Record<string, TypedValue>): Record<string, TypedValue> {
  const packed: Record<string, unknown> = {};
  for (const [name, typed] of Object.entries(variables)) {
    if (typed.type === 'date') packed[name] = { ...typed, value: typed.value?.toISOString() ?? null };
    else if (typed.type === 'bytes') packed[name] = { ...typed, value: typed.value?.toString('base64') ?? null };
    else if (typed.type === 'file') packed[name] = { ...typed, value: { ...typed.value, bytes: typed.value.bytes.toString('base64') } };
    else packed[name] = typed;
  }
  return packed as Record<string, TypedValue>;
}

/** The batch job's inverse of packVariables. */
export function unpackVariables(variables: Record<string, TypedValue>): Record<string, TypedValue> {
  const unpacked: Record<string, TypedValue> = {};
  for (const [name, stored] of Object.entries(variables)) {
    const raw = stored.value as unknown;
    if (stored.type === 'date') unpacked[name] = { ...stored, value: raw === null ? null : new Date(raw as string) };
    else if (stored.type === 'bytes') unpacked[name] = { ...stored, value: raw === null ? null : Buffer.from(raw as string, 'base64') };
    else if (stored.type === 'file') unpacked[name] = { ...stored, value: { ...stored.value, bytes: Buffer.from(stored.value.bytes as unknown as string, 'base64') } };
    else unpacked[name] = stored;
  }
  return unpacked;
}

const instanceDoesNotExist = (id: string) => new ProcessEngineException(`ENGINE-13036 Process instance '${id}' cannot be modified. The process instance does not exist`);
