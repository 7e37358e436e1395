import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';

/** The batch types whose settings held their variables (set-variables, correlate-message, instance-migration). */
const TYPES_WITH_VARIABLES = ['set-variables', 'correlate-message', 'instance-migration'];

/** A variable as the batch's JSON settings kept it: the value columns, bytes in base64. */
interface JsonStoredVariable {
  type: string;
  text: string | null;
  text2: string | null;
  long_value: number | null;
  double_value: number | null;
  bytes: string | null;
}

/**
 * Batch variables become variable rows of their batch (Camunda's ACT_RU_VARIABLE.BATCH_ID_, no
 * execution), so that the variable instance query lists them. The variables of batches still running
 * move out of their JSON settings into such rows.
 */
export const batchVariables: Migration = {
  version: 30,
  name: 'batch-variables',
  async up(db) {
    await db.schema.alterTable('trellis_variable').addColumn('batch_id', 'varchar(64)').execute();
    await db.schema.createIndex('trellis_variable_batch_idx').on('trellis_variable').column('batch_id').execute();
    await moveSettingsVariables(db);
  },
};

/** Rewrites each running batch's configuration without `settings.variables`, inserting those as rows. */
async function moveSettingsVariables(db: Kysely<any>): Promise<void> {
  const batches = await db.selectFrom('trellis_batch').select(['id', 'configuration']).where('type', 'in', TYPES_WITH_VARIABLES).execute();
  for (const batch of batches) {
    const configuration = batch.configuration ? JSON.parse(batch.configuration) : null;
    const variables: Record<string, JsonStoredVariable> | null | undefined = configuration?.settings?.variables;
    if (variables === undefined) continue;
    for (const [name, stored] of Object.entries(variables ?? {})) {
      const bytes = stored.bytes === null ? null : Buffer.from(stored.bytes, 'base64');
      await db.insertInto('trellis_variable').values({ ...stored, bytes, id: randomUUID(), rev: 1, name, execution_id: null, proc_inst_id: null, task_id: null, batch_id: batch.id }).execute();
    }
    delete configuration.settings.variables;
    await db.updateTable('trellis_batch').set({ configuration: JSON.stringify(configuration) }).where('id', '=', batch.id).execute();
  }
}
