import type { ModdleElement } from './moddle-element.js';

// Link events (Camunda's BpmnParse): a throwing one is no activity; a sequence flow into it leads
// to the catching link event of the same name in the same scope, which passes straight on.

const linkDefinitionOf = (node: ModdleElement): ModdleElement | undefined =>
  ((node.eventDefinitions ?? []) as ModdleElement[]).find((definition) => definition.$type === 'bpmn:LinkEventDefinition');

export const isLinkThrow = (node: ModdleElement): boolean => node.$type === 'bpmn:IntermediateThrowEvent' && linkDefinitionOf(node) !== undefined;

export const isLinkCatch = (node: ModdleElement): boolean => node.$type === 'bpmn:IntermediateCatchEvent' && linkDefinitionOf(node) !== undefined;

/** The link name of a link event (null when the definition has none). */
export const linkNameOf = (node: ModdleElement): string | null => (linkDefinitionOf(node)?.name as string | undefined) ?? null;

/**
 * The flow nodes of one scope without its link throw events, and where a flow into each of those
 * leads instead: the id of the scope's link catch event of the same name.
 */
export function resolveLinks(nodes: readonly ModdleElement[]): { activities: ModdleElement[]; redirect: Map<string, string> } {
  const targets = new Map(nodes.filter(isLinkCatch).map((node) => [linkNameOf(node), node.id!] as const));
  const redirect = new Map<string, string>();
  for (const node of nodes.filter(isLinkThrow)) {
    const target = targets.get(linkNameOf(node));
    if (target !== undefined) redirect.set(node.id!, target);
  }
  return { activities: nodes.filter((node) => !isLinkThrow(node)), redirect };
}
