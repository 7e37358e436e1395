import type { Migration } from './migration.js';

/**
 * fetchAndLock by priority (usePriority, the Node client's default) reads a topic's tasks in
 * priority order and stops at maxTasks fetchable ones; without this index it reads every task of
 * the topic and sorts them, on every fetch — a cost that grows with the backlog.
 */
export const externalTaskFetchOrder: Migration = {
  version: 17,
  name: 'external-task-fetch-order',
  async up(db) {
    await db.schema.createIndex('trellis_ext_task_topic_priority_idx').on('trellis_external_task').columns(['topic_name', 'priority desc']).execute();
  },
};
