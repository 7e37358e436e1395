import { sql, type RawBuilder, type SelectQueryBuilder, type SqlBool } from 'kysely';
import { engineMessage } from '../errors/engine-message.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { Authentication } from './authorization.js';

/**
 * A list query's tenant criterion set by the engine, never by a caller: the tenants whose rows the
 * caller may see besides those of no tenant (Camunda's ListQueryParameterObject.tenantCheck).
 */
export interface TenantChecked {
  authTenantIds?: readonly string[];
}

/**
 * Camunda's TenantManager and TenantCommandChecker: when someone is authenticated and is no
 * administrator, queries keep the rows of no tenant and of the caller's tenants, and commands on
 * an entity of another tenant fail (ENGINE-13034). Independent of authorization being enabled.
 */
export class TenantCheck {
  readonly isActive: boolean;

  constructor(
    private readonly authentication: Authentication | null,
    enabled: boolean,
    isAdmin: (authentication: Authentication) => boolean,
  ) {
    this.isActive = enabled && authentication !== null && !isAdmin(authentication);
  }

  /** Whether an entity of `tenantId` belongs to the caller (no tenant belongs to everyone). */
  isAuthenticatedTenant(tenantId: string | null | undefined): boolean {
    return !this.isActive || tenantId == null || this.authentication!.tenantIds.includes(tenantId);
  }

  /** ENGINE-13034 "Cannot <command> because it belongs to no authenticated tenant." unless the entity is the caller's. */
  require(tenantId: string | null | undefined, command: string): void {
    if (!this.isAuthenticatedTenant(tenantId)) throw unauthorizedTenant(command);
  }

  /** The query with the engine's tenant criterion: the caller's tenants when the check applies, none otherwise. */
  query<Q extends object>(query: Q): Q & TenantChecked {
    if (this.isActive) return { ...query, authTenantIds: this.authentication!.tenantIds };
    return (query as TenantChecked).authTenantIds === undefined ? query : { ...query, authTenantIds: undefined };
  }
}

export function unauthorizedTenant(command: string): ProcessEngineException {
  // Camunda: CommandLogger 034
  return new ProcessEngineException(engineMessage('13', '034', `Cannot ${command} because it belongs to no authenticated tenant.`));
}

/**
 * The tenantIdIn / withoutTenantId criteria of Camunda's queries, as their DTOs apply them:
 * withoutTenantId replaces the list (its setter runs last), an empty list filters nothing, and
 * `includeWithoutTenant` (includeJobsWithoutTenantId and the like) adds the rows of no tenant.
 */
export function requestedTenants(
  query: { tenantIdIn?: readonly string[]; withoutTenantId?: boolean },
  column: TenantColumn,
  includeWithoutTenant = false,
): RawBuilder<SqlBool> | null {
  const ref = tenantRef(column);
  if (query.withoutTenantId === true) return sql<SqlBool>`${ref} is null`;
  if (query.tenantIdIn === undefined || query.tenantIdIn.length === 0) return null;
  const listed = sql<SqlBool>`${ref} in (${sql.join([...query.tenantIdIn])})`;
  return includeWithoutTenant ? sql<SqlBool>`(${listed} or ${ref} is null)` : listed;
}

/** A tenant column, or an expression giving the tenant (a row's own or its owner's). */
export type TenantColumn = string | RawBuilder<string | null>;
const tenantRef = (column: TenantColumn) => (typeof column === 'string' ? sql.ref(column) : column);

/** A tenant column's condition for a checked query, or null when the check does not apply. */
export function tenantCondition(query: TenantChecked, column: TenantColumn) {
  const tenants = query.authTenantIds;
  if (tenants === undefined) return null;
  const ref = tenantRef(column);
  return tenants.length === 0
    ? sql<SqlBool>`${ref} is null`
    : sql<SqlBool>`(${ref} is null or ${ref} in (${sql.join([...tenants])}))`;
}

/** Keeps the rows of no tenant and of the caller's tenants when the query is checked. */
export function applyTenantCheck<DB, TB extends keyof DB, O>(
  select: SelectQueryBuilder<DB, TB, O>,
  query: TenantChecked,
  column: TenantColumn,
): SelectQueryBuilder<DB, TB, O> {
  const condition = tenantCondition(query, column);
  return condition ? select.where(condition) : select;
}
