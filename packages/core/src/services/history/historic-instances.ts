import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { VariableValueCondition } from '../variable-instance/variable-instance.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

export type HistoricProcessInstanceState = 'ACTIVE' | 'SUSPENDED' | 'COMPLETED' | 'EXTERNALLY_TERMINATED' | 'INTERNALLY_TERMINATED';

/** A process instance as history keeps it (Camunda's HistoricProcessInstance). */
export interface HistoricProcessInstance {
  id: string;
  rootProcessInstanceId: string | null;
  superProcessInstanceId: string | null;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionName: string | null;
  processDefinitionVersion: number | null;
  businessKey: string | null;
  startTime: Date;
  endTime: Date | null;
  removalTime: Date | null;
  durationInMillis: number | null;
  startUserId: string | null;
  startActivityId: string | null;
  endActivityId: string | null;
  deleteReason: string | null;
  tenantId: string | null;
  state: HistoricProcessInstanceState;
  restartedProcessInstanceId: string | null;
}

export type HistoricProcessInstanceSortField =
  | 'instanceId' | 'definitionId' | 'definitionKey' | 'definitionName' | 'definitionVersion' | 'businessKey' | 'startTime' | 'endTime' | 'duration' | 'tenantId';

export interface HistoricProcessInstanceQuery extends Page, TenantChecked {
  processInstanceId?: string;
  processInstanceIds?: string[];
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionKeyIn?: string[];
  processDefinitionKeyNotIn?: string[];
  processDefinitionName?: string;
  processDefinitionNameLike?: string;
  processInstanceBusinessKey?: string;
  processInstanceBusinessKeyIn?: string[];
  processInstanceBusinessKeyLike?: string;
  rootProcessInstances?: boolean;
  finished?: boolean;
  unfinished?: boolean;
  startedBefore?: Date;
  startedAfter?: Date;
  finishedBefore?: Date;
  finishedAfter?: Date;
  startedBy?: string;
  /** Instances with a finished activity instance of one of these activities. */
  executedActivityIdIn?: string[];
  /** Instances with an unfinished activity instance of one of these activities. */
  activeActivityIdIn?: string[];
  superProcessInstanceId?: string;
  subProcessInstanceId?: string;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  /** One state at most (Camunda refuses a second one). */
  state?: HistoricProcessInstanceState;
  active?: boolean;
  suspended?: boolean;
  completed?: boolean;
  externallyTerminated?: boolean;
  internallyTerminated?: boolean;
  /** Incident criteria: the instance has one historic incident meeting all of those given. */
  withIncidents?: boolean;
  withRootIncidents?: boolean;
  incidentIdIn?: string[];
  incidentType?: string;
  /** 'open' or 'resolved'; any other value only asks for some incident. */
  incidentStatus?: string;
  incidentMessage?: string;
  incidentMessageLike?: string;
  /** An activity instance started or ended within the bounds. */
  executedActivityAfter?: Date;
  executedActivityBefore?: Date;
  /** A job log entry within the bounds. */
  executedJobAfter?: Date;
  executedJobBefore?: Date;
  /** Instances currently at one of these activities. */
  activityIdIn?: string[];
  /** Historic variables of the instance (any scope) matching each condition. */
  variables?: VariableValueCondition[];
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
  /** Camunda's or-queries: each matches when any of its criteria does; all of them and the rest must match. */
  orQueries?: HistoricProcessInstanceQuery[];
  sorting?: Sorting<HistoricProcessInstanceSortField>[];
}

/** An activity instance as history keeps it (Camunda's HistoricActivityInstance). */
export interface HistoricActivityInstance {
  id: string;
  parentActivityInstanceId: string | null;
  activityId: string;
  activityName: string | null;
  activityType: string;
  processDefinitionKey: string;
  processDefinitionId: string;
  processInstanceId: string;
  rootProcessInstanceId: string | null;
  executionId: string;
  taskId: string | null;
  assignee: string | null;
  calledProcessInstanceId: string | null;
  startTime: Date;
  endTime: Date | null;
  durationInMillis: number | null;
  canceled: boolean;
  completeScope: boolean;
  tenantId: string | null;
  removalTime: Date | null;
}

export type HistoricActivityInstanceSortField =
  | 'activityInstanceId' | 'instanceId' | 'executionId' | 'activityId' | 'activityName' | 'activityType'
  | 'startTime' | 'endTime' | 'duration' | 'definitionId' | 'occurrence' | 'tenantId';

export interface HistoricActivityInstanceQuery extends Page, TenantChecked {
  activityInstanceId?: string;
  processInstanceId?: string;
  processDefinitionId?: string;
  executionId?: string;
  activityId?: string;
  activityName?: string;
  activityNameLike?: string;
  activityType?: string;
  taskAssignee?: string;
  finished?: boolean;
  unfinished?: boolean;
  canceled?: boolean;
  completeScope?: boolean;
  startedBefore?: Date;
  startedAfter?: Date;
  finishedBefore?: Date;
  finishedAfter?: Date;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  sorting?: Sorting<HistoricActivityInstanceSortField>[];
}
