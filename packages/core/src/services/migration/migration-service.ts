import { inject, injectable } from 'inversify';
import type { FlowElementModel, ProcessModel } from '../../bpmn/index.js';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, ProcessEngineException } from '../../errors/exceptions.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import { runnerSkips, type ProcessRunner } from '../../runtime/process-runner.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { eventNameOf } from '../../runtime/events/subscriptions.js';
import { createBoundaryEventTriggers } from '../../runtime/events/boundary-events.js';
import { armEventSubProcesses } from '../../runtime/events/event-sub-processes.js';
import { armGatewayEvents } from '../../runtime/behaviors/event-based-gateway.js';
import { createTimeoutListenerTimers } from '../../runtime/behaviors/user-task.js';
import { migratedCompensation } from '../../runtime/compensation.js';
import { JobHandlerTypes, scheduleTimer, TIMER_JOB_HANDLERS } from '../../runtime/runtime-jobs.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { ProcessModelCache } from '../process-definition/process-model-cache.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import { behaviorOf, continuationSettings, flowScopeOf, isScope, isSupportedBehavior, MI_BODY_SUFFIX, resolveActivity } from './migration-activities.js';
import {
  MigratingProcessInstanceValidationException,
  MigrationPlanValidationException,
  type MigratingProcessInstanceReport,
  type MigrationExecution,
  type MigrationInstruction,
  type MigrationPlan,
  type MigrationPlanInput,
  type MigrationPlanReport,
} from './migration-plan.js';
import { MigrationRepository, type InstanceRows } from './migration-repository.js';
import { cancelUnmappedScopes, createMissingScopes, unsupportedShape, type MigrationSkips } from './migration-scopes.js';
import { checkInstanceTenant, checkPlanTenants } from './migration-tenants.js';
import { HistoryWriter, type MigratedActivityInstance } from '../../history/history-writer.js';
import { generateInstructions, hasFailures, validatePlan, type PlanSides } from './plan-builder.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { IncidentHistory, IncidentState } from '../../history/incident-history.js';
import { endFailedJobIncident } from '../../jobs/job-failure.js';

export interface GenerateMigrationPlanRequest {
  sourceProcessDefinitionId?: string | null;
  targetProcessDefinitionId?: string | null;
  updateEventTriggers?: boolean;
  variables?: Record<string, TypedValue> | null;
}

interface ResolvedPlan {
  plan: MigrationPlan;
  sides: PlanSides;
  source: ProcessDefinition;
  target: ProcessDefinition;
}

const NO_INSTRUCTION = "There is no migration instruction for this instance's activity";

