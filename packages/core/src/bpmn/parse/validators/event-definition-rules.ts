import { timerOf } from '../event-definitions.js';
import { flowNodesOf, scopesOf, type ModdleElement } from '../moddle-element.js';
import { definitionLocation, eventDefinitionsOf, referenceOf, type RuleContext } from './rule-context.js';

const CATCHING = new Set(['bpmn:StartEvent', 'bpmn:IntermediateCatchEvent', 'bpmn:BoundaryEvent']);
const THROWING = new Set(['bpmn:IntermediateThrowEvent', 'bpmn:EndEvent']);
const EXPRESSION = /[$#]\{/;

/** Names of message and signal subscriptions per event scope, to find duplicates. */
type Subscriptions = Map<string, Set<string>>;

/**
 * Camunda's checks on what event definitions reference: messages, signals, escalations and
 * errors must exist where BpmnParse looks them up, timers need a configuration, and a scope
 * may not wait twice for the same message or signal name at its start.
 */
export function checkEventDefinitions(process: ModdleElement, context: RuleContext): void {
  const subscriptions: Subscriptions = new Map();
  const linkTargets = new Set<string>();
  for (const scope of scopesOf(process)) {
    const isPlainSubProcess = scope !== process && scope.triggeredByEvent !== true;
    for (const node of flowNodesOf(scope)) {
      // A start event of a plain sub-process may have no definition at all (start-event-rules says so).
      if (node.$type === 'bpmn:StartEvent' && isPlainSubProcess) continue;
      if (node.$type === 'bpmn:ReceiveTask') checkReceiveTask(node, context);
      // The subscriptions of a start event live in its event scope: the process, or the scope around an event sub-process.
      const eventScope = node.$type === 'bpmn:StartEvent' ? ((scope === process ? process.id : scope.$parent?.id) ?? null) : null;
      for (const definition of eventDefinitionsOf(node)) checkDefinition(node, definition, eventScope, context, subscriptions, linkTargets);
    }
    checkEscalationCatchers(scope, context);
  }
}

const escalationDefinitionOf = (node: ModdleElement) => eventDefinitionsOf(node).find((definition) => definition.$type === 'bpmn:EscalationEventDefinition');

// What an escalation boundary event may be attached to (Camunda's BpmnParse.parseBoundaryEvents).
const ESCALATION_HOSTS = new Set(['bpmn:SubProcess', 'bpmn:Transaction', 'bpmn:CallActivity', 'bpmn:UserTask']);

/**
 * Camunda's BpmnParse.addEscalationEventDefinition: per catching scope, one escalation event
 * sub-process and one escalation boundary event (per attached activity) for each escalation code,
 * and a catch-all only alone; escalation boundary events only on sub-processes, call activities and
 * user tasks.
 */
function checkEscalationCatchers(scope: ModdleElement, context: RuleContext): void {
  const nodes = flowNodesOf(scope);
  const starts = nodes
    .filter((node) => node.$type === 'bpmn:SubProcess' && node.triggeredByEvent === true)
    .flatMap((eventSubProcess) => flowNodesOf(eventSubProcess).filter((node) => node.$type === 'bpmn:StartEvent' && escalationDefinitionOf(node)));
  checkEscalationCodes(starts, 'escalation event subprocess', 'escalation event subprocesses', context);
  const boundaries = new Map<ModdleElement, ModdleElement[]>();
  for (const node of nodes) {
    const attachedTo = node.attachedToRef as ModdleElement | undefined;
    if (node.$type !== 'bpmn:BoundaryEvent' || !escalationDefinitionOf(node) || !attachedTo) continue;
    if (!ESCALATION_HOSTS.has(attachedTo.$type)) {
      context.report.error('An escalation boundary event should only be attached to a subprocess, a call activity or an user task', [node.id]);
      continue;
    }
    boundaries.set(attachedTo, [...(boundaries.get(attachedTo) ?? []), node]);
  }
  for (const events of boundaries.values()) checkEscalationCodes(events, 'escalation boundary event', 'escalation boundary events', context);
}

function checkEscalationCodes(events: ModdleElement[], kind: string, kinds: string, { report }: RuleContext): void {
  const codes: Array<string | null> = [];
  for (const event of events) {
    const definition = escalationDefinitionOf(event)!;
    const code = ((definition.escalationRef as ModdleElement | undefined)?.escalationCode as string | undefined) ?? null;
    const at = definitionLocation(definition, event);
    for (const other of codes) {
      if (other === null && code === null) {
        report.error(`The same scope can not contains more than one ${kind} without escalation code. An ${kind} without escalation code catch all escalation events.`, [event.id], at);
      } else if (other === null || code === null) {
        report.error(
          `The same scope can not contains an ${kind} without escalation code and another one with escalation code. The ${kind} without escalation code catch all escalation events.`,
          [event.id],
          at,
        );
      } else if (other === code) {
        report.error(`multiple ${kinds} with the same escalationCode '${code}' are not supported on same scope`, [event.id], at);
      }
    }
    codes.push(code);
  }
}

function checkDefinition(
  node: ModdleElement,
  definition: ModdleElement,
  eventScope: string | null,
  context: RuleContext,
  subscriptions: Subscriptions,
  linkTargets: Set<string>,
): void {
  const { report } = context;
  const at = definitionLocation(definition, node);
  switch (definition.$type) {
    case 'bpmn:LinkEventDefinition':
      if (node.$type === 'bpmn:IntermediateCatchEvent') checkLinkTarget(node, definition, linkTargets, context);
      return;
    case 'bpmn:MessageEventDefinition': {
      if (!CATCHING.has(node.$type)) return;
      const message = checkMessageRef(node, definition, context);
      const name = message?.name;
      if (!name || !eventScope) return;
      if (EXPRESSION.test(name) && eventScope === node.$parent?.id && node.$parent?.$type === 'bpmn:Process') {
        report.error(`Invalid message name '${name}' for element 'messageEventDefinition': expressions in the message start event name are not allowed!`, [node.id], at);
      }
      subscribe(subscriptions, 'message', eventScope, name, node, context);
      return;
    }
    case 'bpmn:SignalEventDefinition': {
      const signal = referenceOf(definition, 'bpmn:signalRef', context);
      if (signal.id === null) report.error("signalEventDefinition does not have required property 'signalRef'", [node.id], at);
      else if (signal.target?.$type !== 'bpmn:Signal') report.error(`Could not find signal with id '${signal.id}'`, [node.id], at);
      else if (eventScope && signal.target.name) subscribe(subscriptions, 'signal', eventScope, signal.target.name, node, context);
      return;
    }
    case 'bpmn:EscalationEventDefinition':
      return checkEscalation(node, definition, context);
    case 'bpmn:TimerEventDefinition':
      if (CATCHING.has(node.$type) && !timerOf(definition)) {
        report.error('Timer needs configuration (either timeDate, timeCycle or timeDuration is needed).', [node.id], at);
      }
      return;
    case 'bpmn:ErrorEventDefinition':
      if (node.$type !== 'bpmn:EndEvent') return;
      if (!definition.errorRef && context.references.peek(definition, 'bpmn:errorRef') === undefined) {
        report.error("'errorRef' attribute is mandatory on error end event", [node.id], at);
      } else if (definition.errorRef && !definition.errorRef.errorCode) {
        report.error(
          `'errorCode' is mandatory on errors referenced by throwing error event definitions, but the error '${definition.errorRef.id}' does not define one.`,
          [node.id],
          at,
        );
      }
  }
}

// Camunda's BpmnParse.parseMessageEventDefinition and addEventSubscriptionDeclaration.
function checkMessageRef(node: ModdleElement, holder: ModdleElement, context: RuleContext): ModdleElement | null {
  const { report } = context;
  const at = holder === node ? node.id : definitionLocation(holder, node);
  const message = referenceOf(holder, 'bpmn:messageRef', context);
  if (message.id === null) {
    report.error("attribute 'messageRef' is required", [node.id], at);
  } else if (message.target?.$type !== 'bpmn:Message') {
    report.error(`Invalid 'messageRef': no message with id '${message.id}' found.`, [node.id], at);
  } else if (!message.target.name) {
    report.error('Cannot have a message event subscription with an empty or missing name', [node.id]);
  } else {
    return message.target;
  }
  return null;
}

// A receive task waits for a message only when it names one.
function checkReceiveTask(task: ModdleElement, context: RuleContext): void {
  if (task.messageRef || context.references.peek(task, 'bpmn:messageRef') !== undefined) checkMessageRef(task, task, context);
}

function checkEscalation(node: ModdleElement, definition: ModdleElement, context: RuleContext): void {
  const { report } = context;
  const at = definitionLocation(definition, node);
  const isThrowing = THROWING.has(node.$type);
  const escalation = referenceOf(definition, 'bpmn:escalationRef', context);
  if (escalation.id === null) {
    if (isThrowing) report.error("escalationEventDefinition does not have required attribute 'escalationRef'", [node.id], at);
  } else if (escalation.target?.$type !== 'bpmn:Escalation') {
    report.error(`could not find escalation with id '${escalation.id}'`, [node.id], at);
  } else if (isThrowing && !escalation.target.escalationCode) {
    const message = node.$type === 'bpmn:EndEvent' ? 'escalation end event must have an' : 'throwing escalation event must have an';
    report.error(`${message} 'escalationCode'`, [node.id], at);
  }
}

// Camunda's BpmnParse.parseIntermediateLinkEventCatchBehavior: one target per link name (Camunda
// counts them per resource, Trellis per process: a link cannot leave its process either way).
function checkLinkTarget(node: ModdleElement, definition: ModdleElement, linkTargets: Set<string>, { report }: RuleContext): void {
  const linkName = (definition.name as string | undefined) ?? null;
  const elementName = (node.name as string | undefined) ?? null;
  if (linkTargets.has(String(linkName))) {
    report.error(`Multiple Intermediate Catch Events with the same link event name ('${linkName}') are not allowed.`, [node.id]);
    return;
  }
  if (linkName !== elementName) {
    report.warning(`Link Event named '${elementName}' contains link event definition with name '${linkName}' - it is recommended to use the same name for both.`, [node.id]);
  }
  linkTargets.add(String(linkName));
}

function subscribe(subscriptions: Subscriptions, kind: string, scopeId: string, name: string, node: ModdleElement, { report }: RuleContext): void {
  const key = `${kind}:${scopeId}`;
  const names = subscriptions.get(key) ?? subscriptions.set(key, new Set()).get(key)!;
  if (names.has(name)) {
    report.error(`Cannot have more than one ${kind} event subscription with name '${name}' for scope '${scopeId}'`, [node.id]);
  }
  names.add(name);
}
