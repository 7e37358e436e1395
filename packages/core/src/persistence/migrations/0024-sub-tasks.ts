import type { Migration } from './migration.js';

/** Sub-tasks (Camunda's ACT_RU_TASK.PARENT_TASK_ID_): a task may name the task it belongs to. */
export const subTasks: Migration = {
  version: 24,
  name: 'sub-tasks',
  async up(db) {
    await db.schema.alterTable('trellis_task').addColumn('parent_task_id', 'varchar(64)').execute();
    await db.schema.createIndex('trellis_task_parent_idx').on('trellis_task').column('parent_task_id').where('parent_task_id', 'is not', null).execute();
  },
};
