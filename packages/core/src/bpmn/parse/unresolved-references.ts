import { nearestId, type ModdleElement } from './moddle-element.js';
import type { ParseReport } from './parse-report.js';

interface Unresolved {
  property: string;
  value: string;
}

// References Camunda 7.22 never resolves (QName attributes the BPMN schema does not check and
// BpmnParse ignores or, for errorRef, reads as an error code): a warning, not an error.
const IGNORED_BY_CAMUNDA = new Set([
  'bpmn:incoming',
  'bpmn:outgoing',
  'bpmn:flowNodeRef',
  'bpmn:processRef',
  'bpmn:messageRef',
  'bpmn:errorRef',
  'bpmn:operationRef',
  'bpmn:itemSubjectRef',
  'bpmn:structureRef',
  'bpmn:categoryValueRef',
]);

// QName content Camunda reads as text of its own (a loopDataInputRef names the collection variable).
const READ_AS_TEXT = new Set(['bpmn:loopDataInputRef']);

/**
 * The references moddle could not resolve (it drops them and warns). Rules that know Camunda's
 * message for one take it; whatever no rule took is reported at the end.
 */
export class UnresolvedReferences {
  private readonly byElement = new Map<ModdleElement, Unresolved[]>();

  record(element: ModdleElement, property: string, value: string): void {
    const list = this.byElement.get(element);
    if (list) list.push({ property, value });
    else this.byElement.set(element, [{ property, value }]);
  }

  /** The id the element names in this property that matches nothing, leaving it to be reported. */
  peek(element: ModdleElement, property: string): string | undefined {
    return this.byElement.get(element)?.find((entry) => entry.property === property)?.value;
  }

  /** The id the element names in this property that matches nothing, marking it as reported. */
  take(element: ModdleElement, property: string): string | undefined {
    const list = this.byElement.get(element);
    const index = list?.findIndex((entry) => entry.property === property) ?? -1;
    if (!list || index === -1) return undefined;
    return list.splice(index, 1)[0].value;
  }

  /** Reports what no rule took, as the BPMN schema's IDREF check (Xerces' cvc-id.1) would. */
  reportRemaining(report: ParseReport): void {
    for (const [element, list] of this.byElement) {
      for (const { property, value } of list) {
        if (READ_AS_TEXT.has(property)) continue;
        const elementId = nearestId(element);
        if (IGNORED_BY_CAMUNDA.has(property)) {
          report.warning(`Unresolved reference '${value}' in '${property.replace(/^bpmn:/, '')}' is ignored`, [elementId]);
        } else {
          report.error(`cvc-id.1: There is no ID/IDREF binding for IDREF '${value}'.`, [elementId]);
        }
      }
    }
    this.byElement.clear();
  }
}
