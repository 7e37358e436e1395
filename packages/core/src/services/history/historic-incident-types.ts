import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** A historic incident (Camunda's HistoricIncident): open, resolved or deleted. */
export interface HistoricIncident {
  id: string;
  processDefinitionKey: string | null;
  processDefinitionId: string | null;
  processInstanceId: string | null;
  executionId: string | null;
  rootProcessInstanceId: string | null;
  createTime: Date;
  endTime: Date | null;
  removalTime: Date | null;
  incidentType: string;
  activityId: string | null;
  failedActivityId: string | null;
  causeIncidentId: string | null;
  rootCauseIncidentId: string | null;
  configuration: string | null;
  historyConfiguration: string | null;
  incidentMessage: string | null;
  tenantId: string | null;
  jobDefinitionId: string | null;
  open: boolean;
  deleted: boolean;
  resolved: boolean;
  annotation: string | null;
}

export type HistoricIncidentSortField =
  | 'incidentId' | 'incidentMessage' | 'createTime' | 'endTime' | 'incidentType' | 'executionId' | 'activityId'
  | 'processInstanceId' | 'processDefinitionId' | 'processDefinitionKey' | 'causeIncidentId' | 'rootCauseIncidentId'
  | 'configuration' | 'historyConfiguration' | 'tenantId' | 'incidentState';

/** Camunda's historic incident query (REST GET /history/incident); times strictly before / after. */
export interface HistoricIncidentQuery extends Page, TenantChecked {
  incidentId?: string;
  incidentType?: string;
  incidentMessage?: string;
  incidentMessageLike?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionKeyIn?: readonly string[];
  processInstanceId?: string;
  executionId?: string;
  createTimeBefore?: Date;
  createTimeAfter?: Date;
  endTimeBefore?: Date;
  endTimeAfter?: Date;
  activityId?: string;
  failedActivityId?: string;
  causeIncidentId?: string;
  rootCauseIncidentId?: string;
  configuration?: string;
  historyConfiguration?: string;
  open?: boolean;
  resolved?: boolean;
  deleted?: boolean;
  tenantIdIn?: readonly string[];
  withoutTenantId?: boolean;
  jobDefinitionIdIn?: readonly string[];
  sorting?: Sorting<HistoricIncidentSortField>[];
}
