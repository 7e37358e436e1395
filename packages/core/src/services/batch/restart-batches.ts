import { checkCreateInstance } from '../../authorization/instance-checks.js';
import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, ProcessEngineException } from '../../errors/exceptions.js';
import type { ModificationInstruction } from '../../runtime/modification.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { startInstance } from '../../runtime/start-instance.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { HistoricInstanceRepository } from '../../persistence/repositories/historic-instance-repository.js';
import { HistoricVariableRepository } from '../../persistence/repositories/historic-variable-repository.js';
import { historicInstanceIds } from '../history/historic-instance-ids.js';
import type { HistoricProcessInstanceQuery } from '../history/historic-instances.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import { ensureDefinitionActive, noDeployedDefinition } from '../process-definition/process-definition-messages.js';
import { checkCreateBatch } from './async-operations.js';
import { BatchTypes, type Batch } from './batch.js';
import { createBatch, type CreateBatchOptions } from './batch-service.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/** Where a restarted instance begins: Camunda's restart instructions carry no variables or ancestor. */
export type RestartInstruction =
  | { type: 'startBeforeActivity'; activityId: string }
  | { type: 'startAfterActivity'; activityId: string }
  | { type: 'startTransition'; transitionId: string };

/** What POST /process-definition/{id}/restart(-async) restarts and how (Camunda's RestartProcessInstanceBuilder). */
export interface InstanceRestart {
  processDefinitionId: string;
  instructions: readonly RestartInstruction[];
  processInstanceIds?: ReadonlyArray<string | null> | null;
  historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null;
  /** The variables the instance started with, instead of its last ones. */
  initialVariables?: boolean;
  /** Kept for Camunda's contract: the start with instructions runs no custom listeners or io mappings of its own. */
  skipCustomListeners?: boolean;
  skipIoMappings?: boolean;
  /** Start without the historic instance's business key. */
  withoutBusinessKey?: boolean;
}

/** The instance-restart batch's settings (Camunda's RestartProcessInstancesBatchConfiguration). */
export interface InstanceRestartSettings {
  processDefinitionId: string;
  instructions: RestartInstruction[];
  initialVariables: boolean;
  skipCustomListeners: boolean;
  skipIoMappings: boolean;
  withoutBusinessKey: boolean;
}

type Sizing = Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'>;

/**
 * Restart of finished process instances (Camunda's RestartProcessInstancesCmd and
 * RestartProcessInstancesBatchCmd): each historic instance of the definition starts again as a new
 * instance at the given activities, with its last (or initial) variables from history and its
 * business key. The historic instance must have ended and belong to the given definition.
 */
@injectable()
export class RestartBatches {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  /** Restarts all selected instances in one transaction: one that cannot be restarted leaves all unchanged. READ_HISTORY on the definition. */
  restart(restart: InstanceRestart): Promise<void> {
    return this.commands.run('RestartProcessInstancesCmd', async (ctx) => {
      // RestartProcessInstancesCmd checks the instructions before it collects the instances.
      if (restart.instructions.length === 0) throw noInstructions();
      const ids = await validate(ctx, restart);
      const definition = await deployedDefinition(ctx, restart.processDefinitionId);
      await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key });
      const settings = settingsOf(restart);
      OperationLogEntries.processInstance(ctx, 'RestartProcessInstance', { processDefinitionId: definition.id, processDefinitionKey: definition.key }, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: false }]);
      for (const id of ids) await restartInstance(ctx, this.env, definition, id, settings);
    });
  }

  /** Validates now; the instance-restart batch's jobs restart the instances. BATCH CREATE or CREATE_BATCH_RESTART_PROCESS_INSTANCES. */
  restartAsync(restart: InstanceRestart, sizing: Sizing = {}): Promise<Batch> {
    return this.commands.run('RestartProcessInstancesBatchCmd', async (ctx) => {
      const ids = await validate(ctx, restart);
      const definition = await deployedDefinition(ctx, restart.processDefinitionId);
      await checkCreateBatch(ctx, 'CREATE_BATCH_RESTART_PROCESS_INSTANCES');
      OperationLogEntries.processInstance(ctx, 'RestartProcessInstance', { processDefinitionId: definition.id, processDefinitionKey: definition.key }, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: true }]);
      return createBatch(ctx, BatchTypes.instanceRestart, ids, settingsOf(restart), { ...sizing, tenantId: definition.tenantId, deploymentId: definition.deploymentId });
    });
  }
}

