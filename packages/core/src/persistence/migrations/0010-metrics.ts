import type { Migration } from './migration.js';

/**
 * Engine metrics (Camunda's ACT_RU_METER_LOG): what each reporter counted per reporting period;
 * and the task meter log (ACT_RU_TASK_METER_LOG): one row per assignment, the assignee hashed.
 */
export const metrics: Migration = {
  version: 10,
  name: 'metrics',
  async up(db) {
    await db.schema
      .createTable('trellis_meter_log')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(64)', (c) => c.notNull())
      .addColumn('reporter', 'varchar(255)')
      .addColumn('value', 'bigint', (c) => c.notNull())
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_meter_log_name_time').on('trellis_meter_log').columns(['name', 'timestamp']).execute();
    await db.schema.createIndex('trellis_meter_log_time').on('trellis_meter_log').column('timestamp').execute();
    await db.schema
      .createTable('trellis_task_meter_log')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('assignee_hash', 'bigint', (c) => c.notNull())
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_task_meter_log_time').on('trellis_task_meter_log').column('timestamp').execute();
  },
};
