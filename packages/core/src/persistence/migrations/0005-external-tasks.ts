import type { Migration } from './migration.js';

/** External tasks: work items that workers fetch, lock and complete over REST. */
export const externalTasks: Migration = {
  version: 5,
  name: 'external-tasks',
  async up(db) {
    await db.schema
      .createTable('trellis_external_task')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('topic_name', 'varchar(255)', (c) => c.notNull())
      .addColumn('worker_id', 'varchar(255)')
      .addColumn('lock_expiration_time', 'bigint')
      .addColumn('retries', 'integer')
      .addColumn('error_message', 'varchar(4000)')
      .addColumn('error_details', 'text')
      .addColumn('suspended', 'integer', (c) => c.notNull())
      .addColumn('execution_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('proc_inst_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('proc_def_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('proc_def_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('proc_def_version_tag', 'varchar(255)')
      .addColumn('activity_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('activity_instance_id', 'varchar(255)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('priority', 'bigint', (c) => c.notNull())
      .addColumn('business_key', 'varchar(255)')
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_ext_task_topic_idx').on('trellis_external_task').columns(['topic_name', 'lock_expiration_time']).execute();
    await db.schema.createIndex('trellis_ext_task_execution_idx').on('trellis_external_task').column('execution_id').execute();
    await db.schema.createIndex('trellis_ext_task_instance_idx').on('trellis_external_task').column('proc_inst_id').execute();
  },
};
