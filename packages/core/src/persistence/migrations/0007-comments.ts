import type { Migration } from './migration.js';

/** Comments on tasks and process instances; like Camunda's ACT_HI_COMMENT they outlive the task. */
export const comments: Migration = {
  version: 7,
  name: 'comments',
  async up(db) {
    await db.schema
      .createTable('trellis_comment')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('user_id', 'varchar(255)')
      .addColumn('task_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('message', 'varchar(4000)')
      .addColumn('full_message', 'text')
      .addColumn('tenant_id', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_comment_task_idx').on('trellis_comment').column('task_id').execute();
    await db.schema.createIndex('trellis_comment_instance_idx').on('trellis_comment').column('proc_inst_id').execute();
  },
};
