import { sql, type Kysely, type Transaction } from 'kysely';
import type { StoreSchema } from './schema.js';

export type DialectName = 'sqlite' | 'postgres';

/**
 * The few places where SQLite and PostgreSQL differ, said once. Everything else is plain Kysely.
 * SQLite has one writer at a time (one engine process owns the file), so its locks are no-ops.
 */
export interface DialectSeam {
  readonly name: DialectName;
  /** Column type for binary content. */
  readonly binaryType: 'blob' | 'bytea';
  /** Serializes transactions that take the same named lock until they end (PostgreSQL advisory lock). */
  lockForTransaction(trx: Transaction<StoreSchema>, lockName: string): Promise<void>;
}

export const sqliteSeam: DialectSeam = {
  name: 'sqlite',
  binaryType: 'blob',
  async lockForTransaction() {},
};

export const postgresSeam: DialectSeam = {
  name: 'postgres',
  binaryType: 'bytea',
  async lockForTransaction(trx, lockName) {
    await sql`select pg_advisory_xact_lock(${advisoryKey(lockName)})`.execute(trx);
  },
};

/** Advisory locks take a bigint; derive a stable one from the lock's name (FNV-1a, 52 bits). */
export function advisoryKey(lockName: string): number {
  let hash = 0xcbf29ce484222325n;
  for (const char of Buffer.from(`trellis:${lockName}`)) {
    hash ^= BigInt(char);
    hash = (hash * 0x100000001b3n) & 0xfffffffffffffn;
  }
  return Number(hash);
}

export type Db = Kysely<StoreSchema>;
