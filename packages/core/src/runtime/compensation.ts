import type { FlowElementModel, ProcessModel } from '../bpmn/index.js';
import type { EventSubscription } from '../persistence/repositories/event-subscription-repository.js';
import type { ActivityBehavior } from './behaviors/behavior.js';
import { NullValueException } from '../errors/exceptions.js';
import { activityInstanceId, type Execution } from './execution.js';
import { MI_BODY_SUFFIX, miBodyId, scopeElementId } from './multi-instance.js';
import { fromJsonStorage, toJsonStorage, type JsonStoredVariables } from './variables/index.js';
import type { ProcessRunner } from './process-runner.js';

// Compensation as Camunda 7 runs it (AbstractBpmnActivityBehavior.doLeave, CompensationUtil,
// CompensationEventActivityBehavior, CompensationEventHandler): an activity with a compensation
// boundary event that completes leaves a 'compensate' subscription (activity: its handler) in its
// flow scope's execution. A sub-process (or multi-instance body) that completes with such
// subscriptions inside hands them to its flow scope as one subscription for itself (Camunda keeps
// them in an event-scope execution); one with a compensation event sub-process always does; one
// with a compensation boundary event adds its handler's subscription after that. An instance of a
// multi-instance sub-process hands its own to the body, the body its instances' to its flow scope. A
// compensation throw event (or a cancel end event, for its transaction) triggers the subscriptions
// of its scope, newest first, each on a new concurrent path marked compensating: a handler runs
// there, or the sub-process / body is entered again and runs its compensation event sub-process or
// compensates what completed inside it. The throw event waits until no other compensating path is
// left in its scope.

const isCompensate = (element: FlowElementModel | undefined) => element?.eventDefinitions[0]?.type === 'bpmn:CompensateEventDefinition';
const isCancel = (element: FlowElementModel | undefined) => element?.eventDefinitions[0]?.type === 'bpmn:CancelEventDefinition';
/** Events that throw compensation and wait for it: compensation throw events, and cancel end events. */
const isThrow = (element: FlowElementModel | undefined) =>
  (isCompensate(element) && (element!.type === 'bpmn:IntermediateThrowEvent' || element!.type === 'bpmn:EndEvent')) || (isCancel(element) && element!.type === 'bpmn:EndEvent');
/** An embedded sub-process or transaction (one instance of it, when it is multi-instance). */
const isSubProcessScope = (element: FlowElementModel | undefined) => element?.type === 'bpmn:SubProcess' || element?.type === 'bpmn:Transaction';
/** The compensation start event of an event sub-process, if it has one. */
const compensationStartOf = (model: ProcessModel, element: FlowElementModel | undefined) =>
  element?.triggeredByEvent ? model.childrenOf(element.id).find((child) => child.type === 'bpmn:StartEvent' && isCompensate(child)) : undefined;
/** A sub-process's compensation event sub-process, if that is its handler (else its handler, if any, is a boundary event's activity). */
const compensationEventSubProcessOf = (model: ProcessModel, element: FlowElementModel): string | null =>
  isSubProcessScope(element) && element.compensationHandler && compensationStartOf(model, model.activity(element.compensationHandler)) ? element.compensationHandler : null;

/** A completed sub-process's (or body's) subscriptions, kept in the configuration of its own subscription. */
interface Inner {
  activityId: string;
  configuration: string | null;
  created: number;
}
interface SubProcessConfiguration {
  sequence: number;
  inner: Inner[];
  /** The local variables the scope had when it completed (Camunda's event scope execution keeps them). */
  variables?: JsonStoredVariables;
}
/** What a completing sub-process (or body) leaves for compensation: its subscriptions and a snapshot of its local variables. */
export interface Compensable {
  inner: Inner[];
  variables: JsonStoredVariables | null;
}
const sequenceOf = (subscription: Pick<EventSubscription, 'configuration'>): number => {
  const configuration = subscription.configuration ?? '0';
  return configuration.startsWith('{') ? (JSON.parse(configuration) as SubProcessConfiguration).sequence : Number(configuration);
};

/**
 * Why Trellis cannot run this element's compensation yet, or null: a sub-process whose handler (of
 * its compensation boundary event) is a sub-process itself while activities inside it are
 * compensable — Camunda then runs that handler twice and never the inner ones.
 */
