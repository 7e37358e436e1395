import { describe, expect, it } from 'vitest';
import { AuthorizationType } from './authorization.js';
import { permissionBits, validateAuthorization } from './authorization-rules.js';
import { namesFromBits, permissionsFromNames } from './permission-converter.js';
import { ALL_BITS } from './permissions.js';
import { Resources } from './resources.js';

const { GRANT, REVOKE, GLOBAL } = AuthorizationType;

describe('permission names and bits', () => {
  it('uses the resource type enum: SUSPEND is 1048576 on process definitions, DELETE is 8 on System', () => {
    expect(permissionsFromNames(['SUSPEND'], Resources.PROCESS_DEFINITION.code)[0].value).toBe(1048576);
    expect(permissionsFromNames(['DELETE'], Resources.SYSTEM.code)[0].value).toBe(8);
    expect(permissionsFromNames(['CREATE_BATCH_MIGRATE_PROCESS_INSTANCES'], Resources.BATCH.code)[0].value).toBe(32);
  });

  it('lists granted names in enum declaration order and only those valid for the type', () => {
    const bits = permissionBits(GRANT, permissionsFromNames(['RETRY_JOB', 'READ', 'SUSPEND'], Resources.PROCESS_DEFINITION.code));

    expect(namesFromBits(GRANT, bits, Resources.PROCESS_DEFINITION.code)).toEqual(['READ', 'RETRY_JOB', 'SUSPEND']);
  });

  it('shows revoked names for a REVOKE, and ALL for a full grant or a full revoke', () => {
    const revoke = permissionBits(REVOKE, permissionsFromNames(['DELETE'], Resources.DEPLOYMENT.code));

    expect(revoke).toBe(ALL_BITS - 16);
    expect(namesFromBits(REVOKE, revoke, Resources.DEPLOYMENT.code)).toEqual(['DELETE']);
    expect(namesFromBits(GLOBAL, ALL_BITS, Resources.USER.code)).toEqual(['ALL']);
    expect(namesFromBits(REVOKE, 0, Resources.USER.code)).toEqual(['ALL']);
    expect(namesFromBits(GRANT, 0, Resources.USER.code)).toEqual([]);
  });

  it('names the resource enum constant for an unknown permission', () => {
    expect(() => permissionsFromNames(['FLY'], Resources.TASK.code)).toThrow("The permission 'FLY' is not valid for 'TASK' resource type.");
    expect(() => permissionsFromNames(['FLY'], 99)).toThrow("The permission 'FLY' is not valid for 'null' resource type.");
  });

  it('refuses a generic permission the resource type does not declare (ENGINE-03087)', () => {
    const authorization = { id: 'a', type: GRANT, userId: 'u', groupId: null, resourceType: Resources.USER.code, resourceId: null, permissions: 0, removalTime: null, rootProcessInstanceId: null };
    expect(() => validateAuthorization(authorization, permissionsFromNames(['ACCESS'], Resources.USER.code))).toThrow(
      "ENGINE-03087 The resource type with id:'1' is not valid for 'ACCESS' permission.",
    );
  });
});
