import type { Migration } from './migration.js';

/**
 * Historic variable instances (Camunda's ACT_HI_VARINST, from history level audit) and historic
 * details (ACT_HI_DETAIL, level full: one row per variable update). The value columns are
 * trellis_variable's, so the runtime's typed-value storage reads them. A detail's `sequence_counter`
 * orders the updates of one command, which share their time.
 */
export const historicVariables: Migration = {
  version: 12,
  name: 'historic-variables',
  async up(db, dialect) {
    await db.schema
      .createTable('trellis_hi_varinst')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('type', 'varchar(64)', (c) => c.notNull())
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('proc_def_key', 'varchar(255)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('act_inst_id', 'varchar(255)')
      .addColumn('task_id', 'varchar(64)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('state', 'varchar(20)', (c) => c.notNull())
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .addColumn('removal_time', 'bigint')
      .addColumn('text', 'varchar(4000)')
      .addColumn('text2', 'varchar(4000)')
      .addColumn('long_value', 'bigint')
      .addColumn('double_value', 'double precision')
      .addColumn('bytes', dialect.binaryType)
      .execute();
    await db.schema.createIndex('trellis_hi_varinst_procinst').on('trellis_hi_varinst').columns(['proc_inst_id', 'name']).execute();
    await db.schema.createIndex('trellis_hi_varinst_task').on('trellis_hi_varinst').column('task_id').execute();

    await db.schema
      .createTable('trellis_hi_detail')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('type', 'varchar(64)', (c) => c.notNull())
      .addColumn('var_inst_id', 'varchar(64)')
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('var_type', 'varchar(64)')
      .addColumn('rev', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('time', 'bigint', (c) => c.notNull())
      .addColumn('sequence_counter', 'bigint', (c) => c.notNull().defaultTo(0))
      .addColumn('initial', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('proc_def_id', 'varchar(64)')
      .addColumn('proc_def_key', 'varchar(255)')
      .addColumn('proc_inst_id', 'varchar(64)')
      .addColumn('root_proc_inst_id', 'varchar(64)')
      .addColumn('execution_id', 'varchar(64)')
      .addColumn('act_inst_id', 'varchar(255)')
      .addColumn('task_id', 'varchar(64)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('operation_id', 'varchar(64)')
      .addColumn('removal_time', 'bigint')
      .addColumn('text', 'varchar(4000)')
      .addColumn('text2', 'varchar(4000)')
      .addColumn('long_value', 'bigint')
      .addColumn('double_value', 'double precision')
      .addColumn('bytes', dialect.binaryType)
      .execute();
    await db.schema.createIndex('trellis_hi_detail_procinst').on('trellis_hi_detail').column('proc_inst_id').execute();
    await db.schema.createIndex('trellis_hi_detail_varinst').on('trellis_hi_detail').column('var_inst_id').execute();
  },
};
