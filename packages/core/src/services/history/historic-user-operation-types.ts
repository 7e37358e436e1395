import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** One entry of the user operation log (Camunda's UserOperationLogEntry). */
export interface UserOperationLogEntry {
  id: string;
  deploymentId: string | null;
  processDefinitionId: string | null;
  processDefinitionKey: string | null;
  rootProcessInstanceId: string | null;
  processInstanceId: string | null;
  executionId: string | null;
  caseDefinitionId: string | null;
  caseInstanceId: string | null;
  caseExecutionId: string | null;
  taskId: string | null;
  externalTaskId: string | null;
  batchId: string | null;
  jobId: string | null;
  jobDefinitionId: string | null;
  userId: string | null;
  timestamp: Date;
  operationId: string;
  operationType: string;
  entityType: string;
  property: string | null;
  orgValue: string | null;
  newValue: string | null;
  tenantId: string | null;
  removalTime: Date | null;
  category: string | null;
  annotation: string | null;
}

export type UserOperationLogSortField = 'timestamp';

/** Camunda's UserOperationLogQuery (REST GET /history/user-operation). */
export interface UserOperationLogQuery extends Page, TenantChecked {
  deploymentId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processInstanceId?: string;
  executionId?: string;
  caseDefinitionId?: string;
  caseInstanceId?: string;
  caseExecutionId?: string;
  taskId?: string;
  externalTaskId?: string;
  batchId?: string;
  jobId?: string;
  jobDefinitionId?: string;
  userId?: string;
  operationId?: string;
  operationType?: string;
  entityType?: string;
  entityTypeIn?: string[];
  category?: string;
  categoryIn?: string[];
  property?: string;
  /** Entries strictly after / before this time. */
  afterTimestamp?: Date;
  beforeTimestamp?: Date;
  sorting?: Sorting<UserOperationLogSortField>[];
}
