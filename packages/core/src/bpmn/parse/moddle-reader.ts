import { createRequire } from 'node:module';
import { BpmnModdle } from 'bpmn-moddle';
import { localType, nearestId, type ModdleElement } from './moddle-element.js';
import type { ParseReport } from './parse-report.js';
import { UnresolvedReferences } from './unresolved-references.js';
import type { Position } from './xml-positions.js';

const camundaSchema = asWritten(createRequire(import.meta.url)('camunda-bpmn-moddle/resources/camunda.json'), 'Process', 'isStartableInTasklist');
const moddle = new BpmnModdle({ camunda: camundaSchema });

interface ModdleWarning {
  message: string;
  element?: ModdleElement;
  property?: string;
  value?: string;
}

/** What moddle made of a resource: the definitions and the references it could not resolve. */
export interface ModdleDocument {
  definitions: ModdleElement;
  references: UnresolvedReferences;
}

const CONTEXT = /^unparsable content (?:([\s\S]*?) )?detected\n\tline: (\d+)\n\tcolumn: (\d+)\n\tnested error: (.*)/s;
// Packages whose schemas Camunda validates strictly (BPMN 2.0 with DI); camunda:* is validated laxly.
const STRICT_PACKAGES = new Set(['bpmn', 'bpmndi', 'dc', 'di']);

/**
 * Reads a resource with bpmn-moddle in lax mode and turns its warnings into problems, with
 * Xerces' texts where Camunda's schema validation would have reported the same thing.
 * Returns null when moddle could not read the document at all.
 */
export async function readModdleDocument(xml: string, report: ParseReport): Promise<ModdleDocument | null> {
  const references = new UnresolvedReferences();
  try {
    const result = await moddle.fromXML(xml, 'bpmn:Definitions');
    for (const warning of result.warnings as ModdleWarning[]) reportWarning(report, references, warning);
    return { definitions: result.rootElement as ModdleElement, references };
  } catch (error) {
    const warnings = ((error as { warnings?: ModdleWarning[] }).warnings ?? []).map((warning) => warning.message);
    reportFailure(report, xml, error instanceof Error ? error.message : String(error), warnings);
    return null;
  }
}

function reportWarning(report: ParseReport, references: UnresolvedReferences, warning: ModdleWarning): void {
  const { element, property, value } = warning;
  if (warning.message.startsWith('unresolved reference') && element && property) {
    references.record(element, property, value ?? '');
  } else if (warning.message.startsWith('unknown attribute') && element && property) {
    reportUnknownAttribute(report, element, property);
  } else {
    reportUnparsable(report, warning.message);
  }
}

function reportUnknownAttribute(report: ParseReport, element: ModdleElement, attribute: string): void {
  const elementId = nearestId(element);
  const isStrict = STRICT_PACKAGES.has(element.$type.split(':')[0]) && !attribute.includes(':');
  if (!isStrict) {
    report.warning(`Unknown attribute '${attribute}' is ignored`, [elementId]);
    return;
  }
  const tag = element.id ? report.positions.tagOfId(element.id)?.qName : undefined;
  const qName = tag ?? `bpmn:${localType(element.$type).replace(/^./, (first) => first.toLowerCase())}`;
  report.error(`cvc-complex-type.3.2.2: Attribute '${attribute}' is not allowed to appear in element '${qName}'.`, [elementId]);
}

function reportUnparsable(report: ParseReport, message: string): void {
  const context = CONTEXT.exec(message);
  if (!context) {
    report.warning(message, []);
    return;
  }
  const [, content, line, column, nested] = context;
  const tag = report.positions.tagAt(Number(line), Number(column));
  const at: Position = tag?.end ?? { line: Number(line) + 1, column: Number(column) + 1 };
  const duplicate = /^duplicate ID <(.*)>$/.exec(nested);
  const illegal = /^illegal ID <(.*)>$/.exec(nested);
  const unknownType = /^unknown type <(\w+):/.exec(nested);
  if (duplicate) {
    report.error(`cvc-id.2: There are multiple occurrences of ID value '${duplicate[1]}'.`, [duplicate[1]], at);
  } else if (illegal) {
    report.error(`cvc-datatype-valid.1.2.1: '${illegal[1]}' is not a valid value for 'NCName'.`, [], at);
  } else if (unknownType && !STRICT_PACKAGES.has(unknownType[1])) {
    report.warning(`Unknown extension element ${content} is ignored`, [tag?.id], at);
  } else if (unknownType) {
    report.error(`cvc-complex-type.2.4.a: Invalid content was found starting with element '${tag?.qName ?? content}'.`, [tag?.id], at);
  } else {
    report.error(`${nested.trim()}: ${content ?? ''}`.replace(/: $/, ''), [tag?.id], at);
  }
}

// moddle failed as a whole. Camunda's Xerces reports a document that is not XML as a fatal SAX
// error, and one whose root is not a BPMN definitions element as cvc-elt.1.a.
function reportFailure(report: ParseReport, xml: string, message: string, warnings: string[]): void {
  const root = report.positions.root;
  if (message.startsWith('failed to parse document as') && root) {
    const malformed = warnings.filter((warning) => !CONTEXT.exec(warning)?.[4].startsWith('unexpected element'));
    for (const warning of malformed) reportUnparsable(report, warning);
    if (malformed.length === 0) {
      report.error(`cvc-elt.1.a: Cannot find the declaration of element '${root.qName}'.`, [root.id], root.end);
    }
    return;
  }
  const context = CONTEXT.exec(message);
  const nested = context?.[4] ?? message;
  const at: Position = context ? { line: Number(context[2]) + 1, column: Number(context[3]) + 1 } : { line: 1, column: 1 };
  if (nested.startsWith('missing start tag')) {
    report.error(xml.trim() === '' ? 'Premature end of file.' : 'Content is not allowed in prolog.', [], at);
  } else {
    report.error(`The document is not well-formed XML: ${nested.split('\n')[0].trim()}`, [], at);
  }
}

interface SchemaType {
  name: string;
  properties?: Array<{ name: string; type: string; default?: unknown }>;
}

/**
 * A copy of the schema in which one Boolean attribute is read as the text written: moddle's Boolean
 * takes only "true", where Camunda compares the text itself (isStartableInTasklist ignoring case).
 */
function asWritten(schema: { types: SchemaType[] }, typeName: string, attribute: string): { types: SchemaType[] } {
  const types = schema.types.map((type) =>
    type.name !== typeName
      ? type
      : { ...type, properties: type.properties?.map((property) => (property.name === attribute ? { ...property, type: 'String', default: undefined } : property)) },
  );
  return { ...schema, types };
}
