import { AuthorizationType } from '../../authorization/authorization.js';
import { ANY, Resources, type ResourceType } from '../../authorization/resources.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { CommandContext } from '../../command/command-context.js';
import type { TaskCandidates } from '../task/task.js';

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

/**
 * READ and UPDATE: what Camunda grants on a task by default (defaultUserPermissionForTask is UPDATE);
 * READ_VARIABLE too with enforceSpecificVariablePermission.
 */
const taskDefaultPermissions = (ctx: CommandContext) => 2 | 4 | (ctx.config.authorization.enforceSpecificVariablePermission ? 64 : 0);

/**
 * Camunda's newTaskAssignee / newTaskOwner / newTaskUserIdentityLink / newTaskGroupIdentityLink:
 * while authorization is enabled, the user or group a task is given to (assignee, owner, an identity
 * link of any type: a candidate too) gets READ and UPDATE (and READ_VARIABLE, see taskDefaultPermissions)
 * on that task — an existing grant of theirs on it is extended.
 */
export async function grantTaskDefault(ctx: CommandContext, taskId: string, to: { userId: string } | { groupId: string }, role: 'assignee' | 'owner' | 'identityLink'): Promise<void> {
  if (!ctx.config.authorization.enabled) return;
  const userId = 'userId' in to ? to.userId : null;
  const groupId = 'groupId' in to ? to.groupId : null;
  const id = userId ?? groupId!;
  if (id === ANY) {
    const subject = role === 'identityLink' ? `grant default authorization for identity link to ${userId !== null ? 'user' : 'group'}` : `create default authorization for ${role}`;
    throw new ProcessEngineException(`Cannot ${subject} ${id}: id cannot be ${ANY}. ${ANY} is a reserved identifier.`);
  }
  const [existing] = await ctx.authorizations.find({
    type: AuthorizationType.GRANT,
    ...(userId !== null ? { userIdIn: [userId] } : { groupIdIn: [groupId!] }),
    resourceType: Resources.TASK.code,
    resourceId: taskId,
  });
  const permissions = taskDefaultPermissions(ctx);
  if (existing) {
    if ((existing.permissions & permissions) !== permissions) {
      await ctx.authorizations.update({ ...existing, permissions: existing.permissions | permissions });
    }
    return;
  }
  await grantDefault(ctx, { ...(userId !== null ? { userId } : { groupId: groupId! }), resource: Resources.TASK, resourceId: taskId, permissions });
}

/** The default grants of a task given to its assignee, owner and candidates at once (a new task). */
export async function grantTaskDefaults(ctx: CommandContext, task: { id: string; assignee: string | null; owner: string | null }, candidates: TaskCandidates): Promise<void> {
  if (!ctx.config.authorization.enabled) return;
  if (task.assignee !== null) await grantTaskDefault(ctx, task.id, { userId: task.assignee }, 'assignee');
  if (task.owner !== null) await grantTaskDefault(ctx, task.id, { userId: task.owner }, 'owner');
  for (const userId of candidates.users) await grantTaskDefault(ctx, task.id, { userId }, 'identityLink');
  for (const groupId of candidates.groups) await grantTaskDefault(ctx, task.id, { groupId }, 'identityLink');
}
