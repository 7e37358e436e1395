import type { Migration } from './migration.js';

/**
 * Marks the paths that run a compensation handler (or compensate a completed sub-process): the
 * throw event that started them waits until none of them is left in its scope.
 */
export const compensatingExecutions: Migration = {
  version: 18,
  name: 'compensating-executions',
  async up(db) {
    await db.schema.alterTable('trellis_execution').addColumn('is_compensating', 'integer', (column) => column.notNull().defaultTo(0)).execute();
  },
};
