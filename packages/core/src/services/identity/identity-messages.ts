import { NotFoundException, ProcessEngineException } from '../../errors/exceptions.js';

// Camunda's default resource id whitelist for users and groups (generalResourceWhitelistPattern).
const VALID_ID = /^([a-zA-Z0-9]+|camunda-admin)$/;

/** Camunda: "User has an invalid id: id 'x' is not a valid resource identifier." */
export function ensureValidId(kind: 'User' | 'Group' | 'Tenant', id: string | null | undefined): string {
  if (!id || !VALID_ID.test(id)) {
    throw new ProcessEngineException(`${kind} has an invalid id: id '${id ?? ''}' is not a valid resource identifier.`);
  }
  return id;
}

export const userNotFound = (id: string) => new NotFoundException(`User with id ${id} does not exist`);
export const groupNotFound = (id: string) => new NotFoundException(`Group with id ${id} does not exist`);
export const tenantNotFound = (id: string) => new NotFoundException(`Tenant with id ${id} does not exist`);
export const alreadyExists = (kind: 'user' | 'group', id: string) =>
  new ProcessEngineException(`The ${kind} with id '${id}' already exists.`);
