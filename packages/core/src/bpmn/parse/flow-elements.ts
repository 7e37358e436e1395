import type { FlowElementModel, MultiInstanceModel, SequenceFlowModel } from '../model/flow-element.js';
import { frozenList } from '../model/frozen.js';
import { activityTypeOf } from './activity-type.js';
import {
  camundaAttributes,
  extensionsOf,
  failedJobRetryTimeCycleOf,
  elementFieldsOf,
  inputOutputOf,
  connectorOf,
  listenersOf,
  propertiesOf,
} from './camunda-extensions.js';
import { eventDefinitionsOf } from './event-definitions.js';
import { resolveLinks } from './link-events.js';
import {
  conditionScriptOf,
  documentationOf,
  expressionText,
  flowNodesOf,
  scopesOf,
  sequenceFlowsOf,
  stringOrNull,
  toPlainData,
  type ModdleElement,
} from './moddle-element.js';
import { taskAssignmentOf } from './task-assignment.js';
import type { UnresolvedReferences } from './unresolved-references.js';

/** The flow nodes and sequence flows of a process at every depth, in document order per scope. */
export interface ProcessGraph {
  elements: FlowElementModel[];
  flows: SequenceFlowModel[];
}

/** Maps the flow nodes and sequence flows of a process and of its sub-processes to plain, frozen data. */
export function mapProcessGraph(process: ModdleElement, references: UnresolvedReferences): ProcessGraph {
  const nodes: Array<{ node: ModdleElement; scopeId: string }> = [];
  const flowElements: Array<{ flow: ModdleElement; scopeId: string }> = [];
  // Where flows into link throw events lead instead (they are not activities).
  const redirect = new Map<string, string>();
  for (const scope of scopesOf(process)) {
    const scopeId = scope.id!;
    for (const flow of sequenceFlowsOf(scope)) if (flow.id) flowElements.push({ flow, scopeId });
    const links = resolveLinks(flowNodesOf(scope));
    for (const node of links.activities) nodes.push({ node, scopeId });
    for (const [from, to] of links.redirect) redirect.set(from, to);
  }
  const defaults = new Set(nodes.map(({ node }) => (node.default as ModdleElement | undefined)?.id).filter(Boolean));
  const flows = flowElements.map(({ flow, scopeId }) => toSequenceFlow(flow, scopeId, defaults.has(flow.id), redirect));

  // Camunda derives incoming and outgoing from the sequence flows, not from bpmn:incoming/outgoing.
  const links = new Map<string, { incoming: string[]; outgoing: string[]; boundaryEvents: string[] }>();
  const linksOf = (id: string) => links.get(id) ?? links.set(id, { incoming: [], outgoing: [], boundaryEvents: [] }).get(id)!;
  for (const flow of flows) {
    linksOf(flow.sourceRef).outgoing.push(flow.id);
    linksOf(flow.targetRef).incoming.push(flow.id);
  }
  for (const { node } of nodes) {
    const attachedTo = (node.attachedToRef as ModdleElement | undefined)?.id;
    if (attachedTo) linksOf(attachedTo).boundaryEvents.push(node.id!);
  }
  const handlers = compensationHandlers(process);
  const elements = nodes.map(({ node, scopeId }) => toFlowElement(node, scopeId, linksOf(node.id!), handlers.get(node.id!) ?? null, references));
  return { elements, flows };
}

/**
 * Activity id → the compensation handler its compensation boundary event is associated with: the
 * target of a bpmn:association whose source is that boundary event (in the artifacts of any scope).
 */
function compensationHandlers(process: ModdleElement): Map<string, string> {
  const handlers = new Map<string, string>();
  for (const scope of scopesOf(process)) {
    for (const association of compensationAssociationsOf(scope)) {
      const host = (association.source.attachedToRef as ModdleElement | undefined)?.id;
      if (host && association.target.id && association.target.isForCompensation === true) handlers.set(host, association.target.id);
    }
    // A sub-process's compensation event sub-process is its handler (Camunda's parseCompensationEventSubprocess).
    const eventSubProcess = compensationEventSubProcessesOf(scope)[0];
    if (scope !== process && eventSubProcess?.id && !handlers.has(scope.id!)) handlers.set(scope.id!, eventSubProcess.id);
  }
  return handlers;
}

const compensates = (event: ModdleElement) => ((event.eventDefinitions ?? []) as ModdleElement[]).some((definition) => definition.$type === 'bpmn:CompensateEventDefinition');

/** The event sub-processes of a scope that start with a compensation start event. */
export function compensationEventSubProcessesOf(scope: ModdleElement): ModdleElement[] {
  return flowNodesOf(scope).filter(
    (node) => node.$type === 'bpmn:SubProcess' && node.triggeredByEvent === true && flowNodesOf(node).some((start) => start.$type === 'bpmn:StartEvent' && compensates(start)),
  );
}

