import type { ModdleElement } from '../moddle-element.js';
import { referenceOf, type RuleContext } from './rule-context.js';

/**
 * Camunda's BpmnParse.parseBPMNPlane, parseBPMNShape and parseBPMNEdge: every diagram element must
 * name an element of the resource (7.22 texts, their spacing included).
 */
export function checkDiagrams(definitions: ModdleElement, context: RuleContext): void {
  const { report } = context;
  for (const diagram of (definitions.diagrams ?? []) as ModdleElement[]) {
    const plane = diagram.plane as ModdleElement | undefined;
    if (!plane) continue;
    if (referenceOf(plane, 'bpmndi:bpmnElement', context).id === null) {
      report.error("'bpmnElement' attribute is required on BPMNPlane ", [plane.id]);
      continue;
    }
    for (const element of (plane.planeElement ?? []) as ModdleElement[]) {
      const reference = referenceOf(element, 'bpmndi:bpmnElement', context);
      const kind = element.$type === 'bpmndi:BPMNShape' ? 'BPMNShape' : element.$type === 'bpmndi:BPMNEdge' ? 'BPMNEdge' : null;
      if (!kind || reference.target) continue;
      if (reference.id === null) {
        report.error(`'bpmnElement' attribute is required on ${kind}`, [element.id]);
      } else if (kind === 'BPMNShape') {
        report.error(`Invalid reference in 'bpmnElement' attribute, activity ${reference.id} not found`, [element.id]);
      } else {
        report.error(`Invalid reference in 'bpmnElement' attribute, sequenceFlow ${reference.id}not found`, [element.id]);
      }
    }
  }
}
