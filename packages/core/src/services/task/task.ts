import type { Page, Sorting } from '../../persistence/repositories/query-support.js';

/** A user task waiting for a person. */
export interface Task {
  id: string;
  name: string | null;
  description: string | null;
  taskDefinitionKey: string | null;
  assignee: string | null;
  owner: string | null;
  priority: number;
  due: Date | null;
  followUp: Date | null;
  created: Date;
  processInstanceId: string | null;
  executionId: string | null;
  processDefinitionId: string | null;
  activityInstanceId: string | null;
  formKey: string | null;
  suspended: boolean;
  tenantId: string | null;
  /** PENDING while delegated, RESOLVED once resolved; null (or absent) for a task never delegated. */
  delegationState?: DelegationState | null;
}

/** Camunda's DelegationState. */
export type DelegationState = 'PENDING' | 'RESOLVED';

/** One of a task's identity links as Camunda reports them (assignee and owner included). */
export interface TaskIdentityLink {
  userId: string | null;
  groupId: string | null;
  type: 'candidate' | 'assignee' | 'owner';
  taskId: string;
}

export interface TaskCandidates {
  users: readonly string[];
  groups: readonly string[];
}

export type TaskSortField = 'id' | 'name' | 'assignee' | 'created' | 'dueDate' | 'followUpDate' | 'priority' | 'instanceId' | 'executionId';

export interface TaskQuery extends Page {
  taskId?: string;
  taskIdIn?: string[];
  processInstanceId?: string;
  processInstanceIdIn?: string[];
  processDefinitionId?: string;
  processDefinitionKey?: string;
  executionId?: string;
  taskDefinitionKey?: string;
  name?: string;
  nameLike?: string;
  assignee?: string;
  assigneeLike?: string;
  unassigned?: boolean;
  assigned?: boolean;
  candidateUser?: string;
  candidateGroup?: string;
  active?: boolean;
  suspended?: boolean;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  sorting?: Sorting<TaskSortField>[];
}
