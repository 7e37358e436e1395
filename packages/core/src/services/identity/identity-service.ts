import { inject, injectable } from 'inversify';
import type { Authentication } from '../../authorization/authorization.js';
import { ALL_BITS } from '../../authorization/permissions.js';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import type { Group, GroupQuery, Tenant, TenantQuery, User, UserQuery } from './identity.js';
import type { TenantMember } from '../../persistence/repositories/tenant-repository.js';
import { alreadyExists, ensureValidId, groupNotFound, noGroup, noUser, tenantNotFound, userNotFound } from './identity-messages.js';
import { hashPassword, verifyPassword } from './password-hash.js';
import { checkAgainstPolicy, passwordPolicyRules, type PasswordPolicyResult, type PasswordPolicyRule, type PasswordUserData } from './password-policy.js';
import { NullValueException, ProcessEngineException } from '../../errors/exceptions.js';
import { setUpAdministrator } from './administrator.js';
import { deleteAuthorizationsOn, grantDefault } from '../authorization/default-authorizations.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import type { ResolvedEngineConfig } from '../../config.js';
import { ENGINE_CONFIG } from '../../tokens.js';

/** Users, groups and memberships (Camunda's IdentityService), with the permission checks Camunda makes. */
@injectable()
export class IdentityService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(ENGINE_CONFIG) private readonly config: ResolvedEngineConfig,
  ) {}

  /** Needs CREATE on User; the password is stored as a slow salted hash only. */
  async createUser(user: User, password: string | null): Promise<void> {
    // An empty password is a password (Camunda hashes it); only none stores none.
    const hash = password !== null ? await hashPassword(password) : null;
    await this.commands.run('SaveUserCmd', async (ctx) => {
      // Camunda's SaveUserCmd: the id, the password policy, then the permission.
      ensureValidId('User', user.id, ctx.config.resourceIdPatterns);
      if (password !== null) ensurePolicyPassed(ctx, password, user);
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.USER });
      if (await ctx.users.findById(user.id)) throw alreadyExists('user');
      await ctx.users.insert(user, hash);
      OperationLogEntries.identity(ctx, 'Create', 'User', { userId: user.id });
      await grantDefault(ctx, { userId: user.id, resource: Resources.USER, resourceId: user.id, permissions: ALL_BITS });
    });
  }

  /**
   * Makes `userId` an administrator (camunda-admin with ALL on every resource type), creating the
   * user with this password if it does not exist. The engine's own setup: no permission check.
   * Returns whether the user was created.
   */
  async setUpAdministrator(userId: string, password: string): Promise<boolean> {
    ensureValidId('User', userId, this.config.resourceIdPatterns);
    const hash = await hashPassword(password);
    return this.commands.run('SetUpAdministratorCmd', (ctx) => setUpAdministrator(ctx, userId, hash));
  }

  /** The user, if it exists and the caller may read it. */
  getUser(id: string): Promise<User | null> {
    return this.commands.run('GetUserCmd', async (ctx) => (await ctx.users.find({ id }, await ctx.authz.readFilter('READ', Resources.USER)))[0] ?? null);
  }

  findUsers(query: UserQuery = {}): Promise<User[]> {
    return this.commands.run('UserQuery', async (ctx) => ctx.users.find(query, await ctx.authz.readFilter('READ', Resources.USER)));
  }

  countUsers(query: UserQuery = {}): Promise<number> {
    return this.commands.run('UserQuery', async (ctx) => ctx.users.count(query, await ctx.authz.readFilter('READ', Resources.USER)));
  }

  /** Needs UPDATE on the user; NotFoundException for an unknown user. */
  updateUserProfile(id: string, profile: Omit<User, 'id'>): Promise<void> {
    return this.commands.run('SaveUserCmd', async (ctx) => {
      const user = await this.loadUser(ctx, id);
      await ctx.authz.check({ permission: 'UPDATE', resource: Resources.USER, resourceId: id });
      await ctx.users.update({ ...user, ...profile, id });
      OperationLogEntries.identity(ctx, 'Update', 'User', { userId: id });
    });
  }

  /** Needs UPDATE on the user; without a new password (null) the user is saved as it is (Camunda's SaveUserCmd). */
  async updatePassword(id: string, password: string | null): Promise<void> {
    const hash = password === null ? undefined : await hashPassword(password);
    await this.commands.run('SaveUserCmd', async (ctx) => {
      const user = await this.loadUser(ctx, id);
      if (password !== null) ensurePolicyPassed(ctx, password, user);
      await ctx.authz.check({ permission: 'UPDATE', resource: Resources.USER, resourceId: id });
      await ctx.users.update(user, hash);
      OperationLogEntries.identity(ctx, 'Update', 'User', { userId: id });
    });
  }

  /** Needs DELETE on the user; removes its memberships and authorizations too. */
  /**
   * Camunda's DeleteUserCmd: DELETE on the user, then — only if the user exists — its memberships,
   * the authorizations on it as a resource, and the user (logged). An unknown id is no error; the
   * authorizations granted to the user stay, as in Camunda.
   */
  deleteUser(id: string): Promise<void> {
    return this.commands.run('DeleteUserCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.USER, resourceId: id });
      if (!(await readUser(ctx, id))) return;
      await deleteAuthorizationsOn(ctx, Resources.USER, id);
      await deleteTenantGrantsOf(ctx, { userId: id });
      await ctx.users.delete(id);
      OperationLogEntries.identity(ctx, 'Delete', 'User', { userId: id });
    });
  }

  /** Camunda-admin only: clears failed password checks and the lockout (an operation log entry when there was one); an unknown user is no error. */
  unlockUser(id: string): Promise<void> {
    return this.commands.run('UnlockUserCmd', async (ctx) => {
      ctx.authz.requireAdmin();
      if (!(await readUser(ctx, id))) return;
      const credentials = await ctx.users.credentialsOf(id);
      if (credentials && (credentials.attempts > 0 || credentials.lockExpirationTime !== null)) {
        await ctx.users.setLock(id, 0, null);
        OperationLogEntries.identity(ctx, 'Unlock', 'User', { userId: id });
      }
    });
  }

  /** The rules of the password policy (the configured one, else Camunda's default); null when it is not enabled (enablePasswordPolicy). */
  getPasswordPolicy(): PasswordPolicyRule[] | null {
    return this.config.passwordPolicy && passwordPolicyRules(this.config.passwordPolicy);
  }

  /** A password checked against the policy, with the user data it must not contain (Camunda's checkPasswordAgainstPolicy). */
  checkPasswordAgainstPolicy(password: string | null, user: PasswordUserData | null = null): PasswordPolicyResult {
    if (!this.config.passwordPolicy) throw new NullValueException('policy is null');
    if (password === null) throw new NullValueException('password is null');
    return checkAgainstPolicy(this.config.passwordPolicy, password, user);
  }

  /** Whether the password is the user's (false for an unknown or locked-out user); a failure counts towards the lockout. */
  checkPassword(userId: string, password: string): Promise<boolean> {
    return this.commands.run('CheckPassword', (ctx) => passwordPasses(ctx, userId, password));
  }

  /** The authentication of a user whose password passes checkPassword: its id and groups; null otherwise. */
  authenticate(userId: string, password: string): Promise<Authentication | null> {
    return this.commands.run('CheckPassword', async (ctx) => {
      if (!(await passwordPasses(ctx, userId, password))) return null;
      const groupIds = await ctx.groups.groupIdsOf(userId);
      return { userId, groupIds, tenantIds: await ctx.tenants.tenantIdsOf(userId, groupIds) };
    });
  }

  /** Needs CREATE on Group; the group gets READ on itself. */
  createGroup(group: Group): Promise<void> {
    return this.commands.run('SaveGroupCmd', async (ctx) => {
      // Camunda's SaveGroupCmd checks the id before the provider checks CREATE.
      ensureValidId('Group', group.id, ctx.config.resourceIdPatterns);
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.GROUP });
      if (await ctx.groups.findById(group.id)) throw alreadyExists('group');
      await ctx.groups.insert(group);
      OperationLogEntries.identity(ctx, 'Create', 'Group', { groupId: group.id });
      await grantDefault(ctx, { groupId: group.id, resource: Resources.GROUP, resourceId: group.id, permissions: 2 });
    });
  }

  getGroup(id: string): Promise<Group | null> {
    return this.commands.run('GetGroupCmd', async (ctx) => (await ctx.groups.find({ id }, await ctx.authz.readFilter('READ', Resources.GROUP)))[0] ?? null);
  }

  findGroups(query: GroupQuery = {}): Promise<Group[]> {
    return this.commands.run('GroupQuery', async (ctx) => ctx.groups.find(query, await ctx.authz.readFilter('READ', Resources.GROUP)));
  }

  countGroups(query: GroupQuery = {}): Promise<number> {
    return this.commands.run('GroupQuery', async (ctx) => ctx.groups.count(query, await ctx.authz.readFilter('READ', Resources.GROUP)));
  }

  updateGroup(id: string, changes: Omit<Group, 'id'>): Promise<void> {
    return this.commands.run('SaveGroupCmd', async (ctx) => {
      const group = await ctx.groups.findById(id);
      if (!group) throw groupNotFound(id);
      await ctx.authz.check({ permission: 'UPDATE', resource: Resources.GROUP, resourceId: id });
      await ctx.groups.update({ ...group, ...changes, id });
      OperationLogEntries.identity(ctx, 'Update', 'Group', { groupId: id });
    });
  }

  /** Camunda's DeleteGroupCmd, as deleteUser: DELETE first, an unknown id no error, the group's own grants kept. */
  deleteGroup(id: string): Promise<void> {
    return this.commands.run('DeleteGroupCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.GROUP, resourceId: id });
      if (!(await readGroup(ctx, id))) return;
      await deleteAuthorizationsOn(ctx, Resources.GROUP, id);
      await deleteTenantGrantsOf(ctx, { groupId: id });
      await ctx.groups.delete(id);
      OperationLogEntries.identity(ctx, 'Delete', 'Group', { groupId: id });
    });
  }

  /**
   * Needs CREATE on Group membership for the group; an existing membership fails on its database key
   * (a 500 ProcessEnginePersistenceException, as in Camunda).
   */
  createMembership(userId: string, groupId: string): Promise<void> {
    return this.commands.run('CreateMembershipCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.GROUP_MEMBERSHIP, resourceId: groupId });
      if (!(await readUser(ctx, userId))) throw noUser(userId);
      if (!(await readGroup(ctx, groupId))) throw noGroup(groupId);
      await ctx.groups.addMember(userId, groupId);
      OperationLogEntries.identity(ctx, 'Create', 'GroupMembership', { userId, groupId });
    });
  }

  /** Needs DELETE on Group membership for the group. */
  deleteMembership(userId: string, groupId: string): Promise<void> {
    return this.commands.run('DeleteMembershipCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.GROUP_MEMBERSHIP, resourceId: groupId });
      if (!(await ctx.groups.isMember(userId, groupId))) return;
      // Camunda's deleteMembership: the user's grants on the membership of this group go too.
      await deleteGrantsOf(ctx, Resources.GROUP_MEMBERSHIP.code, groupId, { userId });
      OperationLogEntries.identity(ctx, 'Delete', 'GroupMembership', { userId, groupId });
      await ctx.groups.removeMember(userId, groupId);
    });
  }

  // --- tenants (Camunda's DbIdentityServiceProvider) ------------------------------------------------

  /** Needs CREATE on Tenant; the id follows the resource id rules; a tenant gets no default authorizations. */
  createTenant(tenant: Tenant): Promise<void> {
    return this.commands.run('SaveTenantCmd', async (ctx) => {
      ensureValidId('Tenant', tenant.id, ctx.config.resourceIdPatterns);
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.TENANT });
      if (await ctx.tenants.findById(tenant.id)) throw alreadyExists('tenant');
      await ctx.tenants.insert(tenant);
      OperationLogEntries.identity(ctx, 'Create', 'Tenant', { tenantId: tenant.id });
    });
  }

  getTenant(id: string): Promise<Tenant | null> {
    return this.commands.run('TenantQuery', async (ctx) => (await ctx.tenants.find({ id }, await ctx.authz.readFilter('READ', Resources.TENANT)))[0] ?? null);
  }

  findTenants(query: TenantQuery = {}): Promise<Tenant[]> {
    return this.commands.run('TenantQuery', async (ctx) => ctx.tenants.find(query, await ctx.authz.readFilter('READ', Resources.TENANT)));
  }

  countTenants(query: TenantQuery = {}): Promise<number> {
    return this.commands.run('TenantQuery', async (ctx) => ctx.tenants.count(query, await ctx.authz.readFilter('READ', Resources.TENANT)));
  }

  /** Needs UPDATE on the tenant. */
  updateTenant(id: string, changes: Omit<Tenant, 'id'>): Promise<void> {
    return this.commands.run('SaveTenantCmd', async (ctx) => {
      const tenant = await ctx.tenants.findById(id);
      if (!tenant) throw tenantNotFound(id);
      await ctx.authz.check({ permission: 'UPDATE', resource: Resources.TENANT, resourceId: id });
      await ctx.tenants.update({ ...tenant, ...changes, id });
      OperationLogEntries.identity(ctx, 'Update', 'Tenant', { tenantId: id });
    });
  }

  /** Needs DELETE on the tenant; its memberships and the authorizations on it go too; an unknown id is no error. */
  deleteTenant(id: string): Promise<void> {
    return this.commands.run('DeleteTenantCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.TENANT, resourceId: id });
      if (!(await readTenant(ctx, id))) return;
      await deleteAuthorizationsOn(ctx, Resources.TENANT, id);
      await ctx.tenants.delete(id);
      OperationLogEntries.identity(ctx, 'Delete', 'Tenant', { tenantId: id });
    });
  }

  /**
   * Needs CREATE on Tenant membership for the tenant; the tenant and the user or group must exist.
   * The member gets READ on the tenant. An existing membership fails on its database key, as in Camunda.
   */
  createTenantMembership(tenantId: string, member: TenantMember): Promise<void> {
    return this.commands.run('userId' in member ? 'CreateTenantUserMembershipCmd' : 'CreateTenantGroupMembershipCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.TENANT_MEMBERSHIP, resourceId: tenantId });
      // Camunda's order: both looked up (READ on each), then each checked to exist.
      const tenant = await readTenant(ctx, tenantId);
      const memberFound = 'userId' in member ? await readUser(ctx, member.userId) : await readGroup(ctx, member.groupId);
      if (!tenant) throw new NullValueException(`No tenant found with id '${tenantId}'.: tenant is null`);
      if (!memberFound) throw 'userId' in member ? noUser(member.userId) : noGroup(member.groupId);
      await ctx.tenants.addMember(tenantId, member);
      await grantDefault(ctx, { ...member, resource: Resources.TENANT, resourceId: tenantId, permissions: 2 });
      OperationLogEntries.identity(ctx, 'Create', 'TenantMembership', { ...member, tenantId });
    });
  }

  /** Needs DELETE on Tenant membership for the tenant; the member's authorizations on the tenant go too. */
  deleteTenantMembership(tenantId: string, member: TenantMember): Promise<void> {
    return this.commands.run('userId' in member ? 'DeleteTenantUserMembershipCmd' : 'DeleteTenantGroupMembershipCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.TENANT_MEMBERSHIP, resourceId: tenantId });
      if (!(await ctx.tenants.isMember(tenantId, member))) return;
      const memberId = 'userId' in member ? member.userId : member.groupId;
      await deleteAuthorizationsOn(ctx, Resources.TENANT_MEMBERSHIP, memberId);
      await deleteGrantsOf(ctx, Resources.TENANT.code, tenantId, member);
      await ctx.tenants.removeMember(tenantId, member);
      OperationLogEntries.identity(ctx, 'Delete', 'TenantMembership', { ...member, tenantId });
    });
  }

  private async loadUser(ctx: CommandContext, id: string): Promise<User> {
    const user = await ctx.users.findById(id);
    if (!user) throw userNotFound(id);
    return user;
  }
}