export function compensationLimit(model: ProcessModel, element: FlowElementModel): string | null {
  if (!element.compensationHandler || !isSubProcessScope(element) || compensationEventSubProcessOf(model, element) !== null) return null;
  if (!isSubProcessScope(model.activity(element.compensationHandler))) return null;
  const inside = (scopeId: string): boolean =>
    model.childrenOf(scopeId).some((child) => (child.compensationHandler !== null && !child.isForCompensation) || (isSubProcessScope(child) && !child.triggeredByEvent && inside(child.id)));
  if (!inside(element.id)) return null;
  return `Trellis cannot compensate the sub-process '${element.id}' with the sub-process '${element.compensationHandler}' as its handler while activities inside it are compensable (not supported yet)`;
}

/** Whether the model compensates at all (only then do completing sub-processes look for subscriptions). */
const compensating = new WeakMap<ProcessModel, boolean>();
function hasCompensation(model: ProcessModel): boolean {
  let known = compensating.get(model);
  if (known === undefined) compensating.set(model, (known = [...model.elements.values()].some((each) => each.compensationHandler !== null)));
  return known;
}

/** The scope a throw event compensates in: its own, or for an event sub-process the scope around it (Camunda's consumesCompensation). */
function compensationContainer(model: ProcessModel, element: FlowElementModel): string {
  let container = element.scopeId;
  for (let scope = model.activity(container); scope?.triggeredByEvent; scope = model.activity(container)) container = scope.scopeId;
  return container;
}