/** Process instance migration (Camunda's MigrationPlanBuilder, MigrationPlanExecutionBuilder): plans and synchronous execution. */
@injectable()
export class MigrationService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(ProcessModelCache) private readonly models: ProcessModelCache,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  /** Maps the activities that are equal in both definitions (same id, type and parent scope); throws when the plan's variables are invalid. */
  generate(request: GenerateMigrationPlanRequest): Promise<MigrationPlan> {
    return this.commands.run('CreateMigrationPlanCmd', async (ctx) => {
      const { source, target } = await this.definitions(ctx, request.sourceProcessDefinitionId, request.targetProcessDefinitionId);
      const sides = await this.sides(ctx, source, target);
      const instructions = generateInstructions(sides, request.updateEventTriggers ?? false);
      const plan: MigrationPlan = { sourceProcessDefinitionId: source.id, targetProcessDefinitionId: target.id, instructions, variables: request.variables ?? null };
      const report = validatePlan(sides, instructions, plan.variables);
      if (hasFailures(report)) throw new MigrationPlanValidationException(source.id, target.id, report);
      return plan;
    });
  }

  /** Creates the plan, throwing MigrationPlanValidationException when it is invalid. */
  createPlan(input: MigrationPlanInput): Promise<MigrationPlan> {
    return this.commands.run('CreateMigrationPlanCmd', async (ctx) => (await this.resolvePlan(ctx, input)).plan);
  }

  /** The plan's validation report (empty lists when it is valid). */
  validate(input: MigrationPlanInput): Promise<MigrationPlanReport> {
    return this.commands.run('CreateMigrationPlanCmd', async (ctx) => {
      try {
        await this.resolvePlan(ctx, input);
        return { instructionReports: [], variableReports: {} };
      } catch (error) {
        if (error instanceof MigrationPlanValidationException) return error.validationReport;
        throw error;
      }
    });
  }

  /** Migrates the selected instances synchronously, all in one transaction: the first failure migrates none. */
  execute(input: MigrationPlanInput | null | undefined, selection: MigrationExecution): Promise<void> {
    return this.commands.run('MigrateProcessInstanceCmd', async (ctx) => {
      const { resolved, processInstanceIds } = await this.select(ctx, input, selection);
      const skips = runnerSkips(selection);
      for (const id of processInstanceIds) await this.migrateInstance(ctx, resolved, id, skips);
      OperationLogEntries.migrated(ctx, { processDefinitionId: resolved.source.id, processDefinitionKey: resolved.source.key }, resolved.target.id, processInstanceIds.length, resolved.plan.variables, false);
    });
  }

  /**
   * For an instance-migration batch (executeAsync), inside the caller's command: builds and validates the
   * plan, collects the selection (the same checks as execute) and checks MIGRATE_INSTANCE; migrates nothing.
   */
  async prepareBatch(
    ctx: CommandContext,
    input: MigrationPlanInput | null | undefined,
    selection: MigrationExecution,
  ): Promise<{ plan: MigrationPlan; processInstanceIds: string[]; sourceDeploymentId: string; tenantId: string | null; checkMigrateInstance: () => Promise<void> }> {
    const { resolved, processInstanceIds } = await this.select(ctx, input, selection, false);
    return {
      plan: resolved.plan,
      processInstanceIds,
      sourceDeploymentId: resolved.source.deploymentId,
      tenantId: resolved.source.tenantId,
      // Camunda's batch builder checks MIGRATE_INSTANCE after the batch permissions.
      checkMigrateInstance: () => checkMigrateInstance(ctx, resolved.source.key, resolved.target.key),
    };
  }

  /** The plan resolved and the instances selected (ids ∪ query), with Camunda's checks; MIGRATE_INSTANCE on both keys unless the caller checks it later. */
  private async select(ctx: CommandContext, input: MigrationPlanInput | null | undefined, selection: MigrationExecution, checkNow = true) {
    if (!input) throw new BadUserRequestException('Migration plan cannot be null: migration plan is null');
    const resolved = await this.resolvePlan(ctx, input);
    const ids = new Set<string | null>(selection.processInstanceIds ?? []);
    if (selection.processInstanceQuery) {
      for (const instance of await ctx.processInstances.find(ctx.tenantCheck.query(selection.processInstanceQuery), await readableInstances(ctx))) ids.add(instance.id);
    }
    if (ids.size === 0) throw new BadUserRequestException('Process instance ids cannot empty: process instance ids is empty');
    if (ids.has(null) || ids.has(undefined as never)) {
      throw new BadUserRequestException('Process instance ids cannot be null: process instance ids contains null value');
    }
    if (checkNow) await checkMigrateInstance(ctx, resolved.source.key, resolved.target.key);
    return { resolved, processInstanceIds: [...ids] as string[] };
  }

  /** Migrates one instance by a stored plan, inside the caller's command (the batch's execution job). */
  async migrateByPlan(ctx: CommandContext, plan: MigrationPlan, processInstanceId: string, skips: MigrationSkips = {}): Promise<void> {
    await this.migrateInstance(ctx, await this.resolvePlan(ctx, plan), processInstanceId, skips);
  }

  private async definitions(ctx: CommandContext, sourceId: string | null | undefined, targetId: string | null | undefined) {
    // Camunda's CreateMigrationPlanCmd: the source (id, then definition), then the target; then its
    // command checkers, the tenant checker before the authorization checker.
    if (sourceId == null) throw new BadUserRequestException('Source process definition id is null');
    const source = await ctx.processDefinitions.findById(sourceId);
    if (!source) throw new BadUserRequestException(`ENGINE-23008 Source process definition with id '${sourceId}' does not exist`);
    if (targetId == null) throw new BadUserRequestException('Target process definition id is null');
    const target = await ctx.processDefinitions.findById(targetId);
    if (!target) throw new BadUserRequestException(`ENGINE-23008 Target process definition with id '${targetId}' does not exist`);
    checkPlanTenants(ctx, source, target);
    await ctx.authz.check({ permission: 'READ', resource: Resources.PROCESS_DEFINITION, resourceId: source.key });
    await ctx.authz.check({ permission: 'READ', resource: Resources.PROCESS_DEFINITION, resourceId: target.key });
    return { source, target };
  }

  private async sides(ctx: CommandContext, source: ProcessDefinition, target: ProcessDefinition): Promise<PlanSides> {
    return { sourceId: source.id, targetId: target.id, source: await this.models.get(ctx, source), target: await this.models.get(ctx, target) };
  }

  private async resolvePlan(ctx: CommandContext, input: MigrationPlanInput): Promise<ResolvedPlan> {
    const { source, target } = await this.definitions(ctx, input.sourceProcessDefinitionId, input.targetProcessDefinitionId);
    const sides = await this.sides(ctx, source, target);
    const instructions: MigrationInstruction[] = (input.instructions ?? []).map((each) => ({
      sourceActivityId: each.sourceActivityId ?? null,
      targetActivityId: each.targetActivityId ?? null,
      updateEventTrigger: each.updateEventTrigger ?? false,
    }));
    const plan: MigrationPlan = { sourceProcessDefinitionId: source.id, targetProcessDefinitionId: target.id, instructions, variables: input.variables ?? null };
    const report = validatePlan(sides, instructions, plan.variables);
    if (hasFailures(report)) throw new MigrationPlanValidationException(source.id, target.id, report);
    return { plan, sides, source, target };
  }

  /**
   * Camunda's MigrateProcessInstanceCmd for one instance: validate, cancel the unmapped scopes
   * (source context), re-point everything to the target, then create the target scopes no
   * instance migrates into and arm new event triggers (target context).
   */
  private async migrateInstance(ctx: CommandContext, resolved: ResolvedPlan, processInstanceId: string, skips: MigrationSkips): Promise<void> {
    const { plan, sides } = resolved;
    const flags = runnerSkips(skips);
    const repository = new MigrationRepository(ctx.trx, ctx.dialect);
    let rows = await repository.load(processInstanceId);
    const root = rows.executions.find((each) => each.id === processInstanceId);
    if (!root) throw new ProcessEngineException(`ENGINE-23003 Process instance '${processInstanceId}' cannot be migrated. The process instance does not exist`);
    checkInstanceTenant(ctx, processInstanceId, root.tenant_id, resolved.target);
    if (root.proc_def_id !== plan.sourceProcessDefinitionId) {
      throw new ProcessEngineException(
        `ENGINE-23002 Process instance '${processInstanceId}' cannot be migrated. Its process definition '${root.proc_def_id}' does not match the source process definition of the migration plan '${plan.sourceProcessDefinitionId}'`,
      );
    }
    const instructionOf = new Map<string, MigrationInstruction>();
    for (const each of plan.instructions) if (!instructionOf.has(each.sourceActivityId!)) instructionOf.set(each.sourceActivityId!, each);
    validateInstance(sides, rows, processInstanceId, instructionOf);
    checkSupportedShape(sides, rows, processInstanceId, instructionOf);

    const unmapped = new Set(rows.activityInstances.filter((each) => each.id !== processInstanceId && !instructionOf.has(each.activity_id)).map((each) => each.id));
    if (unmapped.size > 0) {
      await cancelUnmappedScopes(ctx, this.env, repository, { definition: resolved.source, model: sides.source }, processInstanceId, unmapped, flags);
      rows = await repository.load(processInstanceId);
    }
    const { scopeExecutionOf, migratedActivities } = await applyMigration(ctx, repository, sides, rows, resolved, instructionOf);

    const runner = await openInstance(ctx, this.env, processInstanceId);
    if (!runner) return;
    runner.skips = flags;
    const reparented = await createMissingScopes(runner);
    await updateEventTriggers(runner, repository, rows, instructionOf);
    await armEmergingTriggers(runner, sides, rows, instructionOf, scopeExecutionOf, plan);
    for (const [name, value] of Object.entries(plan.variables ?? {})) runner.variables.set(name, value);
    await completeRun(ctx, runner);
    for (const [id, parentId] of reparented) await repository.setActivityInstanceParent(id, parentId);
    // The migrated activity instances' history follows, under the parents they have now.
    const migrated = migratedActivities.map((each) => ({ ...each, parentId: reparented.get(each.id) ?? each.parentId }));
    await HistoryWriter.processInstanceMigrated(ctx, processInstanceId, resolved.target, migrated);
  }
}

