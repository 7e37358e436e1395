import { BadUserRequestException, NullValueException, ProcessEngineException } from '../errors/exceptions.js';
import { engineMessage } from '../errors/engine-message.js';
import { AuthorizationType, type Authorization, type AuthorizationTypeCode } from './authorization.js';
import { permissionsFromNames } from './permission-converter.js';
import { ALL_BITS, isValidFor } from './permissions.js';
import { ANY } from './resources.js';

/** ENGINE-03025 for a type that is not 0, 1 or 2. */
export function authorizationType(type: number | undefined | null): AuthorizationTypeCode {
  if (type === 0 || type === 1 || type === 2) return type;
  throw new ProcessEngineException(engineMessage('03', '025', `Unrecognized authorization type '${type}'. Must be one of ['0', '1', '2']`));
}

/** The bitmask a new authorization of this type starts from: REVOKE clears bits from ALL, the others set bits on NONE. */
export const initialBits = (type: AuthorizationTypeCode): number => (type === AuthorizationType.REVOKE ? ALL_BITS : 0);

/** Applies permission names to a bitmask as Camunda's addPermission / removePermission do, checking each is valid for the type. */
export function applyPermissions(type: AuthorizationTypeCode, bits: number, names: readonly string[], resourceType: number): number {
  let result = bits;
  for (const permission of permissionsFromNames(names, resourceType)) {
    if (!isValidFor(permission, resourceType)) {
      throw new BadUserRequestException(
        engineMessage('03', '087', `The resource type with id:'${resourceType}' is not valid for '${permission.name}' permission.`),
      );
    }
    result = type === AuthorizationType.REVOKE ? result & ~permission.value : result | permission.value;
  }
  return result & ALL_BITS;
}

/** Camunda's SaveAuthorizationCmd / AuthorizationEntity checks before an authorization is stored. */
export function validateAuthorization(authorization: Authorization): void {
  if (authorization.type === AuthorizationType.GLOBAL) {
    if (authorization.userId !== null && authorization.userId !== ANY) {
      throw new ProcessEngineException(engineMessage('03', '028', `Illegal value '${authorization.userId}' for userId for GLOBAL authorization. Must be '*'`));
    }
    if (authorization.groupId !== null) {
      throw new ProcessEngineException(engineMessage('03', '027', "Cannot use 'groupId' for GLOBAL authorization"));
    }
  }
  if ((authorization.userId === null) === (authorization.groupId === null)) {
    throw new NullValueException("Authorization must either have a 'userId' or a 'groupId'.");
  }
  if (authorization.groupId === ANY) throw new ProcessEngineException(`Cannot use '${ANY}' as groupId`);
}
