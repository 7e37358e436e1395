import type { FlowElementModel, ProcessModel } from '../../bpmn/index.js';
import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { loadInstanceRows } from '../../persistence/repositories/instance-rows.js';
import { activityInstanceId, type ActivityInstance, type Execution } from '../../runtime/execution.js';
import { ExecutionTree } from '../../runtime/execution-tree.js';
import { InstanceVariables } from '../../runtime/instance-variables.js';
import { scopeElementId } from '../../runtime/multi-instance.js';
import { ProcessRunner, type RunnerSkips } from '../../runtime/process-runner.js';
import type { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { scopeTriggerActivities } from '../../runtime/events/event-sub-processes.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import { flowScopeOf, MI_BODY_SUFFIX, resolveActivity } from './migration-activities.js';
import { MigrationRepository } from './migration-repository.js';

/** Camunda's skipCustomListeners / skipIoMappings of a migration execution (the runner's skips, each optional). */
export type MigrationSkips = Partial<RunnerSkips>;

/** What Trellis cannot migrate yet (Camunda can): the message says which shape, so the caller knows it is Trellis' limit. */
export const unsupportedShape = (processInstanceId: string, why: string) =>
  new ProcessEngineException(`Cannot migrate process instance '${processInstanceId}': ${why} (not supported by Trellis' migration yet)`);

/**
 * Cancels the unmapped (non-leaf) activity instances bottom-up in the context of the source
 * definition (Camunda's DeleteUnmappedInstanceVisitor): output mappings and end listeners run
 * unless skipped, the scope execution and its local variables go, and what ran inside re-attaches
 * to the enclosing scope. Leaves the rows written; the caller reads them afresh.
 */
export async function cancelUnmappedScopes(
  ctx: CommandContext,
  env: RuntimeEnvironment,
  repository: MigrationRepository,
  source: { definition: ProcessDefinition; model: ProcessModel },
  processInstanceId: string,
  unmapped: ReadonlySet<string>,
  skips: RunnerSkips,
): Promise<void> {
  if (unmapped.size === 0) return;
  const rows = await loadInstanceRows(ctx.trx, ctx.dialect, processInstanceId);
  const { executions, activityInstances } = ctx.executions.adopt(rows.executions, rows.activityInstances);
  const tree = ExecutionTree.of(processInstanceId, executions, activityInstances);
  const variables = InstanceVariables.of(processInstanceId, ctx.variables.adopt(rows.variables));
  // A runner of its own (not the command's open instance): it runs listeners and mappings against the source model.
  const runner = new ProcessRunner(ctx, env, tree, source.model, source.definition, variables);
  runner.skips = skips;
  const parentOf = new Map([...tree.activityInstances.values()].map((each) => [each.id, each.parentId]));
  const depth = (id: string): number => (parentOf.get(id) ? 1 + depth(parentOf.get(id)!) : 0);
  for (const instanceId of [...unmapped].sort((a, b) => depth(b) - depth(a))) {
    await cancelScope(runner, repository, tree.activityInstances.get(instanceId)!);
  }
  await tree.flush(ctx);
  await variables.flush(ctx);
  // Children of cancelled instances hang below the closest ancestor that stays.
  const kept = (id: string | null): string | null => (id !== null && unmapped.has(id) ? kept(parentOf.get(id) ?? null) : id);
  for (const [id, parentId] of parentOf) {
    if (unmapped.has(id) || parentId === null || !unmapped.has(parentId)) continue;
    await repository.setActivityInstanceParent(id, kept(parentId)!);
  }
}

async function cancelScope(runner: ProcessRunner, repository: MigrationRepository, instance: ActivityInstance): Promise<void> {
  const { tree } = runner;
  const processInstanceId = tree.processInstanceId;
  const isBody = instance.activityId.endsWith(MI_BODY_SUFFIX);
  const scope = [...tree.executions.values()].find((each) => each.isScope && each.scopeInstanceId === instance.id);
  const element = runner.model.activity(isBody ? scopeElementId(instance.activityId) : instance.activityId);
  if (!scope || !element || scope.parentId === null) throw unsupportedShape(processInstanceId, `activity instance '${instance.id}' is not mapped and is no scope that could be cancelled`);
  // Camunda removes it with a cascading delete (MigratingActivityInstance.remove). A multi-instance
  // body has no mappings or listeners of its own (they belong to the inner activity).
  if (!isBody) await runner.endCancelledActivity(scope, element);

  const holder = runner.parentOf(scope);
  const children = tree.childrenOf(scope.id);
  let heir: Execution;
  if (scope.activityId !== null && !children.some((child) => child.isConcurrent)) {
    // One path inside: the holder takes it over (its activity, activity instance and scope child).
    holder.activityId = scope.activityId;
    holder.activityInstanceId = scope.activityInstanceId;
    holder.isActive = scope.isActive;
    tree.touch(holder);
    heir = holder;
  } else if (holder.isScope && tree.childrenOf(holder.id).length === 1) {
    // Concurrent paths inside, and the scope was the holder's only path: they become the holder's.
    holder.activityId = null;
    holder.activityInstanceId = holder.scopeInstanceId;
    holder.isActive = false;
    tree.touch(holder);
    heir = holder;
  } else if (holder.isConcurrent) {
    // Concurrent paths inside a concurrent path: they join the paths of the enclosing scope.
    heir = runner.parentOf(holder);
    runner.variables.removeScope(holder.id);
    tree.remove(holder);
  } else {
    throw unsupportedShape(processInstanceId, `the execution tree around activity instance '${instance.id}' cannot be re-shaped`);
  }
  for (const child of children) {
    child.parentId = heir.id;
    tree.touch(child);
  }
  for (const each of tree.activityInstances.values()) if (each.executionId === scope.id && each.id !== instance.id) tree.moveActivityInstance(each.id, heir.id);
  // What the scope execution owned moves along; triggers of the cancelled scope itself are unmapped and go with the migration.
  await runner.ctx.tasks.moveExecution(scope.id, heir.id);
  await runner.ctx.jobs.moveExecution(scope.id, heir.id, []);
  await runner.ctx.eventSubscriptions.moveExecution(scope.id, heir.id, [], true);
  await runner.ctx.externalTasks.moveExecution(scope.id, heir.id);
  await repository.moveIncidents(scope.id, heir.id);
  // A sequential instance runs on the body execution itself: its loopCounter and element variable stay (with the heir).
  if (isBody && element.multiInstance?.isSequential && scope.activityId !== null) {
    for (const name of ['loopCounter', element.multiInstance.elementVariable]) {
      const value = name ? runner.variables.getLocal(scope.id, name) : undefined;
      if (value !== undefined) runner.variables.setLocal(heir.id, name!, value);
    }
  }
  tree.removeActivityInstance(instance.id);
  runner.variables.removeScope(scope.id);
  tree.remove(scope);
}

/**
 * Creates the target scopes that no instance migrates into (Camunda's MigratingActivityInstanceVisitor
 * instantiating new scopes top-down), in the target context: a scope execution and activity instance
 * per missing scope, input mappings and start listeners unless skipped, the triggers of its boundary
 * events and event sub-processes, and the migrated instance attached below it. Instances of one parent
 * that move into the same new scope share it. Returns the activity instances whose parent changed.
 */
export async function createMissingScopes(runner: ProcessRunner): Promise<Map<string, string>> {
  const { tree } = runner;
  const reparented = new Map<string, string>();
  const created = new Map<string, { instanceId: string; scope: Execution }>();
  const depth = (instance: ActivityInstance): number => {
    const parent = instance.parentId ? tree.activityInstances.get(instance.parentId) : undefined;
    return parent ? 1 + depth(parent) : 0;
  };
  const instances = [...tree.activityInstances.values()].filter((each) => each.parentId !== null).sort((a, b) => depth(a) - depth(b));
  for (const instance of instances) {
    const parentInstanceId = await placeInTargetScope(runner, { instance }, instance.parentId!, created);
    if (parentInstanceId === instance.parentId) continue;
    instance.parentId = parentInstanceId;
    reparented.set(instance.id, parentInstanceId);
  }
  // Transition instances (waiting async continuations) after the activity instances: they are leaves.
  for (const execution of [...tree.executions.values()].filter((each) => each.activityId !== null && each.activityInstanceId === null)) {
    const parentInstanceId = runner.scopeExecutionOf(execution).scopeInstanceId ?? tree.processInstanceId;
    await placeInTargetScope(runner, { transition: execution }, parentInstanceId, created);
  }
  return reparented;
}

/** An activity instance, or a transition instance (an execution waiting for an async continuation). */
type Migrating = { instance: ActivityInstance; transition?: undefined } | { transition: Execution; instance?: undefined };


/** Creates the scopes between the element's parent instance and its activity's flow scope; returns its parent instance then. */
async function placeInTargetScope(
  runner: ProcessRunner,
  element: Migrating,
  parentInstanceId: string,
  created: Map<string, { instanceId: string; scope: Execution }>,
): Promise<string> {
  const { tree, model } = runner;
  const id = element.instance?.id ?? element.transition!.id;
  const activity = resolveActivity(model, element.instance?.activityId ?? element.transition!.activityId!);
  const parent = tree.activityInstances.get(parentInstanceId);
  if (!activity || !parent) return parentInstanceId;
  const parentScope = parent.parentId === null ? null : parent.activityId;
  const chain: string[] = [];
  for (let scope = flowScopeOf(model, activity); scope && scope.id !== parentScope; scope = flowScopeOf(model, scope)) chain.unshift(scope.id);
  if (chain.length === 0) return parentInstanceId;
  if ((flowScopeOf(model, resolveActivity(model, chain[0])!)?.id ?? null) !== parentScope) {
    throw unsupportedShape(tree.processInstanceId, `instance '${id}' would leave scope '${parentScope ?? model.key}'`);
  }
  if (chain.some((each) => each.endsWith(MI_BODY_SUFFIX))) throw unsupportedShape(tree.processInstanceId, `instance '${id}' would need a new multi-instance body`);
  let current = parentInstanceId;
  for (const scopeId of chain) {
    const key = `${current}|${scopeId}`;
    let entry = created.get(key);
    if (!entry) {
      entry = await instantiateAround(runner, element, model.activity(scopeId)!, current);
      created.set(key, entry);
    } else {
      await attachInto(runner, element, entry.scope);
    }
    current = entry.instanceId;
  }
  return current;
}

/** The execution that runs an element's path (the holder of a scope activity's scope execution, else the one at it), and that scope execution. */
function holderOf(tree: ExecutionTree, element: Migrating): { holder: Execution; scope: Execution | undefined } {
  if (element.transition) return { holder: element.transition, scope: undefined };
  const instance = element.instance;
  const scope = [...tree.executions.values()].find((each) => each.isScope && each.scopeInstanceId === instance.id);
  if (scope) return { holder: tree.executions.get(scope.parentId!)!, scope };
  return { holder: tree.executions.get(instance.executionId)!, scope: undefined };
}

async function instantiateAround(
  runner: ProcessRunner,
  element: Migrating,
  scopeElement: FlowElementModel,
  parentInstanceId: string,
): Promise<{ instanceId: string; scope: Execution }> {
  const { tree, ctx } = runner;
  const { holder } = holderOf(tree, element);
  const instanceId = activityInstanceId(scopeElement.id, ctx.ids.next());
  const scope = tree.add({ ...runner.childOf(holder), isScope: true, isActive: false, scopeActivityId: scopeElement.id, scopeInstanceId: instanceId });
  tree.addActivityInstance({
    id: instanceId,
    processInstanceId: holder.processInstanceId,
    parentId: parentInstanceId,
    activityId: scopeElement.id,
    activityType: scopeElement.activityType,
    activityName: scopeElement.name,
    executionId: scope.id,
    startTime: ctx.clock.now(),
  });
  await movePath(runner, element, scope);
  holder.activityId = scopeElement.id;
  holder.activityInstanceId = instanceId;
  holder.isActive = false;
  tree.touch(holder);
  await runner.initializeScope(scope, scopeElement);
  await runner.notifyListeners(scope, scopeElement, 'start');
  return { instanceId, scope };
}

/** A second element moves into a scope created for a sibling: it runs there on a new concurrent path. */
async function attachInto(runner: ProcessRunner, element: Migrating, scope: Execution): Promise<void> {
  const { holder } = holderOf(runner.tree, element);
  const path = await runner.newConcurrentPathIn(scope);
  await movePath(runner, element, path);
  if (holder.isConcurrent) {
    runner.variables.removeScope(holder.id);
    runner.tree.remove(holder);
  } else {
    holder.activityId = null;
    holder.activityInstanceId = holder.scopeInstanceId;
    holder.isActive = false;
    runner.tree.touch(holder);
  }
}

/** Moves an element's path (its activity, its scope child, or its tasks, jobs and subscriptions) from its holder to `to`. */
async function movePath(runner: ProcessRunner, element: Migrating, to: Execution): Promise<void> {
  const { tree, ctx } = runner;
  const { holder, scope } = holderOf(tree, element);
  to.activityId = holder.activityId;
  to.activityInstanceId = element.instance?.id ?? null;
  to.isActive = holder.isActive;
  tree.touch(to);
  if (scope) {
    scope.parentId = to.id;
    tree.touch(scope);
    return;
  }
  if (element.instance) tree.moveActivityInstance(element.instance.id, to.id);
  else element.transition = to;
  // A scope execution keeps its own triggers (event sub-process starts, its activity's boundary events).
  const own = holder.isScope ? scopeTriggerActivities(runner.model, holder) : [];
  await ctx.tasks.moveExecution(holder.id, to.id);
  await ctx.jobs.moveExecution(holder.id, to.id, own);
  await ctx.eventSubscriptions.moveExecution(holder.id, to.id, own);
  await ctx.externalTasks.moveExecution(holder.id, to.id);
  if (!holder.isScope) await new MigrationRepository(ctx.trx).moveIncidents(holder.id, to.id);
}
