import type { Page, Sorting } from '../persistence/repositories/query-support.js';

/** Camunda's authorization types. */
export const AuthorizationType = { GLOBAL: 0, GRANT: 1, REVOKE: 2 } as const;
export type AuthorizationTypeCode = (typeof AuthorizationType)[keyof typeof AuthorizationType];

/** One stored authorization: who (user, group or everybody), which resource, which permission bits. */
export interface Authorization {
  id: string;
  type: AuthorizationTypeCode;
  userId: string | null;
  groupId: string | null;
  resourceType: number;
  resourceId: string | null;
  /** The bitmask: granted bits for GLOBAL/GRANT, the remaining (not revoked) bits for REVOKE. */
  permissions: number;
  removalTime: Date | null;
  rootProcessInstanceId: string | null;
}

/** What a caller states to create or update an authorization; permissions by name, as REST sends them. */
export interface AuthorizationInput {
  type?: number;
  userId?: string | null;
  groupId?: string | null;
  resourceType?: number | null;
  resourceId?: string | null;
  permissions?: readonly string[] | null;
}

export type AuthorizationSortField = 'resourceType' | 'resourceId';

export interface AuthorizationQuery extends Page {
  id?: string;
  type?: number;
  userIdIn?: string[];
  groupIdIn?: string[];
  resourceType?: number;
  resourceId?: string;
  sorting?: Sorting<AuthorizationSortField>[];
}

/** Who is calling: the user and the groups and tenants it belongs to. */
export interface Authentication {
  userId: string;
  groupIds: readonly string[];
  tenantIds: readonly string[];
}
