import type { Migration } from './migration.js';

/** Failed password checks and the lockout they cause (Camunda's ACT_ID_USER.ATTEMPTS_ and LOCK_EXP_TIME_). */
export const userLockout: Migration = {
  version: 20,
  name: 'user-lockout',
  async up(db) {
    await db.schema.alterTable('trellis_user').addColumn('attempts', 'integer', (column) => column.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('trellis_user').addColumn('lock_exp_time', 'bigint').execute();
  },
};
