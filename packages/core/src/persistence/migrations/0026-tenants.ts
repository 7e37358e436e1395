import type { Migration } from './migration.js';

/** Tenants and their members (Camunda's ACT_ID_TENANT and ACT_ID_TENANT_MEMBER): users or groups. */
export const tenants: Migration = {
  version: 26,
  name: 'tenants',
  async up(db) {
    await db.schema
      .createTable('trellis_tenant')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(255)')
      .execute();
    await db.schema
      .createTable('trellis_tenant_member')
      .addColumn('tenant_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('user_id', 'varchar(64)')
      .addColumn('group_id', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_tenant_member_tenant_idx').on('trellis_tenant_member').column('tenant_id').execute();
    await db.schema.createIndex('trellis_tenant_member_user_idx').on('trellis_tenant_member').column('user_id').execute();
    await db.schema.createIndex('trellis_tenant_member_group_idx').on('trellis_tenant_member').column('group_id').execute();
  },
};