/** Camunda's order (RestartProcessInstancesBatchCmd): the union of ids and query must not be empty, then the instructions, then no null id. */
async function validate(ctx: CommandContext, restart: InstanceRestart): Promise<string[]> {
  const ids = new Set<string | null>(restart.processInstanceIds ?? []);
  if (restart.historicProcessInstanceQuery) for (const id of await historicInstanceIds(ctx, restart.historicProcessInstanceQuery)) ids.add(id);
  if (ids.size === 0) throw new BadUserRequestException('processInstanceIds is empty');
  if (restart.instructions.length === 0) throw noInstructions();
  if (ids.has(null) || ids.has(undefined as never)) throw new BadUserRequestException('Process instance ids cannot be null: Process instance ids contains null value');
  return [...ids] as string[];
}

const noInstructions = () => new BadUserRequestException('Restart instructions cannot be empty: instructions is empty');

/** The definition by Camunda's deployment cache: NotFoundException for an unknown id, before any permission check. */
async function deployedDefinition(ctx: CommandContext, id: string): Promise<ProcessDefinition> {
  const definition = await ctx.processDefinitions.findById(id);
  if (!definition) throw noDeployedDefinition(id);
  return definition;
}

function settingsOf(restart: InstanceRestart): InstanceRestartSettings {
  return {
    processDefinitionId: restart.processDefinitionId,
    instructions: restart.instructions.map(instructionOf),
    initialVariables: restart.initialVariables === true,
    skipCustomListeners: restart.skipCustomListeners === true,
    skipIoMappings: restart.skipIoMappings === true,
    withoutBusinessKey: restart.withoutBusinessKey === true,
  };
}

/** Only the target of an instruction counts: instruction variables are not applied on restart. */
function instructionOf(instruction: RestartInstruction): RestartInstruction {
  return instruction.type === 'startTransition' ? { type: instruction.type, transitionId: instruction.transitionId } : { type: instruction.type, activityId: instruction.activityId };
}

/**
 * One historic instance's restart inside the caller's command (also the batch's execution job):
 * checks it as Camunda does, then starts a new instance of the definition at the instructions,
 * with CREATE on PROCESS_INSTANCE and CREATE_INSTANCE on the definition as any start needs.
 */
export async function restartInstance(
  ctx: CommandContext,
  env: RuntimeEnvironment,
  definition: ProcessDefinition,
  historicId: string,
  settings: InstanceRestartSettings,
): Promise<string> {
  const readable = await ctx.authz.historyFilter();
  const [historic] = await new HistoricInstanceRepository(ctx.trx).findProcessInstances(ctx.tenantCheck.query({ processInstanceId: historicId }), readable);
  if (!historic) throw new BadUserRequestException('Historic process instance cannot be found: historicProcessInstanceId is null');
  if (historic.endTime === null) {
    throw new ProcessEngineException(`ENGINE-13040 Historic process instance '${historicId}' cannot be restarted. It is not completed or terminated.`);
  }
  if (historic.processDefinitionId !== settings.processDefinitionId) {
    throw new ProcessEngineException(
      `ENGINE-13039 Historic process instance '${historicId}' cannot be restarted. Its process definition '${historic.processDefinitionId}' does not match given process definition '${settings.processDefinitionId}'`,
    );
  }
  await checkCreateInstance(ctx, definition);
  ensureDefinitionActive(definition);
  const runner = await startInstance(ctx, env, definition, {
    businessKey: settings.withoutBusinessKey ? null : historic.businessKey,
    variables: await variablesOf(ctx, historicId, settings.initialVariables),
    startActivityId: '',
    instructions: settings.instructions as readonly ModificationInstruction[],
    skips: { skipCustomListeners: settings.skipCustomListeners, skipIoMappings: settings.skipIoMappings },
  });
  const id = runner.tree.processInstanceId;
  // The new instance's history names the instance it restarts (Camunda's restartedProcessInstanceId).
  await ctx.trx.updateTable('trellis_hi_procinst').set({ restarted_proc_inst_id: historicId }).where('id', '=', id).execute();
  return id;
}

/**
 * The process-instance-scope variables of the historic instance: their last values (historic
 * variable instances, level audit and up) or, with `initial`, the values they started with (the
 * initial historic details, level full). At a lower level history holds none, and the instance
 * restarts without variables.
 */
async function variablesOf(ctx: CommandContext, processInstanceId: string, initial: boolean): Promise<Record<string, TypedValue>> {
  const repository = new HistoricVariableRepository(ctx.trx);
  const variables: Record<string, TypedValue> = {};
  if (initial) {
    const query = { processInstanceId, executionId: processInstanceId, initial: true, variableUpdates: true, sorting: [{ sortBy: 'occurrence' as const, sortOrder: 'asc' as const }] };
    for (const detail of await repository.findDetails(query, null, true)) {
      if (detail.type === 'variableUpdate' && !(detail.variableName in variables)) variables[detail.variableName] = detail.value;
    }
  } else {
    const instances = await repository.findInstances({ processInstanceId, executionIdIn: [processInstanceId] }, null, true);
    for (const instance of instances) variables[instance.name] = instance.value;
  }
  return variables;
}
