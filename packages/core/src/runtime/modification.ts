import { checkInstance } from '../authorization/instance-checks.js';
import type { FlowElementModel } from '../bpmn/index.js';
import { NotValidException, ProcessEngineException } from '../errors/exceptions.js';
import type { Execution } from './execution.js';
import { addInnerInstance, innerInstanceCancelled, MI_BODY_SUFFIX, miBodyId, scopeElementId } from './multi-instance.js';
import type { ProcessRunner } from './process-runner.js';
import type { TypedValue } from './variables/index.js';
import { jobsDeleted } from '../jobs/job-failure.js';
import type { InstanceHistory } from '../history/instance-history.js';

/**
 * A start instruction's variables (Camunda's ActivityInstantiationBuilder): `variables` as
 * setVariable sets them on the new path (where they already live, else on the process instance),
 * `variablesLocal` on the new path itself.
 */
export interface InstructionVariables {
  variables?: Record<string, TypedValue>;
  variablesLocal?: Record<string, TypedValue>;
}

/** One instruction of a process instance modification (Camunda's ProcessInstanceModificationInstructionDto). */
export type ModificationInstruction =
  | { type: 'cancel'; activityId?: string; activityInstanceId?: string; transitionInstanceId?: string }
  | ({ type: 'startBeforeActivity'; activityId: string; ancestorActivityInstanceId?: string } & InstructionVariables)
  | ({ type: 'startAfterActivity'; activityId: string; ancestorActivityInstanceId?: string } & InstructionVariables)
  | ({ type: 'startTransition'; transitionId: string; ancestorActivityInstanceId?: string } & InstructionVariables);

/** The instruction with its variable maps mapped by `map` (cancellations carry none). */
export function mapInstructionVariables<T extends ModificationInstruction>(instruction: T, map: (variables: Record<string, TypedValue>) => Record<string, TypedValue>): T {
  if (instruction.type === 'cancel') return instruction;
  const { variables, variablesLocal } = instruction as InstructionVariables;
  return { ...instruction, ...(variables ? { variables: map(variables) } : {}), ...(variablesLocal ? { variablesLocal: map(variablesLocal) } : {}) };
}

/**
 * Applies modification instructions in order, each run to its waiting point before the next. A
 * cancellation never ends the instance by itself: it ends at the end when nothing is left running,
 * internally terminated unless `cancellationSourceExternal` (Camunda's modification builder flag,
 * which only the REST resource of a synchronous single-instance modification sets).
 */
export async function modifyInstance(runner: ProcessRunner, instructions: readonly ModificationInstruction[], cancellationSourceExternal = false): Promise<void> {
  runner.externalCancellation = cancellationSourceExternal;
  for (const instruction of instructions) {
    if (instruction.type === 'cancel') await cancel(runner, instruction);
    else start(runner, instruction);
    await runner.run();
  }
  // Camunda's ModifyProcessInstanceCmd: instructions that leave nothing delete the instance, which needs DELETE too.
  await endIfNothingLeft(runner, { state: cancellationSourceExternal ? 'EXTERNALLY_TERMINATED' : 'INTERNALLY_TERMINATED', deleteReason: null }, () =>
    checkInstance(runner.ctx, 'DELETE', 'DELETE_INSTANCE', runner.tree.processInstanceId, runner.definition.key, runner.definition.tenantId),
  );
}

/**
 * An instance with nothing left running (no activity on its own execution, no paths below it) ends
 * as `termination` says (Camunda's deletePropagate), after `check` when there is one.
 */
async function endIfNothingLeft(runner: ProcessRunner, termination: NonNullable<InstanceHistory['termination']>, check?: () => Promise<void>): Promise<void> {
  const root = runner.tree.root;
  if (root === undefined || root.activityId !== null || runner.tree.childrenOf(root.id).length > 0) return;
  await check?.();
  runner.tree.history.terminate(termination.state, termination.deleteReason);
  await runner.cancelInstance();
}

/**
 * The caller's side of a called instance that was deleted or cancelled (Camunda runs it as a
 * modification of the caller, unchecked): the call activity's instance is cancelled, and a caller
 * left with nothing ends with the called instance's state and reason.
 */
