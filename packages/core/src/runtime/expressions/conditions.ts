import { NullValueException, ProcessEngineException } from '../../errors/exceptions.js';
import { ScriptEvaluationError } from '../scripting/script-runner.js';
import type { ExpressionContext } from './evaluator.js';
import { evaluateExpression } from './index.js';

/** Evaluates an expression (or returns literal text); a failure is a ProcessEngineException with the expression's own text, as Camunda's JuelExpression. */
export function evaluateOf(text: string, context: ExpressionContext): unknown {
  try {
    return evaluateExpression(text, context);
  } catch (error) {
    if (error instanceof ProcessEngineException) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new ProcessEngineException(message, { cause: error });
  }
}

/** Whether a condition (of a sequence flow, gateway or event) holds; one that is no Boolean is Camunda's error. */
export function conditionHolds(text: string, context: ExpressionContext): boolean {
  return conditionResult(evaluateOf(text, context), 'condition expression');
}

/**
 * A condition's value as a Boolean, with the texts of Camunda's UelExpressionCondition ('condition
 * expression') and ScriptCondition ('condition script'): EnsureUtil's null and instance-of checks.
 */
export function conditionResult(value: unknown, kind: 'condition expression' | 'condition script'): boolean {
  if (value === null || value === undefined) throw new NullValueException(`${kind} returns null: result is null`);
  if (typeof value !== 'boolean') {
    throw new ProcessEngineException(`${kind} returns non-Boolean: result has class ${javaTypeName(value)} and not java.lang.Boolean`);
  }
  return value;
}

/** Camunda's tryEvaluate for conditional events: a condition on a variable that does not exist (yet) is false. */
export async function tryCondition(holds: () => boolean | Promise<boolean>): Promise<boolean> {
  try {
    return await holds();
  } catch (error) {
    if (failedOnUndefined(error)) return false;
    throw error;
  }
}

/**
 * The failures tryEvaluate reads as false: an expression naming an unknown property, or a script
 * condition that failed to run (Camunda's ScriptEvaluationException cause).
 */
const failedOnUndefined = (error: unknown): boolean =>
  error instanceof Error && (error.message.startsWith('Unknown property used in expression') || error.cause instanceof ScriptEvaluationError);

/** The Java class a JUEL result of this JavaScript value would have. */
export const javaTypeName = (value: unknown) =>
  typeof value === 'string' ? 'java.lang.String' : typeof value === 'number' ? (Number.isInteger(value) ? 'java.lang.Long' : 'java.lang.Double') : Array.isArray(value) ? 'java.util.ArrayList' : 'java.lang.Object';