const readableInstances = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });

/** The target activity id an execution or entity at `activityId` moves to, or undefined when nothing maps it. */
function mapActivityId(instructionOf: Map<string, MigrationInstruction>, activityId: string): string | undefined {
  const direct = instructionOf.get(activityId)?.targetActivityId;
  if (direct) return direct;
  // An execution at a multi-instance activity whose body is mapped (the body's outer execution).
  const body = instructionOf.get(activityId + MI_BODY_SUFFIX)?.targetActivityId;
  return body?.endsWith(MI_BODY_SUFFIX) ? body.slice(0, -MI_BODY_SUFFIX.length) : undefined;
}

/** An instruction's target activity by source activity id. */
const targetOf = (instructionOf: Map<string, MigrationInstruction>) => (activityId: string) => instructionOf.get(activityId)?.targetActivityId ?? undefined;

/** Camunda's instance validators (§ activity-instance, transition-instance and unclaimed entities). */
function validateInstance(sides: PlanSides, rows: InstanceRows, processInstanceId: string, instructionOf: Map<string, MigrationInstruction>): void {
  const report: MigratingProcessInstanceReport = {
    processInstanceId,
    failures: [],
    activityInstanceValidationReports: [],
    transitionInstanceValidationReports: [],
  };
  // Transition instances are children of their scope execution's activity instance.
  const executionById = new Map(rows.executions.map((each) => [each.id, each]));
  const scopeInstanceOf = (id: string | null): string | null => {
    const execution = id === null ? undefined : executionById.get(id);
    if (!execution) return null;
    return execution.is_scope ? execution.scope_instance_id : scopeInstanceOf(execution.parent_id);
  };
  // Camunda's TransitionInstanceHandler (the CAM-5609 workaround): only an execution with an async continuation job
  // is a transition instance to migrate; the ended instances a parallel multi-instance body keeps are not.
  const asyncJobOf = (executionId: string) => rows.jobs.find((each) => each.execution_id === executionId && each.handler_type === JobHandlerTypes.asyncContinuation);
  const transitions = rows.executions.filter((each) => each.activity_id !== null && each.activity_instance_id === null && asyncJobOf(each.id));
  const transitionParents = new Set(transitions.map((each) => scopeInstanceOf(each.id)));
  for (const instance of rows.activityInstances) {
    if (instance.id === processInstanceId) continue;
    const failures: string[] = [];
    const instruction = instructionOf.get(instance.activity_id) ?? null;
    const hasChildren = rows.activityInstances.some((each) => each.parent_id === instance.id) || transitionParents.has(instance.id);
    if (!instruction && !hasChildren) failures.push(NO_INSTRUCTION);
    const activity = resolveActivity(sides.source, instance.activity_id);
    const target = instruction ? resolveActivity(sides.target, instruction.targetActivityId!) : null;
    if (activity && target && isScope(activity) && !isScope(target)) {
      // VariableConflictActivityInstanceValidator: a scope's variables would land in a concurrent parent holding the same names.
      const scopeExecution = rows.executions.find((each) => each.id === instance.execution_id);
      const parent = scopeExecution?.parent_id ? rows.executions.find((each) => each.id === scopeExecution.parent_id) : undefined;
      if (scopeExecution && parent?.is_concurrent) {
        const parentNames = new Set(rows.variables.filter((each) => each.execution_id === parent.id).map((each) => each.name));
        for (const name of new Set(rows.variables.filter((each) => each.execution_id === scopeExecution.id).map((each) => each.name))) {
          if (parentNames.has(name)) {
            failures.push(`The variable '${name}' exists in both, this scope and concurrent local in the parent scope. Migrating to a non-scope activity would overwrite one of them.`);
          }
        }
      }
    }
    if (activity && !isSupportedBehavior(behaviorOf(sides.source, activity))) failures.push('The type of the source activity is not supported for activity instance migration');
    if (failures.length > 0) {
      report.activityInstanceValidationReports.push({ migrationInstruction: instruction, activityInstanceId: instance.id, sourceScopeId: instance.activity_id, failures });
    }
  }
  // Transition instances: executions waiting for an async continuation.
  for (const execution of transitions) {
    const activityId = execution.activity_id!;
    const failures: string[] = [];
    const instruction = instructionOf.get(activityId) ?? null;
    const job = asyncJobOf(execution.id);
    if (!instruction) failures.push(NO_INSTRUCTION);
    else {
      const targetActivity = resolveActivity(sides.target, instruction.targetActivityId!);
      const configuration = job?.handler_configuration ?? 'async-before';
      const asyncAfter = configuration.startsWith('async-after');
      if (asyncAfter && targetActivity && sides.target.flowsFrom(targetActivity.element.id).length > 1) {
        const flows = configuration.startsWith('async-after:') ? configuration.slice('async-after:'.length).split(',') : [];
        if (flows.length === 0) failures.push('Transition instance is assigned to no sequence flow and target activity has more than one outgoing sequence flow');
        else if (!flows.every((flow) => sides.target.flowsFrom(targetActivity.element.id).some((each) => each.id === flow))) {
          failures.push('Transition instance is assigned to a sequence flow that cannot be matched in the target activity');
        }
      }
      // Camunda's AsyncProcessStartMigrationValidator: the job that starts the process (asynchronous
      // before the process's start event) can only move to a flow node of the process itself.
      const sourceActivity = resolveActivity(sides.source, activityId);
      const startsProcess = !asyncAfter && sourceActivity?.element.type === 'bpmn:StartEvent' && flowScopeOf(sides.source, sourceActivity) === null;
      if (startsProcess && targetActivity && flowScopeOf(sides.target, targetActivity) !== null) {
        failures.push('A transition instance that instantiates the process can only be migrated to a process-level flow node');
      }
      const camunda = targetActivity ? continuationSettings(targetActivity) : {};
      if (asyncAfter && camunda['asyncAfter'] !== true) failures.push('Target activity is not asyncAfter');
      if (!asyncAfter && camunda['asyncBefore'] !== true && camunda['async'] !== true) failures.push('Target activity is not asyncBefore');
    }
    if (failures.length > 0) {
      report.transitionInstanceValidationReports.push({ migrationInstruction: instruction, transitionInstanceId: execution.id, sourceScopeId: activityId, failures });
    }
  }
  // Compensation subscriptions follow their compensation boundary event (Camunda's NoUnmappedLeafInstanceValidator),
  // reported on the activity instance of the scope they belong to.
  for (const subscription of rows.subscriptions) {
    if (subscription.event_type !== 'compensate' || subscription.activity_id === null) continue;
    const migrated = migratedCompensation(sides.source, sides.target, { activityId: subscription.activity_id, configuration: subscription.configuration }, targetOf(instructionOf));
    if (!('failure' in migrated)) continue;
    const { failure } = migrated;
    const scopeInstanceId = scopeInstanceOf(subscription.execution_id) ?? processInstanceId;
    const existing = report.activityInstanceValidationReports.find((each) => each.activityInstanceId === scopeInstanceId);
    if (existing) existing.failures.push(failure);
    else {
      const sourceScopeId = rows.activityInstances.find((each) => each.id === scopeInstanceId)?.activity_id ?? sides.sourceId;
      report.activityInstanceValidationReports.push({ migrationInstruction: instructionOf.get(sourceScopeId) ?? null, activityInstanceId: scopeInstanceId, sourceScopeId, failures: [failure] });
    }
  }
  const unclaimedJobs = rows.jobs.filter((job) => job.handler_type !== JobHandlerTypes.asyncContinuation && !TIMER_JOB_HANDLERS.has(job.handler_type));
  if (unclaimedJobs.length > 0) report.failures.push(`Process instance contains not migrated jobs: [${unclaimedJobs.map((each) => each.id).join(', ')}]`);
  if (report.failures.length + report.activityInstanceValidationReports.length + report.transitionInstanceValidationReports.length > 0) {
    throw new MigratingProcessInstanceValidationException(report);
  }
}

