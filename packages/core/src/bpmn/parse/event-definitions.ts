import type { EventDefinitionModel, TimerModel } from '../model/flow-element.js';
import { frozenList } from '../model/frozen.js';
import { camundaAttributes, extensionsOf } from './camunda-extensions.js';
import { commaSeparatedList, conditionScriptOf, expressionText, stringOrNull, toPlainData, type ModdleElement } from './moddle-element.js';
import type { UnresolvedReferences } from './unresolved-references.js';

/**
 * The event definitions of an event, with what they reference looked up. A receive task's
 * messageRef reads as a message event definition, so that it waits for its message like a catch event.
 */
export function eventDefinitionsOf(event: ModdleElement, references: UnresolvedReferences): readonly EventDefinitionModel[] {
  if (event.$type === 'bpmn:ReceiveTask') {
    const message = event.messageRef as ModdleElement | undefined;
    return frozenList(message ? [toEventDefinition({ $type: 'bpmn:MessageEventDefinition', messageRef: message } as unknown as ModdleElement, references)] : []);
  }
  return frozenList(((event.eventDefinitions ?? []) as ModdleElement[]).map((definition) => toEventDefinition(definition, references)));
}

/**
 * BpmnParse.parseTimer reads camunda:exclusive from the timer event definition itself (which the
 * Camunda moddle schema does not declare there, so it is among the element's other attributes).
 */
function timerExclusive(definition: ModdleElement): boolean {
  const attributes = (definition.$attrs ?? {}) as Record<string, unknown>;
  const key = Object.keys(attributes).find((name) => name.endsWith(':exclusive'));
  return key === undefined || attributes[key] === 'true';
}

/** Camunda's order of precedence when a timer sets more than one of timeDate, timeCycle and timeDuration. */
export function timerOf(definition: ModdleElement): TimerModel | null {
  for (const [kind, property] of [['date', 'timeDate'], ['cycle', 'timeCycle'], ['duration', 'timeDuration']] as const) {
    const expression = expressionText(definition[property]);
    if (expression) return Object.freeze({ kind, expression, exclusive: timerExclusive(definition) });
  }
  return null;
}

function toEventDefinition(definition: ModdleElement, references: UnresolvedReferences): EventDefinitionModel {
  const message = definition.messageRef as ModdleElement | undefined;
  const signal = definition.signalRef as ModdleElement | undefined;
  const error = definition.errorRef as ModdleElement | undefined;
  const escalation = definition.escalationRef as ModdleElement | undefined;
  // Camunda reads an errorRef that names no bpmn:error as the error code itself.
  const unresolvedErrorRef = error ? undefined : references.take(definition, 'bpmn:errorRef');
  return Object.freeze({
    type: definition.$type,
    id: stringOrNull(definition.id),
    messageRef: stringOrNull(message?.id),
    messageName: stringOrNull(message?.name),
    signalRef: stringOrNull(signal?.id),
    signalName: stringOrNull(signal?.name),
    errorRef: stringOrNull(error?.id ?? unresolvedErrorRef),
    errorCode: stringOrNull(error ? error.errorCode : unresolvedErrorRef),
    errorMessage: stringOrNull(error?.errorMessage),
    escalationRef: stringOrNull(escalation?.id),
    escalationCode: stringOrNull(escalation?.escalationCode),
    timer: definition.$type === 'bpmn:TimerEventDefinition' ? timerOf(definition) : null,
    condition: expressionText(definition.condition),
    conditionScript: conditionScriptOf(definition.condition as ModdleElement | undefined),
    variableName: stringOrNull(definition.variableName),
    variableEvents: frozenList(commaSeparatedList(definition.variableEvents)),
    linkName: definition.$type === 'bpmn:LinkEventDefinition' ? stringOrNull(definition.name) : null,
    activityRef: stringOrNull((definition.activityRef as ModdleElement | undefined)?.id),
    waitForCompletion: definition.waitForCompletion !== false,
    camunda: camundaAttributes(definition),
    extensions: frozenList(extensionsOf(definition).map(toPlainData)),
  });
}
