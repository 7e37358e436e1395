import { inject, injectable } from 'inversify';
import { checkInstance, checkReadInstanceVariables, checkSuspendInstancesOf, checkUpdateInstanceVariables } from '../../authorization/instance-checks.js';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { NotFoundException, NullValueException, ProcessEngineException } from '../../errors/exceptions.js';
import { selectedInstanceIds, type InstanceSelection } from './instance-selection.js';
import { engineMessage } from '../../errors/engine-message.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import { modifyInstance, type ModificationInstruction } from '../../runtime/modification.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { buildActivityInstanceTree } from './activity-instance-tree.js';
import type { ActivityInstanceNode, ProcessInstance, ProcessInstanceQuery } from './process-instance.js';
import { HistoryWriter } from '../../history/history-writer.js';
import { EvaluateStartConditionCmd, type StartConditionEvaluation } from './evaluate-start-condition-cmd.js';
import { StartProcessInstanceCmd, type StartProcessInstanceRequest, type StartedProcessInstance } from './start-process-instance-cmd.js';
import { OperationLogEntries, type VariableOperation } from '../../history/user-operation-entries.js';
import { runnerSkips, type RunnerSkips } from '../../runtime/process-runner.js';

/** Process instances: start, query, inspect, variables and deletion (Camunda's RuntimeService). */

