import { evaluate, UnknownIdentifierError, type ExpressionContext } from './evaluator.js';
import { parse, type Node } from './parser.js';

export type { ExpressionContext } from './evaluator.js';
export { S, spinJson, type SpinJson } from './spin-json.js';

/** A failed expression; the message names the expression, as Camunda's do. */
export class ExpressionException extends Error {
  override readonly name = 'ProcessEngineException';
}

const PART = /([$#])\{((?:[^}'"]|'[^']*'|"[^"]*")*)\}/g;
const cache = new Map<string, Array<string | Node>>();

/** What an expression without an execution resolves: no variables (a start event's timer or priority, say). */
export const NO_VARIABLES: ExpressionContext = { has: () => false, resolve: () => undefined };

/** Whether the text holds `${…}` or `#{…}`. */
export function isExpression(text: string): boolean {
  return /[$#]\{/.test(text);
}

/**
 * Evaluates JUEL text: plain text is itself, a single `${x}` yields x's value, and text mixing
 * literal parts and expressions yields their concatenation. Parsed once per text.
 */
export function evaluateExpression(text: string, context: ExpressionContext): unknown {
  const parts = compile(text);
  try {
    if (parts.length === 1 && typeof parts[0] !== 'string') return evaluate(parts[0], context);
    return parts.map((part) => (typeof part === 'string' ? part : stringOf(evaluate(part, context)))).join('');
  } catch (error) {
    if (error instanceof UnknownIdentifierError) {
      throw new ExpressionException(`Unknown property used in expression: ${text}. Cause: ${error.message}`);
    }
    throw new ExpressionException(`Error while evaluating expression: ${text}. Cause: ${(error as Error).message}`);
  }
}

function compile(text: string): Array<string | Node> {
  let parts = cache.get(text);
  if (parts) return parts;
  parts = [];
  let last = 0;
  for (const match of text.matchAll(PART)) {
    if (match.index > last) parts.push(text.slice(last, match.index));
    try {
      parts.push(parse(match[2]));
    } catch (error) {
      throw new ExpressionException(`Error parsing '${text}': ${(error as Error).message}`);
    }
    last = match.index + match[0].length;
  }
  if (last < text.length || parts.length === 0) parts.push(text.slice(last));
  cache.set(text, parts);
  return parts;
}

const stringOf = (value: unknown) => (value === null || value === undefined ? '' : value instanceof Date ? value.toISOString() : String(value));
