import type { Node } from './parser.js';
import { callMethod, readProperty } from './members.js';

export interface ExpressionContext {
  /** Resolves a top-level identifier (a variable, `execution`, a registered bean); undefined when unknown. */
  resolve(name: string): unknown;
  /** Whether the identifier exists (a variable whose value is null still exists). */
  has(name: string): boolean;
}

/** Thrown when an identifier cannot be resolved (Camunda's PropertyNotFoundException text). */
export class UnknownIdentifierError extends Error {
  constructor(readonly identifier: string) {
    super(`Cannot resolve identifier '${identifier}'`);
  }
}

/** Evaluates a parsed expression with JUEL's coercions. */
export function evaluate(node: Node, context: ExpressionContext): unknown {
  switch (node.kind) {
    case 'literal':
      return node.value;
    case 'identifier':
      if (!context.has(node.name)) throw new UnknownIdentifierError(node.name);
      return context.resolve(node.name) ?? null;
    case 'member':
      return readProperty(evaluate(node.object, context), evaluate(node.property, context));
    case 'call':
      return callMethod(evaluate(node.object, context), node.method, node.args.map((arg) => evaluate(arg, context)));
    case 'function': {
      const fn = context.has(node.name) ? context.resolve(node.name) : undefined;
      if (typeof fn !== 'function') throw new UnknownIdentifierError(node.name);
      return fn(...node.args.map((arg) => evaluate(arg, context)));
    }
    case 'unary':
      return unary(node.operator, evaluate(node.operand, context));
    case 'conditional':
      return toBoolean(evaluate(node.test, context)) ? evaluate(node.then, context) : evaluate(node.otherwise, context);
    case 'binary':
      return binary(node.operator, node.left, node.right, context);
  }
}

function unary(operator: string, value: unknown): unknown {
  if (operator === '-') return -toNumber(value);
  if (operator === 'empty') return isEmpty(value);
  return !toBoolean(value);
}

function binary(operator: string, leftNode: Node, rightNode: Node, context: ExpressionContext): unknown {
  // && and || short-circuit, as in JUEL.
  if (operator === '&&' || operator === 'and') return toBoolean(evaluate(leftNode, context)) && toBoolean(evaluate(rightNode, context));
  if (operator === '||' || operator === 'or') return toBoolean(evaluate(leftNode, context)) || toBoolean(evaluate(rightNode, context));
  const left = evaluate(leftNode, context);
  const right = evaluate(rightNode, context);
  switch (operator) {
    case '+': return toNumber(left) + toNumber(right);
    case '-': return toNumber(left) - toNumber(right);
    case '*': return toNumber(left) * toNumber(right);
    case '/': case 'div': return toNumber(left) / toNumber(right);
    case '%': case 'mod': return toNumber(left) % toNumber(right);
    case '==': case 'eq': return equals(left, right);
    case '!=': case 'ne': return !equals(left, right);
    default: return compare(operator, left, right);
  }
}

function compare(operator: string, left: unknown, right: unknown): boolean {
  if (left === null || right === null) return false;
  const [a, b] = typeof left === 'string' && typeof right === 'string' ? [left, right] : [toNumber(left), toNumber(right)];
  switch (operator) {
    case '<': case 'lt': return a < b;
    case '>': case 'gt': return a > b;
    case '<=': case 'le': return a <= b;
    default: return a >= b;
  }
}

function equals(left: unknown, right: unknown): boolean {
  if (left === right) return true;
  if (left === null || right === null) return false;
  if (typeof left === 'number' || typeof right === 'number') return toNumber(left) === toNumber(right);
  if (typeof left === 'boolean' || typeof right === 'boolean') return toBoolean(left) === toBoolean(right);
  if (left instanceof Date && right instanceof Date) return left.getTime() === right.getTime();
  return String(left) === String(right);
}

/** JUEL coercion to a number: null and '' are 0; other text must parse. */
export function toNumber(value: unknown): number {
  if (value === null || value === undefined || value === '') return 0;
  if (typeof value === 'number') return value;
  if (typeof value === 'boolean') throw new Error(`Cannot coerce from class java.lang.Boolean to class java.lang.Number`);
  if (value instanceof Date) return value.getTime();
  const number = Number(value);
  if (Number.isNaN(number)) throw new Error(`Cannot coerce '${String(value)}' to a number`);
  return number;
}

/** JUEL coercion to a boolean: null and '' are false; text must be 'true' or 'false'. */
export function toBoolean(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return false;
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string') return value.toLowerCase() === 'true';
  throw new Error(`Cannot coerce from ${typeof value} to class java.lang.Boolean`);
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  if (value instanceof Map || value instanceof Set) return value.size === 0;
  if (typeof value === 'object') return Object.keys(value).length === 0;
  return false;
}
