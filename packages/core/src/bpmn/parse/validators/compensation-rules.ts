import { compensationAssociationsOf, compensationEventSubProcessesOf } from '../flow-elements.js';
import { flowNodesOf, scopesOf, sequenceFlowsOf, type ModdleElement } from '../moddle-element.js';
import { definitionLocation, eventDefinitionsOf, referenceOf, type RuleContext } from './rule-context.js';

const compensateDefinitionOf = (node: ModdleElement) => eventDefinitionsOf(node).find((definition) => definition.$type === 'bpmn:CompensateEventDefinition');
const THROWING = new Set(['bpmn:IntermediateThrowEvent', 'bpmn:EndEvent']);

/**
 * Camunda's BpmnParse rules on compensation: a compensation boundary event is associated with an
 * activity marked isForCompensation, one per activity; a compensation activity has no sequence
 * flows; a throw event's activityRef names an activity of its own scope (for an event
 * sub-process, of the scope around it); attributes Camunda ignores draw warnings.
 */
export function checkCompensation(process: ModdleElement, context: RuleContext): void {
  const { report } = context;
  for (const scope of scopesOf(process)) {
    const nodes = flowNodesOf(scope);
    for (const { association, source, target } of compensationAssociationsOf(scope)) {
      if (target.isForCompensation !== true) {
        report.error('compensation boundary catch must be connected to element with isForCompensation=true', [source.id, target.id], association.id ?? source.id);
      }
    }
    const hosts = new Set<string>();
    for (const node of nodes) {
      const definition = compensateDefinitionOf(node);
      if (!definition) continue;
      if (node.$type === 'bpmn:BoundaryEvent') {
        const host = (node.attachedToRef as ModdleElement | undefined)?.id ?? '';
        if (hosts.has(host)) report.error('multiple boundary events with compensateEventDefinition not supported on same activity', [node.id], definitionLocation(definition, node));
        hosts.add(host);
      }
      if (THROWING.has(node.$type)) checkThrow(node, definition, scope, context);
      else checkCatch(node, definition, context);
    }
    checkCompensationEventSubProcesses(scope, process, context);
    checkCancelEvents(scope, nodes, context);
    for (const flow of sequenceFlowsOf(scope)) {
      const source = flow.sourceRef as ModdleElement | undefined;
      const target = flow.targetRef as ModdleElement | undefined;
      if (source?.isForCompensation === true) {
        report.error(`Invalid outgoing sequence flow of compensation activity '${source.id}'. A compensation activity should not have an incoming or outgoing sequence flow.`, [flow.id]);
      } else if (target?.isForCompensation === true) {
        report.error(`Invalid incoming sequence flow of compensation activity '${target.id}'. A compensation activity should not have an incoming or outgoing sequence flow.`, [flow.id]);
      }
    }
  }
}

function checkThrow(node: ModdleElement, definition: ModdleElement, scope: ModdleElement, context: RuleContext): void {
  const at = definitionLocation(definition, node);
  const { id: activityRef } = referenceOf(definition, 'bpmn:activityRef', context);
  if (activityRef !== null) {
    // Camunda's findActivityAtLevelOfSubprocess: the throw's scope, and for an event sub-process the scope around it.
    const inScope = (candidate: ModdleElement) => flowNodesOf(candidate).some((each) => each.id === activityRef);
    const eventSubProcess = scope.$type === 'bpmn:SubProcess' && scope.triggeredByEvent === true;
    const lookedIn = !inScope(scope) && eventSubProcess && scope.$parent ? scope.$parent : scope;
    if (!inScope(lookedIn)) {
      context.report.error(`Invalid attribute value for 'activityRef': no activity with id '${activityRef}' in scope '${lookedIn.id}'`, [node.id], at);
    }
  }
  if (definition.waitForCompletion === false) {
    context.report.warning(
      "Unsupported attribute value for 'waitForCompletion': 'waitForCompletion=false' is not supported. Compensation event will wait for compensation to join.",
      [node.id],
      at,
    );
  }
}

function checkCatch(node: ModdleElement, definition: ModdleElement, context: RuleContext): void {
  const at = definitionLocation(definition, node);
  if (referenceOf(definition, 'bpmn:activityRef', context).id !== null) {
    context.report.warning("attribute 'activityRef' is not supported on catching compensation event. attribute will be ignored", [node.id], at);
  }
  if (definition.waitForCompletion !== undefined) {
    context.report.warning("attribute 'waitForCompletion' is not supported on catching compensation event. attribute will be ignored", [node.id], at);
  }
}

/**
 * Camunda's parseCompensationEventSubprocess: only inside an embedded sub-process, one per
 * sub-process, and not beside a compensation boundary event of that sub-process.
 */
function checkCompensationEventSubProcesses(scope: ModdleElement, process: ModdleElement, context: RuleContext): void {
  const { report } = context;
  const eventSubProcesses = compensationEventSubProcessesOf(scope);
  for (const [index, eventSubProcess] of eventSubProcesses.entries()) {
    const start = flowNodesOf(eventSubProcess).find((node) => node.$type === 'bpmn:StartEvent' && compensateDefinitionOf(node))!;
    if (scope === process) {
      report.error(
        'event subprocess with compensation start event is only supported for embedded subprocess (since throwing compensation through a call activity-induced process hierarchy is not supported)',
        [start.id],
      );
    } else if (index > 0) {
      report.error('multiple event subprocesses with compensation start event are not supported on the same scope', [start.id]);
    } else if (hasCompensationBoundary(scope)) {
      report.error('compensation boundary event and event subprocess with compensation start event are not supported on the same scope', [start.id]);
    }
  }
}

/** Whether the sub-process has a compensation boundary event (attached to it, in its parent scope). */
function hasCompensationBoundary(subProcess: ModdleElement): boolean {
  const parent = subProcess.$parent;
  return parent ? flowNodesOf(parent).some((node) => node.$type === 'bpmn:BoundaryEvent' && (node.attachedToRef as ModdleElement | undefined)?.id === subProcess.id && compensateDefinitionOf(node) !== undefined) : false;
}

const cancelDefinitionOf = (node: ModdleElement) => eventDefinitionsOf(node).find((definition) => definition.$type === 'bpmn:CancelEventDefinition');

/**
 * Camunda's rules on cancel events: an end event only inside a transaction, a boundary event only on
 * a transaction, one per transaction.
 */
function checkCancelEvents(scope: ModdleElement, nodes: ModdleElement[], context: RuleContext): void {
  const { report } = context;
  const transactions = new Set<string>();
  for (const node of nodes) {
    const definition = cancelDefinitionOf(node);
    if (!definition) continue;
    const at = definitionLocation(definition, node);
    if (node.$type === 'bpmn:EndEvent' && scope.$type !== 'bpmn:Transaction') {
      report.error('end event with cancelEventDefinition only supported inside transaction subprocess', [node.id], at);
    } else if (node.$type === 'bpmn:BoundaryEvent') {
      const host = node.attachedToRef as ModdleElement | undefined;
      if (host?.$type !== 'bpmn:Transaction') report.error('boundary event with cancelEventDefinition only supported on transaction subprocesses', [node.id], at);
      else if (transactions.has(host.id!)) report.error('multiple boundary events with cancelEventDefinition not supported on same transaction subprocess', [node.id], at);
      else transactions.add(host.id!);
    }
  }
}
