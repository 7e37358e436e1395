import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ExpressionContext } from './evaluator.js';
import { evaluateExpression } from './index.js';

/** Evaluates an expression (or returns literal text) of an element; a failure names the text and the element. */
export function evaluateOf(text: string, context: ExpressionContext, elementId: string): unknown {
  try {
    return evaluateExpression(text, context);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new ProcessEngineException(`${message} (in '${text}' of element '${elementId}')`, { cause: error });
  }
}

/** Whether a condition (of a sequence flow, gateway or event) holds; one that is no Boolean is Camunda's error. */
export function conditionHolds(text: string, context: ExpressionContext, elementId: string): boolean {
  const value = evaluateOf(text, context, elementId);
  if (typeof value !== 'boolean') {
    throw new ProcessEngineException(`Condition expression returns non-Boolean: result has class ${typeName(value)} and not java.lang.Boolean`);
  }
  return value;
}

/** Camunda's tryEvaluate for conditional events: a condition on a variable that does not exist (yet) is false. */
export function conditionHoldsIfDefined(text: string, context: ExpressionContext, elementId: string): boolean {
  try {
    return conditionHolds(text, context, elementId);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('Unknown property used in expression')) return false;
    throw error;
  }
}

const typeName = (value: unknown) => (value === null ? 'null' : typeof value === 'string' ? 'java.lang.String' : typeof value);
