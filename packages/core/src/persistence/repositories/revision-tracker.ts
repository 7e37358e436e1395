import type { Transaction, Updateable } from 'kysely';
import { OptimisticLockingException } from '../../errors/exceptions.js';
import type { StoreSchema } from '../schema.js';

/** The tables whose rows carry an id and a revision. */
type RevisionedTable = { [T in keyof StoreSchema]: StoreSchema[T] extends { id: string; rev: number } ? T : never }[keyof StoreSchema];

/**
 * The revisions a transaction read, per row id, so its updates and deletes can demand that the
 * row is still at that revision (Camunda's optimistic locking on REV_).
 */
export class RevisionTracker {
  private readonly revisions = new Map<string, number>();

  /** `entity` names the row kind in messages, as Camunda's entity class does (e.g. 'JobEntity'). */
  constructor(private readonly entity: string) {}

  remember(id: string, rev: number): void {
    this.revisions.set(id, Number(rev));
  }

  forget(id: string): void {
    this.revisions.delete(id);
  }

  /** The revision read in this transaction; a programming error if the row was never read. */
  of(id: string): number {
    const rev = this.revisions.get(id);
    if (rev === undefined) throw new Error(`${this.entity} ${id} was not read in this transaction`);
    return rev;
  }

  /**
   * Writes `values` to the row if it is still at the revision this transaction read, and moves it
   * one revision on; OptimisticLockingException when another transaction changed or removed it.
   */
  async update<T extends RevisionedTable>(trx: Transaction<StoreSchema>, table: T, id: string, values: Updateable<StoreSchema[T]>): Promise<void> {
    const rev = this.of(id);
    const result = await trx
      .updateTable(table as RevisionedTable)
      .set({ ...values, rev: rev + 1 } as Updateable<StoreSchema[RevisionedTable]>)
      .where('id', '=', id)
      .where('rev', '=', rev)
      .executeTakeFirst();
    this.ensureChanged(id, result.numUpdatedRows);
    this.remember(id, rev + 1);
  }

  /** Throws OptimisticLockingException unless exactly one row was changed. */
  ensureChanged(id: string, changedRows: bigint | number): void {
    if (Number(changedRows) !== 1) {
      throw new OptimisticLockingException(`${this.entity}[${id}] was updated by another transaction concurrently`);
    }
  }
}