/**
 * What Trellis cannot migrate yet (Camunda can): an activity instance with children whose activity
 * is a scope on one side only (Trellis re-shapes executions for leaf activities only).
 */
function checkSupportedShape(sides: PlanSides, rows: InstanceRows, processInstanceId: string, instructionOf: Map<string, MigrationInstruction>): void {
  for (const instance of rows.activityInstances) {
    const instruction = instructionOf.get(instance.activity_id);
    if (instance.id === processInstanceId || !instruction) continue;
    const source = resolveActivity(sides.source, instance.activity_id);
    const target = resolveActivity(sides.target, instruction.targetActivityId!);
    const hasChildren = rows.activityInstances.some((each) => each.parent_id === instance.id);
    if (source && target && hasChildren && isScope(source) !== isScope(target)) {
      throw unsupportedShape(processInstanceId, `activity '${source.id}' has child instances and is a scope on one side only ('${target.id}')`);
    }
  }
}

async function applyMigration(
  ctx: CommandContext,
  repository: MigrationRepository,
  sides: PlanSides,
  rows: InstanceRows,
  resolved: ResolvedPlan,
  instructionOf: Map<string, MigrationInstruction>,
): Promise<{ scopeExecutionOf: Map<string, string>; migratedActivities: MigratedActivityInstance[] }> {
  const { target: targetDefinition } = resolved;
  const map = (activityId: string | null) => (activityId === null ? null : (mapActivityId(instructionOf, activityId) ?? activityId));
  const targetModel: ProcessModel = sides.target;
  const processInstanceId = rows.executions[0]?.proc_inst_id;
  const migratedActivities: MigratedActivityInstance[] = [];

  for (const instance of rows.activityInstances) {
    if (instance.id === processInstanceId) {
      await repository.updateActivityInstance(instance.id, { activity_id: targetDefinition.id, activity_name: targetDefinition.name });
      continue;
    }
    const target = resolveActivity(targetModel, map(instance.activity_id)!);
    if (!target) continue;
    const activity = { activity_id: target.id, activity_type: target.body ? 'multiInstanceBody' : target.element.activityType, activity_name: target.element.name };
    await repository.updateActivityInstance(instance.id, activity);
    migratedActivities.push({ id: instance.id, activityId: activity.activity_id, activityType: activity.activity_type, activityName: activity.activity_name, parentId: instance.parent_id });
  }
  for (const execution of rows.executions) {
    await repository.updateExecution(execution.id, {
      proc_def_id: targetDefinition.id,
      proc_def_key: targetDefinition.key,
      activity_id: map(execution.activity_id),
      scope_activity_id: map(execution.scope_activity_id),
    });
  }
  for (const task of rows.tasks) await repository.updateTask(task.id, { proc_def_id: targetDefinition.id, task_def_key: map(task.task_def_key) });
  for (const task of rows.externalTasks) {
    await repository.updateExternalTask(task.id, { proc_def_id: targetDefinition.id, proc_def_key: targetDefinition.key, activity_id: map(task.activity_id)! });
  }

  // Jobs: mapped timers and async continuations follow their activity; timers of unmapped events are deleted.
  const targetJobDefinitions = rows.jobs.length === 0 ? [] : await repository.jobDefinitionsOf(targetDefinition.id);
  const newJobDefinition = new Map<string, string | null>();
  for (const job of rows.jobs) {
    const isTimer = TIMER_JOB_HANDLERS.has(job.handler_type);
    const mapped = job.activity_id === null ? undefined : mapActivityId(instructionOf, job.activity_id);
    const listenerId = job.handler_type === JobHandlerTypes.taskListenerTimer ? ((job.handler_configuration ?? '').split('$')[1] ?? '') : null;
    // Camunda's isNoTimeoutListenerOrMigrates: a timeout listener's timer goes unless the target task has that listener.
    const listenerGone = listenerId !== null && !timeoutListenerIds(mapped === undefined ? undefined : targetModel.activity(mapped)).has(listenerId);
    if (isTimer && (mapped === undefined || listenerGone)) {
      // A failed timer's incident goes with it, and its copies in calling instances (Camunda's JobEntity.delete).
      await endFailedJobIncident(ctx, job.id, IncidentState.deleted);
      await repository.deleteJob(job.id);
      continue;
    }
    const activityId = mapped ?? job.activity_id;
    const oldDefinition = job.job_definition_id ? await repository.jobDefinition(job.job_definition_id) : undefined;
    const jobDefinition = targetJobDefinitions.find(
      (each) => each.activity_id === activityId && (oldDefinition === undefined || each.job_type === oldDefinition.job_type),
    );
    newJobDefinition.set(job.id, jobDefinition?.id ?? null);
    // Without a target job definition the job keeps its own (Camunda's MigratingJobInstance.migrateState); its failed activity stays.
    const changes: Parameters<MigrationRepository['updateJob']>[1] = {
      activity_id: activityId,
      job_definition_id: jobDefinition?.id ?? job.job_definition_id,
      process_definition_id: targetDefinition.id,
      process_definition_key: targetDefinition.key,
      deployment_id: targetDefinition.deploymentId,
    };
    if (listenerId !== null) changes.handler_configuration = `${activityId}$${listenerId}`;
    else if (isTimer && job.handler_configuration === job.activity_id) changes.handler_configuration = activityId;
    await repository.updateJob(job.id, changes);
  }

  // Event subscriptions: mapped events keep theirs (renamed only with updateEventTrigger); unmapped ones lose them.
  for (const subscription of rows.subscriptions) {
    if (subscription.activity_id === null) {
      await repository.updateSubscription(subscription.id, { proc_def_id: targetDefinition.id });
      continue;
    }
    if (subscription.event_type === 'compensate') {
      // Validated: each one has its target.
      const migrated = migratedCompensation(sides.source, targetModel, { activityId: subscription.activity_id, configuration: subscription.configuration }, targetOf(instructionOf));
      if (!('failure' in migrated)) await repository.updateSubscription(subscription.id, { proc_def_id: targetDefinition.id, activity_id: migrated.activityId, configuration: migrated.configuration });
      continue;
    }
    const mapped = mapActivityId(instructionOf, subscription.activity_id);
    if (mapped === undefined) {
      await repository.deleteSubscription(subscription.id);
      continue;
    }
    await repository.updateSubscription(subscription.id, { proc_def_id: targetDefinition.id, activity_id: mapped });
  }

  for (const incident of rows.incidents) {
    if (incident.incident_type === 'failedJob' && incident.configuration && !rows.jobs.some((job) => job.id === incident.configuration)) continue;
    const deleted = incident.incident_type === 'failedJob' && incident.configuration !== null && !newJobDefinition.has(incident.configuration);
    if (deleted) continue;
    // Camunda's MigratingIncident.migrateState: its failed activity stays; the historic incident follows.
    const changes = {
      proc_def_id: targetDefinition.id,
      activity_id: map(incident.activity_id),
      job_def_id: incident.incident_type === 'failedJob' && incident.configuration ? (newJobDefinition.get(incident.configuration) ?? null) : incident.job_def_id,
    };
    await repository.updateIncident(incident.id, changes);
    await IncidentHistory.migrated(ctx, incident.id, { ...changes, proc_def_key: targetDefinition.key });
  }
  return { scopeExecutionOf: await restructureScopes(ctx, repository, sides, rows, resolved, instructionOf), migratedActivities };
}

