import type { FlowElementModel, ProcessModel } from '../../bpmn/index.js';
import { isScopeActivity } from '../../runtime/process-runner.js';
import { continuationOf } from '../../runtime/multi-instance.js';

export const MI_BODY_SUFFIX = '#multiInstanceBody';

/**
 * An activity of Camunda's activity tree as migration sees it: a flow node, or the multi-instance
 * body (`<id>#multiInstanceBody`) that Camunda puts around a multi-instance activity.
 */
export interface MigrationActivity {
  readonly id: string;
  readonly element: FlowElementModel;
  /** True for the multi-instance body of `element`. */
  readonly body: boolean;
}

/** The activity with this id (a flow node or an MI body), or null. */
export function resolveActivity(model: ProcessModel, id: string): MigrationActivity | null {
  if (id.endsWith(MI_BODY_SUFFIX)) {
    const inner = model.activity(id.slice(0, -MI_BODY_SUFFIX.length));
    return inner?.multiInstance ? { id, element: inner, body: true } : null;
  }
  const element = model.activity(id);
  return element ? { id, element, body: false } : null;
}

const node = (element: FlowElementModel): MigrationActivity =>
  element.multiInstance ? { id: element.id + MI_BODY_SUFFIX, element, body: true } : { id: element.id, element, body: false };

/** The flow scope of an activity; null is the process itself. */
export function flowScopeOf(model: ProcessModel, activity: MigrationActivity): MigrationActivity | null {
  if (!activity.body && activity.element.multiInstance) return { id: activity.element.id + MI_BODY_SUFFIX, element: activity.element, body: true };
  const scopeId = activity.element.scopeId;
  if (scopeId === model.key) return null;
  const scope = model.activity(scopeId);
  return scope ? { id: scope.id, element: scope, body: false } : null;
}

/** The activities whose flow scope is the given one (null: the process). */
export function childrenOf(model: ProcessModel, scope: MigrationActivity | null): MigrationActivity[] {
  if (scope?.body) return [{ id: scope.element.id, element: scope.element, body: false }];
  return model.childrenOf(scope ? scope.element.id : model.key).map(node);
}

export const isBoundaryEvent = (activity: MigrationActivity) => !activity.body && activity.element.type === 'bpmn:BoundaryEvent';

/** A start event of an event sub-process. */
export function isEventSubProcessStart(model: ProcessModel, activity: MigrationActivity): boolean {
  if (activity.body || activity.element.type !== 'bpmn:StartEvent') return false;
  return model.activity(activity.element.scopeId)?.triggeredByEvent === true;
}

/**
 * The event scope as Camunda's BpmnParse sets it: of boundary events the activity they are attached
 * to (its MI body for a multi-instance activity), of event sub-process start events the scope around
 * the event sub-process, of intermediate catch events the event-based gateway before them (else
 * themselves), of a receive task with a message and of a user task with timeout listeners
 * themselves, of a process-level signal start event the process; undefined for activities without
 * an event scope. null is the process.
 */
export function eventScopeOf(model: ProcessModel, activity: MigrationActivity): MigrationActivity | null | undefined {
  if (isBoundaryEvent(activity)) {
    const host = model.activity(activity.element.attachedTo ?? '');
    return host ? node(host) : null;
  }
  if (isEventSubProcessStart(model, activity)) {
    const subProcess = model.activity(activity.element.scopeId)!;
    return flowScopeOf(model, { id: subProcess.id, element: subProcess, body: false });
  }
  if (activity.body) return undefined;
  const element = activity.element;
  if (element.type === 'bpmn:IntermediateCatchEvent') {
    const gateway = model.flowsTo(element.id).map((flow) => model.activity(flow.sourceRef)).find((source) => source?.type === 'bpmn:EventBasedGateway');
    return gateway ? node(gateway) : activity;
  }
  if (element.type === 'bpmn:ReceiveTask' && element.eventDefinitions.length > 0) return activity;
  if (hasTimeoutListener(activity)) return activity;
  if (isProcessSignalStart(model, activity)) return null;
  return undefined;
}

/** A signal start event of the process itself: the only process-level start event Camunda's BpmnParse gives an event scope (the process). */
const isProcessSignalStart = (model: ProcessModel, activity: MigrationActivity) =>
  !activity.body && activity.element.type === 'bpmn:StartEvent' && activity.element.scopeId === model.key && hasDefinition(activity.element, 'bpmn:SignalEventDefinition');

/** A user task with a timeout task listener (its timer makes the task its own event scope). */
export const hasTimeoutListener = (activity: MigrationActivity) =>
  !activity.body && activity.element.type === 'bpmn:UserTask' && activity.element.taskListeners.some((listener) => listener.event === 'timeout');

/** Whether the activity is a scope in Trellis' execution tree (MI bodies always are). */
export const isScope = (activity: MigrationActivity) => activity.body || isScopeActivity(activity.element);

