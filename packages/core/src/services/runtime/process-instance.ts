import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';
import type { VariableValueCondition } from '../variable-instance/variable-instance.js';

/** A running process instance, as Camunda's ProcessInstance shows it. */
export interface ProcessInstance {
  id: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  businessKey: string | null;
  ended: boolean;
  suspended: boolean;
  tenantId: string | null;
}

/** A node of the activity-instance tree (GET /process-instance/{id}/activity-instances). */
export interface ActivityInstanceNode {
  id: string;
  parentActivityInstanceId: string | null;
  activityId: string;
  activityType: string;
  activityName: string | null;
  processInstanceId: string;
  processDefinitionId: string;
  executionIds: string[];
  incidents: InstanceIncident[];
  childActivityInstances: ActivityInstanceNode[];
  childTransitionInstances: TransitionInstanceNode[];
}

/** An execution waiting for an async continuation (before or after an activity). */
export interface TransitionInstanceNode {
  /** The execution's id, as in Camunda. */
  id: string;
  parentActivityInstanceId: string;
  activityId: string;
  activityType: string | null;
  activityName: string | null;
  processInstanceId: string;
  processDefinitionId: string;
  executionId: string;
  incidents: InstanceIncident[];
}

export interface InstanceIncident {
  id: string;
  activityId: string;
}

export type ProcessInstanceSortField = 'instanceId' | 'definitionKey' | 'definitionId' | 'tenantId' | 'businessKey';

export interface ProcessInstanceQuery extends Page, TenantChecked {
  processInstanceIds?: string[];
  businessKey?: string;
  businessKeyLike?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionKeyIn?: string[];
  processDefinitionKeyNotIn?: string[];
  deploymentId?: string;
  activityIdIn?: string[];
  active?: boolean;
  suspended?: boolean;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  /** Instances whose definition belongs to no tenant. */
  processDefinitionWithoutTenantId?: boolean;
  /** Instances called by this one (from any of its executions). */
  superProcessInstance?: string;
  /** The instance that called this one. */
  subProcessInstance?: string;
  /** Instances no call activity started. */
  rootProcessInstances?: boolean;
  /** Instances that have called none that still runs. */
  leafProcessInstances?: boolean;
  withIncident?: boolean;
  incidentId?: string;
  incidentType?: string;
  incidentMessage?: string;
  incidentMessageLike?: string;
  /** Conditions on the instance's own variables (those of its root execution), all of which must hold. */
  variables?: VariableValueCondition[];
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
  /** Camunda's or(): each holds when any of its criteria does; all of them and the rest of the query must hold. */
  orQueries?: ProcessInstanceQuery[];
  sorting?: Sorting<ProcessInstanceSortField>[];
}
