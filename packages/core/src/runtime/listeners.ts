import type { FieldModel, ListenerModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { invokeDelegate, withFields } from './delegates/delegate-registry.js';
import type { Execution } from './execution.js';
import { executionFacade } from './execution-facade.js';
import { evaluateOf } from './expressions/conditions.js';
import type { ExpressionContext } from './expressions/evaluator.js';
import type { ProcessRunner } from './process-runner.js';
import { runElementScript } from './scripts.js';

/** Runs execution listeners (start, end, take) in model order: a class, an expression, a delegate expression or a script. */
export async function invokeListeners(runner: ProcessRunner, execution: Execution, listeners: readonly ListenerModel[], elementId: string): Promise<void> {
  for (const listener of listeners) await invokeDelegation(runner, execution, listener, elementId);
}

/**
 * Invokes what an element or listener delegates to; the shape is shared by service tasks, execution
 * listeners and task listeners. A task listener passes its DelegateTask as `task`: the delegate gets
 * it instead of the execution, and expressions and scripts see it as `task`.
 */
export async function invokeDelegation(
  runner: ProcessRunner,
  execution: Execution,
  delegation: Pick<ListenerModel, 'class' | 'expression' | 'delegateExpression' | 'script' | 'fields'>,
  elementId: string,
  task: object | null = null,
): Promise<unknown> {
  const fields = injectedFields(runner, execution, delegation.fields);
  const argument = () => task ?? executionFacade(execution, runner);
  const evaluate = (text: string) => evaluateOf(text, withTask(runner.expressionContext(execution), task));
  if (delegation.class) return invokeDelegate(withFields(runner.env.delegates.registeredClass(delegation.class), fields), argument() as never, delegation.class);
  if (delegation.expression) return evaluate(delegation.expression);
  if (delegation.delegateExpression) {
    return invokeDelegate(withFields(evaluate(delegation.delegateExpression), fields), argument() as never, delegation.delegateExpression);
  }
  if (delegation.script) return runElementScript(runner, execution, delegation.script, elementId, task ? { task } : {});
  throw new ProcessEngineException(`Element '${elementId}' names no class, expression, delegate expression or script to invoke`);
}

/** An execution's expression context, with a task listener's `task` bound. */
function withTask(base: ExpressionContext, task: object | null): ExpressionContext {
  if (task === null) return base;
  return {
    has: (name) => name === 'task' || base.has(name),
    resolve: (name) => (name === 'task' ? task : base.resolve(name)),
  };
}

/**
 * The camunda:field values a delegate gets, as Camunda's Expression objects: getValue(scope) answers
 * the fixed string or evaluates the expression on the delegate's execution; null without fields.
 */
export function injectedFields(runner: ProcessRunner, execution: Execution, fields: readonly FieldModel[]): Record<string, unknown> | null {
  if (fields.length === 0) return null;
  return Object.fromEntries(
    fields.map((field) => {
      const text = field.expression ?? field.stringValue ?? '';
      const getValue = field.expression === null ? () => field.stringValue : () => runner.evaluate(execution, text);
      return [field.name, { getValue, getExpressionText: () => text }];
    }),
  );
}