/** How an instance is deleted: with its called instances or not, and without listeners or mappings (Camunda's flags). */
export interface InstanceDeletionOptions extends Partial<RunnerSkips> {
  skipSubprocesses?: boolean;
  failIfNotExists?: boolean;
  reason?: string | null;
}
@injectable()
export class RuntimeService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  /** Needs CREATE on ProcessInstance and CREATE_INSTANCE on the definition. */
  startProcessInstanceById(processDefinitionId: string, request: StartProcessInstanceRequest = {}): Promise<StartedProcessInstance> {
    return this.commands.execute(new StartProcessInstanceCmd(processDefinitionId, request, this.env));
  }

  /**
   * Camunda's createConditionEvaluation().evaluateStartConditions(): starts an instance at every
   * conditional start event whose condition holds for the given variables.
   */
  evaluateStartConditions(evaluation: StartConditionEvaluation = {}): Promise<ProcessInstance[]> {
    return this.commands.execute(new EvaluateStartConditionCmd(evaluation, this.env));
  }

  findProcessInstances(query: ProcessInstanceQuery = {}): Promise<ProcessInstance[]> {
    return this.commands.run('ProcessInstanceQuery', async (ctx) => ctx.processInstances.find(ctx.tenantCheck.query(query), await readableInstances(ctx)));
  }

  countProcessInstances(query: ProcessInstanceQuery = {}): Promise<number> {
    return this.commands.run('ProcessInstanceQuery', async (ctx) => ctx.processInstances.count(ctx.tenantCheck.query(query), await readableInstances(ctx)));
  }

  /** The instance, if it runs and the caller may read it. */
  getProcessInstance(id: string): Promise<ProcessInstance | null> {
    return this.commands.run('ProcessInstanceQuery', async (ctx) => (await ctx.processInstances.find(ctx.tenantCheck.query({ processInstanceIds: [id] }), await readableInstances(ctx)))[0] ?? null);
  }

  /** NotFoundException for an unknown instance. */
  getActivityInstanceTree(processInstanceId: string): Promise<ActivityInstanceNode | null> {
    return this.commands.run('GetActivityInstanceCmd', async (ctx) => {
      const root = await ctx.executions.findById(processInstanceId);
      if (!root || root.parentId !== null) return null;
      await checkInstance(ctx, 'READ', 'READ_INSTANCE', root.id, root.processDefinitionKey, root.tenantId);
      const runner = await this.open(ctx, processInstanceId);
      return buildActivityInstanceTree({
        processInstanceId: root.id,
        processDefinitionId: root.processDefinitionId,
        model: runner.model,
        instances: [...runner.tree.activityInstances.values()],
        executions: [...runner.tree.executions.values()],
        incidents: await ctx.incidents.find({ processInstanceId: root.id }),
      });
    });
  }

  /** The instance's variables by name. */
  getVariables(processInstanceId: string): Promise<Record<string, TypedValue>> {
    return this.commands.run('GetExecutionVariablesCmd', async (ctx) => {
      const runner = await this.open(ctx, processInstanceId);
      await checkReadInstanceVariables(ctx, processInstanceId, runner.definition.key, runner.definition.tenantId);
      return runner.variables.snapshot();
    });
  }

  /** Sets and removes variables of a running instance in one transaction (`operation`: how the user operation log names it). */
  modifyVariables(processInstanceId: string, modifications: Record<string, TypedValue>, deletions: readonly string[] = [], operation?: VariableOperation): Promise<void> {
    return this.commands.run('SetExecutionVariablesCmd', (ctx) => this.modifyVariablesIn(ctx, processInstanceId, modifications, deletions, true, operation));
  }

  /** The variable change inside the caller's command (also the set-variables batch job); `failIfNotExists: false` skips an unknown instance. */
  async modifyVariablesIn(
    ctx: CommandContext,
    processInstanceId: string,
    modifications: Record<string, TypedValue>,
    deletions: readonly string[] = [],
    failIfNotExists = true,
    operation?: VariableOperation,
  ): Promise<void> {
    const runner = failIfNotExists ? await this.open(ctx, processInstanceId) : await openInstance(ctx, this.env, processInstanceId);
    if (!runner) return;
    await checkUpdateInstanceVariables(ctx, processInstanceId, runner.definition.key, runner.definition.tenantId);
    OperationLogEntries.variablesChanged(ctx, { processInstanceId, processDefinitionId: runner.definition.id }, modifications, deletions, operation);
    for (const [name, value] of Object.entries(modifications)) runner.variables.set(name, value);
    for (const name of deletions) runner.variables.remove(name);
    await completeRun(ctx, runner);
  }

  /**
   * Suspends or activates process instances: by id, or every instance of a definition (by id, or
   * by key across its versions). A suspended instance refuses to move until activated.
   */
  updateSuspensionState(target: InstanceSuspensionTarget, suspended: boolean): Promise<void> {
    return this.commands.run(suspended ? 'SuspendProcessInstanceCmd' : 'ActivateProcessInstanceCmd', async (ctx) => {
      if (target.processDefinitionId || target.processDefinitionKey) {
        await this.suspendDefinitionInstances(ctx, target, suspended);
        return;
      }
      // Camunda's UpdateProcessInstancesSuspendStateCmd (one instance by id: its builder), each instance checked.
      const single = target.processInstanceIds?.length === 1 && !target.processInstanceQuery && !target.historicProcessInstanceQuery;
      const ids = single ? (target.processInstanceIds as string[]) : await selectedInstanceIds(ctx, target);
      if (!single) OperationLogEntries.processInstance(ctx, suspended ? 'SuspendJob' : 'ActivateJob', {}, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: false }]);
      for (const id of ids) {
        await this.setInstanceSuspended(ctx, id, suspended);
        OperationLogEntries.processInstanceSuspension(ctx, { processInstanceId: id }, suspended);
      }
    });
  }

  /** Every instance of a definition (by id, or by key across its versions and the given tenant). */
  private async suspendDefinitionInstances(ctx: CommandContext, target: InstanceSuspensionTarget, suspended: boolean): Promise<void> {
    const definitions = target.processDefinitionId
      ? [await ctx.processDefinitions.findById(target.processDefinitionId)].filter((each) => each !== null)
      : await ctx.processDefinitions.findAllByKey(target.processDefinitionKey!, target.processDefinitionTenantId != null ? target.processDefinitionTenantId : target.processDefinitionWithoutTenantId ? null : undefined);
    // Camunda updates the instances of what it names: a definition that does not exist has none.
    if (definitions.length === 0) return;
    // By id the definition must be the caller's tenant's; by key Camunda's tenant-checked update
    // leaves other tenants' instances as they are.
    if (target.processDefinitionId) ctx.tenantCheck.require(definitions[0].tenantId, `update the process definition '${target.processDefinitionId}'`);
    // Camunda checks the definition's instances as a whole, not one by one.
    for (const key of new Set(definitions.map((definition) => definition.key))) await checkSuspendInstancesOf(ctx, key);
    for (const definition of definitions.filter((each) => ctx.tenantCheck.isAuthenticatedTenant(each.tenantId))) {
      for (const instance of await ctx.processInstances.find({ processDefinitionId: definition.id })) await this.setInstanceSuspended(ctx, instance.id, suspended, false);
    }
    OperationLogEntries.processInstanceSuspension(ctx, { processDefinitionId: target.processDefinitionId, processDefinitionKey: target.processDefinitionKey }, suspended);
  }

  /** One instance's suspension inside the caller's command (also the instance-update-suspension-state batch job). */
  async setInstanceSuspended(ctx: CommandContext, id: string, suspended: boolean, check = true): Promise<void> {
    const root = await ctx.executions.findById(id);
    // Camunda's AbstractSetProcessInstanceStateCmd updates by id: an unknown instance changes nothing.
    if (!root || root.parentId !== null) return;
    if (check) ctx.tenantCheck.require(root.tenantId, `update the process instance '${id}'`);
    if (check) await ctx.authz.check(
      { permission: 'SUSPEND', resource: Resources.PROCESS_INSTANCE, resourceId: id },
      { permission: 'SUSPEND_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: root.processDefinitionKey },
      { permission: 'UPDATE', resource: Resources.PROCESS_INSTANCE, resourceId: id },
      { permission: 'UPDATE_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: root.processDefinitionKey },
    );
    await ctx.executions.setSuspendedByProcessInstance(id, suspended);
    await HistoryWriter.processInstanceSuspended(ctx, { processInstanceId: id }, suspended);
  }

  /**
   * Modifies a running instance: cancels activity and transition instances and starts activities
   * (before, after, at a transition), in order, in one transaction. Needs UPDATE on the instance or
   * UPDATE_INSTANCE on its definition. An instance the instructions leave empty ends internally
   * terminated, or externally with `cancellationSourceExternal` (as Camunda's REST resource sets it).
   */
  modifyProcessInstance(
    processInstanceId: string,
    instructions: readonly ModificationInstruction[],
    options: Partial<RunnerSkips> & { annotation?: string | null; cancellationSourceExternal?: boolean } = {},
  ): Promise<void> {
    return this.commands.run('ModifyProcessInstanceCmd', async (ctx) => {
      const runner = await this.open(ctx, processInstanceId, () => new ProcessEngineException(engineMessage('13', '036', `Process instance '${processInstanceId}' cannot be modified. The process instance does not exist`)));
      await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', processInstanceId, runner.definition.key, runner.definition.tenantId);
      OperationLogEntries.processInstance(ctx, 'ModifyProcessInstance', { processInstanceId, processDefinitionId: runner.definition.id, processDefinitionKey: runner.definition.key }, [], options.annotation);
      runner.skips = runnerSkips(options);
      await modifyInstance(runner, instructions, options.cancellationSourceExternal === true);
      await completeRun(ctx, runner);
    });
  }

  /**
   * Cancels every path of the instance and removes it (the reason goes to history, which arrives
   * with the history issue). Called instances are deleted with it unless `skipSubprocesses`, which
   * leaves them running on their own; `failIfNotExists: false` makes an unknown id a no-op.
   */
  deleteProcessInstance(processInstanceId: string, options: InstanceDeletionOptions = {}): Promise<void> {
    return this.commands.run('DeleteProcessInstanceCmd', (ctx) => this.deleteProcessInstanceIn(ctx, processInstanceId, options));
  }

  /** The deletion inside the caller's command (also the instance-deletion batch job). */
  async deleteProcessInstanceIn(
    ctx: CommandContext,
    processInstanceId: string,
    options: InstanceDeletionOptions = {},
  ): Promise<void> {
    const found = await openInstance(ctx, this.env, processInstanceId);
    if (!found && options.failIfNotExists === false) return;
    const runner = found ?? (await this.open(ctx, processInstanceId, () => new NotFoundException(`No process instance found for id '${processInstanceId}': processInstance is null`)));
    await checkInstance(ctx, 'DELETE', 'DELETE_INSTANCE', processInstanceId, runner.definition.key, runner.definition.tenantId);
    OperationLogEntries.processInstance(ctx, 'Delete', { processInstanceId, processDefinitionId: runner.definition.id, processDefinitionKey: runner.definition.key });
    if (options.skipSubprocesses) {
      await ctx.executions.detachCalledInstances(processInstanceId);
      await HistoryWriter.calledInstancesDetached(ctx, processInstanceId);
    }
    runner.skips = runnerSkips(options);
    runner.tree.history.terminate('EXTERNALLY_TERMINATED', options.reason ?? null);
    await runner.cancelInstance();
    await completeRun(ctx, runner);
  }

  /** The running instance, or `missing`: by default Camunda's execution variable commands' NullValueException. */
  private async open(ctx: CommandContext, processInstanceId: string, missing: () => Error = () => new NullValueException(`execution ${processInstanceId} doesn't exist: execution is null`)) {
    const runner = await openInstance(ctx, this.env, processInstanceId);
    if (!runner) throw missing();
    return runner;
  }
}

/** Instances to suspend or activate: a selection (ids, queries), or every instance of a definition (by id, or by key). */
export interface InstanceSuspensionTarget extends InstanceSelection {
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionTenantId?: string | null;
  processDefinitionWithoutTenantId?: boolean;
}

export const readableInstances = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });
