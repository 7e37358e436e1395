import type { Migration } from './migration.js';

/** Saved task queries (Camunda's ACT_RU_FILTER): a name, an owner, the query and free properties, both as JSON. */
export const filters: Migration = {
  version: 25,
  name: 'filters',
  async up(db) {
    await db.schema
      .createTable('trellis_filter')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('resource_type', 'varchar(255)', (c) => c.notNull())
      .addColumn('name', 'varchar(255)', (c) => c.notNull())
      .addColumn('owner', 'varchar(255)')
      .addColumn('query', 'text', (c) => c.notNull())
      .addColumn('properties', 'text')
      .execute();
  },
};