const hasDefinition = (element: FlowElementModel, type: string) => element.eventDefinitions.some((each) => each.type === type);
const isConditional = (element: FlowElementModel) => hasDefinition(element, 'bpmn:ConditionalEventDefinition');

/** The behavior of a service-task-like element by its camunda attributes; null when it has none of them. */
function serviceTaskLike(camunda: FlowElementModel['camunda']): string | null {
  if (camunda['type'] === 'external') return 'ExternalTaskActivityBehavior';
  if (camunda['class']) return 'ClassDelegateActivityBehavior';
  if (camunda['delegateExpression']) return 'ServiceTaskDelegateExpressionActivityBehavior';
  if (camunda['expression']) return 'ServiceTaskExpressionActivityBehavior';
  return null;
}

/**
 * What a throwing intermediate or end event does, as BpmnParse sets it: a signal, compensation or
 * escalation behavior; a message one behaves as the service task its definition describes, or as a
 * none throw event without one; null for the rest (the none event of its kind).
 */
function throwingBehavior(element: FlowElementModel): string | null {
  if (hasDefinition(element, 'bpmn:SignalEventDefinition')) return 'ThrowSignalEventActivityBehavior';
  if (hasDefinition(element, 'bpmn:CompensateEventDefinition')) return 'CompensationEventActivityBehavior';
  const message = element.eventDefinitions.find((each) => each.type === 'bpmn:MessageEventDefinition');
  // Its implementation is read from the element or its message event definition (as the runtime does).
  if (message) return serviceTaskLike({ ...message.camunda, ...element.camunda }) ?? 'IntermediateThrowNoneEventActivityBehavior';
  if (hasDefinition(element, 'bpmn:EscalationEventDefinition')) return 'ThrowEscalationEventActivityBehavior';
  return null;
}

/** Camunda's behavior class (simple name) of an activity, as SameBehaviorInstructionValidator compares them. */
export function behaviorOf(model: ProcessModel, activity: MigrationActivity): string {
  const element = activity.element;
  if (activity.body) return element.multiInstance!.isSequential ? 'SequentialMultiInstanceActivityBehavior' : 'ParallelMultiInstanceActivityBehavior';
  switch (element.type) {
    case 'bpmn:SubProcess':
      return element.triggeredByEvent ? 'EventSubProcessActivityBehavior' : 'SubProcessActivityBehavior';
    case 'bpmn:Transaction':
      return 'SubProcessActivityBehavior';
    case 'bpmn:UserTask':
      return 'UserTaskActivityBehavior';
    case 'bpmn:ReceiveTask':
      return 'ReceiveTaskActivityBehavior';
    case 'bpmn:CallActivity':
      return element.camunda['caseRef'] ? 'CaseCallActivityBehavior' : 'CallActivityBehavior';
    case 'bpmn:ServiceTask':
    case 'bpmn:SendTask':
    case 'bpmn:BusinessRuleTask':
      return serviceTaskLike(element.camunda) ?? (element.type === 'bpmn:BusinessRuleTask' && element.camunda['decisionRef'] ? 'DmnBusinessRuleTaskActivityBehavior' : 'TaskActivityBehavior');
    case 'bpmn:ScriptTask':
      return 'ScriptTaskActivityBehavior';
    case 'bpmn:ManualTask':
      return 'ManualTaskActivityBehavior';
    case 'bpmn:Task':
      return 'TaskActivityBehavior';
    case 'bpmn:BoundaryEvent':
      if (isConditional(element)) return 'BoundaryConditionalEventActivityBehavior';
      return hasDefinition(element, 'bpmn:CancelEventDefinition') ? 'CancelBoundaryEventActivityBehavior' : 'BoundaryEventActivityBehavior';
    case 'bpmn:IntermediateCatchEvent':
      if (isConditional(element)) return 'IntermediateConditionalEventBehavior';
      if (hasDefinition(element, 'bpmn:LinkEventDefinition')) return 'IntermediateCatchLinkEventActivityBehavior';
      return 'IntermediateCatchEventActivityBehavior';
    case 'bpmn:IntermediateThrowEvent':
      return throwingBehavior(element) ?? 'IntermediateThrowNoneEventActivityBehavior';
    case 'bpmn:StartEvent':
      if (isEventSubProcessStart(model, activity)) {
        return isConditional(element) ? 'EventSubProcessStartConditionalEventActivityBehavior' : 'EventSubProcessStartEventActivityBehavior';
      }
      return 'NoneStartEventActivityBehavior';
    case 'bpmn:EndEvent':
      if (hasDefinition(element, 'bpmn:ErrorEventDefinition')) return 'ErrorEndEventActivityBehavior';
      if (hasDefinition(element, 'bpmn:CancelEventDefinition')) return 'CancelEndEventActivityBehavior';
      if (hasDefinition(element, 'bpmn:TerminateEventDefinition')) return 'TerminateEndEventActivityBehavior';
      return throwingBehavior(element) ?? 'NoneEndEventActivityBehavior';
    case 'bpmn:ExclusiveGateway':
      return 'ExclusiveGatewayActivityBehavior';
    case 'bpmn:ParallelGateway':
      return 'ParallelGatewayActivityBehavior';
    case 'bpmn:InclusiveGateway':
      return 'InclusiveGatewayActivityBehavior';
    case 'bpmn:EventBasedGateway':
      return 'EventBasedGatewayActivityBehavior';
    case 'bpmn:ComplexGateway':
      return 'ComplexGatewayActivityBehavior';
    default:
      return 'FlowNodeActivityBehavior';
  }
}

