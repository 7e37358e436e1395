import { BadUserRequestException } from '../errors/exceptions.js';
import { AuthorizationType, type AuthorizationTypeCode } from './authorization.js';
import { ALL_BITS, permissionByName, permissionsOf, type Permission } from './permissions.js';
import { resourceByCode } from './resources.js';

/** Camunda's PermissionConverter, names → permissions of the type's enum; 400 for an unknown name. */
export function permissionsFromNames(names: readonly string[], resourceType: number): Permission[] {
  return names.map((name) => {
    const permission = permissionByName(resourceType, name);
    if (!permission) {
      const constant = resourceByCode(resourceType)?.constant ?? 'null';
      throw new BadUserRequestException(`The permission '${name}' is not valid for '${constant}' resource type.`);
    }
    return permission;
  });
}

/**
 * The names REST shows for a stored bitmask: `["ALL"]` for a full grant or a full revoke, else the
 * granted (or, for REVOKE, revoked) permissions valid for the type, in the enum's declaration order.
 */
export function namesFromBits(type: AuthorizationTypeCode, bits: number, resourceType: number): string[] {
  const revoke = type === AuthorizationType.REVOKE;
  if ((!revoke && bits === ALL_BITS) || (revoke && bits === 0)) return ['ALL'];
  return permissionsOf(resourceType)
    .filter((permission) => permission.name !== 'NONE' && permission.name !== 'ALL' && permission.types.includes(resourceType))
    .filter((permission) => (revoke ? (bits & permission.value) !== permission.value : (bits & permission.value) === permission.value))
    .map((permission) => permission.name);
}
