import type { Execution } from './execution.js';
import type { ProcessRunner } from './process-runner.js';
import { toJavaScriptValue, untypedValue, type TypedValue } from './variables/index.js';

/** A variable's value as delegates and scripts see it; null for none. */
export const plainValue = (value: TypedValue | undefined): unknown => (value === undefined ? null : toJavaScriptValue(value));

/** The execution listener running now: its event, and the element it belongs to (the sequence flow of `take`). */
export interface ListenerEvent {
  readonly event: string;
  readonly elementId: string;
}

/**
 * What `execution` means in an expression, a script or a delegate: Camunda's DelegateExecution
 * getters (the listener event and the transition while a listener runs) and its variable scope.
 */
export function executionFacade(execution: Execution, runner: ProcessRunner) {
  const variables = runner.variables;
  const setVariable = (name: string, value: unknown) => variables.setVisible(execution.id, name, untypedValue(value));
  const setVariableLocal = (name: string, value: unknown) => variables.setLocal(execution.id, name, untypedValue(value));
  const activityInstance = () => (execution.activityInstanceId === null ? undefined : runner.tree.activityInstances.get(execution.activityInstanceId));
  return {
    getId: () => execution.id,
    getProcessInstanceId: () => execution.processInstanceId,
    getProcessDefinitionId: () => execution.processDefinitionId,
    getProcessBusinessKey: () => execution.businessKey,
    getBusinessKey: () => execution.businessKey,
    getCurrentActivityId: () => execution.activityId,
    getCurrentActivityName: () => (execution.activityId === null ? null : (runner.model.activity(execution.activityId)?.name ?? null)),
    getActivityInstanceId: () => execution.activityInstanceId,
    getParentActivityInstanceId: () => activityInstance()?.parentId ?? null,
    getParentId: () => execution.parentId,
    getTenantId: () => execution.tenantId,
    getEventName: () => runner.listenerEvent?.event ?? null,
    getCurrentTransitionId: () => (runner.listenerEvent?.event === 'take' ? runner.listenerEvent.elementId : null),
    getVariable: (name: string) => plainValue(variables.lookup(execution.id, name)),
    getVariableLocal: (name: string) => plainValue(variables.getLocal(execution.id, name)),
    getVariableTyped: (name: string) => variables.lookup(execution.id, name) ?? null,
    getVariableLocalTyped: (name: string) => variables.getLocal(execution.id, name) ?? null,
    hasVariable: (name: string) => variables.ownerOf(execution.id, name) !== null,
    hasVariableLocal: (name: string) => variables.hasLocal(execution.id, name),
    hasVariables: () => Object.keys(variables.visible(execution.id)).length > 0,
    hasVariablesLocal: () => variables.localNames(execution.id).length > 0,
    setVariable,
    setVariableLocal,
    setVariables: (values: Record<string, unknown>) => Object.entries(values).forEach(([name, value]) => setVariable(name, value)),
    setVariablesLocal: (values: Record<string, unknown>) => Object.entries(values).forEach(([name, value]) => setVariableLocal(name, value)),
    removeVariable: (name: string) => variables.removeVisible(execution.id, name),
    removeVariableLocal: (name: string) => variables.removeLocal(execution.id, name),
    getVariableNames: () => Object.keys(variables.visible(execution.id)),
    getVariableNamesLocal: () => variables.localNames(execution.id),
    getVariables: () => Object.fromEntries(Object.entries(variables.visible(execution.id)).map(([name, value]) => [name, toJavaScriptValue(value)])),
    getVariablesLocal: () => Object.fromEntries(variables.localNames(execution.id).map((name) => [name, plainValue(variables.getLocal(execution.id, name))])),
  };
}
