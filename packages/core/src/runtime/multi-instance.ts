import { bodyCompleted, compensableInside } from './compensation.js';
import type { FlowElementModel } from '../bpmn/index.js';
import { MI_BODY_SUFFIX, miBodyId } from '../bpmn/model/flow-element.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { activityInstanceId, type Execution } from './execution.js';
import type { ProcessRunner } from './process-runner.js';
import { toJavaScriptValue, untypedValue } from './variables/index.js';

export { MI_BODY_SUFFIX, miBodyId } from '../bpmn/model/flow-element.js';

/** The activity a scope belongs to, with a multi-instance body mapped to its activity. */
export const scopeElementId = (scopeActivityId: string) =>
  scopeActivityId.endsWith(MI_BODY_SUFFIX) ? scopeActivityId.slice(0, -MI_BODY_SUFFIX.length) : scopeActivityId;

/**
 * Where a multi-instance activity's continuations are (Camunda's parseAsynchronousContinuationForActivity):
 * the activity's own camunda:asyncBefore / asyncAfter / exclusive belong to its body, whose jobs
 * and job definitions carry the body's id; those of its loop characteristics to each instance.
 */
export function continuationOf(element: FlowElementModel, inner: boolean): { activityId: string; camunda: FlowElementModel['camunda'] } {
  if (!element.multiInstance) return { activityId: element.id, camunda: element.camunda };
  return inner ? { activityId: element.id, camunda: element.multiInstance.camunda } : { activityId: miBodyId(element.id), camunda: element.camunda };
}