/**
 * Leaf activities that are a scope on one side only (boundary events or I/O mappings added or
 * removed): a removed scope's execution hands what it owns to its parent; a new scope gets its own
 * child execution. Returns the scope execution of each migrated activity instance.
 */
async function restructureScopes(
  ctx: CommandContext,
  repository: MigrationRepository,
  sides: PlanSides,
  rows: InstanceRows,
  resolved: ResolvedPlan,
  instructionOf: Map<string, MigrationInstruction>,
): Promise<Map<string, string>> {
  const scopeExecutionOf = new Map<string, string>();
  const processInstanceId = rows.executions[0]?.proc_inst_id;
  for (const instance of rows.activityInstances) {
    if (instance.id === processInstanceId) continue;
    const instruction = instructionOf.get(instance.activity_id);
    const source = resolveActivity(sides.source, instance.activity_id);
    const target = instruction ? resolveActivity(sides.target, instruction.targetActivityId!) : null;
    const execution = rows.executions.find((each) => each.id === instance.execution_id);
    if (!source || !target || !execution) continue;
    if (isScope(source) === isScope(target)) {
      scopeExecutionOf.set(instance.id, execution.id);
      continue;
    }
    if (isScope(source)) {
      const parentId = execution.parent_id!;
      const parentNames = rows.variables.filter((each) => each.execution_id === parentId);
      const ownNames = new Set(rows.variables.filter((each) => each.execution_id === execution.id).map((each) => each.name));
      for (const variable of parentNames) if (ownNames.has(variable.name)) await repository.deleteVariable(variable.id);
      await repository.moveOwnedRows(execution.id, parentId);
      await repository.setExecutionState(parentId, { is_active: 1, activity_id: target.id, activity_instance_id: instance.id });
      await repository.deleteExecution(execution.id);
      scopeExecutionOf.set(instance.id, parentId);
    } else {
      const id = ctx.ids.next();
      await repository.insertExecution({
        ...execution,
        id,
        rev: 1,
        parent_id: execution.id,
        proc_def_id: resolved.target.id,
        proc_def_key: resolved.target.key,
        activity_id: target.id,
        activity_instance_id: instance.id,
        is_active: 1,
        is_concurrent: 0,
        is_scope: 1,
        is_compensating: 0,
        start_time: ctx.clock.now().getTime(),
        scope_activity_id: target.id,
        scope_instance_id: instance.id,
        super_execution_id: null,
        super_proc_inst_id: null,
      });
      await repository.moveActivityRows(execution.id, id, instance.id);
      await repository.setExecutionState(execution.id, { is_active: 0 });
      scopeExecutionOf.set(instance.id, id);
    }
  }
  return scopeExecutionOf;
}

