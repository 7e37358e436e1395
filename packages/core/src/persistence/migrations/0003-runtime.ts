import type { Migration } from './migration.js';

/** The runtime: executions, activity instances, variables, user tasks and their candidates. */
export const runtime: Migration = {
  version: 3,
  name: 'runtime',
  async up(db, dialect) {
    await db.schema
      .createTable('trellis_execution')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('proc_inst_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('parent_id', 'varchar(64)')
      .addColumn('proc_def_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('proc_def_key', 'varchar(255)', (c) => c.notNull())
      .addColumn('business_key', 'varchar(255)')
      .addColumn('activity_id', 'varchar(255)')
      .addColumn('activity_instance_id', 'varchar(255)')
      .addColumn('is_active', 'integer', (c) => c.notNull())
      .addColumn('is_concurrent', 'integer', (c) => c.notNull())
      .addColumn('is_scope', 'integer', (c) => c.notNull())
      .addColumn('suspended', 'integer', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_execution_instance_idx').on('trellis_execution').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_execution_definition_idx').on('trellis_execution').column('proc_def_id').execute();

    await db.schema
      .createTable('trellis_activity_instance')
      .addColumn('id', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('proc_inst_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('parent_id', 'varchar(255)')
      .addColumn('activity_id', 'varchar(255)', (c) => c.notNull())
      .addColumn('activity_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('activity_name', 'varchar(255)')
      .addColumn('execution_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('start_time', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_act_inst_instance_idx').on('trellis_activity_instance').column('proc_inst_id').execute();

    await db.schema
      .createTable('trellis_variable')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('type', 'varchar(64)', (c) => c.notNull())
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('task_id', 'varchar(64)')
      .addColumn('text', 'varchar(4000)')
      .addColumn('text2', 'varchar(4000)')
      .addColumn('long_value', 'bigint')
      .addColumn('double_value', 'double precision')
      .addColumn('bytes', dialect.binaryType)
      .execute();
    await db.schema.createIndex('trellis_variable_execution_idx').on('trellis_variable').columns(['execution_id', 'name']).execute();
    await db.schema.createIndex('trellis_variable_instance_idx').on('trellis_variable').column('proc_inst_id').execute();

    await db.schema
      .createTable('trellis_task')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('name', 'varchar(255)')
      .addColumn('description', 'varchar(4000)')
      .addColumn('task_def_key', 'varchar(255)')
      .addColumn('assignee', 'varchar(255)')
      .addColumn('owner', 'varchar(255)')
      .addColumn('priority', 'integer', (c) => c.notNull())
      .addColumn('due_date', 'bigint')
      .addColumn('follow_up_date', 'bigint')
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('activity_instance_id', 'varchar(255)')
      .addColumn('form_key', 'varchar(4000)')
      .addColumn('suspended', 'integer', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_task_instance_idx').on('trellis_task').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_task_assignee_idx').on('trellis_task').column('assignee').execute();

    await db.schema
      .createTable('trellis_task_candidate')
      .addColumn('task_id', 'varchar(64)', (c) => c.notNull().references('trellis_task.id').onDelete('cascade'))
      .addColumn('user_id', 'varchar(255)')
      .addColumn('group_id', 'varchar(255)')
      .execute();
    await db.schema.createIndex('trellis_task_candidate_task_idx').on('trellis_task_candidate').column('task_id').execute();
  },
};
