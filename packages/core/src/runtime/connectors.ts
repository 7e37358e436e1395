import type { FlowElementModel } from '../bpmn/index.js';
import type { Execution } from './execution.js';
import { evaluateParameters, type OverlayScope } from './io-mapping.js';
import type { ProcessRunner } from './process-runner.js';
import { executionFacade } from './execution-facade.js';
import { untypedValue } from './variables/index.js';

/**
 * Runs an element's camunda:connector (Camunda's ServiceTaskConnectorActivityBehavior): its input
 * parameters, each evaluated in a connector scope over the execution (so later ones see earlier
 * ones), become the request's parameters; the connector runs; its output parameters, evaluated in a
 * connector scope holding the response's parameters (`statusCode`, `response`, `headers` for HTTP),
 * are set through the execution one by one (Camunda's setVariable). Expressions and scripts reach the
 * scope itself as `connector`.
 */
export async function runConnector(runner: ProcessRunner, execution: Execution, element: FlowElementModel): Promise<void> {
  const model = element.connector!;
  const connector = runner.env.delegates.connector(model.connectorId);
  const request = connectorScope(runner, execution, {});
  await evaluateParameters(runner, execution, model.inputOutput?.inputParameters ?? [], element, request, true);
  const response = await connector({ ...request.variables });
  const outputs = connectorScope(runner, execution, { ...response });
  for (const parameter of model.inputOutput?.outputParameters ?? []) {
    const [[name, value]] = await evaluateParameters(runner, execution, [parameter], element, outputs, false);
    runner.variables.setVisible(execution.id, name, untypedValue(value));
  }
}

/** Camunda's ConnectorVariableScope: its own variables over the execution's, bound as `connector`. */
function connectorScope(runner: ProcessRunner, execution: Execution, variables: Record<string, unknown>): OverlayScope {
  const has = (name: string) => Object.hasOwn(variables, name);
  const parent = executionFacade(execution, runner);
  const facade = {
    getVariableScopeKey: () => 'connector',
    getVariable: (name: string) => (has(name) ? variables[name] : parent.getVariable(name)),
    getVariableLocal: (name: string) => (has(name) ? variables[name] : null),
    hasVariable: (name: string) => has(name) || parent.hasVariable(name),
    hasVariableLocal: has,
    getVariableNamesLocal: () => Object.keys(variables),
    getVariablesLocal: () => ({ ...variables }),
    setVariableLocal: (name: string, value: unknown) => void (variables[name] = value),
  };
  return { variables, bindings: { connector: facade } };
}