/**
 * Camunda's updateEventTrigger: a migrated message, signal or timer trigger takes its target
 * declaration, evaluated now on the execution that owns it (EventSubscriptionDeclaration.updateSubscription,
 * TimerDeclarationImpl.updateJob: time already elapsed is ignored).
 */
async function updateEventTriggers(runner: ProcessRunner, repository: MigrationRepository, rows: InstanceRows, instructionOf: Map<string, MigrationInstruction>): Promise<void> {
  const targetOfUpdated = (activityId: string | null) => {
    const instruction = activityId === null ? undefined : instructionOf.get(activityId);
    return instruction?.updateEventTrigger ? runner.model.activity(instruction.targetActivityId!) : undefined;
  };
  const jobs = rows.jobs.filter((job) => TIMER_JOB_HANDLERS.has(job.handler_type) && targetOfUpdated(job.activity_id));
  const subscriptions = rows.subscriptions.filter((each) => each.event_type !== 'compensate' && targetOfUpdated(each.activity_id));
  if (jobs.length + subscriptions.length === 0) return;
  // Their executions now: re-shaping the tree may have moved them.
  const executionOf = await repository.executionsOf(jobs.map((each) => each.id), subscriptions.map((each) => each.id));
  const executionFor = (id: string) => runner.tree.executions.get(executionOf.get(id) ?? '');
  for (const job of jobs) {
    const element = targetOfUpdated(job.activity_id)!;
    const timer = element.eventDefinitions.find((each) => each.timer)?.timer;
    const execution = executionFor(job.id);
    if (!timer || !execution) continue;
    const { dueDate, repeat } = scheduleTimer(runner, execution, element, job.handler_type, timer);
    // Camunda sets the repeat of a target timer that repeats and leaves the job's as it was otherwise.
    await repository.updateJob(job.id, repeat === null ? { due_date: dueDate.getTime() } : { due_date: dueDate.getTime(), repeat_text: repeat });
  }
  for (const subscription of subscriptions) {
    const definition = targetOfUpdated(subscription.activity_id)!.eventDefinitions.find((each) => each.messageName !== null || each.signalName !== null);
    const execution = executionFor(subscription.id);
    if (definition && execution) await repository.updateSubscription(subscription.id, { event_name: eventNameOf(runner, execution, definition) });
  }
}