export async function cancelActivityOfCalledInstance(
  caller: ProcessRunner,
  execution: Execution,
  termination: NonNullable<InstanceHistory['termination']>,
): Promise<void> {
  const instanceId = execution.activityInstanceId ?? execution.scopeInstanceId;
  if (instanceId && caller.tree.activityInstances.has(instanceId)) await cancelActivityInstance(caller, instanceId);
  else await cancelPath(caller, execution);
  await caller.run();
  await endIfNothingLeft(caller, termination);
}

async function cancel(runner: ProcessRunner, instruction: Extract<ModificationInstruction, { type: 'cancel' }>): Promise<void> {
  const describe = instruction.activityInstanceId
    ? `Cancel activity instance '${instruction.activityInstanceId}'`
    : instruction.transitionInstanceId
      ? `Cancel transition instance '${instruction.transitionInstanceId}'`
      : `Cancel all instances of activity '${instruction.activityId}'`;
  // Camunda's describeFailure with EnsureUtil's ": <variable> is null".
  const fail = (why: string, variable: string): never => {
    throw new NotValidException(`Cannot perform instruction: ${describe}; ${why}: ${variable} is null`);
  };
  if (instruction.transitionInstanceId) {
    const execution = runner.tree.executions.get(instruction.transitionInstanceId);
    if (!execution || execution.activityId === null || execution.activityInstanceId !== null) fail(`Transition instance '${instruction.transitionInstanceId}' does not exist`, 'transitionInstance');
    return cancelPath(runner, execution!);
  }
  if (instruction.activityInstanceId) {
    const instance = runner.tree.activityInstances.get(instruction.activityInstanceId);
    if (!instance) fail(`Activity instance '${instruction.activityInstanceId}' does not exist`, 'activityInstance');
    // The process instance's own activity instance: everything in it is cancelled (the instance ends after the instructions).
    if (instance!.parentId === null) return cancelEverything(runner, instance!.id);
    return cancelActivityInstance(runner, instance!.id);
  }
  if (!instruction.activityId) throw new NotValidException(`Cannot perform instruction: ${describe}; an activity id, activity instance id or transition instance id is required`);
  const instances = [...runner.tree.activityInstances.values()].filter(
    (each) => each.activityId === instruction.activityId || each.activityId === miBodyId(instruction.activityId!),
  );
  const transitions = transitionsAt(runner, instruction.activityId);
  for (const instance of instances) if (runner.tree.activityInstances.has(instance.id)) await cancelActivityInstance(runner, instance.id);
  for (const execution of transitions) if (runner.tree.executions.has(execution.id)) await cancelPath(runner, execution);
}

/** Cancels every activity instance directly in the process instance's, then the transitions (asynchronous continuations) left there. */
async function cancelEverything(runner: ProcessRunner, rootInstanceId: string): Promise<void> {
  for (const child of [...runner.tree.activityInstances.values()].filter((each) => each.parentId === rootInstanceId)) {
    if (runner.tree.activityInstances.has(child.id)) await cancelActivityInstance(runner, child.id);
  }
  for (const execution of [...runner.tree.executions.values()].filter((each) => each.activityId !== null && each.activityInstanceId === null)) {
    if (runner.tree.executions.has(execution.id)) await cancelPath(runner, execution);
  }
}

async function cancelActivityInstance(runner: ProcessRunner, instanceId: string): Promise<void> {
  const instance = runner.tree.activityInstances.get(instanceId)!;
  const execution = runner.tree.executions.get(instance.executionId)!;
  // A scope's activity instance: its scope execution goes; its holder's path ends with it.
  if (execution.scopeInstanceId === instanceId && execution.parentId !== null) {
    const holder = runner.parentOf(execution);
    await runner.removeExecution(execution, true);
    holder.activityInstanceId = null;
    return cancelPath(runner, holder);
  }
  await runner.endCancelledActivities([execution.id]);
  runner.tree.removeActivityInstance(instanceId, true);
  await runner.deleteTasksOf(execution);
  await jobsDeleted(runner.ctx, await runner.ctx.jobs.deleteByExecutionExcept(execution.id, ownTriggers(runner, execution)));
  await runner.ctx.eventSubscriptions.deleteByExecutionExcept(execution.id, ownTriggers(runner, execution));
  await cancelPath(runner, execution);
}

