import type { FlowElementModel, ProcessModel } from '../bpmn/index.js';
import type { EventSubscription } from '../persistence/repositories/event-subscription-repository.js';
import type { ActivityBehavior } from './behaviors/behavior.js';
import type { Execution } from './execution.js';
import type { ProcessRunner } from './process-runner.js';

// Compensation as Camunda 7 runs it (AbstractBpmnActivityBehavior.doLeave, CompensationUtil,
// CompensationEventActivityBehavior, CompensationEventHandler): an activity with a compensation
// boundary event that completes leaves a 'compensate' subscription (activity: its handler) in its
// flow scope's execution; a compensation throw event in that scope triggers the subscriptions,
// newest first, each handler on a new concurrent path, and waits until all of them are done.

const isCompensate = (element: FlowElementModel | undefined) => element?.eventDefinitions[0]?.type === 'bpmn:CompensateEventDefinition';
const isThrow = (element: FlowElementModel | undefined) => isCompensate(element) && (element!.type === 'bpmn:IntermediateThrowEvent' || element!.type === 'bpmn:EndEvent');

/**
 * Why Trellis cannot run this element's compensation yet, or null. Compensating a sub-process (or an
 * activity inside a completed one) needs Camunda's event-scope executions, and a multi-instance
 * activity one handler per instance: neither is supported.
 */
export function compensationLimit(model: ProcessModel, element: FlowElementModel): string | null {
  if (!element.compensationHandler) return null;
  if (element.type === 'bpmn:SubProcess' || element.type === 'bpmn:Transaction') return `Trellis cannot compensate the sub-process '${element.id}' (not supported yet)`;
  if (element.multiInstance) return `Trellis cannot compensate the multi-instance activity '${element.id}' (not supported yet)`;
  const outside = [...model.elements.values()].find((each) => isThrow(each) && isAncestor(model, compensationContainer(model, each), element.scopeId));
  if (outside) return `Trellis cannot compensate '${element.id}' from '${outside.id}' outside its sub-process '${element.scopeId}' (not supported yet)`;
  return null;
}

/** The scope ids from `scopeId` up to the process. */
function ancestorsOf(model: ProcessModel, scopeId: string): string[] {
  const chain = [scopeId];
  for (let current = model.activity(scopeId); current; current = model.activity(current.scopeId)) chain.push(current.scopeId);
  return chain;
}

const isAncestor = (model: ProcessModel, ancestor: string, scopeId: string) => ancestor !== scopeId && ancestorsOf(model, scopeId).includes(ancestor);

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
export function compensationBoundaryOf(model: ProcessModel, handlerId: string): FlowElementModel | undefined {
  const host = [...model.elements.values()].find((each) => each.compensationHandler === handlerId);
  return host?.boundaryEvents.map((id) => model.activity(id)).find(isCompensate);
}

/** The handler a compensate subscription names after migration: that of the activity the mapped boundary event is attached to. */
export function migratedCompensationHandler(source: ProcessModel, target: ProcessModel, handlerId: string, targetOf: (activityId: string) => string | undefined): string | undefined {
  const boundary = compensationBoundaryOf(source, handlerId);
  const mapped = boundary ? targetOf(boundary.id) : undefined;
  const host = mapped ? target.activity(target.activity(mapped)?.attachedTo ?? '') : undefined;
  return host?.compensationHandler ?? undefined;
}

/** The compensation handlers of the activities directly in a scope: their subscriptions stay with the scope execution. */
export function compensationHandlersIn(model: ProcessModel, containerId: string): string[] {
  return model.childrenOf(containerId).flatMap((child) => (child.compensationHandler ? [child.compensationHandler] : []));
}

/** An activity with a compensation handler completed: its subscription, in the execution of its flow scope. */
export async function subscribeCompensation(runner: ProcessRunner, leaving: Execution, element: FlowElementModel): Promise<void> {
  if (!element.compensationHandler) return;
  const scope = runner.scopeExecutionOf(leaving);
  // The order of completion, for compensating newest first (creation times may tie within a millisecond).
  const earlier = await runner.ctx.eventSubscriptions.find({ executionId: scope.id, eventType: 'compensate' });
  const sequence = earlier.reduce((highest, each) => Math.max(highest, Number(each.configuration ?? 0)), 0) + 1;
  runner.wroteRows = true;
  await runner.ctx.eventSubscriptions.insert({
    id: runner.ctx.ids.next(),
    eventType: 'compensate',
    eventName: null,
    executionId: scope.id,
    processInstanceId: scope.processInstanceId,
    activityId: element.compensationHandler,
    processDefinitionId: runner.definition.id,
    configuration: String(sequence),
    created: runner.ctx.clock.now(),
    tenantId: runner.definition.tenantId,
  });
}

/**
 * A compensation throw event (intermediate or end): the handlers of the completed activities of its
 * scope (only those of `activityRef` when set) start, newest first; the event waits for them all.
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
      const handler = activityRef === null ? null : (runner.model.activity(activityRef)?.compensationHandler ?? activityRef);
      const subscriptions = (await runner.ctx.eventSubscriptions.find({ executionId: scope.id, eventType: 'compensate' }))
        .filter((subscription) => handler === null || subscription.activityId === handler)
        .sort(newestFirst);
      if (subscriptions.length === 0) return goOn(runner, execution);
      execution.isActive = false;
      runner.tree.touch(execution);
      for (const subscription of subscriptions) {
        await runner.ctx.eventSubscriptions.delete(subscription.id);
        const path = await runner.newConcurrentPathIn(scope);
        runner.enter(path, subscription.activityId!);
      }
    },
    // Every handler is done (compensationDone); a signal from outside while handlers run changes nothing.
    async signal(runner, execution, element) {
      if (!handlersRunningIn(runner, compensationScopeOf(runner, execution, element))) await goOn(runner, execution);
    },
  };
}

/** Whether a path of the scope still runs a compensation handler. */
function handlersRunningIn(runner: ProcessRunner, scope: Execution): boolean {
  return runner.tree.childrenOf(scope.id).some((each) => each.activityId !== null && runner.model.activity(each.activityId)?.isForCompensation === true);
}

const newestFirst = (a: EventSubscription, b: EventSubscription) =>
  b.created.getTime() - a.created.getTime() || Number(b.configuration ?? 0) - Number(a.configuration ?? 0);

/**
 * A path that ran a compensation handler ended in `scope`: when no other handler runs there, the
 * throw events waiting for them go on.
 */
export function compensationDone(runner: ProcessRunner, scope: Execution): void {
  if (handlersRunningIn(runner, scope)) return;
  for (const waiting of runner.tree.executions.values()) {
    if (waiting.isActive || waiting.activityId === null) continue;
    const element = runner.model.activity(waiting.activityId);
    if (isThrow(element) && compensationScopeOf(runner, waiting, element!) === scope) runner.signal(waiting);
  }
}
