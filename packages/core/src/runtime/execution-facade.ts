import type { Execution } from './execution.js';
import type { InstanceVariables } from './instance-variables.js';
import { toJavaScriptValue, untypedValue } from './variables/index.js';

/** What `execution` means in an expression, a script or a delegate: Camunda's DelegateExecution getters and variable access. */
export function executionFacade(execution: Execution, variables: InstanceVariables) {
  const plain = (value: ReturnType<InstanceVariables['lookup']>) => (value === undefined ? null : toJavaScriptValue(value));
  return {
    getId: () => execution.id,
    getProcessInstanceId: () => execution.processInstanceId,
    getProcessDefinitionId: () => execution.processDefinitionId,
    getProcessBusinessKey: () => execution.businessKey,
    getBusinessKey: () => execution.businessKey,
    getCurrentActivityId: () => execution.activityId,
    getActivityInstanceId: () => execution.activityInstanceId,
    getParentId: () => execution.parentId,
    getTenantId: () => execution.tenantId,
    getVariable: (name: string) => plain(variables.lookup(execution.id, name)),
    getVariableLocal: (name: string) => plain(variables.getLocal(execution.id, name)),
    hasVariable: (name: string) => variables.ownerOf(execution.id, name) !== null,
    hasVariableLocal: (name: string) => variables.hasLocal(execution.id, name),
    setVariable: (name: string, value: unknown) => variables.setVisible(execution.id, name, untypedValue(value)),
    setVariableLocal: (name: string, value: unknown) => variables.setLocal(execution.id, name, untypedValue(value)),
    removeVariable: (name: string) => variables.removeVisible(execution.id, name),
    removeVariableLocal: (name: string) => variables.removeLocal(execution.id, name),
    getVariableNames: () => Object.keys(variables.visible(execution.id)),
    getVariableNamesLocal: () => variables.localNames(execution.id),
    getVariables: () => Object.fromEntries(Object.entries(variables.visible(execution.id)).map(([name, value]) => [name, toJavaScriptValue(value)])),
  };
}