/** Ends a path without taking flows; an emptied scope is cancelled too, up to (not including) the process instance. */
async function cancelPath(runner: ProcessRunner, execution: Execution): Promise<void> {
  execution.activityId = null;
  execution.activityInstanceId = null;
  execution.isActive = false;
  runner.tree.touch(execution);
  if (execution.parentId === null) return;
  if (execution.isConcurrent) {
    const scope = runner.parentOf(execution);
    await runner.removeExecution(execution, true);
    if (scope.scopeActivityId?.endsWith(MI_BODY_SUFFIX)) innerInstanceCancelled(runner, scope);
    if (runner.tree.childrenOf(scope.id).length === 0) await cancelPath(runner, scope);
    return;
  }
  if (execution.isScope && execution.scopeInstanceId) {
    const holder = runner.parentOf(execution);
    await runner.removeExecution(execution, true);
    return cancelPath(runner, holder);
  }
}

function start(runner: ProcessRunner, instruction: Exclude<ModificationInstruction, { type: 'cancel' }>): void {
  const model = runner.model;
  // Camunda's AbstractInstantiationCmd.describe / describeFailure.
  const elementId = instruction.type === 'startTransition' ? instruction.transitionId : instruction.activityId;
  const verb = { startBeforeActivity: 'Start before activity', startAfterActivity: 'Start after activity', startTransition: 'Start transition' }[instruction.type];
  const ancestorId = instruction.ancestorActivityInstanceId;
  const describe = `${verb} '${elementId}'${ancestorId ? ` with ancestor activity instance '${ancestorId}'` : ''}`;
  const invalid = (why: string) => new NotValidException(`Cannot perform instruction: ${describe}; ${why}`);
  const missingElement = () => invalid(`Element '${elementId}' does not exist in process '${runner.definition.id}': element is null`);
  let target: FlowElementModel;
  // Starting before a multi-instance activity starts one inner instance; before its body, the body with all of them.
  let inner = false;
  if (instruction.type === 'startTransition') {
    const flow = model.flows.get(instruction.transitionId);
    if (!flow) throw missingElement();
    target = model.activity(flow.targetRef)!;
  } else {
    const body = bodyElement(runner, instruction.activityId);
    const activity = body ?? model.activity(instruction.activityId);
    if (instruction.type === 'startAfterActivity') {
      // Camunda's ActivityAfterInstantiationCmd: its own checks, the flow ones as engine errors; a body has its activity's flows.
      if (!activity) throw invalid(`Activity '${instruction.activityId}' does not exist: activity is null`);
      const flows = activity.multiInstance && !body ? [] : model.flowsFrom(activity.id);
      if (flows.length === 0) throw new ProcessEngineException(`Cannot start after activity ${instruction.activityId}; activity has no outgoing sequence flow to take`);
      if (flows.length > 1) throw new ProcessEngineException(`Cannot start after activity ${instruction.activityId}; activity has more than one outgoing sequence flow`);
      target = model.activity(flows[0].targetRef)!;
    } else {
      if (!activity) throw missingElement();
      target = activity;
      inner = target.multiInstance !== null && !body;
    }
  }
  // The flow scopes from the process down to the target: use the innermost that runs, create the rest.
  const chain = flowScopesOf(runner, target, inner);
  let scope = runner.tree.root!;
  let depth = 0;
  if (ancestorId) {
    const ancestor = [...runner.tree.executions.values()].find((each) => each.isScope && each.scopeInstanceId === ancestorId);
    const inHierarchy = ancestor && (ancestor.scopeActivityId === null || chain.includes(ancestor.scopeActivityId));
    if (!inHierarchy) {
      // An activity instance that is there but no scope above the target: Camunda's hierarchy failure.
      if (ancestor || runner.tree.activityInstances.has(ancestorId)) {
        throw invalid(`Scope execution for '${ancestorId}' cannot be found in parent hierarchy of flow element '${elementId}'`);
      }
      throw invalid(`Ancestor activity instance '${ancestorId}' does not exist: ancestorInstance is null`);
    }
    scope = ancestor!;
    depth = ancestor.scopeActivityId === null ? 0 : chain.indexOf(ancestor.scopeActivityId) + 1;
  } else {
    for (; depth < chain.length; depth++) {
      const candidates = [...runner.tree.executions.values()].filter((each) => each.isScope && each.scopeActivityId === chain[depth]);
      if (candidates.length === 0) break;
      // Camunda names the target's flow scope (ActivityImpl.toString).
      if (candidates.length > 1) throw new ProcessEngineException(`Ancestor activity execution is ambiguous for activity Activity(${chain.at(-1) ?? model.key})`);
      scope = candidates[0];
    }
  }
  ensureConcurrentInstantiation(runner, depth === 0 ? null : chain[depth - 1]);
  const missing = chain.slice(depth).map(scopeElementId);
  runner.schedule(scope, async () => {
    const path = await pathIn(runner, scope);
    // Camunda's startWithoutExecuting: setVariables, then setVariablesLocal, on the execution that runs the target.
    const applyVariables = (on: Execution) => {
      for (const [name, value] of Object.entries(instruction.variables ?? {})) runner.variables.setVisible(on.id, name, value);
      for (const [name, value] of Object.entries(instruction.variablesLocal ?? {})) runner.variables.setLocal(on.id, name, value);
    };
    if (missing.length === 0) {
      applyVariables(path);
      runner.enter(path, target.id);
    } else runner.enter(path, missing[0], { skipAsync: true, startAt: [...missing.slice(1), target.id], beforeTarget: applyVariables });
  });
}