const SUPPORTED_BEHAVIORS = new Set([
  'SubProcessActivityBehavior',
  'UserTaskActivityBehavior',
  'BoundaryEventActivityBehavior',
  'ParallelMultiInstanceActivityBehavior',
  'SequentialMultiInstanceActivityBehavior',
  'ReceiveTaskActivityBehavior',
  'CallActivityBehavior',
  'CaseCallActivityBehavior',
  'IntermediateCatchEventActivityBehavior',
  'EventBasedGatewayActivityBehavior',
  'EventSubProcessActivityBehavior',
  'EventSubProcessStartEventActivityBehavior',
  'ExternalTaskActivityBehavior',
  'ParallelGatewayActivityBehavior',
  'InclusiveGatewayActivityBehavior',
  'IntermediateConditionalEventBehavior',
  'BoundaryConditionalEventActivityBehavior',
  'EventSubProcessStartConditionalEventActivityBehavior',
]);

export const isSupportedBehavior = (behavior: string) => SUPPORTED_BEHAVIORS.has(behavior);

const EQUIVALENT: Record<string, string> = {
  CallActivityBehavior: 'CaseCallActivityBehavior',
  CaseCallActivityBehavior: 'CallActivityBehavior',
  SubProcessActivityBehavior: 'EventSubProcessActivityBehavior',
  EventSubProcessActivityBehavior: 'SubProcessActivityBehavior',
};

export const sameBehavior = (source: string, target: string) => source === target || EQUIVALENT[source] === target;

/** An activity's asynchronous continuation settings: of a multi-instance activity, the body has the element's, the inner activity its loop characteristics'. */
export const continuationSettings = (activity: MigrationActivity) => continuationOf(activity.element, !activity.body).camunda;

export const isAsync = (activity: MigrationActivity) => {
  const camunda = continuationSettings(activity);
  return camunda['asyncBefore'] === true || camunda['asyncAfter'] === true || camunda['async'] === true;
};

export const isConditionalEvent = (activity: MigrationActivity) => !activity.body && isConditional(activity.element);

/** BPMN types of passive event triggers that generation may map (boundary and event sub-process start events). */
const PASSIVE_TRIGGER_TYPES = new Set([
  'boundaryMessage',
  'boundarySignal',
  'boundaryTimer',
  'compensationBoundaryCatch',
  'boundaryConditional',
  'messageStartEvent',
  'signalStartEvent',
  'startTimerEvent',
  'compensationStartEvent',
  'conditionalStartEvent',
]);

/** The activity validators generation applies to both sides of a proposed instruction. */
export function eligibleForGeneration(model: ProcessModel, activity: MigrationActivity): boolean {
  if (!isSupportedBehavior(behaviorOf(model, activity)) && !isAsync(activity)) return false;
  if ((isBoundaryEvent(activity) || isEventSubProcessStart(model, activity)) && !PASSIVE_TRIGGER_TYPES.has(activity.element.activityType)) return false;
  return !(!activity.body && activity.element.isForCompensation);
}

/** Whether the activity declares a timer, a message/signal/conditional subscription or a task timeout-listener timer. */
export function definesPersistentEventTrigger(model: ProcessModel, activity: MigrationActivity): boolean {
  if (activity.body) return false;
  const element = activity.element;
  if (hasTimeoutListener(activity)) return true;
  // A receive task with a message subscribes as a catch event does.
  const isEvent =
    isBoundaryEvent(activity) || isEventSubProcessStart(model, activity) || element.type === 'bpmn:IntermediateCatchEvent' || element.type === 'bpmn:ReceiveTask' || isProcessSignalStart(model, activity);
  if (!isEvent) return false;
  return element.eventDefinitions.some((each) =>
    ['bpmn:TimerEventDefinition', 'bpmn:MessageEventDefinition', 'bpmn:SignalEventDefinition', 'bpmn:ConditionalEventDefinition'].includes(each.type),
  );
}

export const isWaitStateGateway = (activity: MigrationActivity) =>
  !activity.body && (activity.element.type === 'bpmn:ParallelGateway' || activity.element.type === 'bpmn:InclusiveGateway');
