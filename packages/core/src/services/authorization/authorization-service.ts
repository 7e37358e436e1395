import { inject, injectable } from 'inversify';
import type { Authentication, Authorization, AuthorizationInput, AuthorizationQuery } from '../../authorization/authorization.js';
import { authorizationType, checkIdentity, permissionBits, validateAuthorization } from '../../authorization/authorization-rules.js';
import { permissionsFromNames } from '../../authorization/permission-converter.js';
import { isValidFor } from '../../authorization/permissions.js';
import { ANY, Resources, resourceByCode, type ResourceType } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { engineMessage } from '../../errors/engine-message.js';
import { BadUserRequestException, NotFoundException, NullValueException } from '../../errors/exceptions.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import { deleteAuthorizationsOn } from './default-authorizations.js';

export interface AuthorizationCheckRequest {
  permissionName: string;
  /** The resource's name as the request gives it (Camunda's messages name the resource by it). */
  resourceName?: string;
  resourceType: number;
  resourceId?: string | null;
  /** Whose permission: the caller by default. */
  userId?: string | null;
}

/** Camunda's AuthorizationService: stored authorizations and permission checks. */
@injectable()
export class AuthorizationService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /**
   * Needs CREATE on Authorization. Checks in Camunda's order (createNewAuthorization, the DTO's
   * setters, SaveAuthorizationCmd): the type, the group and user a GLOBAL one may have, the resource
   * type, the permission names, exactly one of user and group, the permissions' resource types.
   * A GLOBAL authorization's user is `*` unless `userId` is given (REST gives it, null when absent).
   */
  createAuthorization(input: AuthorizationInput): Promise<Authorization> {
    return this.commands.run('SaveAuthorizationCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.AUTHORIZATION });
      const type = authorizationType(input.type);
      const groupId = input.groupId ?? null;
      const userId = input.userId === undefined && type === 0 ? ANY : (input.userId ?? null);
      checkIdentity(type, userId, groupId);
      const resourceType = requireResourceType(input.resourceType);
      const permissions = permissionsFromNames(input.permissions ?? [], resourceType);
      const authorization: Authorization = {
        id: ctx.ids.next(),
        type,
        userId,
        groupId,
        resourceType,
        resourceId: input.resourceId ?? null,
        permissions: permissionBits(type, permissions),
        removalTime: null,
        rootProcessInstanceId: null,
      };
      validateAuthorization(authorization, permissions);
      Object.assign(authorization, await historicOwner(ctx, authorization));
      await ctx.authorizations.insert(authorization);
      OperationLogEntries.authorization(ctx, 'Create', authorization, null);
      return authorization;
    });
  }

  /** The authorization, if it exists and the caller may read it. */
  getAuthorization(id: string): Promise<Authorization | null> {
    return this.commands.run('AuthorizationQuery', async (ctx) => (await this.readable(ctx, { id }))[0] ?? null);
  }

  findAuthorizations(query: AuthorizationQuery = {}): Promise<Authorization[]> {
    return this.commands.run('AuthorizationQuery', (ctx) => this.readable(ctx, query));
  }

  countAuthorizations(query: AuthorizationQuery = {}): Promise<number> {
    return this.commands.run('AuthorizationQuery', async (ctx) =>
      ctx.authorizations.count(query, await ctx.authz.readFilter('READ', Resources.AUTHORIZATION)),
    );
  }

  /**
   * Camunda's PUT semantics in one transaction: userId, groupId and resourceId are replaced (absent =
   * null); resourceType and permissions only when given. Needs UPDATE on the authorization.
   */
  updateAuthorization(id: string, input: AuthorizationInput): Promise<Authorization> {
    return this.commands.run('SaveAuthorizationCmd', async (ctx) => {
      const current = await this.load(ctx, id);
      const groupId = input.groupId ?? null;
      const userId = input.userId ?? null;
      checkIdentity(current.type, userId, groupId);
      const resourceType = input.resourceType ?? current.resourceType;
      const permissions = input.permissions ? permissionsFromNames(input.permissions, resourceType) : [];
      const updated: Authorization = {
        ...current,
        userId,
        groupId,
        resourceId: input.resourceId ?? null,
        resourceType,
        permissions: input.permissions ? permissionBits(current.type, permissions) : current.permissions,
      };
      validateAuthorization(updated, permissions);
      Object.assign(updated, await historicOwner(ctx, updated));
      // Camunda checks UPDATE when it writes, after the new values were checked.
      await ctx.authz.check({ permission: 'UPDATE', resource: Resources.AUTHORIZATION, resourceId: id });
      await ctx.authorizations.update(updated);
      OperationLogEntries.authorization(ctx, 'Update', updated, current);
      return updated;
    });
  }

  /** Needs DELETE on the authorization; NotFoundException for an unknown id. */
  deleteAuthorization(id: string): Promise<void> {
    return this.commands.run('DeleteAuthorizationCmd', async (ctx) => {
      const authorization = await this.load(ctx, id);
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.AUTHORIZATION, resourceId: id });
      await deleteAuthorizationsOn(ctx, Resources.AUTHORIZATION, id);
      await ctx.authorizations.delete(authorization);
      OperationLogEntries.authorization(ctx, 'Delete', authorization, null);
    });
  }

  /**
   * Whether a user holds a permission (Camunda's AuthorizationCheckCmd): always true while
   * authorization is disabled; otherwise only stored grants count, also for administrators (whose
   * camunda-admin group holds ALL everywhere when set up by IdentityService.setUpAdministrator).
   */
  isUserAuthorized(request: AuthorizationCheckRequest, subject: Authentication): Promise<boolean> {
    return this.commands.run('AuthorizationCheckCmd', async (ctx) => {
      const [permission] = permissionsFromNames([request.permissionName], request.resourceType);
      // Camunda's AuthorizationManager.isAuthorized: with authorization off, true before any other check.
      // (Camunda's AuthorizationCheckCmd refuses historic instance resources while their permissions are
      // disabled only for its own Resources constants, never for the resource a REST check names.)
      if (!ctx.config.authorization.enabled) return true;
      if (!isValidFor(permission, request.resourceType)) {
        const name = request.resourceName ?? resourceByCode(request.resourceType)?.name ?? String(request.resourceType);
        throw new BadUserRequestException(engineMessage('03', '086', `The resource type '${name}' is not valid for '${permission.name}' permission.`));
      }
      const resource = resourceByCode(request.resourceType) ?? { code: request.resourceType, name: String(request.resourceType), constant: 'null' };
      const resourceId = request.resourceId && request.resourceId !== ANY ? request.resourceId : null;
      return ctx.authz.isAuthorized({ permission: permission.name, resource, resourceId }, subject);
    });
  }

  /** Whether the caller may read authorizations in general (READ on Authorization `*`), or checks do not apply. */
  mayRead(): Promise<boolean> {
    return this.mayOn('READ', Resources.AUTHORIZATION);
  }

  /**
   * Whether the caller may do `permission` on a resource (for the REST OPTIONS links): true while
   * authorization is disabled or nobody is authenticated; otherwise by stored grants only, as
   * Camunda's REST resources ask (no administrator shortcut).
   */
  mayOn(permission: string, resource: ResourceType, resourceId?: string): Promise<boolean> {
    return this.commands.run('AuthorizationCheckCmd', async (ctx) =>
      !ctx.config.authorization.enabled || ctx.authz.isAuthorized({ permission, resource, resourceId: resourceId ?? null }),
    );
  }

  private async readable(ctx: CommandContext, query: AuthorizationQuery): Promise<Authorization[]> {
    return ctx.authorizations.find(query, await ctx.authz.readFilter('READ', Resources.AUTHORIZATION));
  }

  private async load(ctx: CommandContext, id: string): Promise<Authorization> {
    const authorization = await ctx.authorizations.findById(id);
    if (!authorization) throw new NotFoundException(`Authorization with id ${id} does not exist.`);
    return authorization;
  }
}

