import { bodyCompleted, compensableInside } from './compensation.js';
import type { FlowElementModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { activityInstanceId, type Execution } from './execution.js';
import type { ProcessRunner } from './process-runner.js';
import { untypedValue } from './variables/index.js';

/** Camunda's id suffix of the scope that runs a multi-instance activity's instances. */
export const MI_BODY_SUFFIX = '#multiInstanceBody';

export const miBodyId = (activityId: string) => `${activityId}${MI_BODY_SUFFIX}`;

/** The activity a scope belongs to, with a multi-instance body mapped to its activity. */
export const scopeElementId = (scopeActivityId: string) =>
  scopeActivityId.endsWith(MI_BODY_SUFFIX) ? scopeActivityId.slice(0, -MI_BODY_SUFFIX.length) : scopeActivityId;

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
    activityName: element.name,
    executionId: body.id,
    startTime: runner.ctx.clock.now(),
  });
  return body;
}

/** Starts the instances once the body is armed (boundary events attach to the body). */
export function startInstances(runner: ProcessRunner, body: Execution, element: FlowElementModel): void {
  const loop = element.multiInstance!;
  const count = instanceCount(runner, body, element);
  const set = (name: string, value: number) => runner.variables.setLocal(body.id, name, untypedValue(value));
  set('nrOfInstances', count);
  set('nrOfActiveInstances', loop.isSequential ? Math.min(1, count) : count);
  set('nrOfCompletedInstances', 0);
  if (count === 0) {
    runner.schedule(body, () => completeBody(runner, body, element));
    return;
  }
  if (loop.isSequential) {
    startInstance(runner, body, body, element, 0);
    return;
  }
  body.activityId = null;
  runner.tree.touch(body);
  runner.fork(body, count).forEach((path, index) => startInstance(runner, body, path, element, index));
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
  if (!loop.isSequential) set('nrOfActiveInstances', read('nrOfActiveInstances') - 1);
  const done = completed >= total || (loop.completionCondition !== null && runner.conditionHolds(path, loop.completionCondition, element.id));
  if (loop.isSequential) {
    if (done) return completeBody(runner, body, element);
    runner.endActivityInstance(body);
    startInstance(runner, body, body, element, completed);
    return;
  }
  path.activityId = null;
  await runner.removeExecution(path);
  if (done) await completeBody(runner, body, element);
}

async function completeBody(runner: ProcessRunner, body: Execution, element: FlowElementModel): Promise<void> {
  set0ActiveInstances(runner, body);
  const holder = runner.parentOf(body);
  const compensable = await compensableInside(runner, body, element);
  await runner.removeCompletedScope(body);
  await bodyCompleted(runner, holder, element, compensable);
  holder.activityId = element.id;
  holder.isActive = true;
  runner.tree.touch(holder);
  await runner.afterActivity(holder, element, undefined, true);
}

function set0ActiveInstances(runner: ProcessRunner, body: Execution): void {
  runner.variables.setLocal(body.id, 'nrOfActiveInstances', untypedValue(0));
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

function instanceCount(runner: ProcessRunner, body: Execution, element: FlowElementModel): number {
  const loop = element.multiInstance!;
  if (loop.loopCardinality) {
    const value = Number(runner.evaluate(body, loop.loopCardinality, element.id));
    if (!Number.isInteger(value) || value < 0) {
      throw new ProcessEngineException(`Invalid number of instances: must be a non-negative integer value, but was ${value}`);
    }
    return value;
  }
  const items = collectionOf(runner, body, element);
  if (!items) {
    throw new ProcessEngineException(
      `Multi instance activity '${element.id}' has neither a loop cardinality nor a collection that resolves to a list`,
    );
  }
  return items.length;
}

function collectionOf(runner: ProcessRunner, body: Execution, element: FlowElementModel): unknown[] | null {
  const text = element.multiInstance!.collection;
  if (!text) return null;
  const value = /[$#]\{/.test(text) ? runner.evaluate(body, text, element.id) : runner.evaluate(body, `\${${text}}`, element.id);
  // Spin nodes (a Json variable's elements()) become their plain values.
  const plain = (item: unknown) => (item && typeof item === 'object' && typeof (item as { value?: unknown }).value === 'function' ? (item as { value(): unknown }).value() : item);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object' && typeof (value as { elements?: unknown }).elements === 'function') {
    return (value as { elements(): unknown[] }).elements().map(plain);
  }
  if (value === null || value === undefined) return null;
  throw new ProcessEngineException(`Variable '${text}' is not a Collection`);
}