/** The scope execution a throw event at `execution` compensates in. */
function compensationScopeOf(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Execution {
  const container = compensationContainer(runner.model, element);
  let scope = runner.scopeExecutionOf(execution);
  while ((scope.scopeActivityId ?? runner.model.key) !== container && scope.parentId !== null) scope = runner.scopeExecutionOf(runner.parentOf(scope));
  return scope;
}

/** The compensation boundary event whose activity `handlerId` compensates (migration maps subscriptions by it). */
function compensationBoundaryOf(model: ProcessModel, handlerId: string): FlowElementModel | undefined {
  const host = [...model.elements.values()].find((each) => each.compensationHandler === handlerId);
  return host?.boundaryEvents.map((id) => model.activity(id)).find(isCompensate);
}

/** The handler a compensate subscription names after migration: that of the activity the mapped boundary event is attached to. */
function migratedCompensationHandler(source: ProcessModel, target: ProcessModel, handlerId: string, targetOf: (activityId: string) => string | undefined): string | undefined {
  const boundary = compensationBoundaryOf(source, handlerId);
  const mapped = boundary ? targetOf(boundary.id) : undefined;
  const host = mapped ? target.activity(target.activity(mapped)?.attachedTo ?? '') : undefined;
  return host?.compensationHandler ?? undefined;
}

/**
 * A compensate subscription after migration: a handler's follows its compensation boundary event, a
 * completed sub-process's follows the sub-process's instruction, with what completed inside it.
 * Otherwise Camunda's failure for it.
 */
export function migratedCompensation(
  source: ProcessModel,
  target: ProcessModel,
  subscription: { activityId: string; configuration: string | null },
  targetOf: (activityId: string) => string | undefined,
): { activityId: string; configuration: string | null } | { failure: string } {
  const { activityId, configuration } = subscription;
  if (!configuration?.startsWith('{') || !isSubProcessScope(source.activity(activityId))) {
    const handler = migratedCompensationHandler(source, target, activityId, targetOf);
    if (handler) return { activityId: handler, configuration };
    return { failure: `Cannot migrate subscription for compensation handler '${activityId}'. There is no migration instruction for the compensation boundary event` };
  }
  const mapped = targetOf(activityId);
  if (!mapped || !isSubProcessScope(target.activity(mapped))) {
    return { failure: `Cannot migrate subscription for compensation handler '${activityId}'. There is no migration instruction for the compensation start event` };
  }
  const parsed = JSON.parse(configuration) as SubProcessConfiguration;
  const inner: Inner[] = [];
  for (const each of parsed.inner) {
    const migrated = migratedCompensation(source, target, each, targetOf);
    if ('failure' in migrated) return migrated;
    inner.push({ ...each, ...migrated });
  }
  return { activityId: mapped, configuration: JSON.stringify({ ...parsed, inner } satisfies SubProcessConfiguration) };
}

/** A new compensate subscription of `scope`, numbered after those it has: the order of completion (creation times may tie within a millisecond). */
async function subscribe(runner: ProcessRunner, scope: Execution, activityId: string, configuration: (sequence: number) => string): Promise<void> {
  const earlier = await runner.ctx.eventSubscriptions.find({ executionId: scope.id, eventType: 'compensate' });
  const sequence = earlier.reduce((highest, each) => Math.max(highest, sequenceOf(each)), 0) + 1;
  await insertSubscription(runner, scope, { activityId, configuration: configuration(sequence), created: runner.ctx.clock.now().getTime() });
}

async function insertSubscription(runner: ProcessRunner, scope: Execution, { activityId, configuration, created }: Inner): Promise<EventSubscription> {
  runner.wroteRows = true;
  const subscription: EventSubscription = {
    id: runner.ctx.ids.next(),
    eventType: 'compensate',
    eventName: null,
    executionId: scope.id,
    processInstanceId: scope.processInstanceId,
    activityId,
    processDefinitionId: runner.definition.id,
    configuration,
    created: new Date(created),
    tenantId: runner.definition.tenantId,
  };
  await runner.ctx.eventSubscriptions.insert(subscription);
  return subscription;
}

/** An activity with a compensation handler completed: its subscription, in the execution of its flow scope. */
export async function subscribeCompensation(runner: ProcessRunner, leaving: Execution, element: FlowElementModel): Promise<void> {
  // A sub-process with a compensation event sub-process subscribes as it completes (subProcessCompleted);
  // one with a boundary event's handler subscribes for that too, after the one for what completed inside.
  if (element.compensationHandler && compensationEventSubProcessOf(runner.model, element) === null) {
    await subscribe(runner, runner.scopeExecutionOf(leaving), element.compensationHandler, String);
  }
}

/**
 * A sub-process's scope execution is about to go: the compensate subscriptions in it, if any, to
 * be handed to its flow scope once it is gone (subProcessCompleted), with a snapshot of its local
 * variables (Camunda's CompensationUtil.createEventScopeExecution copies them by value).
 */
export async function compensableInside(runner: ProcessRunner, scope: Execution, element: FlowElementModel): Promise<Compensable> {
  const body = scope.scopeActivityId?.endsWith(MI_BODY_SUFFIX) === true;
  if ((!body && !isSubProcessScope(element)) || !hasCompensation(runner.model)) return { inner: [], variables: null };
  const subscriptions = await runner.ctx.eventSubscriptions.find({ executionId: scope.id, eventType: 'compensate' });
  const names = runner.variables.localNames(scope.id);
  return {
    inner: subscriptions.map((each) => ({ activityId: each.activityId!, configuration: each.configuration, created: each.created.getTime() })),
    variables: names.length === 0 ? null : toJsonStorage(Object.fromEntries(names.map((name) => [name, runner.variables.getLocal(scope.id, name)!]))),
  };
}

/** A sub-process completed with compensable work inside: one subscription for it in its flow scope. */
export async function subProcessCompleted(runner: ProcessRunner, leaving: Execution, element: FlowElementModel, compensable: Compensable): Promise<void> {
  // With a compensation event sub-process, the subscription names it (Camunda's getEventScopeCompensationHandler).
  const handler = compensationEventSubProcessOf(runner.model, element);
  if (compensable.inner.length > 0 || handler !== null) await handOver(runner, leaving, handler ?? element.id, compensable);
}

/** A multi-instance body completed with compensable instances: one subscription for the body in its flow scope (Camunda's miBody handler). */
export async function bodyCompleted(runner: ProcessRunner, holder: Execution, element: FlowElementModel, compensable: Compensable): Promise<void> {
  if (compensable.inner.length > 0) await handOver(runner, holder, miBodyId(element.id), compensable);
}

/** The subscription that stands for a completed scope, holding the ones that were inside it. */
function handOver(runner: ProcessRunner, leaving: Execution, activityId: string, { inner, variables }: Compensable): Promise<void> {
  return subscribe(runner, runner.scopeExecutionOf(leaving), activityId, (sequence) =>
    JSON.stringify({ sequence, inner, ...(variables ? { variables } : {}) } satisfies SubProcessConfiguration),
  );
}

/**
 * Triggers compensate subscriptions of a scope, newest first: each on a new compensating path of
 * the scope, running its handler or entering its completed sub-process again.
 */
async function compensate(runner: ProcessRunner, scope: Execution, subscriptions: readonly EventSubscription[]): Promise<void> {
  for (const subscription of [...subscriptions].sort(newestFirst)) {
    await runner.ctx.eventSubscriptions.delete(subscription.id);
    const path = await runner.newConcurrentPathIn(scope);
    path.isCompensating = true;
    runner.tree.touch(path);
    const element = runner.model.activity(subscription.activityId!);
    const configuration = subscription.configuration?.startsWith('{') ? (JSON.parse(subscription.configuration) as SubProcessConfiguration) : null;
    const start = compensationStartOf(runner.model, element);
    const bodyOf = subscription.activityId!.endsWith(MI_BODY_SUFFIX) ? runner.model.activity(scopeElementId(subscription.activityId!)) : undefined;
    if (configuration && bodyOf) await enterAgain(runner, path, bodyOf, configuration, null, true);
    else if (configuration && start) await enterAgain(runner, path, runner.model.activity(element!.scopeId)!, configuration, { eventSubProcess: element!, start });
    else if (configuration && isSubProcessScope(element)) await enterAgain(runner, path, element!, configuration, null);
    else runner.enter(path, subscription.activityId!);
  }
}

/**
 * A completed sub-process compensated: its scope again (a new activity instance), where its
 * compensation event sub-process runs, or else what completed inside is compensated.
 */
async function enterAgain(
  runner: ProcessRunner,
  path: Execution,
  element: FlowElementModel,
  { inner, variables }: SubProcessConfiguration,
  handler: { eventSubProcess: FlowElementModel; start: FlowElementModel } | null,
  asBody = false,
): Promise<void> {
  // A multi-instance activity's body is entered again as its body scope.
  const scopeActivityId = asBody ? miBodyId(element.id) : element.id;
  const instanceId = activityInstanceId(scopeActivityId, runner.ctx.ids.next());
  const parentInstanceId = runner.scopeExecutionOf(path).scopeInstanceId ?? path.processInstanceId;
  Object.assign(path, { activityId: element.id, activityInstanceId: instanceId, isActive: false });
  runner.tree.touch(path);
  const scope = runner.tree.add({ ...runner.childOf(path), isScope: true, isActive: false, scopeActivityId, scopeInstanceId: instanceId, activityInstanceId: instanceId });
  runner.tree.addActivityInstance({
    id: instanceId,
    processInstanceId: path.processInstanceId,
    parentId: parentInstanceId,
    activityId: scopeActivityId,
    activityType: asBody ? 'multiInstanceBody' : element.activityType,
    activityName: element.name,
    executionId: scope.id,
    startTime: runner.ctx.clock.now(),
  });
  // The handlers see the scope's local variables as they were when it completed.
  for (const [name, value] of Object.entries(variables ? fromJsonStorage(variables) : {})) runner.variables.setLocal(scope.id, name, value);
  const restored: EventSubscription[] = [];
  for (const each of inner) restored.push(await insertSubscription(runner, scope, each));
  if (handler) {
    // Its own compensation throw events compensate what completed inside (they wait in this scope).
    const eventPath = await runner.newConcurrentPathIn(scope);
    eventPath.isCompensating = true;
    runner.tree.touch(eventPath);
    runner.enter(eventPath, handler.eventSubProcess.id, { startAt: [handler.start.id], startOccurred: true });
    return;
  }
  await compensate(runner, scope, restored);
}

/**
 * A compensation throw event (intermediate or end): the handlers of the completed activities of its
 * scope (only those of `activityRef` when set) start; the event waits for them all.
 */
export function compensationThrow(isEnd: boolean): ActivityBehavior {
  const goOn = async (runner: ProcessRunner, execution: Execution) => {
    if (!isEnd) return runner.leave(execution);
    runner.endActivityInstance(execution);
    await runner.end(execution);
  };
  return {
    async execute(runner, execution, element) {
      const scope = compensationScopeOf(runner, execution, element);
      const activityRef = element.eventDefinitions[0].activityRef;
      // Camunda's getSubscriptionActivityId: a multi-instance activity's body, else the activity's handler.
      const referenced = activityRef === null ? undefined : runner.model.activity(activityRef);
      const target = activityRef === null ? null : referenced?.multiInstance ? miBodyId(activityRef) : (referenced?.compensationHandler ?? activityRef);
      const subscriptions = (await runner.ctx.eventSubscriptions.find({ executionId: scope.id, eventType: 'compensate' })).filter(
        (subscription) => target === null || subscription.activityId === target,
      );
      if (subscriptions.length === 0) return goOn(runner, execution);
      await throwCompensation(runner, scope, execution, subscriptions);
    },
    // Every compensating path is done (compensationDone); a signal from outside while they run changes nothing.
    async signal(runner, execution, element) {
      if (!othersCompensating(runner, compensationScopeOf(runner, execution, element), execution)) await goOn(runner, execution);
    },
  };
}

/** A throw event waits (inactive) while the subscriptions it triggers are compensated. */
async function throwCompensation(runner: ProcessRunner, scope: Execution, execution: Execution, subscriptions: readonly EventSubscription[]): Promise<void> {
  execution.isActive = false;
  runner.tree.touch(execution);
  await compensate(runner, scope, subscriptions);
}

const newestFirst = (a: EventSubscription, b: EventSubscription) => b.created.getTime() - a.created.getTime() || sequenceOf(b) - sequenceOf(a);

/**
 * Whether a compensating path other than the one `execution` runs on is left in the scope (a
 * compensation event sub-process runs on a compensating path itself, and its throw events wait there).
 */
function othersCompensating(runner: ProcessRunner, scope: Execution, execution: Execution): boolean {
  const own = pathIn(runner, scope, execution);
  return runner.tree.childrenOf(scope.id).some((each) => each.isCompensating === true && each !== own);
}

/** The child of `scope` that `execution` is or runs below (the scope itself when it runs the path). */
function pathIn(runner: ProcessRunner, scope: Execution, execution: Execution): Execution {
  let own = execution;
  while (own !== scope && own.parentId !== scope.id) own = runner.parentOf(own);
  return own;
}

/**
 * A compensating path of `scope` ended. When no other is left there, the throw events waiting for
 * them go on; a sub-process entered again for compensation completes once nothing runs in it, and
 * its own path ends.
 */
export async function compensationDone(runner: ProcessRunner, scope: Execution): Promise<void> {
  for (const waiting of runner.tree.executions.values()) {
    if (waiting.isActive || waiting.activityId === null) continue;
    const element = runner.model.activity(waiting.activityId);
    if (isThrow(element) && compensationScopeOf(runner, waiting, element!) === scope && !othersCompensating(runner, scope, waiting)) runner.signal(waiting);
  }
  if (scope.parentId === null || runner.tree.childrenOf(scope.id).length > 0) return;
  const holder = runner.parentOf(scope);
  if (!holder.isCompensating || holder.activityId !== scopeElementId(scope.scopeActivityId ?? '')) return;
  await runner.removeCompletedScope(scope);
  runner.endActivityInstance(holder);
  await runner.end(holder);
}

/**
 * A cancel end event (Camunda's CancelEndEventActivityBehavior): the other paths of its transaction
 * end at once, what completed inside the transaction is compensated, and then the transaction's
 * cancel boundary event fires (interrupting it).
 */
export const cancelEndEvent: ActivityBehavior = {
  async execute(runner, execution, element) {
    const boundary = cancelBoundaryOf(runner.model, element);
    const scope = runner.scopeExecutionOf(execution);
    // INTERRUPT_FLOW_SCOPE
    const own = pathIn(runner, scope, execution);
    for (const child of runner.tree.childrenOf(scope.id)) if (child !== own) await runner.removeExecution(child, true);
    const subscriptions = await runner.ctx.eventSubscriptions.find({ executionId: scope.id, eventType: 'compensate' });
    if (subscriptions.length === 0) return runner.fireBoundaryEvent(scope, boundary);
    await throwCompensation(runner, scope, execution, subscriptions);
  },
  async signal(runner, execution, element) {
    const scope = runner.scopeExecutionOf(execution);
    if (!othersCompensating(runner, scope, execution)) await runner.fireBoundaryEvent(scope, cancelBoundaryOf(runner.model, element));
  },
};

function cancelBoundaryOf(model: ProcessModel, cancelEnd: FlowElementModel): FlowElementModel {
  const transaction = model.activity(cancelEnd.scopeId);
  const boundary = transaction?.boundaryEvents.map((id) => model.activity(id)).find(isCancel);
  if (!boundary) throw new NullValueException(`Could not find cancel boundary event for cancel end event Activity(${cancelEnd.id}): cancelBoundaryEvent is null`);
  return boundary;
}
