import type { Migration } from './migration.js';

/** Historic batches (Camunda's ACT_HI_BATCH): written at history level full, kept after the runtime batch ends. */
export const historicBatches: Migration = {
  version: 9,
  name: 'historic-batches',
  async up(db) {
    await db.schema
      .createTable('trellis_hi_batch')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('type', 'varchar(255)', (c) => c.notNull())
      .addColumn('total_jobs', 'integer', (c) => c.notNull())
      .addColumn('batch_jobs_per_seed', 'integer', (c) => c.notNull())
      .addColumn('invocations_per_batch_job', 'integer', (c) => c.notNull())
      .addColumn('seed_job_def_id', 'varchar(64)')
      .addColumn('monitor_job_def_id', 'varchar(64)')
      .addColumn('batch_job_def_id', 'varchar(64)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('create_user_id', 'varchar(255)')
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('end_time', 'bigint')
      .addColumn('removal_time', 'bigint')
      .addColumn('execution_start_time', 'bigint')
      .execute();
    // The query filters (type, completed = end_time set, tenant) and history cleanup (removal time).
    await db.schema.createIndex('trellis_hi_batch_type_idx').on('trellis_hi_batch').column('type').execute();
    await db.schema.createIndex('trellis_hi_batch_end_time_idx').on('trellis_hi_batch').column('end_time').execute();
    await db.schema.createIndex('trellis_hi_batch_tenant_idx').on('trellis_hi_batch').column('tenant_id').execute();
    await db.schema.createIndex('trellis_hi_batch_removal_time_idx').on('trellis_hi_batch').column('removal_time').execute();
  },
};
