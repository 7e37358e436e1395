import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** What the engine knows about the jobs of one activity (Camunda's JobDefinitionEntity): created at deployment. */
export interface JobDefinition {
  id: string;
  /** The three are null for a batch's job definitions (seed, monitor, execution), which serve no process. */
  processDefinitionId: string | null;
  processDefinitionKey: string | null;
  activityId: string | null;
  /** The job handler type, e.g. 'async-continuation', 'timer-transition'. */
  jobType: string;
  /** 'async-before' / 'async-after', or a timer's kind and text ('DURATION: PT5M'). */
  jobConfiguration: string | null;
  /** Overrides the priority of new (and, when asked, existing) jobs; null: the model decides. */
  overridingJobPriority: number | null;
  suspended: boolean;
  tenantId: string | null;
  deploymentId: string | null;
}

export type JobDefinitionSortField = 'jobDefinitionId' | 'activityId' | 'processDefinitionId' | 'processDefinitionKey' | 'jobType' | 'jobConfiguration' | 'tenantId';

export interface JobDefinitionQuery extends Page, TenantChecked {
  jobDefinitionId?: string;
  activityIdIn?: string[];
  processDefinitionId?: string;
  processDefinitionKey?: string;
  jobType?: string;
  jobConfiguration?: string;
  active?: boolean;
  suspended?: boolean;
  withOverridingJobPriority?: boolean;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  includeJobDefinitionsWithoutTenantId?: boolean;
  sorting?: Sorting<JobDefinitionSortField>[];
}