function requireResourceType(resourceType: number | null | undefined): number {
  if (resourceType === null || resourceType === undefined) throw new NullValueException("Authorization 'resourceType' cannot be null.");
  return resourceType;
}

/**
 * Camunda's SaveAuthorizationCmd.provideRemovalTime: a grant on a historic process instance or task
 * belongs to that history's root process instance and takes its removal time (both null when the
 * resource id is none, `*` or unknown); on any other resource they stay as they are.
 */
async function historicOwner(ctx: CommandContext, authorization: Authorization): Promise<Pick<Authorization, 'rootProcessInstanceId' | 'removalTime'> | null> {
  const { resourceType, resourceId } = authorization;
  const isInstance = resourceType === Resources.HISTORIC_PROCESS_INSTANCE.code;
  if (!isInstance && resourceType !== Resources.HISTORIC_TASK.code) return null;
  const none = { rootProcessInstanceId: null, removalTime: null };
  if (resourceId === null || resourceId === ANY) return none;
  const row = isInstance
    ? await ctx.trx.selectFrom('trellis_hi_procinst').select(['root_proc_inst_id', 'removal_time']).where('id', '=', resourceId).executeTakeFirst()
    : await ctx.trx.selectFrom('trellis_hi_taskinst as t').select(['t.root_proc_inst_id', inheritedRemovalTime('trellis_hi_taskinst', 't')]).where('t.id', '=', resourceId).executeTakeFirst()
        .then((task) => task && { root_proc_inst_id: task.root_proc_inst_id, removal_time: task.inherited_removal_time });
  if (!row) return none;
  return { rootProcessInstanceId: row.root_proc_inst_id, removalTime: row.removal_time == null ? null : new Date(Number(row.removal_time)) };
}
