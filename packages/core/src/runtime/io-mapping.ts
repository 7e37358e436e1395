import type { FlowElementModel, ParameterValue } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { Execution } from './execution.js';
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

/** camunda:outputParameter: evaluated in the activity's scope, set in the enclosing one (Camunda's setVariable). */
export async function mapOutputs(runner: ProcessRunner, scope: Execution, element: FlowElementModel): Promise<void> {
  const parent = runner.parentOf(scope);
  const values: Array<[string, unknown]> = [];
  for (const parameter of element.inputOutput?.outputParameters ?? []) values.push([parameter.name, await parameterValue(runner, scope, parameter.value, element)]);
  for (const [name, value] of values) runner.variables.setVisible(parent.id, name, untypedValue(value));
}

async function parameterValue(runner: ProcessRunner, execution: Execution, value: ParameterValue, element: FlowElementModel): Promise<unknown> {
  switch (value.kind) {
    case 'null':
      return null;
    case 'text':
      return runner.evaluate(execution, value.text, element.id);
    case 'list':
      return Promise.all(value.items.map((item) => parameterValue(runner, execution, item, element)));
    case 'map':
      return Object.fromEntries(await Promise.all(value.entries.map(async (entry) => [entry.key, await parameterValue(runner, execution, entry.value, element)] as const)));
    case 'script':
      return runElementScript(runner, execution, value.script, element.id);
    default:
      throw new ProcessEngineException(`Unknown parameter value in element '${element.id}'`);
  }
}
