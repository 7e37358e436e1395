import { sql, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { ResolvedAuthorizationConfig } from '../config.js';
import { engineMessage } from '../errors/engine-message.js';
import { AuthorizationException, ProcessEngineException, type MissingAuthorization } from '../errors/exceptions.js';
import type { HistoryReadFilter, ReadFilter } from '../persistence/repositories/authorization-repository.js';
import { AuthorizationRepository } from '../persistence/repositories/authorization-repository.js';
import type { StoreSchema } from '../persistence/schema.js';
import type { Authentication } from './authorization.js';
import { authorizedExpression, type CheckSubject } from './authorized-expression.js';
import { permissionByName } from './permissions.js';
import { CAMUNDA_ADMIN, Resources, type ResourceType } from './resources.js';

/** One permission on one resource (null id: the resource type as a whole). */
export interface PermissionCheck {
  permission: string;
  resource: ResourceType;
  resourceId?: string | null;
}

/**
 * The one place a command asks "may the caller do this?". Checks apply when authorization is enabled
 * and someone is authenticated, administrators included: as Camunda's AuthorizationManager, being an
 * administrator (camunda-admin, or a configured admin user or group) counts only for the commands
 * reserved to administrators (requireAdmin), those open to administrators or holders of a System
 * permission (passesAsAdminOrSystem), and the tenant check; everything else needs grants.
 */
export class AuthorizationChecker {
  private revokes: Promise<boolean> | undefined;

  constructor(
    private readonly trx: Transaction<StoreSchema>,
    readonly authentication: Authentication | null,
    private readonly config: ResolvedAuthorizationConfig,
  ) {}

  /** Whether checks apply to this command at all (Camunda's isAuthCheckExecuted). */
  get isActive(): boolean {
    return this.config.enabled && this.authentication !== null;
  }

  /** Checks do not apply, or the caller is an administrator (the first half of Camunda's checkCamundaAdminOrPermission). */
  passesAsAdmin(): boolean {
    return !this.isActive || this.isAdmin();
  }

  /** Camunda admin: a member of an admin group or a listed admin user. */
  isAdmin(authentication: Authentication | null = this.authentication): boolean {
    if (!authentication) return false;
    return this.config.adminUsers.includes(authentication.userId)
      || authentication.groupIds.some((group) => group === CAMUNDA_ADMIN || this.config.adminGroups.includes(group));
  }

  /**
   * Passes when any of the checks is granted; otherwise AuthorizationException listing them all (one
   * check alone is told as Camunda's single check, `does not have 'X' permission on …`).
   */
  check(...checks: PermissionCheck[]): Promise<void> {
    return this.checkAny(checks, checks.length > 1);
  }

  /** As check, but told as Camunda's composite check even for one alternative (`one of the following permissions: …`). */
  checkComposite(...checks: PermissionCheck[]): Promise<void> {
    return this.checkAny(checks, true);
  }

  private async checkAny(checks: readonly PermissionCheck[], composite: boolean): Promise<void> {
    if (!this.isActive) return;
    for (const check of checks) if (await this.isAuthorized(check)) return;
    throw deniedException(this.authentication!.userId, checks, composite);
  }

  /** Passes when every check is granted (Camunda's conjunctive composite check); otherwise AuthorizationException listing them all. */
  async checkAll(...checks: PermissionCheck[]): Promise<void> {
    if (!this.isActive) return;
    for (const check of checks) if (!(await this.isAuthorized(check))) throw deniedException(this.authentication!.userId, checks);
  }

  /** Whether `subject` (the caller by default) holds the permission; ignores whether checks are active. */
  async isAuthorized(check: PermissionCheck, subject?: Authentication): Promise<boolean> {
    const who = subject ?? this.authentication;
    if (!who) return true;
    const bits = permissionBits(check);
    const expression = authorizedExpression(await this.subject(who), bits, check.resource.code, check.resourceId ? sql`${check.resourceId}` : null);
    const result = await sql<{ authorized: number }>`select case when ${expression} then 1 else 0 end as authorized`.execute(this.trx);
    return Number(result.rows[0]?.authorized) === 1;
  }

  /**
   * Checks do not apply, the caller is an administrator, or it holds one of `permissions` on System
   * (Camunda's checkCamundaAdminOrPermission, whose permission checks are on System).
   */
  async passesAsAdminOrSystem(...permissions: string[]): Promise<boolean> {
    if (this.passesAsAdmin()) return true;
    for (const permission of permissions) if (await this.isAuthorized({ permission, resource: Resources.SYSTEM })) return true;
    return false;
  }

  /** ENGINE-03110 (naming the permissions that would have passed) unless passesAsAdminOrSystem. */
  async requireAdminOrSystem(...permissions: string[]): Promise<void> {
    if (await this.passesAsAdminOrSystem(...permissions)) return;
    const listed = permissions.map((permission) => `'${permission}' permission on resource 'System'`).join(' or ');
    // Camunda builds it from the message alone: no user id, no missing authorizations in the body.
    throw new AuthorizationException(engineMessage('03', '110', `Required admin authenticated group or user or any of the following permissions: ${listed}.`));
  }

  /** ENGINE-03029 unless the caller is an administrator (or checks do not apply): Camunda's checkCamundaAdmin. */
  requireAdmin(): void {
    if (!this.passesAsAdmin()) {
      throw new AuthorizationException(engineMessage('03', '029', 'Required admin authenticated group or user.'));
    }
  }

  /** A SQL filter keeping the rows whose id the caller may read with `permission`; null when checks do not apply. */
  async readFilter(permission: string, resource: ResourceType): Promise<ReadFilter> {
    if (!this.isActive) return null;
    const subject = await this.subject(this.authentication!);
    const bits = permissionBits({ permission, resource });
    return (idColumn) => authorizedExpression(subject, bits, resource.code, sql.ref(idColumn));
  }

  /**
   * The filter of a history query: `permission` (READ_HISTORY by default) on the process definition,
   * and with enableHistoricInstancePermissions READ on the historic process instance and
   * `taskPermission` (READ by default) on the historic task (Camunda's configureHistoric…Query).
   */
  async historyFilter(permission = 'READ_HISTORY', taskPermission = 'READ'): Promise<HistoryReadFilter> {
    if (!this.isActive) return null;
    const subject = await this.subject(this.authentication!);
    const definitionBits = permissionBits({ permission, resource: Resources.PROCESS_DEFINITION });
    const definition = (keyColumn: string) => authorizedExpression(subject, definitionBits, Resources.PROCESS_DEFINITION.code, sql.ref(keyColumn));
    if (!this.config.enableHistoricInstancePermissions) return { definition, instance: null, task: null };
    const instanceBits = permissionBits({ permission: 'READ', resource: Resources.HISTORIC_PROCESS_INSTANCE });
    const taskBits = permissionBits({ permission: taskPermission, resource: Resources.HISTORIC_TASK });
    return {
      definition,
      instance: (idColumn) => authorizedExpression(subject, instanceBits, Resources.HISTORIC_PROCESS_INSTANCE.code, sql.ref(idColumn)),
      task: (id) => authorizedExpression(subject, taskBits, Resources.HISTORIC_TASK.code, id),
    };
  }

  /**
   * A filter on rows readable through either of two grants, e.g. READ on the process instance or
   * READ_INSTANCE on its definition's key (Camunda's process instance query).
   */
  async readFilterEither(
    first: { permission: string; resource: ResourceType },
    second: { permission: string; resource: ResourceType },
  ): Promise<((firstColumn: string, secondColumn: string) => RawBuilder<SqlBool>) | null> {
    if (!this.isActive) return null;
    const subject = await this.subject(this.authentication!);
    const [a, b] = [permissionBits(first), permissionBits(second)];
    return (firstColumn, secondColumn) =>
      sql<SqlBool>`(${authorizedExpression(subject, a, first.resource.code, sql.ref(firstColumn))} or ${authorizedExpression(subject, b, second.resource.code, sql.ref(secondColumn))})`;
  }

  private async subject(authentication: Authentication): Promise<CheckSubject> {
    return { userId: authentication.userId, groupIds: authentication.groupIds, checkRevokes: await this.checkRevokes(authentication) };
  }

  private checkRevokes(authentication: Authentication): Promise<boolean> {
    if (this.config.checkRevokes !== 'auto') return Promise.resolve(this.config.checkRevokes === 'always');
    if (authentication !== this.authentication) {
      return new AuthorizationRepository(this.trx).hasRevokes(authentication.userId, authentication.groupIds);
    }
    this.revokes ??= new AuthorizationRepository(this.trx).hasRevokes(authentication.userId, authentication.groupIds);
    return this.revokes;
  }
}

function permissionBits(check: PermissionCheck): number {
  const permission = permissionByName(check.resource.code, check.permission);
  if (!permission) throw new ProcessEngineException(`Unknown permission '${check.permission}' for resource ${check.resource.name}`);
  return permission.value;
}

/** Camunda's AuthorizationException text for one or several missing permissions. */
export function deniedException(userId: string, checks: readonly PermissionCheck[], composite = checks.length > 1): AuthorizationException {
  const missing: MissingAuthorization[] = checks.map((check) => ({
    permissionName: check.permission,
    resourceName: check.resource.name,
    resourceId: check.resourceId ?? null,
  }));
  const describe = (m: MissingAuthorization) =>
    m.resourceId === null
      ? `'${m.permissionName}' permission on resource '${m.resourceName}'`
      : `'${m.permissionName}' permission on resource '${m.resourceId}' of type '${m.resourceName}'`;
  const message =
    !composite
      ? `The user with id '${userId}' does not have ${describe(missing[0])}.`
      : `The user with id '${userId}' does not have one of the following permissions: ${missing.map(describe).join(' or ')}`;
  return new AuthorizationException(message, userId, missing);
}
