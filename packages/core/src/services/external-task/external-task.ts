import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** A unit of work for an external worker (Camunda's ExternalTaskEntity). */
export interface ExternalTask {
  id: string;
  topicName: string;
  workerId: string | null;
  lockExpirationTime: Date | null;
  /** null until a worker or an operator first sets it. */
  retries: number | null;
  errorMessage: string | null;
  errorDetails: string | null;
  suspended: boolean;
  executionId: string;
  processInstanceId: string;
  processDefinitionId: string;
  processDefinitionKey: string;
  processDefinitionVersionTag: string | null;
  activityId: string;
  activityInstanceId: string | null;
  tenantId: string | null;
  priority: number;
  businessKey: string | null;
  createTime: Date;
}

/** A task a fetchAndLock locked, with the variables its topic asked for. */
export interface LockedExternalTask extends ExternalTask {
  variables: Record<string, TypedValue>;
  extensionProperties: Record<string, string>;
}

export interface FetchTopic extends TenantChecked {
  topicName: string | null;
  lockDuration: number;
  /** null: all variables; []: none. */
  variables?: string[] | null;
  localVariables?: boolean;
  businessKey?: string;
  processDefinitionId?: string;
  processDefinitionIdIn?: string[];
  processDefinitionKey?: string;
  processDefinitionKeyIn?: string[];
  processDefinitionVersionTag?: string;
  withoutTenantId?: boolean;
  tenantIdIn?: string[];
  /** Equality on process-instance variables; any one matching entry suffices (Camunda ORs them). */
  processVariables?: Record<string, unknown>;
  deserializeValues?: boolean;
  includeExtensionProperties?: boolean;
}

export interface FetchAndLockRequest {
  /** null: refused with `workerId is null` (Camunda checks for null only; '' is a worker id). */
  workerId: string | null;
  maxTasks: number;
  usePriority?: boolean;
  topics: FetchTopic[];
  sorting?: Sorting<'createTime'>[];
}

export type ExternalTaskSortField =
  | 'id'
  | 'lockExpirationTime'
  | 'processInstanceId'
  | 'processDefinitionId'
  | 'processDefinitionKey'
  | 'tenantId'
  | 'taskPriority'
  | 'createTime';

export interface ExternalTaskQuery extends Page, TenantChecked {
  externalTaskId?: string;
  externalTaskIdIn?: string[];
  topicName?: string;
  workerId?: string;
  locked?: boolean;
  notLocked?: boolean;
  withRetriesLeft?: boolean;
  noRetriesLeft?: boolean;
  lockExpirationAfter?: Date;
  lockExpirationBefore?: Date;
  activityId?: string;
  activityIdIn?: string[];
  executionId?: string;
  processInstanceId?: string;
  processInstanceIdIn?: string[];
  processDefinitionId?: string;
  tenantIdIn?: string[];
  active?: boolean;
  suspended?: boolean;
  priorityHigherThanOrEquals?: number;
  priorityLowerThanOrEquals?: number;
  sorting?: Sorting<ExternalTaskSortField>[];
}
