import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** A deployed, versioned executable process. */
export interface ProcessDefinition {
  id: string;
  key: string;
  name: string | null;
  description: string | null;
  category: string | null;
  version: number;
  versionTag: string | null;
  resourceName: string;
  diagramResourceName: string | null;
  deploymentId: string;
  deploymentTime: Date;
  tenantId: string | null;
  suspended: boolean;
  historyTimeToLive: number | null;
  startableInTasklist: boolean;
  hasStartFormKey: boolean;
}

export type ProcessDefinitionSortField =
  | 'category' | 'key' | 'id' | 'name' | 'version' | 'deploymentId' | 'deployTime' | 'tenantId' | 'versionTag';

/** Camunda's ProcessDefinitionQuery filters; they combine with AND. */
export interface ProcessDefinitionQuery extends Page, TenantChecked {
  processDefinitionId?: string;
  processDefinitionIdIn?: string[];
  name?: string;
  nameLike?: string;
  deploymentId?: string;
  deployedAfter?: Date;
  deployedAt?: Date;
  key?: string;
  keysIn?: string[];
  keyLike?: string;
  category?: string;
  categoryLike?: string;
  version?: number;
  latestVersion?: boolean;
  resourceName?: string;
  resourceNameLike?: string;
  startableBy?: string;
  active?: boolean;
  suspended?: boolean;
  incidentId?: string;
  incidentType?: string;
  incidentMessage?: string;
  incidentMessageLike?: string;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  includeProcessDefinitionsWithoutTenantId?: boolean;
  versionTag?: string;
  versionTagLike?: string;
  withoutVersionTag?: boolean;
  startableInTasklist?: boolean;
  notStartableInTasklist?: boolean;
  startablePermissionCheck?: boolean;
  sorting?: Sorting<ProcessDefinitionSortField>[];
}
