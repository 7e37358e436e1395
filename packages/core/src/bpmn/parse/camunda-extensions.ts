import type {
  CamundaAttributes,
  ConnectorModel,
  FieldModel,
  InputOutputModel,
  ListenerModel,
  ParameterModel,
  ParameterValue,
  ScriptModel,
  TimerModel,
} from '../model/flow-element.js';
import { frozenList } from '../model/frozen.js';
import { timerOf } from './event-definitions.js';
import { stringOrNull, type ModdleElement } from './moddle-element.js';

/** The camunda:* attributes set on an element, by local name. */
export function camundaAttributes(element: ModdleElement): CamundaAttributes {
  const attributes: Record<string, string | number | boolean> = {};
  const properties = element.$descriptor?.propertiesByName ?? {};
  for (const [key, value] of Object.entries(element)) {
    if (key.startsWith('$') || value === undefined || value === null || typeof value === 'object') continue;
    const namespace = properties[key]?.ns;
    if (namespace?.prefix === 'camunda') attributes[namespace.localName] = value as string | number | boolean;
  }
  return Object.freeze(attributes);
}

/** The extension elements of an element, optionally only those of one moddle type. */
export function extensionsOf(element: ModdleElement, type?: string): ModdleElement[] {
  const values = (element.extensionElements?.values ?? []) as ModdleElement[];
  return type ? values.filter((value) => value.$type === type) : values;
}

/** camunda:inputOutput, or null when the element has none. */
export function inputOutputOf(element: ModdleElement): InputOutputModel | null {
  return inputOutputModel(extensionsOf(element, 'camunda:InputOutput')[0]);
}

/** camunda:connector of the element, or of its message event definition; null when neither has one. */
export function connectorOf(element: ModdleElement): ConnectorModel | null {
  const message = ((element.eventDefinitions ?? []) as ModdleElement[]).find((definition) => definition.$type === 'bpmn:MessageEventDefinition');
  const [connector] = [...extensionsOf(element, 'camunda:Connector'), ...(message ? extensionsOf(message, 'camunda:Connector') : [])];
  if (!connector) return null;
  return Object.freeze({
    connectorId: typeof connector.connectorId === 'string' ? connector.connectorId.trim() : '',
    inputOutput: inputOutputModel(connector.inputOutput as ModdleElement | undefined),
  });
}

function inputOutputModel(inputOutput: ModdleElement | undefined): InputOutputModel | null {
  if (!inputOutput) return null;
  const parameters = (list: unknown): readonly ParameterModel[] =>
    frozenList(((list ?? []) as ModdleElement[]).map((p) => Object.freeze({ name: p.name ?? '', value: parameterValue(p) })));
  return Object.freeze({
    inputParameters: parameters(inputOutput.inputParameters),
    outputParameters: parameters(inputOutput.outputParameters),
  });
}

/** camunda:failedJobRetryTimeCycle text, or null. */
export function failedJobRetryTimeCycleOf(element: ModdleElement): string | null {
  const [cycle] = extensionsOf(element, 'camunda:FailedJobRetryTimeCycle');
  return typeof cycle?.body === 'string' ? cycle.body.trim() : null;
}

/** camunda:executionListener or camunda:taskListener elements, in document order. */
export function listenersOf(element: ModdleElement, type: 'camunda:ExecutionListener' | 'camunda:TaskListener'): readonly ListenerModel[] {
  return frozenList(
    extensionsOf(element, type).map((listener) =>
      Object.freeze({
        event: stringOrNull(listener.event),
        id: stringOrNull(listener.id),
        timer: timerOfListener(listener),
        class: stringOrNull(listener.class),
        expression: stringOrNull(listener.expression),
        delegateExpression: stringOrNull(listener.delegateExpression),
        script: listener.script ? scriptOf(listener.script) : null,
        fields: fieldsOf(listener.fields),
      }),
    ),
  );
}

/** A timeout task listener's bpmn:timerEventDefinition. */
function timerOfListener(listener: ModdleElement): TimerModel | null {
  const [definition] = (listener.eventDefinitions ?? []) as ModdleElement[];
  return definition ? timerOf(definition) : null;
}

/** camunda:properties as name/value pairs. */
export function propertiesOf(element: ModdleElement): readonly { readonly name: string; readonly value: string | null }[] {
  const properties = extensionsOf(element, 'camunda:Properties').flatMap((list) => (list.values ?? []) as ModdleElement[]);
  return frozenList(properties.map((property) => Object.freeze({ name: property.name ?? '', value: stringOrNull(property.value) })));
}

/** A camunda:script (or a bpmn:scriptTask's script, read by the caller) as data. */
export function scriptOf(script: ModdleElement): ScriptModel {
  return Object.freeze({
    format: stringOrNull(script.scriptFormat),
    source: typeof script.value === 'string' ? script.value : null,
    resource: stringOrNull(script.resource),
  });
}

// Camunda's IoUtil: a parameter is a script, list or map when it has one, else its text
// (an expression or a constant), else null.
function parameterValue(parameter: ModdleElement): ParameterValue {
  const definition = parameter.definition as ModdleElement | undefined;
  if (definition) return definitionValue(definition);
  const text = typeof parameter.value === 'string' ? parameter.value.trim() : '';
  return Object.freeze(text === '' ? { kind: 'null' } : { kind: 'text', text });
}

function definitionValue(definition: ModdleElement): ParameterValue {
  switch (definition.$type) {
    case 'camunda:Script':
      return Object.freeze({ kind: 'script', script: scriptOf(definition) });
    case 'camunda:List':
      return Object.freeze({ kind: 'list', items: frozenList(((definition.items ?? []) as ModdleElement[]).map(itemValue)) });
    case 'camunda:Map': {
      const entries = ((definition.entries ?? []) as ModdleElement[]).map((entry) =>
        Object.freeze({ key: entry.key ?? '', value: parameterValue(entry) }),
      );
      return Object.freeze({ kind: 'map', entries: frozenList(entries) });
    }
    default:
      return Object.freeze({ kind: 'null' });
  }
}

// A list item is a definition (script, list, map) or a camunda:value with text.
function itemValue(item: ModdleElement): ParameterValue {
  if (item.$type === 'camunda:Script' || item.$type === 'camunda:List' || item.$type === 'camunda:Map') return definitionValue(item);
  return parameterValue(item);
}

/** An element's own camunda:field elements (a service task's class or delegate expression gets them). */
export function elementFieldsOf(element: ModdleElement): readonly FieldModel[] {
  return fieldsOf(extensionsOf(element, 'camunda:Field'));
}

function fieldsOf(fields: unknown): readonly FieldModel[] {
  return frozenList(
    ((fields ?? []) as ModdleElement[]).map((field) =>
      Object.freeze({
        name: field.name ?? '',
        stringValue: stringOrNull(field.stringValue ?? field.string),
        expression: stringOrNull(field.expression),
      }),
    ),
  );
}
