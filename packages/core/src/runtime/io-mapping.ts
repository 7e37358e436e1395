import type { FlowElementModel, ParameterModel, ParameterValue } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { Execution } from './execution.js';
import { evaluateOf } from './expressions/conditions.js';
import type { ExpressionContext } from './expressions/evaluator.js';
import type { ProcessRunner } from './process-runner.js';
import { runElementScript } from './scripts.js';
import { untypedValue } from './variables/index.js';

/** camunda:inputParameter: local variables of the activity's scope, evaluated in the enclosing scope. */
export async function mapInputs(runner: ProcessRunner, scope: Execution, element: FlowElementModel): Promise<void> {
  const parent = runner.parentOf(scope);
  for (const parameter of element.inputOutput?.inputParameters ?? []) {
    const value = await parameterValue(runner, parent, parameter.value, element);
    runner.variables.setLocal(scope.id, parameter.name, untypedValue(value));
  }
}

/**
 * camunda:outputParameter: each evaluated in the activity's scope and set in the enclosing one
 * (Camunda's setVariable) before the next is evaluated (IoMapping.executeOutputParameters).
 */
export async function mapOutputs(runner: ProcessRunner, scope: Execution, element: FlowElementModel): Promise<void> {
  const parent = runner.parentOf(scope);
  for (const parameter of element.inputOutput?.outputParameters ?? []) {
    runner.variables.setVisible(parent.id, parameter.name, untypedValue(await parameterValue(runner, scope, parameter.value, element)));
  }
}

/**
 * A variable scope over an execution (Camunda's ConnectorVariableScope): its own variables (plain
 * values) hide the execution's of the same name, and `bindings` (such as the scope's own facade)
 * are visible by name to expressions and scripts.
 */
export interface OverlayScope {
  readonly variables: Record<string, unknown>;
  readonly bindings: Record<string, unknown>;
}

/** The value of each parameter, in order, evaluated in `execution` seen through `scope`; each is set in the scope before the next is evaluated when `setEach`. */
export async function evaluateParameters(
  runner: ProcessRunner,
  execution: Execution,
  parameters: readonly ParameterModel[],
  element: FlowElementModel,
  scope: OverlayScope,
  setEach: boolean,
): Promise<Array<[string, unknown]>> {
  const values: Array<[string, unknown]> = [];
  for (const parameter of parameters) {
    const value = await parameterValue(runner, execution, parameter.value, element, scope);
    if (setEach) scope.variables[parameter.name] = value;
    values.push([parameter.name, value]);
  }
  return values;
}

async function parameterValue(runner: ProcessRunner, execution: Execution, value: ParameterValue, element: FlowElementModel, scope: OverlayScope | null = null): Promise<unknown> {
  switch (value.kind) {
    case 'null':
      return null;
    case 'text':
      return scope ? evaluateOf(value.text, overlay(runner.expressionContext(execution), scope)) : runner.evaluate(execution, value.text);
    case 'list':
      return Promise.all(value.items.map((item) => parameterValue(runner, execution, item, element, scope)));
    case 'map': {
      // Camunda's MapValueProvider: keys are expressions too, and the map (a TreeMap) is sorted by key.
      const key = async (text: string) => String(await parameterValue(runner, execution, { kind: 'text', text }, element, scope));
      const entries = await Promise.all(value.entries.map(async (entry) => [await key(entry.key), await parameterValue(runner, execution, entry.value, element, scope)] as const));
      return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    }
    case 'script':
      return runElementScript(runner, execution, value.script, element.id, scope ? { ...scope.variables, ...scope.bindings } : {});
    default:
      throw new ProcessEngineException(`Unknown parameter value in element '${element.id}'`);
  }
}

function overlay(base: ExpressionContext, scope: OverlayScope): ExpressionContext {
  const own = (name: string) => Object.hasOwn(scope.variables, name) || Object.hasOwn(scope.bindings, name);
  return {
    has: (name) => own(name) || base.has(name),
    resolve: (name) => (Object.hasOwn(scope.variables, name) ? scope.variables[name] : Object.hasOwn(scope.bindings, name) ? scope.bindings[name] : base.resolve(name)),
  };
}
