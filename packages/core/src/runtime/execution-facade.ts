import type { Execution } from './execution.js';
import type { InstanceVariables } from './instance-variables.js';
import { toJavaScriptValue, untypedValue } from './variables/index.js';

/** What `execution` means in an expression or a delegate: Camunda's DelegateExecution getters and variable access. */
export function executionFacade(execution: Execution, variables: InstanceVariables) {
  return {
    getId: () => execution.id,
    getProcessInstanceId: () => execution.processInstanceId,
    getProcessDefinitionId: () => execution.processDefinitionId,
    getProcessBusinessKey: () => execution.businessKey,
    getBusinessKey: () => execution.businessKey,
    getCurrentActivityId: () => execution.activityId,
    getActivityInstanceId: () => execution.activityInstanceId,
    getTenantId: () => execution.tenantId,
    getVariable: (name: string) => {
      const value = variables.get(name);
      return value === undefined ? null : toJavaScriptValue(value);
    },
    hasVariable: (name: string) => variables.has(name),
    setVariable: (name: string, value: unknown) => variables.set(name, untypedValue(value)),
    removeVariable: (name: string) => variables.remove(name),
    getVariableNames: () => variables.names(),
  };
}