/**
 * The executions waiting at an activity without an instance of it (transition instances: an async
 * continuation's); an ended instance a parallel multi-instance body keeps (inactive) goes with its body.
 */
export function transitionsAt(runner: ProcessRunner, activityId: string): Execution[] {
  return [...runner.tree.executions.values()].filter((each) => each.activityId === activityId && each.activityInstanceId === null && each.isActive);
}

/** The multi-instance activity `activityId` names the body of (`X#multiInstanceBody`), if it does. */
function bodyElement(runner: ProcessRunner, activityId: string): FlowElementModel | undefined {
  if (!activityId.endsWith(MI_BODY_SUFFIX)) return undefined;
  const element = runner.model.activity(scopeElementId(activityId));
  return element?.multiInstance ? element : undefined;
}

/**
 * The flow scopes from the process down to `target`, as Camunda's model has them: a multi-instance
 * sub-process's body above the sub-process, and the target's own body when one inner instance starts.
 */
function flowScopesOf(runner: ProcessRunner, target: FlowElementModel, inner: boolean): string[] {
  const model = runner.model;
  const chain = inner ? [miBodyId(target.id)] : [];
  for (let scopeId = target.scopeId; scopeId !== model.key; scopeId = model.activity(scopeId)!.scopeId) {
    chain.unshift(scopeId);
    if (model.activity(scopeId)!.multiInstance) chain.unshift(miBodyId(scopeId));
  }
  return chain;
}

/** Camunda's supportsConcurrentChildInstantiation: a sequential body runs one instance at a time, so none can be added. */
function ensureConcurrentInstantiation(runner: ProcessRunner, flowScopeId: string | null): void {
  const body = flowScopeId === null ? undefined : bodyElement(runner, flowScopeId);
  if (body?.multiInstance!.isSequential) throw new ProcessEngineException(`Concurrent instantiation not possible for activities in scope ${flowScopeId}`);
}

/**
 * The execution a start runs on below `scope`: an idle scope itself, else a new concurrent path, in a
 * running parallel body a new inner instance (Camunda's createInnerInstance).
 */
async function pathIn(runner: ProcessRunner, scope: Execution): Promise<Execution> {
  if (scope.activityId === null && runner.tree.childrenOf(scope.id).length === 0) return scope;
  if (scope.scopeActivityId?.endsWith(MI_BODY_SUFFIX)) return addInnerInstance(runner, scope);
  return runner.newConcurrentPathIn(scope);
}

function ownTriggers(runner: ProcessRunner, execution: Execution): string[] {
  if (!execution.isScope) return [];
  const container = execution.scopeActivityId ?? runner.model.key;
  return runner.model
    .childrenOf(container)
    .filter((child) => child.triggeredByEvent)
    .flatMap((sub) => runner.model.childrenOf(sub.id).map((each) => each.id));
}
