import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';
import type { VariableValueCondition } from '../variable-instance/variable-instance.js';

/** An execution as Camunda's REST Execution resource shows it. */
export interface ExecutionInfo {
  id: string;
  processInstanceId: string;
  ended: boolean;
  tenantId: string | null;
}

export type ExecutionSortField = 'instanceId' | 'definitionKey' | 'definitionId' | 'tenantId';

export interface ExecutionQuery extends Page, TenantChecked {
  executionId?: string;
  businessKey?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processInstanceId?: string;
  /** Executions active at this activity. */
  activityId?: string;
  signalEventSubscriptionName?: string;
  messageEventSubscriptionName?: string;
  active?: boolean;
  suspended?: boolean;
  incidentId?: string;
  incidentType?: string;
  incidentMessage?: string;
  incidentMessageLike?: string;
  tenantIdIn?: string[];
  /** Conditions on the execution's own variables, all of which must hold. */
  variables?: VariableValueCondition[];
  /** Conditions on the variables of its process instance (any of its executions, no task's). */
  processVariables?: VariableValueCondition[];
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
  sorting?: Sorting<ExecutionSortField>[];
}
