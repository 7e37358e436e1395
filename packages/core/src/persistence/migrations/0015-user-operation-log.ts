import type { Migration } from './migration.js';

/**
 * The user operation log (Camunda's ACT_HI_OP_LOG): one row per changed property of an operation a
 * logged-in user ran; the rows of one operation share `operation_id`. The reference columns say
 * which entities the operation touched (null: any). `removal_time` and `root_proc_inst_id` let
 * history cleanup remove an instance's entries with it. Times are epoch milliseconds.
 */
export const userOperationLog: Migration = {
  version: 15,
  name: 'user-operation-log',
  async up(db) {
    await db.schema
      .createTable('trellis_hi_op_log')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('deployment_id', 'varchar(64)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('proc_def_key', 'varchar(255)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('case_def_id', 'varchar(64)')
      .addColumn('case_inst_id', 'varchar(64)')
      .addColumn('case_execution_id', 'varchar(64)')
      .addColumn('task_id', 'varchar(64)')
      .addColumn('job_id', 'varchar(64)')
      .addColumn('job_def_id', 'varchar(64)')
      .addColumn('batch_id', 'varchar(64)')
      .addColumn('external_task_id', 'varchar(64)')
      .addColumn('user_id', 'varchar(255)')
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .addColumn('operation_type', 'varchar(64)', (c) => c.notNull())
      .addColumn('operation_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('entity_type', 'varchar(30)', (c) => c.notNull())
      .addColumn('property', 'varchar(64)')
      .addColumn('org_value', 'varchar(4000)')
      .addColumn('new_value', 'varchar(4000)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('removal_time', 'bigint')
      .addColumn('category', 'varchar(64)')
      .addColumn('annotation', 'varchar(4000)')
      .addColumn('sequence_counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await db.schema.createIndex('trellis_hi_op_log_operation').on('trellis_hi_op_log').column('operation_id').execute();
    await db.schema.createIndex('trellis_hi_op_log_procinst').on('trellis_hi_op_log').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_hi_op_log_root').on('trellis_hi_op_log').column('root_proc_inst_id').execute();
    await db.schema.createIndex('trellis_hi_op_log_def').on('trellis_hi_op_log').column('proc_def_id').execute();
    await db.schema.createIndex('trellis_hi_op_log_timestamp').on('trellis_hi_op_log').column('timestamp').execute();
    await db.schema.createIndex('trellis_hi_op_log_removal').on('trellis_hi_op_log').column('removal_time').execute();
  },
};
