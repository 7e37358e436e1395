import type { ListenerModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { invokeDelegate } from './delegates/delegate-registry.js';
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
  delegation: Pick<ListenerModel, 'class' | 'expression' | 'delegateExpression' | 'script'>,
  elementId: string,
): Promise<unknown> {
  if (delegation.class) {
    const delegate = runner.env.delegates.resolveClass(delegation.class);
    return delegate(executionFacade(execution, runner.variables));
  }
  if (delegation.expression) return runner.evaluate(execution, delegation.expression, elementId);
  if (delegation.delegateExpression) {
    const target = runner.evaluate(execution, delegation.delegateExpression, elementId);
    return invokeDelegate(target, executionFacade(execution, runner.variables), delegation.delegateExpression);
  }
  if (delegation.script) return runElementScript(runner, execution, delegation.script, elementId);
  throw new ProcessEngineException(`Element '${elementId}' names no class, expression, delegate expression or script to invoke`);
}
