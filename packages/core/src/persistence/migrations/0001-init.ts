import type { Migration } from './migration.js';

/** Repository tables: properties, deployments, their resources, process definitions, their candidate
 * starters, and jobs. */
export const init: Migration = {
  version: 1,
  name: 'init',
  async up(db, dialect) {
    await db.schema
      .createTable('trellis_property')
      .addColumn('name', 'varchar(255)', (c) => c.primaryKey())
      .addColumn('value', 'varchar(4000)')
      .addColumn('rev', 'integer', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('trellis_deployment')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('name', 'varchar(255)')
      .addColumn('source', 'varchar(255)')
      .addColumn('deploy_time', 'bigint', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_deployment_name_idx').on('trellis_deployment').column('name').execute();

    await db.schema
      .createTable('trellis_resource')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('deployment_id', 'varchar(64)', (c) => c.notNull().references('trellis_deployment.id').onDelete('cascade'))
      .addColumn('name', 'varchar(4000)', (c) => c.notNull())
      .addColumn('bytes', dialect.binaryType, (c) => c.notNull())
      .addColumn('position', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_resource_deployment_idx').on('trellis_resource').column('deployment_id').execute();

    await db.schema
      .createTable('trellis_process_definition')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)')
      .addColumn('description', 'varchar(4000)')
      .addColumn('category', 'varchar(255)')
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('version_tag', 'varchar(64)')
      .addColumn('resource_name', 'varchar(4000)', (c) => c.notNull())
      .addColumn('diagram_resource_name', 'varchar(4000)')
      .addColumn('deployment_id', 'varchar(64)', (c) => c.notNull().references('trellis_deployment.id'))
      .addColumn('deploy_time', 'bigint', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('suspended', 'integer', (c) => c.notNull())
      .addColumn('history_time_to_live', 'integer')
      .addColumn('startable_in_tasklist', 'integer', (c) => c.notNull())
      .addColumn('has_start_form_key', 'integer', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_procdef_key_idx').on('trellis_process_definition').columns(['key', 'version']).execute();
    await db.schema.createIndex('trellis_procdef_deployment_idx').on('trellis_process_definition').column('deployment_id').execute();

    await db.schema
      .createTable('trellis_definition_starter')
      .addColumn('process_definition_id', 'varchar(64)', (c) =>
        c.notNull().references('trellis_process_definition.id').onDelete('cascade'),
      )
      .addColumn('user_id', 'varchar(255)')
      .addColumn('group_id', 'varchar(255)')
      .execute();
    await db.schema
      .createIndex('trellis_definition_starter_def_idx')
      .on('trellis_definition_starter')
      .column('process_definition_id')
      .execute();

    await db.schema
      .createTable('trellis_job')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('type', 'varchar(255)', (c) => c.notNull())
      .addColumn('handler_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('handler_configuration', 'varchar(4000)')
      .addColumn('due_date', 'bigint')
      .addColumn('lock_owner', 'varchar(255)')
      .addColumn('lock_expiration_time', 'bigint')
      .addColumn('retries', 'integer', (c) => c.notNull())
      .addColumn('exception_message', 'varchar(4000)')
      .addColumn('suspended', 'integer', (c) => c.notNull())
      .addColumn('priority', 'bigint', (c) => c.notNull())
      .addColumn('process_definition_id', 'varchar(64)')
      .addColumn('process_definition_key', 'varchar(255)')
      .addColumn('deployment_id', 'varchar(64)')
      .addColumn('tenant_id', 'varchar(64)')
      .addColumn('create_time', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('trellis_job_acquisition_idx').on('trellis_job').columns(['due_date', 'lock_expiration_time']).execute();
  },
};