/** The multi-instance body an execution runs an instance of `element` in, if any. */
export function enclosingBody(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Execution | null {
  if (!element.multiInstance) return null;
  const scope = runner.scopeExecutionOf(execution);
  return scope.scopeActivityId === miBodyId(element.id) ? scope : null;
}

/**
 * Enters a multi-instance activity: a body scope (its own activity instance `X#multiInstanceBody:…`)
 * holds nrOfInstances / nrOfActiveInstances / nrOfCompletedInstances; parallel instances run on
 * concurrent children, sequential ones one after another on the body, each with loopCounter and
 * the element variable as local variables.
 */
export async function enterBody(runner: ProcessRunner, execution: Execution, element: FlowElementModel, parentInstanceId: string): Promise<Execution> {
  const bodyId = miBodyId(element.id);
  const bodyInstanceId = activityInstanceId(bodyId, runner.ctx.ids.next());
  // Camunda's metrics listeners sit on the body scope too: it counts as a flow node instance.
  runner.flowNodesStarted++;
  execution.activityId = element.id;
  execution.activityInstanceId = bodyInstanceId;
  execution.isActive = false;
  runner.tree.touch(execution);
  const body = runner.tree.add({
    ...runner.childOf(execution),
    isScope: true,
    isActive: false,
    scopeActivityId: bodyId,
    scopeInstanceId: bodyInstanceId,
  });
  runner.tree.addActivityInstance({
    id: bodyInstanceId,
    processInstanceId: execution.processInstanceId,
    parentId: parentInstanceId,
    activityId: bodyId,
    activityType: 'multiInstanceBody',
    // Camunda's body activity has no name of its own.
    activityName: null,
    executionId: body.id,
    startTime: runner.ctx.clock.now(),
  });
  return body;
}

/** Starts the instances once the body is armed (boundary events attach to the body). */
export function startInstances(runner: ProcessRunner, body: Execution, element: FlowElementModel): void {
  const loop = element.multiInstance!;
  const count = instanceCount(runner, body, element);
  // Camunda's MultiInstanceActivityBehavior.execute: no instances, no counters; the body just leaves.
  if (count === 0) {
    runner.schedule(body, () => completeBody(runner, body, element));
    return;
  }
  const set = (name: string, value: number) => runner.variables.setLocal(body.id, name, untypedValue(value));
  set('nrOfInstances', count);
  set('nrOfActiveInstances', loop.isSequential ? 1 : count);
  set('nrOfCompletedInstances', 0);
  if (loop.isSequential) {
    startInstance(runner, body, body, element, 0);
    return;
  }
  body.activityId = null;
  runner.tree.touch(body);
  runner.fork(body, count).forEach((path, index) => startInstance(runner, body, path, element, index));
}

/**
 * A modification entering the body on its way to one instance (Camunda's ModificationObserverBehavior.initializeScope
 * with one instance): the counters at one, loopCounter 0 and no element variable. Returns the execution that runs the
 * instance: a concurrent child of a parallel body, a sequential body itself.
 */
export function initializeSingleInstance(runner: ProcessRunner, body: Execution, element: FlowElementModel): Execution {
  const set = (on: Execution, name: string, value: number) => runner.variables.setLocal(on.id, name, untypedValue(value));
  set(body, 'nrOfInstances', 1);
  set(body, 'nrOfActiveInstances', 1);
  set(body, 'nrOfCompletedInstances', 0);
  if (element.multiInstance!.isSequential) {
    set(body, 'loopCounter', 0);
    return body;
  }
  const [path] = runner.fork(body, 1);
  set(path, 'loopCounter', 0);
  return path;
}

/**
 * A modification adding one instance to a running parallel body (Camunda's ParallelMultiInstanceActivityBehavior.createInnerInstance):
 * a new concurrent child numbered after the last instance, counted as one more and active.
 */
export async function addInnerInstance(runner: ProcessRunner, body: Execution): Promise<Execution> {
  const read = (name: string) => Number(runner.variables.getLocal(body.id, name)?.value ?? 0);
  const instances = read('nrOfInstances');
  const path = await runner.newConcurrentPathIn(body);
  runner.variables.setLocal(body.id, 'nrOfInstances', untypedValue(instances + 1));
  runner.variables.setLocal(body.id, 'nrOfActiveInstances', untypedValue(read('nrOfActiveInstances') + 1));
  runner.variables.setLocal(path.id, 'loopCounter', untypedValue(instances));
  return path;
}

/**
 * One instance completed on `path`: count it, then either end the body (all done, or the
 * completion condition holds) or, sequentially, start the next instance.
 */
export async function instanceCompleted(runner: ProcessRunner, body: Execution, path: Execution, element: FlowElementModel): Promise<void> {
  const loop = element.multiInstance!;
  const read = (name: string) => Number(runner.variables.getLocal(body.id, name)?.value ?? 0);
  const set = (name: string, value: number) => runner.variables.setLocal(body.id, name, untypedValue(value));
  const completed = read('nrOfCompletedInstances') + 1;
  const total = read('nrOfInstances');
  set('nrOfCompletedInstances', completed);
  if (loop.isSequential) {
    // Camunda's SequentialMultiInstanceActivityBehavior.complete: the condition only while instances are left.
    const next = read('loopCounter') + 1;
    if (next === total || completionConditionHolds(runner, body, element)) return completeBody(runner, body, element);
    runner.endActivityInstance(body);
    startInstance(runner, body, body, element, next);
    return;
  }
  const active = read('nrOfActiveInstances') - 1;
  set('nrOfActiveInstances', active);
  // Camunda's ParallelMultiInstanceActivityBehavior.concurrentChildExecutionEnded: the condition first, on the ended
  // path; else done when no instance is active (one cancelled by a modification counts no more) and every
  // instance's execution ended (allExecutionsEnded).
  const conditionHolds = completionConditionHolds(runner, path, element);
  // The ended instance's execution stays, inactive at the activity with its loopCounter, until the body completes.
  path.activityId = element.id;
  path.activityInstanceId = null;
  path.isActive = false;
  runner.tree.touch(path);
  const ended = (child: Execution) => !child.isActive && child.activityInstanceId === null && runner.tree.childrenOf(child.id).length === 0;
  if (conditionHolds || (active <= 0 && runner.tree.childrenOf(body.id).every(ended))) await completeBody(runner, body, element);
}

/** Camunda's completionConditionSatisfied: false without a condition; a result other than a Boolean is ENGINE-02028. */
function completionConditionHolds(runner: ProcessRunner, execution: Execution, element: FlowElementModel): boolean {
  const condition = element.multiInstance!.completionCondition;
  if (condition === null) return false;
  const value = runner.evaluate(execution, condition);
  if (typeof value !== 'boolean') {
    throw new ProcessEngineException(`ENGINE-02028 Could not resolve expression of type 'completionCondition'. Expression '${condition}' needs to evaluate to a boolean value.`);
  }
  return value;
}

/** Camunda's ParallelMultiInstanceActivityBehavior.destroyInnerInstance: an instance a modification cancelled is active no more. */
export function innerInstanceCancelled(runner: ProcessRunner, body: Execution): void {
  const active = Number(runner.variables.getLocal(body.id, 'nrOfActiveInstances')?.value ?? 0);
  runner.variables.setLocal(body.id, 'nrOfActiveInstances', untypedValue(active - 1));
}

async function completeBody(runner: ProcessRunner, body: Execution, element: FlowElementModel): Promise<void> {
  // Instances a completion condition cut short are cancelled: their end listeners and output mappings run (Camunda's deleteCascade).
  const inner: string[] = [];
  const collect = (id: string) => {
    for (const child of runner.tree.childrenOf(id)) {
      inner.push(child.id);
      collect(child.id);
    }
  };
  collect(body.id);
  if (inner.length > 0) await runner.endCancelledActivities(inner);
  // Camunda's multi-instance behaviours leave(scopeExecution): the body chooses its flows on its own execution, before it goes.
  const flows = await runner.outgoingFlows(body, element, true);
  const holder = runner.parentOf(body);
  const compensable = await compensableInside(runner, body, element);
  await runner.removeCompletedScope(body);
  await bodyCompleted(runner, holder, element, compensable);
  holder.activityId = element.id;
  holder.isActive = true;
  runner.tree.touch(holder);
  await runner.afterActivity(holder, element, flows, true);
}

function startInstance(runner: ProcessRunner, body: Execution, path: Execution, element: FlowElementModel, index: number): void {
  const loop = element.multiInstance!;
  runner.variables.setLocal(path.id, 'loopCounter', untypedValue(index));
  if (loop.elementVariable) {
    const items = collectionOf(runner, body, element);
    runner.variables.setLocal(path.id, loop.elementVariable, untypedValue(items?.[index] ?? null));
  }
  runner.enter(path, element.id);
}

/** Camunda's resolveNrOfInstances: the loop cardinality, else the size of the collection. */
function instanceCount(runner: ProcessRunner, body: Execution, element: FlowElementModel): number {
  const loop = element.multiInstance!;
  const count = loop.loopCardinality !== null ? loopCardinalityOf(runner, body, loop.loopCardinality) : collectionOf(runner, body, element)!.length;
  if (count < 0) throw new ProcessEngineException(`ENGINE-02023 Invalid number of 'instances': must be positive integer value or zero, but was '${count}'.`);
  return count;
}

/** Camunda's resolveLoopCardinality: a number's int value, a text parsed as an int, anything else ENGINE-02027. */
function loopCardinalityOf(runner: ProcessRunner, body: Execution, expression: string): number {
  const value = runner.evaluate(body, expression);
  if (typeof value === 'number') return Math.trunc(value);
  if (typeof value === 'string') {
    if (!/^[+-]?\d+$/.test(value)) throw new ProcessEngineException(`For input string: "${value}"`);
    return Number.parseInt(value, 10);
  }
  throw new ProcessEngineException(
    `ENGINE-02027 Could not resolve expression of type 'loopCardinality'. Expression '${expression}' needs to be a number or number String.`,
  );
}

/**
 * The collection the instances run over (null without one): an expression's value (text with `{`)
 * or the variable of that name, as Camunda's collectionExpression / collectionVariable. A list, or a
 * Json variable's array (Spin's elements()), counts as a Collection.
 */
function collectionOf(runner: ProcessRunner, body: Execution, element: FlowElementModel): unknown[] | null {
  const text = element.multiInstance!.collection;
  if (!text) return null;
  const isExpression = text.includes('{');
  let value: unknown;
  if (isExpression) value = runner.evaluate(body, text);
  else {
    const variable = runner.variables.lookup(body.id, text);
    value = variable === undefined ? null : toJavaScriptValue(variable);
  }
  // Spin nodes (a Json variable's elements()) become their plain values.
  const plain = (item: unknown) => (item && typeof item === 'object' && typeof (item as { value?: unknown }).value === 'function' ? (item as { value(): unknown }).value() : item);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object' && typeof (value as { elements?: unknown }).elements === 'function') {
    return (value as { elements(): unknown[] }).elements().map(plain);
  }
  if (isExpression) throw new ProcessEngineException(`ENGINE-02024 Expression '${text}' didn't resolve to type 'Collection'.`);
  throw new ProcessEngineException(`ENGINE-02025 Variable '${text}' is not of the expected type 'Collection'.`);
}
