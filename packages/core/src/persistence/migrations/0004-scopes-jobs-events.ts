import type { Migration } from './migration.js';

/**
 * Scopes (sub-processes, boundary events, call activities), jobs that belong to executions
 * (async continuations, timers), job definitions, event subscriptions and incidents.
 */
export const scopesJobsEvents: Migration = {
  version: 4,
  name: 'scopes-jobs-events',
  async up(db) {
    for (const [column, type] of [
      ['scope_activity_id', 'varchar(255)'],
      ['scope_instance_id', 'varchar(255)'],
      ['super_execution_id', 'varchar(64)'],
      ['super_proc_inst_id', 'varchar(64)'],
    ] as const) {
      await db.schema.alterTable('trellis_execution').addColumn(column, type).execute();
    }
    await db.schema.createIndex('trellis_execution_super_idx').on('trellis_execution').column('super_execution_id').execute();

    for (const [column, type] of [
      ['execution_id', 'varchar(64)'],
      ['process_instance_id', 'varchar(64)'],
      ['activity_id', 'varchar(255)'],
      ['job_definition_id', 'varchar(64)'],
      ['repeat_text', 'varchar(255)'],
      ['exception_stack', 'text'],
      ['failed_activity_id', 'varchar(255)'],
    ] as const) {
      await db.schema.alterTable('trellis_job').addColumn(column, type).execute();
    }
    await db.schema.alterTable('trellis_job').addColumn('exclusive', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    await db.schema.createIndex('trellis_job_instance_idx').on('trellis_job').column('process_instance_id').execute();

    await db.schema
      .createTable('trellis_job_definition')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('proc_def_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('proc_def_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('activity_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('job_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('job_configuration', 'varchar(255)')
      .addColumn('job_priority', 'bigint')
      .addColumn('suspended', 'integer', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('deployment_id', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_job_def_definition_idx').on('trellis_job_definition').column('proc_def_id').execute();

    await db.schema
      .createTable('trellis_event_subscription')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('event_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('event_name', 'varchar(255)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('activity_id', 'varchar(255)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('configuration', 'varchar(255)')
      .addColumn('created', 'bigint', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_event_sub_name_idx').on('trellis_event_subscription').columns(['event_type', 'event_name']).execute();
    await db.schema.createIndex('trellis_event_sub_instance_idx').on('trellis_event_subscription').column('proc_inst_id').execute();

    await db.schema
      .createTable('trellis_incident')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('incident_timestamp', 'bigint', (c) => c.notNull())
      .addColumn('incident_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('incident_message', 'varchar(4000)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('activity_id', 'varchar(255)')
      .addColumn('failed_activity_id', 'varchar(255)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('cause_incident_id', 'varchar(64)')
      .addColumn('root_cause_incident_id', 'varchar(64)')
      .addColumn('configuration', 'varchar(255)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('job_def_id', 'varchar(64)')
      .addColumn('annotation', 'varchar(4000)')
      .execute();
    await db.schema.createIndex('trellis_incident_instance_idx').on('trellis_incident').column('proc_inst_id').execute();
  },
};
