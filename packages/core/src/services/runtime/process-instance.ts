import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

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
  deploymentId?: string;
  activityIdIn?: string[];
  active?: boolean;
  suspended?: boolean;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  sorting?: Sorting<ProcessInstanceSortField>[];
}
