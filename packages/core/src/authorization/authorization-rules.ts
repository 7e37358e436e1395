import { BadUserRequestException, NullValueException, ProcessEngineException } from '../errors/exceptions.js';
import { engineMessage } from '../errors/engine-message.js';
import { AuthorizationType, type Authorization, type AuthorizationTypeCode } from './authorization.js';
import { ALL_BITS, isValidFor, type Permission } from './permissions.js';
import { ANY } from './resources.js';

/** ENGINE-03025 for a type that is not 0, 1 or 2. */
export function authorizationType(type: number | undefined | null): AuthorizationTypeCode {
  if (type === 0 || type === 1 || type === 2) return type;
  throw new ProcessEngineException(engineMessage('03', '025', `Unrecognized authorization type '${type}'. Must be one of ['0', '1', '2']`));
}

/**
 * Camunda's AuthorizationEntity setters, group before user as its DTOs call them: a GLOBAL
 * authorization takes no group (ENGINE-03027) and no user but `*` (ENGINE-03028).
 */
export function checkIdentity(type: AuthorizationTypeCode, userId: string | null, groupId: string | null): void {
  if (type !== AuthorizationType.GLOBAL) return;
  if (groupId !== null) throw new ProcessEngineException(engineMessage('03', '027', "Cannot use 'groupId' for GLOBAL authorization"));
  if (userId !== null && userId !== ANY) {
    throw new ProcessEngineException(engineMessage('03', '028', `Illegal value '${userId}' for userId for GLOBAL authorization. Must be '*'`));
  }
}

/**
 * The bitmask of permissions set as Camunda's AuthorizationEntity.setPermissions does: a REVOKE clears
 * them from ALL, the other types set them on NONE.
 */
export function permissionBits(type: AuthorizationTypeCode, permissions: readonly Permission[]): number {
  const revoke = type === AuthorizationType.REVOKE;
  let bits = revoke ? ALL_BITS : 0;
  for (const permission of permissions) bits = revoke ? bits & ~permission.value : bits | permission.value;
  return bits & ALL_BITS;
}

/**
 * Camunda's SaveAuthorizationCmd checks, in its order: exactly one of user and group, then each
 * permission just set valid for the resource type (AuthorizationManager.validateResourceCompatibility).
 */
export function validateAuthorization(authorization: Authorization, permissionsSet: readonly Permission[]): void {
  if ((authorization.userId === null) === (authorization.groupId === null)) {
    throw new NullValueException("Authorization must either have a 'userId' or a 'groupId'.");
  }
  for (const permission of permissionsSet) {
    if (!isValidFor(permission, authorization.resourceType)) {
      throw new BadUserRequestException(
        engineMessage('03', '087', `The resource type with id:'${authorization.resourceType}' is not valid for '${permission.name}' permission.`),
      );
    }
  }
}
