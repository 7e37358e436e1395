import type { Migration } from './migration.js';

/** When a task was last updated (Camunda 7.21's ACT_RU_TASK.LAST_UPDATED_; null until its first update). */
export const taskLastUpdated: Migration = {
  version: 27,
  name: 'task-last-updated',
  async up(db) {
    await db.schema.alterTable('trellis_task').addColumn('last_updated', 'bigint').execute();
  },
};
