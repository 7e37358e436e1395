import type { Migration } from './migration.js';

/** How far cascading due date changes moved a repeating timer's schedule (Camunda's ACT_RU_JOB.REPEAT_OFFSET_). */
export const timerRepeatOffset: Migration = {
  version: 29,
  name: 'timer-repeat-offset',
  async up(db) {
    await db.schema.alterTable('trellis_job').addColumn('repeat_offset', 'bigint', (column) => column.notNull().defaultTo(0)).execute();
  },
};
