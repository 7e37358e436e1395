import type { Migration } from './migration.js';

/**
 * A task's identity links keep their type (Camunda's ACT_RU_IDENTITYLINK.TYPE_): the candidates
 * stored so far are 'candidate'; a link added by the API may have any type, or none (null).
 */
export const taskIdentityLinkTypes: Migration = {
  version: 28,
  name: 'task-identity-link-types',
  async up(db) {
    await db.schema.alterTable('trellis_task_candidate').addColumn('type', 'varchar(255)', (c) => c.defaultTo('candidate')).execute();
  },
};