/**
 * Camunda's DbIdentityServiceProvider.checkPassword: a locked-out user fails whatever the password
 * (after login.loginMaxAttempts failures for good, until unlocked); a match clears the failures, a
 * mismatch counts one more and locks the user for loginDelayBase × loginDelayFactor^(failures − 1)
 * seconds, at most loginDelayMaxTime.
 */
async function passwordPasses(ctx: CommandContext, userId: string, password: string): Promise<boolean> {
  // Camunda's checkPassword looks the user up with READ on it (no check while nobody is authenticated: logging in).
  await ctx.authz.check({ permission: 'READ', resource: Resources.USER, resourceId: userId });
  const credentials = await ctx.users.credentialsOf(userId);
  if (!credentials) return false;
  const { loginMaxAttempts, loginDelayBase, loginDelayFactor, loginDelayMaxTime } = ctx.config.login;
  const now = ctx.clock.now().getTime();
  const { attempts, lockExpirationTime } = credentials;
  if (attempts >= loginMaxAttempts || (lockExpirationTime !== null && lockExpirationTime > now)) return false;
  if (await verifyPassword(password, credentials.passwordHash)) {
    if (attempts > 0 || lockExpirationTime !== null) await ctx.users.setLock(userId, 0, null);
    return true;
  }
  const failures = attempts + 1;
  const delaySeconds = Math.min(Math.trunc(loginDelayBase * loginDelayFactor ** (failures - 1)), loginDelayMaxTime);
  await ctx.users.setLock(userId, failures, now + delaySeconds * 1000);
  return false;
}

