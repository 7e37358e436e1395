import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** Camunda's batch type strings (Batch.TYPE_*) of the batches that run here. */
export const BatchTypes = {
  instanceMigration: 'instance-migration',
  setExternalTaskRetries: 'set-external-task-retries',
  setJobRetries: 'set-job-retries',
  instanceUpdateSuspensionState: 'instance-update-suspension-state',
  instanceModification: 'instance-modification',
  instanceDeletion: 'instance-deletion',
  setVariables: 'set-variables',
  correlateMessage: 'correlate-message',
  instanceRestart: 'instance-restart',
} as const;
export const BATCH_SEED_JOB = 'batch-seed-job';
export const BATCH_MONITOR_JOB = 'batch-monitor-job';

/** Camunda's ProcessEngineConfigurationImpl defaults. */
export const BATCH_DEFAULTS = { batchJobsPerSeed: 100, invocationsPerBatchJob: 1, batchPollTimeMs: 30_000, batchJobPriority: 0 } as const;

/** A runtime batch (Camunda's BatchEntity). */
export interface Batch {
  id: string;
  type: string;
  totalJobs: number;
  jobsCreated: number;
  batchJobsPerSeed: number;
  invocationsPerBatchJob: number;
  seedJobDefinitionId: string | null;
  monitorJobDefinitionId: string | null;
  batchJobDefinitionId: string | null;
  suspended: boolean;
  tenantId: string | null;
  createUserId: string | null;
  startTime: Date;
  executionStartTime: Date | null;
}

export interface BatchStatistics extends Batch {
  remainingJobs: number;
  completedJobs: number;
  failedJobs: number;
}

export type BatchSortField = 'batchId' | 'tenantId' | 'startTime';

export interface BatchQuery extends Page, TenantChecked {
  batchId?: string;
  type?: string;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  suspended?: boolean;
  sorting?: Sorting<BatchSortField>[];
}

export interface BatchStatisticsQuery extends BatchQuery {
  createdBy?: string;
  startedBefore?: Date;
  startedAfter?: Date;
  withFailures?: boolean;
  withoutFailures?: boolean;
}

/** What a batch stores: its items (ids) and its type's settings; kept as JSON on the batch row. */
export interface BatchConfiguration<Settings = unknown> {
  ids: string[];
  settings: Settings;
  /** Deployment id the execution jobs carry (deployment-aware job executors). */
  deploymentId?: string | null;
}
