import type { Migration } from './migration.js';

/**
 * Attachments of tasks (Camunda's ACT_HI_ATTACHMENT): history that outlives the task, cleaned up
 * with its process instance's history; uploaded content inline (Camunda keeps it in a byte array).
 */
export const attachments: Migration = {
  version: 21,
  name: 'attachments',
  async up(db, dialect) {
    await db.schema
      .createTable('trellis_attachment')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(255)')
      .addColumn('description', 'varchar(4000)')
      .addColumn('type', 'varchar(255)')
      .addColumn('task_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('url', 'varchar(4000)')
      .addColumn('content', dialect.binaryType)
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .addColumn('removal_time', 'bigint')
      .execute();
    await db.schema.createIndex('trellis_attachment_task_idx').on('trellis_attachment').column('task_id').execute();
    await db.schema.createIndex('trellis_attachment_instance_idx').on('trellis_attachment').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_attachment_removal').on('trellis_attachment').column('removal_time').where('removal_time', 'is not', null).execute();
  },
};
