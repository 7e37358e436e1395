/**
 * camunda:variableMappingClass and camunda:variableMappingDelegateExpression on a call activity
 * (Camunda's CallableElementActivityBehavior): host code that adds to what camunda:in passes to the
 * called instance and to what camunda:out passes back.
 */
import type { FlowElementModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { isVariableMapping, type DelegateVariableMapping, type VariableMap, type VariableScope } from './delegates/delegate-registry.js';
import type { Execution } from './execution.js';
import { executionFacade, plainValue } from './execution-facade.js';
import { javaTypeName } from './expressions/conditions.js';
import type { ProcessRunner } from './process-runner.js';
import { untypedValue, type TypedValue } from './variables/index.js';

const MAPPING_INTERFACE = 'org.camunda.bpm.engine.delegate.DelegateVariableMapping';

/**
 * The call activity's variable mapping, resolved anew at each use as Camunda does (a class is
 * instantiated, an expression evaluated on the calling execution); null when it names none or
 * the expression gives null. Anything without both map methods is Camunda's ENGINE-02041.
 */
function variableMappingOf(runner: ProcessRunner, execution: Execution, element: FlowElementModel): DelegateVariableMapping | null {
  const className = text(element.camunda.variableMappingClass);
  const expression = text(element.camunda.variableMappingDelegateExpression);
  if (className === null && expression === null) return null;
  const delegate = className !== null ? runner.env.delegates.registeredClass(className) : runner.evaluate(execution, expression!);
  if (delegate === null || delegate === undefined) return null;
  if (isVariableMapping(delegate)) return delegate;
  throw new ProcessEngineException(`ENGINE-02041 Class '${className ?? javaTypeName(delegate)}' doesn't implement '${MAPPING_INTERFACE}'.`);
}

/** After camunda:in, before the called instance starts: the mapping may add to or change its variables. */
export async function mapInputVariables(runner: ProcessRunner, execution: Execution, element: FlowElementModel, subVariables: Record<string, TypedValue>): Promise<void> {
  const mapping = variableMappingOf(runner, execution, element);
  if (mapping) await invokeMapping(() => mapping.mapInputVariables(executionFacade(execution, runner), variableMap(subVariables)));
}

/** After camunda:out, on the calling execution: the mapping reads what it needs from the called instance. */
export async function mapOutputVariables(caller: ProcessRunner, execution: Execution, called: ProcessRunner, root: Execution): Promise<void> {
  const mapping = variableMappingOf(caller, execution, caller.elementOf(execution));
  if (mapping) await invokeMapping(() => mapping.mapOutputVariables(executionFacade(execution, caller), variableScope(called, root)));
}

/** Camunda's invokeVarMappingDelegation: whatever the mapping throws (a BpmnError too) fails as a ProcessEngineException. */
async function invokeMapping(invoke: () => unknown): Promise<void> {
  try {
    await invoke();
  } catch (error) {
    throw new ProcessEngineException(String(error), { cause: error });
  }
}

/** The called instance's variables as Camunda's VariableMap: put and putValue take plain values. */
function variableMap(values: Record<string, TypedValue>): VariableMap {
  const get = (name: string) => plainValue(values[name]);
  const map: VariableMap = {
    putValue: (name, value) => {
      values[name] = untypedValue(value);
      return map;
    },
    put: (name, value) => {
      const previous = get(name);
      values[name] = untypedValue(value);
      return previous;
    },
    get,
    getValue: get,
    containsKey: (name) => Object.hasOwn(values, name),
    remove: (name) => {
      const previous = get(name);
      delete values[name];
      return previous;
    },
    keySet: () => Object.keys(values),
  };
  return map;
}

/** The called instance as the VariableScope Camunda passes: its variables, read and written. */
function variableScope(called: ProcessRunner, root: Execution): VariableScope {
  const { getVariable, getVariableLocal, hasVariable, getVariables, getVariablesLocal, getVariableNames, setVariable, setVariableLocal, setVariables, removeVariable } = executionFacade(root, called);
  return { getVariable, getVariableLocal, hasVariable, getVariables, getVariablesLocal, getVariableNames, setVariable, setVariableLocal, setVariables, removeVariable };
}

const text = (value: unknown) => (typeof value === 'string' && value !== '' ? value : null);
