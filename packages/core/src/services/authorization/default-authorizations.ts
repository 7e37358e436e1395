import { AuthorizationType } from '../../authorization/authorization.js';
import { ANY, Resources, type ResourceType } from '../../authorization/resources.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { CommandContext } from '../../command/command-context.js';
import type { TaskCandidates } from '../task/task.js';
import { rootInstanceOf } from '../../runtime/root-instance.js';

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
 * Camunda's AuthorizationManager.deleteAuthorizationsByResourceId(s): the authorizations on resources
 * whose owner goes (a user, a filter, a historic instance…) go with it — only while authorization is
 * enabled; otherwise they stay, as in Camunda.
 */
export async function deleteAuthorizationsOn(ctx: CommandContext, resource: ResourceType, resourceIds: string | readonly string[]): Promise<void> {
  if (ctx.config.authorization.enabled) await ctx.authorizations.deleteByResource(resource.code, resourceIds);
}

/** Camunda's EnsureUtil.ensureValidIndividualResourceId: `*` names no individual a default grant could go to. */
export function ensureValidIndividualResourceId(message: string, id: string): void {
  if (id === ANY) throw new ProcessEngineException(`${message}: id cannot be ${ANY}. ${ANY} is a reserved identifier.`);
}

/**
 * READ and UPDATE: what Camunda grants on a task by default (defaultUserPermissionForTask is UPDATE);
 * READ_VARIABLE too with enforceSpecificVariablePermission.
 */
const taskDefaultPermissions = (ctx: CommandContext) => 2 | 4 | (ctx.config.authorization.enforceSpecificVariablePermission ? 64 : 0);

/** With enableHistoricInstancePermissions, on the historic task: READ, and READ_VARIABLE with enforceSpecificVariablePermission. */
const historicTaskDefaultPermissions = (ctx: CommandContext) => 2 | (ctx.config.authorization.enforceSpecificVariablePermission ? 64 : 0);

/**
 * Camunda's newTaskAssignee / newTaskOwner / newTaskUserIdentityLink / newTaskGroupIdentityLink:
 * while authorization is enabled, the user or group a task is given to (assignee, owner, an identity
 * link of any type: a candidate too) gets READ and UPDATE (and READ_VARIABLE, see taskDefaultPermissions)
 * on that task, and with enableHistoricInstancePermissions READ on its historic task — an existing
 * grant of theirs on it is extended.
 */
export async function grantTaskDefault(
  ctx: CommandContext,
  task: { id: string; processInstanceId: string | null },
  to: { userId: string } | { groupId: string },
  role: 'assignee' | 'owner' | 'identityLink',
): Promise<void> {
  if (!ctx.config.authorization.enabled) return;
  const userId = 'userId' in to ? to.userId : null;
  const groupId = 'groupId' in to ? to.groupId : null;
  const id = userId ?? groupId!;
  const subject = role === 'identityLink' ? `grant default authorization for identity link to ${userId !== null ? 'user' : 'group'}` : `create default authorization for ${role}`;
  ensureValidIndividualResourceId(`Cannot ${subject} ${id}`, id);
  const who = userId !== null ? { userId } : { groupId: groupId! };
  await grantOrExtend(ctx, who, Resources.TASK, task.id, taskDefaultPermissions(ctx), null);
  if (ctx.config.authorization.enableHistoricInstancePermissions) {
    await grantOrExtend(ctx, who, Resources.HISTORIC_TASK, task.id, historicTaskDefaultPermissions(ctx), task.processInstanceId);
  }
}

/**
 * A GRANT of `permissions` on one resource for a user or group: their existing grant on it extended,
 * or a new one. A new grant on a historic task belongs to the root of the task's process instance and
 * takes that root's removal time where it has one already (strategy `start`; see instanceRemovalWrites).
 */
async function grantOrExtend(
  ctx: CommandContext,
  who: { userId: string } | { groupId: string },
  resource: ResourceType,
  resourceId: string,
  permissions: number,
  processInstanceId: string | null,
): Promise<void> {
  const [existing] = await ctx.authorizations.find({
    type: AuthorizationType.GRANT,
    ...('userId' in who ? { userIdIn: [who.userId] } : { groupIdIn: [who.groupId] }),
    resourceType: resource.code,
    resourceId,
  });
  if (existing) {
    if ((existing.permissions & permissions) !== permissions) {
      await ctx.authorizations.update({ ...existing, permissions: existing.permissions | permissions });
    }
    return;
  }
  const historic = resource === Resources.HISTORIC_TASK ? await historicTaskOwner(ctx, processInstanceId) : { rootProcessInstanceId: null, removalTime: null };
  await ctx.authorizations.insert({
    id: ctx.ids.next(),
    type: AuthorizationType.GRANT,
    userId: 'userId' in who ? who.userId : null,
    groupId: 'groupId' in who ? who.groupId : null,
    resourceType: resource.code,
    resourceId,
    permissions,
    ...historic,
  });
}

/** Camunda's DefaultAuthorizationProvider.provideRemovalTime: the root instance, and with strategy `start` its removal time. */
async function historicTaskOwner(ctx: CommandContext, processInstanceId: string | null): Promise<{ rootProcessInstanceId: string | null; removalTime: Date | null }> {
  const root = await rootInstanceOf(ctx, processInstanceId);
  if (root === null || ctx.config.historyCleanup.removalTimeStrategy !== 'start') return { rootProcessInstanceId: root, removalTime: null };
  const row = await ctx.trx.selectFrom('trellis_hi_procinst').select('removal_time').where('id', '=', root).executeTakeFirst();
  return { rootProcessInstanceId: root, removalTime: row?.removal_time == null ? null : new Date(Number(row.removal_time)) };
}

/** The default grants of a task given to its assignee, owner and candidates at once (a new task). */
export async function grantTaskDefaults(ctx: CommandContext, task: { id: string; processInstanceId: string | null; assignee: string | null; owner: string | null }, candidates: TaskCandidates): Promise<void> {
  if (!ctx.config.authorization.enabled) return;
  if (task.assignee !== null) await grantTaskDefault(ctx, task, { userId: task.assignee }, 'assignee');
  if (task.owner !== null) await grantTaskDefault(ctx, task, { userId: task.owner }, 'owner');
  for (const userId of candidates.users) await grantTaskDefault(ctx, task, { userId }, 'identityLink');
  for (const groupId of candidates.groups) await grantTaskDefault(ctx, task, { groupId }, 'identityLink');
}
