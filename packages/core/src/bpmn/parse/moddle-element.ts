/** The slice of a moddle element the parser reads (moddle's own types are too loose to help). */
export interface ModdleElement {
  $type: string;
  $descriptor?: {
    propertiesByName: Record<string, { ns?: { prefix: string; localName: string }; isReference?: boolean } | undefined>;
  };
  id?: string;
  name?: string;
  // Moddle elements carry arbitrary typed properties; they are read by name.
  [property: string]: any;
}

/** Turns a moddle subtree into plain, frozen data (no parents, no descriptors). */
export function toPlainData(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(toPlainData));
  if (value === null || typeof value !== 'object') return value;
  const element = value as ModdleElement;
  const plain: Record<string, unknown> = {};
  if (element.$type) plain.$type = element.$type;
  for (const [key, child] of Object.entries(element)) {
    if (key.startsWith('$') || child === undefined) continue;
    // References to other elements become their ids, so the data stays a tree.
    const isReference = element.$descriptor?.propertiesByName[key]?.isReference === true;
    plain[key] = isReference ? referencedIds(child) : toPlainData(child);
  }
  if (element.$body !== undefined) plain.body = element.$body;
  return Object.freeze(plain);
}

function referencedIds(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(referencedIds));
  return (value as ModdleElement | null)?.id ?? null;
}
