import { AuthorizationType } from '../../authorization/authorization.js';
import type { ResourceType } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';

export interface DefaultGrant {
  userId?: string;
  groupId?: string;
  resource: ResourceType;
  resourceId: string;
  permissions: number;
}

/**
 * Camunda's DefaultAuthorizationProvider: the GRANT a new user, group or deployment gets, created
 * only while authorization is enabled (as Camunda does).
 */
export async function grantDefault(ctx: CommandContext, grant: DefaultGrant): Promise<void> {
  if (!ctx.config.authorization.enabled) return;
  await ctx.authorizations.insert({
    id: ctx.ids.next(),
    type: AuthorizationType.GRANT,
    userId: grant.userId ?? null,
    groupId: grant.groupId ?? null,
    resourceType: grant.resource.code,
    resourceId: grant.resourceId,
    permissions: grant.permissions,
    removalTime: null,
    rootProcessInstanceId: null,
  });
}
