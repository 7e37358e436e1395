import { AuthorizationType } from '../../authorization/authorization.js';
import { ALL_BITS } from '../../authorization/permissions.js';
import { ALL_RESOURCE_TYPES, ANY, CAMUNDA_ADMIN } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';

/**
 * Camunda's administrator setup (the admin webapp's first user, AdministratorAuthorizationPlugin):
 * the user, the camunda-admin group, ALL on every resource type for that group, and the membership.
 * Returns whether the user was created now (false: it existed and is only made an administrator).
 */
export async function setUpAdministrator(ctx: CommandContext, userId: string, passwordHash: string): Promise<boolean> {
  const created = !(await ctx.users.findById(userId));
  if (created) await ctx.users.insert({ id: userId, firstName: null, lastName: null, email: null }, passwordHash);
  if (!(await ctx.groups.findById(CAMUNDA_ADMIN))) {
    await ctx.groups.insert({ id: CAMUNDA_ADMIN, name: 'camunda BPM Administrators', type: 'SYSTEM' });
  }
  for (const resource of ALL_RESOURCE_TYPES) {
    const existing = await ctx.authorizations.count({ groupIdIn: [CAMUNDA_ADMIN], resourceType: resource.code, resourceId: ANY });
    if (existing > 0) continue;
    await ctx.authorizations.insert({
      id: ctx.ids.next(),
      type: AuthorizationType.GRANT,
      userId: null,
      groupId: CAMUNDA_ADMIN,
      resourceType: resource.code,
      resourceId: ANY,
      permissions: ALL_BITS,
      removalTime: null,
      rootProcessInstanceId: null,
    });
  }
  if (!(await ctx.groups.isMember(userId, CAMUNDA_ADMIN))) await ctx.groups.addMember(userId, CAMUNDA_ADMIN);
  return created;
}
