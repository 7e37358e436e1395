import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** One entry of the historic job log (Camunda's HistoricJobLog). */
export interface HistoricJobLog {
  id: string;
  timestamp: Date;
  removalTime: Date | null;
  jobId: string;
  jobDueDate: Date | null;
  jobRetries: number | null;
  jobPriority: number;
  jobExceptionMessage: string | null;
  failedActivityId: string | null;
  jobDefinitionId: string | null;
  jobDefinitionType: string | null;
  jobDefinitionConfiguration: string | null;
  activityId: string | null;
  executionId: string | null;
  processInstanceId: string | null;
  processDefinitionId: string | null;
  processDefinitionKey: string | null;
  deploymentId: string | null;
  rootProcessInstanceId: string | null;
  tenantId: string | null;
  hostname: string | null;
  batchId: string | null;
  creationLog: boolean;
  failureLog: boolean;
  successLog: boolean;
  deletionLog: boolean;
}

export type HistoricJobLogSortField =
  | 'timestamp' | 'jobId' | 'jobDefinitionId' | 'jobDueDate' | 'jobRetries' | 'jobPriority' | 'activityId' | 'executionId'
  | 'processInstanceId' | 'processDefinitionId' | 'processDefinitionKey' | 'deploymentId' | 'hostname' | 'occurrence' | 'tenantId';

/** Camunda's historic job log query (REST GET /history/job-log). */
export interface HistoricJobLogQuery extends Page, TenantChecked {
  logId?: string;
  jobId?: string;
  jobExceptionMessage?: string;
  jobDefinitionId?: string;
  jobDefinitionType?: string;
  jobDefinitionConfiguration?: string;
  activityIdIn?: readonly string[];
  failedActivityIdIn?: readonly string[];
  executionIdIn?: readonly string[];
  processInstanceId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  deploymentId?: string;
  tenantIdIn?: readonly string[];
  withoutTenantId?: boolean;
  hostname?: string;
  jobPriorityLowerThanOrEquals?: number;
  jobPriorityHigherThanOrEquals?: number;
  creationLog?: boolean;
  failureLog?: boolean;
  successLog?: boolean;
  deletionLog?: boolean;
  sorting?: Sorting<HistoricJobLogSortField>[];
}

/** One entry of the historic external task log (Camunda's HistoricExternalTaskLog). */
export interface HistoricExternalTaskLog {
  id: string;
  externalTaskId: string;
  timestamp: Date;
  topicName: string | null;
  workerId: string | null;
  retries: number | null;
  priority: number;
  errorMessage: string | null;
  activityId: string | null;
  activityInstanceId: string | null;
  executionId: string | null;
  processInstanceId: string | null;
  processDefinitionId: string | null;
  processDefinitionKey: string | null;
  tenantId: string | null;
  creationLog: boolean;
  failureLog: boolean;
  successLog: boolean;
  deletionLog: boolean;
  removalTime: Date | null;
  rootProcessInstanceId: string | null;
}

export type HistoricExternalTaskLogSortField =
  | 'timestamp' | 'externalTaskId' | 'topicName' | 'workerId' | 'retries' | 'priority' | 'activityId' | 'activityInstanceId'
  | 'executionId' | 'processInstanceId' | 'processDefinitionId' | 'processDefinitionKey' | 'tenantId';

/** Camunda's historic external task log query (REST GET /history/external-task-log). */
export interface HistoricExternalTaskLogQuery extends Page, TenantChecked {
  logId?: string;
  externalTaskId?: string;
  topicName?: string;
  workerId?: string;
  errorMessage?: string;
  activityIdIn?: readonly string[];
  activityInstanceIdIn?: readonly string[];
  executionIdIn?: readonly string[];
  processInstanceId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  tenantIdIn?: readonly string[];
  withoutTenantId?: boolean;
  priorityLowerThanOrEquals?: number;
  priorityHigherThanOrEquals?: number;
  creationLog?: boolean;
  failureLog?: boolean;
  successLog?: boolean;
  deletionLog?: boolean;
  sorting?: Sorting<HistoricExternalTaskLogSortField>[];
}
