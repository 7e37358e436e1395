import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';

/** A set of resources deployed together. */
export interface Deployment {
  id: string;
  name: string | null;
  source: string | null;
  deploymentTime: Date;
  tenantId: string | null;
}

/** A file of a deployment, without its content. */
export interface DeploymentResource {
  id: string;
  name: string;
  deploymentId: string;
}

/** A file of a deployment with its content. */
export interface DeploymentResourceData extends DeploymentResource {
  bytes: Buffer;
}

export type DeploymentSortField = 'id' | 'name' | 'deploymentTime' | 'tenantId';

/** Camunda's DeploymentQuery filters; every field is optional and they combine with AND. */
export interface DeploymentQuery extends Page, TenantChecked {
  id?: string;
  name?: string;
  nameLike?: string;
  source?: string;
  withoutSource?: boolean;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  includeDeploymentsWithoutTenantId?: boolean;
  after?: Date;
  before?: Date;
  sorting?: Sorting<DeploymentSortField>[];
}
