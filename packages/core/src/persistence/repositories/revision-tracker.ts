import { OptimisticLockingException } from '../../errors/exceptions.js';

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

  /** Throws OptimisticLockingException unless exactly one row was changed. */
  ensureChanged(id: string, changedRows: bigint | number): void {
    if (Number(changedRows) !== 1) {
      throw new OptimisticLockingException(`${this.entity}[${id}] was updated by another transaction concurrently`);
    }
  }
}
