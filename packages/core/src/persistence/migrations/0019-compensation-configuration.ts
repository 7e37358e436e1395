import type { Migration } from './migration.js';

/**
 * A compensate subscription of a completed sub-process keeps the subscriptions that were inside it
 * and a snapshot of its local variables in its configuration (where Camunda keeps the id of an event
 * scope execution): more than 255 characters. SQLite does not enforce a varchar length.
 */
export const compensationConfiguration: Migration = {
  version: 19,
  name: 'compensation-configuration',
  async up(db, dialect) {
    if (dialect.name !== 'postgres') return;
    await db.schema.alterTable('trellis_event_subscription').alterColumn('configuration', (column) => column.setDataType('text')).execute();
  },
};
