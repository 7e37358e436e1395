import { localType, type ModdleElement } from './moddle-element.js';

type EventKind = 'timer' | 'message' | 'signal' | 'error' | 'escalation' | 'compensate' | 'cancel' | 'conditional' | 'link' | 'terminate';

// Camunda's ActivityTypes, as BpmnParse assigns them per event and event definition.
const START: Partial<Record<EventKind, string>> = {
  timer: 'startTimerEvent',
  message: 'messageStartEvent',
  signal: 'signalStartEvent',
  conditional: 'conditionalStartEvent',
  escalation: 'escalationStartEvent',
  compensate: 'compensationStartEvent',
  error: 'errorStartEvent',
};
// At process level BpmnParse only types timer, message, signal and conditional start events.
const PROCESS_START: Partial<Record<EventKind, string>> = {
  timer: START.timer,
  message: START.message,
  signal: START.signal,
  conditional: START.conditional,
};
const BOUNDARY: Partial<Record<EventKind, string>> = {
  timer: 'boundaryTimer',
  message: 'boundaryMessage',
  signal: 'boundarySignal',
  compensate: 'compensationBoundaryCatch',
  error: 'boundaryError',
  escalation: 'boundaryEscalation',
  cancel: 'cancelBoundaryCatch',
  conditional: 'boundaryConditional',
};
const INTERMEDIATE_CATCH: Partial<Record<EventKind, string>> = {
  message: 'intermediateMessageCatch',
  timer: 'intermediateTimer',
  link: 'intermediateLinkCatch',
  signal: 'intermediateSignalCatch',
  conditional: 'intermediateConditional',
};
const INTERMEDIATE_THROW: Partial<Record<EventKind, string>> = {
  signal: 'intermediateSignalThrow',
  compensate: 'intermediateCompensationThrowEvent',
  escalation: 'intermediateEscalationThrowEvent',
};
const END: Partial<Record<EventKind, string>> = {
  error: 'errorEndEvent',
  cancel: 'cancelEndEvent',
  terminate: 'terminateEndEvent',
  signal: 'signalEndEvent',
  compensate: 'compensationEndEvent',
  escalation: 'escalationEndEvent',
};

/**
 * Camunda's activity type of a flow node (the `activityType` of activity instances and history):
 * the element name, refined by its event definition for events.
 */
export function activityTypeOf(element: ModdleElement): string {
  const tagName = localType(element.$type).replace(/^./, (first) => first.toLowerCase());
  const definition = ((element.eventDefinitions ?? []) as ModdleElement[])[0];
  const kind = definition ? eventKind(definition) : null;
  switch (element.$type) {
    case 'bpmn:StartEvent': {
      const types = element.$parent?.triggeredByEvent === true ? START : PROCESS_START;
      return (kind && types[kind]) ?? tagName;
    }
    case 'bpmn:BoundaryEvent':
      return (kind && BOUNDARY[kind]) ?? tagName;
    case 'bpmn:IntermediateCatchEvent':
      return (kind && INTERMEDIATE_CATCH[kind]) ?? tagName;
    case 'bpmn:IntermediateThrowEvent':
      // Camunda creates no activity for a link throw event: its incoming flow leads to the link catch.
      if (kind === 'link') return tagName;
      if (kind === 'message') return isServiceTaskLike(definition) ? 'intermediateMessageThrowEvent' : 'intermediateNoneThrowEvent';
      return (kind && INTERMEDIATE_THROW[kind]) ?? 'intermediateNoneThrowEvent';
    case 'bpmn:EndEvent':
      // A message end event without an implementation keeps the plain element name.
      if (kind === 'message') return isServiceTaskLike(definition) ? 'messageEndEvent' : tagName;
      return (kind && END[kind]) ?? 'noneEndEvent';
    default:
      return tagName;
  }
}

/** Camunda's isServiceTaskLike: an implementation is declared (class, expression, delegate, type or connector). */
export function isServiceTaskLike(element: ModdleElement | undefined): boolean {
  if (!element) return false;
  const declared = ['class', 'expression', 'delegateExpression', 'type'].some((name) => element[name] !== undefined);
  const values = (element.extensionElements?.values ?? []) as ModdleElement[];
  return declared || values.some((value) => value.$type === 'camunda:Connector');
}

const EVENT_KINDS = new Set<string>(['timer', 'message', 'signal', 'error', 'escalation', 'compensate', 'cancel', 'conditional', 'link', 'terminate']);

function eventKind(definition: ModdleElement): EventKind | null {
  const kind = localType(definition.$type)
    .replace(/EventDefinition$/, '')
    .replace(/^./, (first) => first.toLowerCase());
  return EVENT_KINDS.has(kind) ? (kind as EventKind) : null;
}
