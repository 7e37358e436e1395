import type { Migration } from './migration.js';

/** Users, groups, memberships and authorizations. */
export const identityAndAuthorization: Migration = {
  version: 2,
  name: 'identity-and-authorization',
  async up(db) {
    await db.schema
      .createTable('trellis_user')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('first_name', 'varchar(255)')
      .addColumn('last_name', 'varchar(255)')
      .addColumn('email', 'varchar(255)')
      .addColumn('password_hash', 'varchar(512)')
      .execute();

    await db.schema
      .createTable('trellis_group')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(255)')
      .addColumn('type', 'varchar(255)')
      .execute();

    await db.schema
      .createTable('trellis_membership')
      .addColumn('user_id', 'varchar(255)', (c) => c.notNull().references('trellis_user.id').onDelete('cascade'))
      .addColumn('group_id', 'varchar(255)', (c) => c.notNull().references('trellis_group.id').onDelete('cascade'))
      .addPrimaryKeyConstraint('trellis_membership_pk', ['user_id', 'group_id'])
      .execute();
    await db.schema.createIndex('trellis_membership_group_idx').on('trellis_membership').column('group_id').execute();

    await db.schema
      .createTable('trellis_authorization')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('type', 'integer', (c) => c.notNull())
      .addColumn('user_id', 'varchar(255)')
      .addColumn('group_id', 'varchar(255)')
      .addColumn('resource_type', 'integer', (c) => c.notNull())
      .addColumn('resource_id', 'varchar(255)')
      .addColumn('perms', 'integer', (c) => c.notNull())
      .addColumn('removal_time', 'bigint')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .execute();
    // The checks look rows up by resource and then by user or group (Camunda's ACT_IDX_AUTH_* indexes).
    await db.schema
      .createIndex('trellis_auth_resource_user_idx')
      .on('trellis_authorization')
      .columns(['resource_type', 'resource_id', 'user_id'])
      .execute();
    await db.schema
      .createIndex('trellis_auth_resource_group_idx')
      .on('trellis_authorization')
      .columns(['resource_type', 'resource_id', 'group_id'])
      .execute();
    await db.schema.createIndex('trellis_auth_user_idx').on('trellis_authorization').column('user_id').execute();
    await db.schema.createIndex('trellis_auth_group_idx').on('trellis_authorization').column('group_id').execute();
  },
};
