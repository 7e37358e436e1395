import { BadUserRequestException, NotFoundException, NullValueException, ProcessEngineException } from '../../errors/exceptions.js';

/** The id patterns of users, groups and tenants as the engine resolved them (see resourceIdPatterns). */
export type ResourceIdPatterns = Readonly<Record<'User' | 'Group' | 'Tenant', RegExp>>;

/** Camunda's default generalResourceWhitelistPattern. */
export const DEFAULT_RESOURCE_ID_PATTERN = '[a-zA-Z0-9]+|camunda-admin';

/**
 * Camunda's EnsureUtil.determineResourceWhitelistPattern: the kind's own pattern when set and not
 * empty, else the general one; each must match a whole id (Java's Matcher.matches). A pattern that
 * is no regular expression fails the engine's start.
 */
export function resourceIdPatterns(patterns: { general: string; user: string | null; group: string | null; tenant: string | null }): ResourceIdPatterns {
  const compile = (pattern: string | null) => {
    const source = pattern ? pattern : patterns.general;
    try {
      return new RegExp(`^(?:${source})$`, 'u');
    } catch {
      try {
        return new RegExp(`^(?:${source})$`);
      } catch (error) {
        throw new ProcessEngineException(`Invalid resource whitelist pattern '${source}': ${(error as Error).message}`);
      }
    }
  };
  return { User: compile(patterns.user), Group: compile(patterns.group), Tenant: compile(patterns.tenant) };
}

/**
 * Camunda's EnsureUtil.ensureWhitelistedResourceId: "User has an invalid id: 'x' is not a valid resource
 * identifier."; a missing id is the command's NullValueException ("groupId is null").
 */
export function ensureValidId(kind: 'User' | 'Group' | 'Tenant', id: string | null | undefined, patterns: ResourceIdPatterns): string {
  if (id === null || id === undefined) throw new NullValueException(`${kind.toLowerCase()}Id is null`);
  if (!patterns[kind].test(id)) throw new ProcessEngineException(`${kind} has an invalid id: '${id}' is not a valid resource identifier.`);
  return id;
}

export const userNotFound = (id: string) => new NotFoundException(`User with id ${id} does not exist`);
export const groupNotFound = (id: string) => new NotFoundException(`Group with id ${id} does not exist`);
export const tenantNotFound = (id: string) => new NotFoundException(`Tenant with id ${id} does not exist`);
/** Camunda's IdentityServiceImpl: a duplicate user, group or tenant is a bad request. */
export const alreadyExists = (kind: 'user' | 'group' | 'tenant') => new BadUserRequestException(`The ${kind} already exists`);

/** Camunda's DbIdentityServiceProvider when a membership names an unknown user or group. */
export const noUser = (id: string) => new NullValueException(`No user found with id '${id}'.: user is null`);
export const noGroup = (id: string) => new NullValueException(`No group found with id '${id}'.: group is null`);
