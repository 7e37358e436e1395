import { isLinkCatch, isLinkThrow, linkNameOf } from '../link-events.js';
import { flowNodesOf, isA, scopesOf, sequenceFlowsOf, type ModdleElement } from '../moddle-element.js';
import { referenceOf, type RuleContext } from './rule-context.js';

/**
 * Camunda's BpmnParse.parseSequenceFlow: both ends must be flow nodes of the flow's own scope
 * (a flow cannot cross a sub-process boundary), with the event-based gateway, event sub-process
 * and link event rules.
 */
export function checkSequenceFlows(process: ModdleElement, context: RuleContext): void {
  for (const scope of scopesOf(process)) {
    const nodes = new Map(flowNodesOf(scope).map((node) => [node.id!, node]));
    const flows = sequenceFlowsOf(scope);
    const afterEventGateway = new Set(
      flows.filter((flow) => flow.sourceRef?.$type === 'bpmn:EventBasedGateway').map((flow) => flow.targetRef?.id),
    );
    for (const flow of flows) checkFlow(flow, nodes, afterEventGateway, context);
  }
}

function checkFlow(
  flow: ModdleElement,
  nodes: Map<string, ModdleElement>,
  afterEventGateway: Set<string | undefined>,
  context: RuleContext,
): void {
  const { report } = context;
  const ids = [flow.id];
  const sourceRef = referenceOf(flow, 'bpmn:sourceRef', context).id;
  const targetRef = referenceOf(flow, 'bpmn:targetRef', context).id;
  const source = sourceRef === null ? undefined : nodes.get(sourceRef);
  const target = targetRef === null ? undefined : nodes.get(targetRef);
  // A link throw event is no activity (its incoming flows lead to the link catch): nothing leaves it.
  // Java prints a missing attribute as 'null'.
  if (!source || isLinkThrow(source)) {
    report.error(`Invalid source '${sourceRef}' of sequence flow '${flow.id ?? null}'`, ids);
  } else if (!target) {
    report.error(`Invalid destination '${targetRef}' of sequence flow '${flow.id ?? null}'`, ids);
  } else if (isLinkThrow(target) && !hasLinkCatch(target, nodes)) {
    const linkName = linkNameOf(target);
    report.error(
      `sequence flow points to link event source with name '${linkName}' but no event target with that name exists. ` +
        'Most probably your link events are not configured correctly.',
      ids,
    );
  } else if (source.$type === 'bpmn:EventBasedGateway') {
    if (isLinkCatch(target)) report.error('IntermediateCatchLinkEvent is not allowed after an EventBasedGateway.', [target.id]);
    // BpmnParse.parseEventBasedGateway.
    else if (target.$type !== 'bpmn:IntermediateCatchEvent') report.error('Event based gateway can only be connected to elements of type intermediateCatchEvent', [source.id]);
    return;
  } else if (target.$type === 'bpmn:IntermediateCatchEvent' && afterEventGateway.has(target.id)) {
    report.error(`Invalid incoming sequenceflow for intermediateCatchEvent with id '${target.id}' connected to an event-based gateway.`, ids);
  } else if (isEventSubProcess(source)) {
    report.error('Invalid outgoing sequence flow of event subprocess', ids);
  } else if (isEventSubProcess(target)) {
    report.error('Invalid incoming sequence flow of event subprocess', ids);
  }
}

const isEventSubProcess = (node: ModdleElement) => isA(node, 'bpmn:SubProcess') && node.triggeredByEvent === true;

function hasLinkCatch(linkThrow: ModdleElement, nodes: Map<string, ModdleElement>): boolean {
  const name = linkNameOf(linkThrow);
  return [...nodes.values()].some((node) => isLinkCatch(node) && linkNameOf(node) === name);
}
