import { localType, type ModdleElement } from '../moddle-element.js';
import type { ParseReport } from '../parse-report.js';
import type { UnresolvedReferences } from '../unresolved-references.js';

/** What a rule reports to, and the references moddle could not resolve. */
export interface RuleContext {
  report: ParseReport;
  references: UnresolvedReferences;
}

/** A reference as written: `target` when it resolved, `id` as written either way, both null when absent. */
export interface Reference {
  id: string | null;
  target: ModdleElement | null;
}

/**
 * Reads a reference property such as 'bpmn:messageRef'. An unresolved one is taken from the
 * pending references: the rule that reads it reports it with Camunda's message.
 */
export function referenceOf(element: ModdleElement, property: string, context: RuleContext): Reference {
  const target = (element[localType(property)] as ModdleElement | undefined) ?? null;
  if (target) return { id: target.id ?? null, target };
  return { id: context.references.take(element, property) ?? null, target: null };
}

/** Where a problem about an event definition points: the definition when it has an id, else its event. */
export const definitionLocation = (definition: ModdleElement, event: ModdleElement): string | undefined =>
  definition.id ?? event.id;

/** The event definitions of an event or of a receive task-like element. */
export const eventDefinitionsOf = (event: ModdleElement): ModdleElement[] => (event.eventDefinitions ?? []) as ModdleElement[];
