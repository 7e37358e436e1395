import type { Migration } from './migration.js';

/** Runtime batches (Camunda's ACT_RU_BATCH); the configuration (ids, plan, batch variables) is JSON text. */
export const batches: Migration = {
  version: 8,
  name: 'batches',
  async up(db) {
    await db.schema
      .createTable('trellis_batch')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(255)', (c) => c.notNull())
      .addColumn('total_jobs', 'integer', (c) => c.notNull())
      .addColumn('jobs_created', 'integer', (c) => c.notNull())
      .addColumn('batch_jobs_per_seed', 'integer', (c) => c.notNull())
      .addColumn('invocations_per_batch_job', 'integer', (c) => c.notNull())
      .addColumn('seed_job_def_id', 'varchar(64)')
      .addColumn('monitor_job_def_id', 'varchar(64)')
      .addColumn('batch_job_def_id', 'varchar(64)')
      .addColumn('configuration', 'text')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('create_user_id', 'varchar(255)')
      .addColumn('suspended', 'integer', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('execution_start_time', 'bigint')
      .execute();
  },
};