/** The associations of a scope that start at a compensation boundary event, with their ends. */
export function compensationAssociationsOf(scope: ModdleElement): Array<{ association: ModdleElement; source: ModdleElement; target: ModdleElement }> {
  return ((scope.artifacts ?? []) as ModdleElement[]).flatMap((association) => {
    const source = association.sourceRef as ModdleElement | undefined;
    const target = association.targetRef as ModdleElement | undefined;
    if (association.$type !== 'bpmn:Association' || !source || !target || source.$type !== 'bpmn:BoundaryEvent') return [];
    return compensates(source) ? [{ association, source, target }] : [];
  });
}

function toSequenceFlow(flow: ModdleElement, scopeId: string, isDefault: boolean, redirect: ReadonlyMap<string, string>): SequenceFlowModel {
  const condition = flow.conditionExpression as ModdleElement | undefined;
  const targetRef = (flow.targetRef as ModdleElement | undefined)?.id ?? '';
  return Object.freeze({
    id: flow.id!,
    name: stringOrNull(flow.name),
    scopeId,
    sourceRef: (flow.sourceRef as ModdleElement | undefined)?.id ?? '',
    targetRef: redirect.get(targetRef) ?? targetRef,
    condition: expressionText(condition),
    conditionScript: conditionScriptOf(condition),
    isDefault,
    // Camunda's parseExecutionListenersOnTransition: a flow's listeners run when it is taken, whatever their event.
    executionListeners: frozenList(listenersOf(flow, 'camunda:ExecutionListener').map((listener) => Object.freeze({ ...listener, event: 'take' }))),
  });
}

function toFlowElement(
  node: ModdleElement,
  scopeId: string,
  links: { incoming: string[]; outgoing: string[]; boundaryEvents: string[] },
  compensationHandler: string | null,
  references: UnresolvedReferences,
): FlowElementModel {
  return Object.freeze({
    id: node.id!,
    type: node.$type,
    activityType: activityTypeOf(node),
    name: stringOrNull(node.name),
    documentation: documentationOf(node),
    scopeId,
    incoming: frozenList(links.incoming),
    outgoing: frozenList(links.outgoing),
    defaultFlow: stringOrNull((node.default as ModdleElement | undefined)?.id),
    attachedTo: stringOrNull((node.attachedToRef as ModdleElement | undefined)?.id),
    cancelActivity: node.cancelActivity !== false,
    boundaryEvents: frozenList(links.boundaryEvents),
    triggeredByEvent: node.triggeredByEvent === true,
    isInterrupting: node.isInterrupting !== false,
    isForCompensation: node.isForCompensation === true,
    compensationHandler,
    eventDefinitions: eventDefinitionsOf(node, references),
    calledElement: stringOrNull(node.calledElement),
    script: node.$type === 'bpmn:ScriptTask' ? scriptTaskScript(node) : null,
    multiInstance: multiInstanceOf(node, references),
    camunda: camundaAttributes(node),
    fields: elementFieldsOf(node),
    inputOutput: inputOutputOf(node),
    connector: connectorOf(node),
    failedJobRetryTimeCycle: failedJobRetryTimeCycleOf(node),
    executionListeners: listenersOf(node, 'camunda:ExecutionListener'),
    taskListeners: listenersOf(node, 'camunda:TaskListener'),
    taskAssignment: taskAssignmentOf(node),
    properties: propertiesOf(node),
    extensions: frozenList(extensionsOf(node).map(toPlainData)),
  });
}

const scriptTaskScript = (task: ModdleElement) =>
  Object.freeze({
    format: stringOrNull(task.scriptFormat),
    source: typeof task.script === 'string' ? task.script : null,
    resource: stringOrNull(task.resource),
  });

/**
 * Camunda's parseMultiInstanceLoopCharacteristics: the collection is camunda:collection or, when
 * given, bpmn:loopDataInputRef (its text as written); the element variable camunda:elementVariable
 * or, when given, the name of bpmn:inputDataItem.
 */
export function multiInstanceOf(node: ModdleElement, references: UnresolvedReferences): MultiInstanceModel | null {
  const loop = node.loopCharacteristics as ModdleElement | undefined;
  if (loop?.$type !== 'bpmn:MultiInstanceLoopCharacteristics') return null;
  const inputRef = (loop.loopDataInputRef as ModdleElement | undefined)?.id ?? references.peek(loop, 'bpmn:loopDataInputRef');
  const inputDataItem = loop.inputDataItem as ModdleElement | undefined;
  return Object.freeze({
    isSequential: loop.isSequential === true,
    loopCardinality: expressionText(loop.loopCardinality),
    collection: inputRef ?? stringOrNull(loop.collection),
    elementVariable: inputDataItem ? stringOrNull(inputDataItem.name) : stringOrNull(loop.elementVariable),
    completionCondition: expressionText(loop.completionCondition),
    camunda: camundaAttributes(loop),
    failedJobRetryTimeCycle: failedJobRetryTimeCycleOf(loop),
  });
}
