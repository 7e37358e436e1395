import { sql, type Kysely } from 'kysely';
import type { Migration } from './migration.js';

/**
 * Camunda's unique keys on authorizations (ACT_UNIQ_AUTH_USER / ACT_UNIQ_AUTH_GROUP: one row per
 * type, user or group, resource type and resource id) and tenant memberships
 * (ACT_UNIQ_TENANT_MEMB_USER / _GROUP), so that a second one fails as it does there. Rows that
 * already repeat a key are merged first: the permissions of repeated grants are joined, those of
 * repeated revokes too (a revoke's bits are the ones it keeps).
 */
export const uniqueAuthorizationsAndMemberships: Migration = {
  version: 32,
  name: 'unique-authorizations-and-memberships',
  async up(db) {
    for (const column of ['user_id', 'group_id'] as const) {
      await mergeRepeatedAuthorizations(db, column);
      await db.schema
        .createIndex(`trellis_auth_unique_${column === 'user_id' ? 'user' : 'group'}`)
        .on('trellis_authorization')
        .columns(['type', column, 'resource_type', 'resource_id'])
        .unique()
        .execute();
      await removeRepeatedTenantMemberships(db, column);
      await db.schema
        .createIndex(`trellis_tenant_member_unique_${column === 'user_id' ? 'user' : 'group'}`)
        .on('trellis_tenant_member')
        .columns(['tenant_id', column])
        .unique()
        .execute();
    }
  },
};

async function mergeRepeatedAuthorizations(db: Kysely<any>, column: 'user_id' | 'group_id'): Promise<void> {
  const repeated = await db
    .selectFrom('trellis_authorization')
    .select(['type', column, 'resource_type', 'resource_id'])
    .where(column, 'is not', null)
    .where('resource_id', 'is not', null)
    .groupBy(['type', column, 'resource_type', 'resource_id'])
    .having(sql`count(*)`, '>', 1)
    .execute();
  for (const key of repeated) {
    const rows = await db
      .selectFrom('trellis_authorization')
      .select(['id', 'perms'])
      .where('type', '=', key.type)
      .where(column, '=', key[column])
      .where('resource_type', '=', key.resource_type)
      .where('resource_id', '=', key.resource_id)
      .orderBy('id')
      .execute();
    const revoke = Number(key.type) === 2;
    const perms = rows.reduce((bits, row) => (revoke ? bits & Number(row.perms) : bits | Number(row.perms)), revoke ? 2147483647 : 0);
    const [kept, ...others] = rows;
    await db.updateTable('trellis_authorization').set({ perms }).where('id', '=', kept.id).execute();
    await db.deleteFrom('trellis_authorization').where('id', 'in', others.map((row) => row.id)).execute();
  }
}

async function removeRepeatedTenantMemberships(db: Kysely<any>, column: 'user_id' | 'group_id'): Promise<void> {
  const repeated = await db
    .selectFrom('trellis_tenant_member')
    .select(['tenant_id', column])
    .where(column, 'is not', null)
    .groupBy(['tenant_id', column])
    .having(sql`count(*)`, '>', 1)
    .execute();
  for (const key of repeated) {
    await db.deleteFrom('trellis_tenant_member').where('tenant_id', '=', key.tenant_id).where(column, '=', key[column]).execute();
    const other = column === 'user_id' ? 'group_id' : 'user_id';
    await db.insertInto('trellis_tenant_member').values({ tenant_id: key.tenant_id, [column]: key[column], [other]: null }).execute();
  }
}
