import type { FlowElementModel } from '../../bpmn/index.js';
import { BpmnError, findBpmnError, withErrorPropagation } from '../bpmn-error.js';
import type { Execution } from '../execution.js';
import { invokeDelegation } from '../listeners.js';
import type { ProcessRunner } from '../process-runner.js';
import { runElementScript } from '../scripts.js';
import { untypedValue } from '../variables/index.js';
import type { ActivityBehavior } from './behavior.js';
import { runConnector } from '../connectors.js';

/** Calls the element's camunda:class, camunda:delegateExpression or camunda:expression; camunda:resultVariable keeps an expression's value. */
export async function invokeDelegationOf(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Promise<void> {
  const result = await invokeDelegation(
    runner,
    execution,
    {
      class: stringOrNull(element.camunda.class),
      expression: stringOrNull(element.camunda.expression),
      delegateExpression: stringOrNull(element.camunda.delegateExpression),
      script: null,
      fields: element.fields,
    },
    element.id,
  );
  const resultVariable = stringOrNull(element.camunda.resultVariable);
  if (resultVariable && element.camunda.expression) runner.variables.setVisible(execution.id, resultVariable, untypedValue(result));
}

/** Service, send and business-rule tasks with a JavaScript delegate: run it, then leave; a BpmnError goes to its catcher. */
export const serviceTask: ActivityBehavior = {
  async execute(runner, execution, element) {
    try {
      await invokeDelegationOf(runner, execution, element);
    } catch (error) {
      if (error instanceof BpmnError) return runner.throwError(execution, error.errorCode, error.errorMessage);
      throw error;
    }
    runner.leave(execution);
  },
};

/** A service-task-like element implemented by a camunda:connector: run the connector, then leave. */
export const connectorTask: ActivityBehavior = {
  async execute(runner, execution, element) {
    if (await withErrorPropagation(runner, execution, () => runConnector(runner, execution, element))) return;
    runner.leave(execution);
  },
};

/** Script tasks (when scripting is enabled): run the script, keep camunda:resultVariable, leave. */
export const scriptTask: ActivityBehavior = {
  async execute(runner, execution, element) {
    let result: unknown;
    try {
      result = await runElementScript(runner, execution, element.script ?? { format: null, source: null, resource: null }, element.id);
    } catch (error) {
      const bpmnError = findBpmnError(error);
      if (bpmnError) return runner.throwError(execution, bpmnError.errorCode, bpmnError.errorMessage);
      throw error;
    }
    const resultVariable = stringOrNull(element.camunda.resultVariable);
    if (resultVariable) runner.variables.setVisible(execution.id, resultVariable, untypedValue(result));
    runner.leave(execution);
  },
};

const stringOrNull = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