/**
 * The triggers of target events that no instruction maps onto, for every migrated scope instance
 * (Camunda's addEmergingEventSubscriptions, addEmergingTimerJobs, addEmergingTimeoutListenerJobs):
 * the process's event sub-processes, an activity's boundary events and event sub-processes, the
 * events after an event-based gateway, and a user task's timeout listeners new in the target.
 */
async function armEmergingTriggers(
  runner: ProcessRunner,
  sides: PlanSides,
  rows: InstanceRows,
  instructionOf: Map<string, MigrationInstruction>,
  scopeExecutionOf: Map<string, string>,
  plan: MigrationPlan,
): Promise<void> {
  const targeted = new Set(plan.instructions.map((each) => each.targetActivityId!));
  if (runner.tree.root) await armEventSubProcesses(runner, runner.tree.root, sides.target.key, targeted);
  for (const instance of rows.activityInstances) {
    const target = resolveActivity(sides.target, instructionOf.get(instance.activity_id)?.targetActivityId ?? '');
    const execution = runner.tree.executions.get(scopeExecutionOf.get(instance.id) ?? '');
    if (!target || !execution) continue;
    // Boundary events of a multi-instance activity belong to its body.
    if (target.body) {
      await createBoundaryEventTriggers(runner, execution, target.element, targeted);
      continue;
    }
    await runner.armScopeTriggers(execution, target.element, targeted);
    if (target.element.type === 'bpmn:EventBasedGateway') await armGatewayEvents(runner, execution, target.element, targeted);
    // A timeout listener the source task had too already fired or migrates (isNonInterruptingTimeoutListenerTriggeredAlready).
    await createTimeoutListenerTimers(runner, execution, target.element, timeoutListenerIds(sides.source.activity(instance.activity_id)));
  }
}

/** The ids of a task's timeout listeners (empty for no task). */
const timeoutListenerIds = (element: FlowElementModel | undefined) =>
  new Set((element?.taskListeners ?? []).filter((each) => each.event === 'timeout').map((each) => each.id ?? ''));

/** Camunda's AbstractMigrationCmd.checkAuthorizations: MIGRATE_INSTANCE on the source and the target definition, both needed (both listed when denied). */
function checkMigrateInstance(ctx: CommandContext, sourceKey: string, targetKey: string): Promise<void> {
  return ctx.authz.checkAll(
    { permission: 'MIGRATE_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: sourceKey },
    { permission: 'MIGRATE_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: targetKey },
  );
}
