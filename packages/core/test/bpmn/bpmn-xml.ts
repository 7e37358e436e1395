import { ParseException } from '../../src/errors/index.js';
import { parseBpmnResource, type BpmnParseOptions, type ProcessModel } from '../../src/bpmn/index.js';

const NAMESPACES =
  'xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" ' +
  'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"';

/**
 * A BPMN document with one process around `body`: the process tag is on line 3 and the body
 * starts on line 4, so that tests can name lines.
 */
export function processXml(body: string, attributes = 'isExecutable="true"', outside = ''): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions ${NAMESPACES} id="definitions" targetNamespace="http://trellis.test/bpmn">
  <bpmn:process id="p" ${attributes}>
${body}
  </bpmn:process>
${outside}</bpmn:definitions>
`;
}

/** A start event, `body` and an end event; flows connect start → first → end when asked. */
export const startAndEnd = (body = '') =>
  `    <bpmn:startEvent id="start" />\n${body}\n    <bpmn:endEvent id="end" />`;

/** The single process of a valid document. */
export async function parseProcess(xml: string, options?: BpmnParseOptions): Promise<ProcessModel> {
  const { processes } = await parseBpmnResource('model.bpmn', xml, options);
  if (processes.length !== 1) throw new Error(`expected one process, got ${processes.length}`);
  return processes[0];
}

/** The ParseException the parse of `xml` throws (fails the test when it throws nothing else). */
export async function parseFailure(xml: string, options?: BpmnParseOptions, resourceName = 'model.bpmn'): Promise<ParseException> {
  const failure = await parseBpmnResource(resourceName, xml, options).then(
    () => null,
    (error: unknown) => error,
  );
  if (!(failure instanceof ParseException)) throw new Error(`expected a ParseException, got ${String(failure)}`);
  return failure;
}

/** The errors a resource named model.bpmn was rejected with. */
export async function parseErrors(xml: string, options?: BpmnParseOptions) {
  return (await parseFailure(xml, options)).details['model.bpmn'].errors;
}
