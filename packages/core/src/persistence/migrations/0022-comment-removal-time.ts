import type { Migration } from './migration.js';

/** Comments are history (Camunda's ACT_HI_COMMENT.REMOVAL_TIME_): a removal time of their own, set by set-removal-time. */
export const commentRemovalTime: Migration = {
  version: 22,
  name: 'comment-removal-time',
  async up(db) {
    await db.schema.alterTable('trellis_comment').addColumn('removal_time', 'bigint').execute();
    await db.schema.createIndex('trellis_comment_removal').on('trellis_comment').column('removal_time').where('removal_time', 'is not', null).execute();
  },
};
