import type { ListenerModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { FieldModel } from '../bpmn/index.js';
import { invokeDelegate, withFields } from './delegates/delegate-registry.js';
import type { Execution } from './execution.js';
import { executionFacade } from './execution-facade.js';
import type { ProcessRunner } from './process-runner.js';
import { runElementScript } from './scripts.js';

/** Runs execution listeners (start, end, take) in model order: a class, an expression, a delegate expression or a script. */
export async function invokeListeners(runner: ProcessRunner, execution: Execution, listeners: readonly ListenerModel[], elementId: string): Promise<void> {
  for (const listener of listeners) await invokeDelegation(runner, execution, listener, elementId);
}

/** Invokes what an element or listener delegates to; the shape is shared by service tasks and listeners. */
export async function invokeDelegation(
  runner: ProcessRunner,
  execution: Execution,
  delegation: Pick<ListenerModel, 'class' | 'expression' | 'delegateExpression' | 'script' | 'fields'>,
  elementId: string,
): Promise<unknown> {
  const fields = injectedFields(runner, execution, delegation.fields, elementId);
  if (delegation.class) {
    return invokeDelegate(withFields(runner.env.delegates.registeredClass(delegation.class), fields), executionFacade(execution, runner.variables), delegation.class);
  }
  if (delegation.expression) return runner.evaluate(execution, delegation.expression, elementId);
  if (delegation.delegateExpression) {
    const target = runner.evaluate(execution, delegation.delegateExpression, elementId);
    return invokeDelegate(withFields(target, fields), executionFacade(execution, runner.variables), delegation.delegateExpression);
  }
  if (delegation.script) return runElementScript(runner, execution, delegation.script, elementId);
  throw new ProcessEngineException(`Element '${elementId}' names no class, expression, delegate expression or script to invoke`);
}

/**
 * The camunda:field values a delegate gets, as Camunda's Expression objects: getValue(scope) answers
 * the fixed string or evaluates the expression on the delegate's execution; null without fields.
 */
export function injectedFields(runner: ProcessRunner, execution: Execution, fields: readonly FieldModel[], elementId: string): Record<string, unknown> | null {
  if (fields.length === 0) return null;
  return Object.fromEntries(
    fields.map((field) => {
      const text = field.expression ?? field.stringValue ?? '';
      const getValue = field.expression === null ? () => field.stringValue : () => runner.evaluate(execution, text, elementId);
      return [field.name, { getValue, getExpressionText: () => text }];
    }),
  );
}
