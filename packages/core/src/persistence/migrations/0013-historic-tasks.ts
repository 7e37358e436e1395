import type { Migration } from './migration.js';

/**
 * History of user tasks: historic task instances (Camunda's ACT_HI_TASKINST, with 7.21's task
 * state) and the identity link log (ACT_HI_IDENTITYLINK). Times are epoch milliseconds. The log
 * keeps the task's process instance too (Camunda finds it through the task), so deleting a historic
 * process instance needs no join. Indexes only where the engine itself looks rows up: a task's
 * end is found by its activity instance, deletes go by process instance, the log's usual filter is
 * the task.
 */
export const historicTasks: Migration = {
  version: 13,
  name: 'historic-tasks',
  async up(db) {
    await db.schema
      .createTable('trellis_hi_taskinst')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('task_def_key', 'varchar(255)')
      .addColumn('proc_def_key', 'varchar(255)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('act_inst_id', 'varchar(255)')
      .addColumn('name', 'varchar(255)')
      .addColumn('parent_task_id', 'varchar(64)')
      .addColumn('description', 'varchar(4000)')
      .addColumn('owner', 'varchar(255)')
      .addColumn('assignee', 'varchar(255)')
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .addColumn('end_time', 'bigint')
      .addColumn('duration', 'bigint')
      .addColumn('delete_reason', 'varchar(4000)')
      .addColumn('priority', 'integer')
      .addColumn('due_date', 'bigint')
      .addColumn('follow_up_date', 'bigint')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('removal_time', 'bigint')
      .addColumn('task_state', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_hi_taskinst_procinst').on('trellis_hi_taskinst').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_hi_taskinst_actinst').on('trellis_hi_taskinst').column('act_inst_id').execute();

    await db.schema
      .createTable('trellis_hi_identitylink')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('timestamp', 'bigint', (c) => c.notNull())
      .addColumn('type', 'varchar(255)')
      .addColumn('user_id', 'varchar(255)')
      .addColumn('group_id', 'varchar(255)')
      .addColumn('task_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('proc_def_key', 'varchar(255)')
      .addColumn('operation_type', 'varchar(64)')
      .addColumn('assigner_id', 'varchar(64)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('removal_time', 'bigint')
      .execute();
    await db.schema.createIndex('trellis_hi_identitylink_task').on('trellis_hi_identitylink').column('task_id').execute();
    await db.schema.createIndex('trellis_hi_identitylink_procinst').on('trellis_hi_identitylink').column('proc_inst_id').execute();
  },
};