/** Camunda's DbReadOnlyIdentityServiceProvider.findUserById: READ on the user, then the user (null when unknown). */
async function readUser(ctx: CommandContext, id: string): Promise<User | null> {
  await ctx.authz.check({ permission: 'READ', resource: Resources.USER, resourceId: id });
  return ctx.users.findById(id);
}

/** Camunda's findGroupById: READ on the group, then the group. */
async function readGroup(ctx: CommandContext, id: string): Promise<Group | null> {
  await ctx.authz.check({ permission: 'READ', resource: Resources.GROUP, resourceId: id });
  return ctx.groups.findById(id);
}

/** Camunda's findTenantById: READ on the tenant, then the tenant. */
async function readTenant(ctx: CommandContext, id: string): Promise<Tenant | null> {
  await ctx.authz.check({ permission: 'READ', resource: Resources.TENANT, resourceId: id });
  return ctx.tenants.findById(id);
}

/** Camunda's deleteAuthorizationsForUser / ForGroup: the member's grants on one resource (while authorization is enabled). */
async function deleteGrantsOf(ctx: CommandContext, resourceType: number, resourceId: string, member: TenantMember): Promise<void> {
  if (!ctx.config.authorization.enabled) return;
  const grants = await ctx.authorizations.find({ resourceType, resourceId, ...('userId' in member ? { userIdIn: [member.userId] } : { groupIdIn: [member.groupId] }) });
  for (const grant of grants) await ctx.authorizations.delete(grant);
}

/** Deleting a user or group: its grants on each tenant it is a direct member of (Camunda's deleteUser / deleteGroup). */
async function deleteTenantGrantsOf(ctx: CommandContext, member: TenantMember): Promise<void> {
  for (const tenantId of await ctx.tenants.tenantIdsOfMember(member)) await deleteGrantsOf(ctx, Resources.TENANT.code, tenantId, member);
}

/** With the password policy enabled, a new password must pass it (Camunda's SaveUserCmd.validateUserEntity). */
function ensurePolicyPassed(ctx: CommandContext, password: string, user: PasswordUserData): void {
  if (ctx.config.passwordPolicy && !checkAgainstPolicy(ctx.config.passwordPolicy, password, user).valid) {
    throw new ProcessEngineException('Password does not match policy');
  }
}
