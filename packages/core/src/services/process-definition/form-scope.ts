import type { DelegateRegistry } from '../../runtime/delegates/delegate-registry.js';
import type { ExpressionContext } from '../../runtime/expressions/index.js';
import { toJavaScriptValue, type TypedValue } from '../../runtime/variables/index.js';

/**
 * Where a form's fields are submitted (Camunda's VariableScope handed to DefaultFormHandler):
 * the variables it holds, for the `required` check, and what its expressions resolve.
 */
export interface FormScope {
  variable(name: string): TypedValue | undefined;
  expressions: ExpressionContext;
}

/**
 * What expressions resolve where no execution is (Camunda's StartProcessVariableScope, a start
 * form read before any instance exists): the host's beans only, so `${name}` of a variable fails.
 */
export function beansContext(delegates: DelegateRegistry): ExpressionContext {
  return { has: (name) => delegates.hasBean(name), resolve: (name) => delegates.bean(name) };
}

/** Variables over a context: what `base` resolves, unless one of these variables has the name. */
export function variablesOver(variables: Record<string, TypedValue>, base: ExpressionContext): ExpressionContext {
  return {
    has: (name) => Object.hasOwn(variables, name) || base.has(name),
    resolve: (name) => (Object.hasOwn(variables, name) ? toJavaScriptValue(variables[name]!) : base.resolve(name)),
  };
}
