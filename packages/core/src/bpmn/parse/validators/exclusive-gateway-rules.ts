import { flowNodesOf, scopesOf, sequenceFlowsOf, type ModdleElement } from '../moddle-element.js';
import type { RuleContext } from './rule-context.js';

/**
 * Camunda's BpmnParse.validateExclusiveGateway: which outgoing flows of an exclusive gateway need a
 * condition. (Camunda gives these problems no line; Trellis points at the gateway.)
 */
export function checkExclusiveGateways(process: ModdleElement, context: RuleContext): void {
  for (const scope of scopesOf(process)) {
    const flows = sequenceFlowsOf(scope);
    for (const gateway of flowNodesOf(scope).filter((node) => node.$type === 'bpmn:ExclusiveGateway')) {
      checkGateway(gateway, flows.filter((flow) => flow.sourceRef === gateway), context);
    }
  }
}

function checkGateway(gateway: ModdleElement, outgoing: ModdleElement[], { report, references }: RuleContext): void {
  const id = gateway.id!;
  const prefix = `Exclusive Gateway '${id}'`;
  if (outgoing.length === 0) {
    report.error(`${prefix} has no outgoing sequence flows.`, [id]);
    return;
  }
  if (outgoing.length === 1) {
    const [flow] = outgoing;
    if (flow.conditionExpression) {
      report.error(`${prefix} has only one outgoing sequence flow ('${flow.id}'). This is not allowed to have a condition.`, [id, flow.id]);
    }
    return;
  }
  // The default as written, also when it names nothing (that is reported on its own).
  const defaultFlow: string | undefined = gateway.default?.id ?? references.peek(gateway, 'bpmn:default');
  const withoutCondition = outgoing.filter((flow) => !flow.conditionExpression && flow.id !== defaultFlow);
  for (const flow of outgoing.filter((flow) => flow.conditionExpression && flow.id === defaultFlow)) {
    report.error(`${prefix} has outgoing sequence flow '${flow.id}' which is the default flow but has a condition too.`, [id, flow.id]);
  }
  if (defaultFlow || withoutCondition.length > 1) {
    for (const flow of withoutCondition) {
      report.error(`${prefix} has outgoing sequence flow '${flow.id}' without condition which is not the default flow.`, [id, flow.id]);
    }
  } else if (withoutCondition.length === 1) {
    report.warning(
      `${prefix} has outgoing sequence flow '${withoutCondition[0].id}' without condition which is not the default flow. ` +
        'We assume it to be the default flow, but it is bad modeling practice, better set the default flow in your gateway.',
      [id, withoutCondition[0].id],
    );
  }
}
