import type { Migration } from './migration.js';

/** Task delegation: Camunda's DELEGATION_ (PENDING while delegated, RESOLVED once resolved). */
export const taskDelegation: Migration = {
  version: 6,
  name: 'task-delegation',
  async up(db) {
    await db.schema.alterTable('trellis_task').addColumn('delegation_state', 'varchar(64)').execute();
    await db.schema.createIndex('trellis_variable_task_idx').on('trellis_variable').column('task_id').execute();
  },
};
