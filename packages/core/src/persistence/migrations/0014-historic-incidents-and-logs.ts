import type { Migration } from './migration.js';

/**
 * History, incidents and logs: historic incidents (Camunda's ACT_HI_INCIDENT; state 0 open,
 * 1 resolved, 2 deleted as Camunda's IncidentState), the historic job log (ACT_HI_JOB_LOG) and the
 * historic external task log (ACT_HI_EXT_TASK_LOG). A log row is one event of a job or task;
 * `state` says which (0 created, 1 failed, 2 successful, 3 deleted, Camunda's JobState and
 * ExternalTaskState). Times are epoch milliseconds. Indexes only where a list or a delete selects by.
 */
export const historicIncidentsAndLogs: Migration = {
  version: 14,
  name: 'historic-incidents-and-logs',
  async up(db) {
    await db.schema
      .createTable('trellis_hi_incident')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('proc_def_key', 'varchar(255)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .addColumn('end_time', 'bigint')
      .addColumn('removal_time', 'bigint')
      .addColumn('incident_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('incident_message', 'varchar(4000)')
      .addColumn('activity_id', 'varchar(255)')
      .addColumn('failed_activity_id', 'varchar(255)')
      .addColumn('cause_incident_id', 'varchar(64)')
      .addColumn('root_cause_incident_id', 'varchar(64)')
      .addColumn('configuration', 'varchar(255)')
      .addColumn('history_configuration', 'varchar(255)')
      .addColumn('state', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('job_def_id', 'varchar(64)')
      .addColumn('annotation', 'varchar(4000)')
      .execute();
    await db.schema.createIndex('trellis_hi_incident_procinst').on('trellis_hi_incident').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_hi_incident_def').on('trellis_hi_incident').column('proc_def_id').execute();
    await db.schema.createIndex('trellis_hi_incident_config').on('trellis_hi_incident').columns(['configuration', 'incident_type']).execute();
    await db.schema.createIndex('trellis_hi_incident_jobdef').on('trellis_hi_incident').column('job_def_id').execute();

    await db.schema
      .createTable('trellis_hi_job_log')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .addColumn('job_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('job_due_date', 'bigint')
      .addColumn('job_retries', 'integer')
      .addColumn('job_priority', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('job_exception_msg', 'varchar(4000)')
      .addColumn('job_exception_stack', 'text')
      .addColumn('state', 'integer', (c) => c.notNull())
      .addColumn('job_def_id', 'varchar(64)')
      .addColumn('job_def_type', 'varchar(255)')
      .addColumn('job_def_configuration', 'varchar(255)')
      .addColumn('activity_id', 'varchar(255)')
      .addColumn('failed_activity_id', 'varchar(255)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('process_instance_id', 'varchar(64)')
      .addColumn('process_def_id', 'varchar(64)')
      .addColumn('process_def_key', 'varchar(255)')
      .addColumn('deployment_id', 'varchar(64)')
      .addColumn('sequence_counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('hostname', 'varchar(255)')
      .addColumn('batch_id', 'varchar(64)')
      .addColumn('removal_time', 'bigint')
      .execute();
    await db.schema.createIndex('trellis_hi_job_log_procinst').on('trellis_hi_job_log').column('process_instance_id').execute();
    await db.schema.createIndex('trellis_hi_job_log_def').on('trellis_hi_job_log').column('process_def_id').execute();
    await db.schema.createIndex('trellis_hi_job_log_jobdef').on('trellis_hi_job_log').column('job_def_id').execute();
    await db.schema.createIndex('trellis_hi_job_log_job').on('trellis_hi_job_log').column('job_id').execute();

    await db.schema
      .createTable('trellis_hi_ext_task_log')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .addColumn('ext_task_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('retries', 'integer')
      .addColumn('topic_name', 'varchar(255)')
      .addColumn('worker_id', 'varchar(255)')
      .addColumn('priority', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('error_msg', 'varchar(4000)')
      .addColumn('error_details', 'text')
      .addColumn('activity_id', 'varchar(255)')
      .addColumn('activity_inst_id', 'varchar(64)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('proc_def_key', 'varchar(255)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('state', 'integer', (c) => c.notNull())
      .addColumn('removal_time', 'bigint')
      .execute();
    await db.schema.createIndex('trellis_hi_ext_task_log_procinst').on('trellis_hi_ext_task_log').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_hi_ext_task_log_def').on('trellis_hi_ext_task_log').column('proc_def_id').execute();
  },
};
