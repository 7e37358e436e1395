import type { ScriptModel } from '../model/flow-element.js';
/** The slice of a moddle element the parser reads (moddle's own typings are too loose to help). */
export interface ModdleElement {
  $type: string;
  $parent?: ModdleElement;
  $descriptor?: {
    propertiesByName: Record<string, { ns?: { prefix: string; localName: string }; isReference?: boolean } | undefined>;
    properties?: Array<{ name: string; isReference?: boolean }>;
  };
  $instanceOf?(type: string): boolean;
  id?: string;
  name?: string;
  // Moddle elements carry arbitrary typed properties; they are read by name.
  [property: string]: any;
}

/** Whether the element is (or extends) the moddle type, e.g. 'bpmn:FlowNode'. */
export const isA = (element: ModdleElement, type: string): boolean =>
  element.$instanceOf ? element.$instanceOf(type) : element.$type === type;

/** The flow elements directly inside a process or sub-process. */
export const flowElementsOf = (scope: ModdleElement): ModdleElement[] => (scope.flowElements ?? []) as ModdleElement[];

/** The flow nodes directly inside a process or sub-process (no sequence flows, no data objects). */
export const flowNodesOf = (scope: ModdleElement): ModdleElement[] =>
  flowElementsOf(scope).filter((element) => element.id && isA(element, 'bpmn:FlowNode'));

/** The sequence flows directly inside a process or sub-process. */
export const sequenceFlowsOf = (scope: ModdleElement): ModdleElement[] =>
  flowElementsOf(scope).filter((element) => element.$type === 'bpmn:SequenceFlow');

/** The process and every sub-process in it (embedded, event, transaction, ad-hoc), outermost first. */
export function scopesOf(process: ModdleElement): ModdleElement[] {
  const scopes = [process];
  for (let i = 0; i < scopes.length; i++) {
    for (const node of flowNodesOf(scopes[i])) if (isA(node, 'bpmn:SubProcess')) scopes.push(node);
  }
  return scopes;
}

/** The local name of a moddle type: 'bpmn:UserTask' → 'UserTask'. */
export const localType = (type: string): string => type.slice(type.indexOf(':') + 1);

/** The element's id, or the id of its nearest ancestor that has one. */
export function nearestId(element: ModdleElement | undefined): string | null {
  for (let current = element; current; current = current.$parent) if (current.id) return current.id;
  return null;
}

/** The trimmed text of a bpmn:Expression / FormalExpression (Camunda trims expression text). */
export const expressionText = (expression: ModdleElement | undefined): string | null =>
  typeof expression?.body === 'string' ? expression.body.trim() : null;

/**
 * A condition element's script (Camunda's BpmnParse.parseConditionExpression: a `language` makes it
 * a ScriptCondition, its text the source unless camunda:resource names one); null for an expression.
 */
export function conditionScriptOf(condition: ModdleElement | undefined): ScriptModel | null {
  const language = stringOrNull(condition?.language);
  if (language === null) return null;
  const resource = stringOrNull(condition?.resource);
  return Object.freeze({ format: language, source: resource === null ? (expressionText(condition) ?? '') : null, resource });
}

/** A string attribute, or null when absent or empty. */
export const stringOrNull = (value: unknown): string | null =>
  value === undefined || value === null || value === '' ? null : String(value);

/**
 * Camunda's BpmnParse.parseCommaSeparatedList: commas inside an expression (`${a, b}`) do not split.
 * Parts are trimmed; empty parts are dropped.
 */
export function commaSeparatedList(value: unknown): string[] {
  if (typeof value !== 'string') return [];
  const parts: string[] = [];
  let current = '';
  let insideExpression = false;
  for (const char of value) {
    if (char === '{' || char === '$') insideExpression = true;
    else if (char === '}') insideExpression = false;
    if (char === ',' && !insideExpression) {
      parts.push(current.trim());
      current = '';
    } else current += char;
  }
  parts.push(current.trim());
  return parts.filter(Boolean);
}

/** Turns a moddle subtree into plain, frozen data (no parents, no descriptors; references become ids). */
export function toPlainData(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(toPlainData));
  if (value === null || typeof value !== 'object') return value;
  const element = value as ModdleElement;
  const plain: Record<string, unknown> = {};
  if (element.$type) plain.$type = element.$type;
  for (const [key, child] of Object.entries(element)) {
    if (key.startsWith('$') || child === undefined) continue;
    const isReference = element.$descriptor?.propertiesByName[key]?.isReference === true;
    plain[key] = isReference ? referencedIds(child) : toPlainData(child);
  }
  // Resolved references may live outside the element's own enumerable keys (inherited properties such as errorRef).
  for (const property of element.$descriptor?.properties ?? []) {
    const local = property.name.includes(':') ? property.name.split(':')[1] : property.name;
    if (!property.isReference || local in plain) continue;
    const value = (element as Record<string, unknown>)[local];
    if (value !== undefined && value !== null) plain[local] = referencedIds(value);
  }
  if (element.$body !== undefined) plain.body = element.$body;
  return Object.freeze(plain);
}

function referencedIds(value: unknown): unknown {
  if (Array.isArray(value)) return Object.freeze(value.map(referencedIds));
  return (value as ModdleElement | null)?.id ?? null;
}

/** Camunda's StringUtil.isExpression: the text (trimmed) starts with `${` or `#{`. */
export const startsAsExpression = (text: string): boolean => /^\s*[$#]\{/.test(text);

/** Camunda's BpmnParse.parseDocumentation: the bpmn:documentation texts, trimmed, separated by a blank line; null without any. */
export function documentationOf(element: ModdleElement): string | null {
  const texts = ((element.documentation ?? []) as ModdleElement[]).map((doc) => String(doc.text ?? '').trim());
  return texts.length === 0 ? null : texts.join('\n\n');
}
