import type { EventDefinitionModel, FlowElementModel, SequenceFlowModel } from '../model/process-model.js';
import { toPlainData, type ModdleElement } from './moddle-element.js';

export interface ScopeContents {
  elements: Map<string, FlowElementModel>;
  flows: Map<string, SequenceFlowModel>;
  /** The moddle elements, kept for checks that need more than the model. */
  moddleElements: ModdleElement[];
}

/** Maps the flow elements of a process and, recursively, of its sub-processes. */
export function collectFlowElements(scope: ModdleElement, parentId: string | null, into: ScopeContents): ScopeContents {
  for (const element of (scope.flowElements ?? []) as ModdleElement[]) {
    if (!element.id) continue;
    into.moddleElements.push(element);
    if (element.$type === 'bpmn:SequenceFlow') {
      into.flows.set(element.id, toSequenceFlow(element, parentId));
      continue;
    }
    if (element.$type === 'bpmn:DataObject' || element.$type === 'bpmn:DataObjectReference' || element.$type === 'bpmn:DataStoreReference') continue;
    into.elements.set(element.id, toFlowElement(element, parentId));
    if (element.flowElements) collectFlowElements(element, element.id, into);
  }
  return into;
}

function toSequenceFlow(flow: ModdleElement, parentId: string | null): SequenceFlowModel {
  return Object.freeze({
    id: flow.id!,
    name: flow.name ?? null,
    sourceRef: flow.sourceRef?.id ?? '',
    targetRef: flow.targetRef?.id ?? '',
    parentId,
    condition: flow.conditionExpression?.body ?? null,
  });
}

function toFlowElement(element: ModdleElement, parentId: string | null): FlowElementModel {
  return Object.freeze({
    id: element.id!,
    type: element.$type,
    name: element.name ?? null,
    parentId,
    incoming: Object.freeze(((element.incoming ?? []) as ModdleElement[]).map((flow) => flow.id!)),
    outgoing: Object.freeze(((element.outgoing ?? []) as ModdleElement[]).map((flow) => flow.id!)),
    defaultFlow: element.default?.id ?? null,
    attachedToRef: element.attachedToRef?.id ?? null,
    cancelActivity: element.cancelActivity ?? true,
    eventDefinitions: Object.freeze(((element.eventDefinitions ?? []) as ModdleElement[]).map(toEventDefinition)),
    calledElement: typeof element.calledElement === 'string' ? element.calledElement : null,
    camunda: camundaAttributes(element),
    extensions: Object.freeze(((element.extensionElements?.values ?? []) as unknown[]).map(toPlainData)),
  });
}

/** The camunda:* attributes set on an element, by local name. */
export function camundaAttributes(element: ModdleElement): Readonly<Record<string, string | number | boolean>> {
  const attributes: Record<string, string | number | boolean> = {};
  const properties = element.$descriptor?.propertiesByName ?? {};
  for (const [key, value] of Object.entries(element)) {
    if (key.startsWith('$') || value === undefined || typeof value === 'object') continue;
    const namespace = properties[key]?.ns;
    if (namespace?.prefix === 'camunda') attributes[namespace.localName] = value as string | number | boolean;
  }
  return Object.freeze(attributes);
}

function toEventDefinition(definition: ModdleElement): EventDefinitionModel {
  return Object.freeze({
    type: definition.$type,
    messageName: definition.messageRef?.name ?? null,
    signalName: definition.signalRef?.name ?? null,
    errorCode: definition.errorRef?.errorCode ?? null,
    escalationCode: definition.escalationRef?.escalationCode ?? null,
    timeDate: definition.timeDate?.body ?? null,
    timeCycle: definition.timeCycle?.body ?? null,
    timeDuration: definition.timeDuration?.body ?? null,
    condition: definition.condition?.body ?? null,
  });
}
