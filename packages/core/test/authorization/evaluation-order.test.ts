import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthorizationType, type Authentication } from '../../src/authorization/authorization.js';
import { Resources } from '../../src/authorization/resources.js';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';

const { GLOBAL, GRANT, REVOKE } = AuthorizationType;
const READ = 2;
const ALL = 2147483647;

type Level = 'user' | 'group' | 'global';
interface Row {
  level: Level;
  type: number;
  resourceId: string;
  /** Whether the row carries READ (GRANT/GLOBAL: bit set; REVOKE: bit not cleared). */
  read: boolean;
}

const row = (level: Level, type: number, resourceId: string, read = true): Row => ({ level, type, resourceId, read });

// Camunda's evaluation order (facts §2.4): user > group > global, specific id > '*', GRANT > REVOKE at one level.
const CASES: Array<[string, Row[], boolean]> = [
  ['nothing granted', [], false],
  ['user grant on the id', [row('user', GRANT, 'invoice')], true],
  ['user grant on *', [row('user', GRANT, '*')], true],
  ['user revoke on the id beats user grant on *', [row('user', REVOKE, 'invoice', false), row('user', GRANT, '*')], false],
  ['user grant on the id beats user revoke on *', [row('user', GRANT, 'invoice'), row('user', REVOKE, '*', false)], true],
  ['user grant beats user revoke on the same id', [row('user', GRANT, 'invoice'), row('user', REVOKE, 'invoice', false)], true],
  ['user revoke on * beats group grant on the id', [row('user', REVOKE, '*', false), row('group', GRANT, 'invoice')], false],
  ['group grant on the id', [row('group', GRANT, 'invoice')], true],
  ['group revoke on the id beats group grant on *', [row('group', REVOKE, 'invoice', false), row('group', GRANT, '*')], false],
  ['group grant beats group revoke on the same id', [row('group', GRANT, 'invoice'), row('group', REVOKE, 'invoice', false)], true],
  ['group revoke on * beats a global grant', [row('group', REVOKE, '*', false), row('global', GLOBAL, '*')], false],
  ['user grant beats group revoke', [row('user', GRANT, '*'), row('group', REVOKE, 'invoice', false)], true],
  ['global grant on the id', [row('global', GLOBAL, 'invoice')], true],
  ['global grant on *', [row('global', GLOBAL, '*')], true],
  // With checkRevokes 'auto' and no REVOKE row, the "bits missing" global branch is not evaluated.
  ['global row on the id without READ does not deny while no revoke exists', [row('global', GLOBAL, 'invoice', false), row('global', GLOBAL, '*')], true],
  ['a revoke that keeps READ does not deny', [row('user', REVOKE, 'invoice', true), row('global', GLOBAL, '*')], true],
  ['a grant without READ does not allow', [row('user', GRANT, 'invoice', false)], false],
  ['grants on another resource do not count', [row('user', GRANT, 'order')], false],
];

describe.each(testStoreConfigs())('authorization evaluation on $name', (testStore) => {
  let engine: ProcessEngine;
  const subject: Authentication = { userId: 'jonny', groupIds: ['sales'], tenantIds: [] };

  beforeAll(async () => {
    engine = await createTestEngine({ store: testStore.config(`evaluation-${testStore.name}`), authorization: { enabled: true } });
  });
  afterAll(async () => engine.close());

  it.each(CASES)('%s', async (_name, rows, expected) => {
    await replaceAuthorizations(engine, rows);

    const single = await engine.authorization.isUserAuthorized(
      { permissionName: 'READ', resourceType: Resources.PROCESS_DEFINITION.code, resourceId: 'invoice' },
      subject,
    );

    expect(single).toBe(expected);
  });

  it.each([
    ['always', true, false],
    ['never', false, true],
  ] as const)('with checkRevokes %s, a revoke or a global row without READ %s deny', async (mode, _denies, expected) => {
    const strict = await createTestEngine({ store: testStore.config(`revokes-${mode}-${testStore.name}`), authorization: { enabled: true, checkRevokes: mode } });
    try {
      const outcomes = [];
      for (const rows of [
        [row('global', GLOBAL, 'invoice', false), row('global', GLOBAL, '*')],
        [row('user', REVOKE, 'invoice', false), row('user', GRANT, '*')],
      ]) {
        await replaceAuthorizations(strict, rows);
        outcomes.push(
          await strict.authorization.isUserAuthorized({ permissionName: 'READ', resourceType: 6, resourceId: 'invoice' }, subject),
        );
      }

      expect(outcomes).toEqual([expected, expected]);
    } finally {
      await strict.close();
    }
  });
});

async function replaceAuthorizations(engine: ProcessEngine, rows: Row[]): Promise<void> {
  for (const existing of await engine.authorization.findAuthorizations()) await engine.authorization.deleteAuthorization(existing.id);
  for (const r of rows) {
    const created = await engine.authorization.createAuthorization({
      type: r.type,
      userId: r.level === 'user' ? 'jonny' : r.level === 'global' ? '*' : null,
      groupId: r.level === 'group' ? 'sales' : null,
      resourceType: Resources.PROCESS_DEFINITION.code,
      resourceId: r.resourceId,
      permissions: r.type === REVOKE ? (r.read ? ['UPDATE'] : ['READ']) : r.read ? ['READ'] : ['UPDATE'],
    });
    expect(created.permissions).toBe(r.type === REVOKE ? ALL & ~(r.read ? 4 : READ) : r.read ? READ : 4);
  }
}
