import type { Transaction } from 'kysely';
import type { StoreSchema } from '../schema.js';

/** Engine-wide named values (Camunda's ACT_GE_PROPERTY), within one transaction. */
export class PropertyRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async get(name: string): Promise<string | null | undefined> {
    const row = await this.trx.selectFrom('trellis_property').select('value').where('name', '=', name).executeTakeFirst();
    return row === undefined ? undefined : row.value;
  }

  async set(name: string, value: string | null): Promise<void> {
    const updated = await this.trx.updateTable('trellis_property').set((eb) => ({ value, rev: eb('rev', '+', 1) })).where('name', '=', name).executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) await this.trx.insertInto('trellis_property').values({ name, value, rev: 1 }).execute();
  }
}
