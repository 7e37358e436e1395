const BPMN_SUFFIXES = ['bpmn20.xml', 'bpmn'];
const DIAGRAM_SUFFIXES = ['png', 'jpg', 'gif', 'svg'];

/** Resources the BPMN deployer parses. */
export function isBpmnResource(name: string): boolean {
  return BPMN_SUFFIXES.some((suffix) => name.endsWith(`.${suffix}`));
}

/**
 * Camunda's diagram lookup: for `order.bpmn` and key `order-process`, the first of
 * `order.order-process.png`, `order.png`, then the same for jpg, gif and svg, that was deployed.
 */
export function diagramResourceFor(resourceName: string, key: string, deployed: ReadonlySet<string>): string | null {
  const suffix = BPMN_SUFFIXES.find((candidate) => resourceName.endsWith(candidate));
  if (!suffix) return null;
  const stem = resourceName.slice(0, resourceName.length - suffix.length);
  for (const diagramSuffix of DIAGRAM_SUFFIXES) {
    const forDefinition = `${stem}${key}.${diagramSuffix}`;
    const forFile = `${stem}${diagramSuffix}`;
    if (deployed.has(forDefinition)) return forDefinition;
    if (deployed.has(forFile)) return forFile;
  }
  return null;
}
