import type { ModdleElement } from './moddle-element.js';
import type { ParseReport } from './parse-report.js';
import type { Position } from './xml-positions.js';

interface ModdleWarning {
  message: string;
  element?: ModdleElement;
  property?: string;
  value?: string;
  error?: Error;
}

const POSITION = /line: (\d+)\s+column: (\d+)/;
const DUPLICATE_ID = /duplicate ID <([^>]*)>/;

/** Moddle's lax warnings are errors for an executable model: a dropped element or a dangling reference. */
export function reportModdleWarning(report: ParseReport, warning: ModdleWarning): void {
  const element = warning.element;
  if (warning.message.startsWith('unresolved reference') && element) {
    report.error(unresolvedReferenceMessage(element, warning.property ?? '', warning.value ?? ''), element.id ?? null);
    return;
  }
  const duplicate = DUPLICATE_ID.exec(warning.message);
  if (duplicate) {
    report.error(`cvc-id.2: There are multiple occurrences of ID value '${duplicate[1]}'.`, duplicate[1], positionIn(warning.message));
    return;
  }
  report.error(firstLine(warning.message), element?.id ?? null, positionIn(warning.message));
}

/** moddle rejected the document as a whole: not XML, or not BPMN. */
export function reportModdleFailure(report: ParseReport, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  if (message.startsWith('failed to parse document as <bpmn:Definitions>')) {
    report.error('The document is not BPMN 2.0: its root element must be bpmn:definitions', null, { line: 1, column: 1 });
    return;
  }
  const nested = /nested error: (.*)/.exec(message)?.[1];
  report.error(`The document is not well-formed XML: ${nested ?? firstLine(message)}`, null, positionIn(message) ?? { line: 1, column: 1 });
}

// Camunda's BpmnParse texts for sequence flow ends; a generic one for any other reference.
function unresolvedReferenceMessage(element: ModdleElement, property: string, value: string): string {
  if (element.$type === 'bpmn:SequenceFlow' && property === 'bpmn:targetRef') {
    return `Invalid destination '${value}' of sequence flow '${element.id}'`;
  }
  if (element.$type === 'bpmn:SequenceFlow' && property === 'bpmn:sourceRef') {
    return `Invalid source '${value}' of sequence flow '${element.id}'`;
  }
  return `Invalid reference '${value}' in attribute '${property.replace(/^bpmn:/, '')}' of element '${element.id}': no element with that id`;
}

// saxen counts lines and columns from 0.
function positionIn(message: string): Position | undefined {
  const match = POSITION.exec(message);
  return match ? { line: Number(match[1]) + 1, column: Number(match[2]) + 1 } : undefined;
}

const firstLine = (message: string) => message.split('\n')[0].trim();
