import type { Migration } from './migration.js';

/** The historic tables history cleanup deletes from by removal time. */
const REMOVAL_TIME_TABLES = [
  'trellis_hi_procinst',
  'trellis_hi_actinst',
  'trellis_hi_varinst',
  'trellis_hi_detail',
  'trellis_hi_taskinst',
  'trellis_hi_identitylink',
  'trellis_hi_incident',
  'trellis_hi_job_log',
  'trellis_hi_ext_task_log',
] as const;

/**
 * History cleanup: removal-time indexes, partial (only rows that have one), so a row written
 * without a removal time — every row until its root instance ends, with the default strategy — costs
 * no index entry; cleanup's `removal_time <= now` implies the index's condition on both stores. The
 * root index finds the historic instances of a root hierarchy when the root ends; the other tables
 * are reached through their process instance indexes.
 */
export const historyCleanup: Migration = {
  version: 16,
  name: 'history-cleanup',
  async up(db) {
    for (const table of REMOVAL_TIME_TABLES) {
      await db.schema.createIndex(`${table}_removal`).on(table).column('removal_time').where('removal_time', 'is not', null).execute();
    }
    await db.schema.createIndex('trellis_hi_procinst_root').on('trellis_hi_procinst').column('root_proc_inst_id').execute();
  },
};
