import { BadUserRequestException, NotFoundException, NullValueException, ProcessEngineException } from '../../errors/exceptions.js';

// Camunda's default resource id whitelist for users and groups (generalResourceWhitelistPattern).
const VALID_ID = /^([a-zA-Z0-9]+|camunda-admin)$/;

/**
 * Camunda's EnsureUtil.ensureWhitelistedResourceId: "User has an invalid id: 'x' is not a valid resource
 * identifier."; a missing id is the command's NullValueException ("groupId is null").
 */
export function ensureValidId(kind: 'User' | 'Group' | 'Tenant', id: string | null | undefined): string {
  if (id === null || id === undefined) throw new NullValueException(`${kind.toLowerCase()}Id is null`);
  if (!VALID_ID.test(id)) throw new ProcessEngineException(`${kind} has an invalid id: '${id}' is not a valid resource identifier.`);
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
