import type { Kysely } from 'kysely';
import type { DialectSeam } from '../dialect.js';

/** One numbered, append-only schema change, valid on both dialects. */
export interface Migration {
  version: number;
  name: string;
  up(db: Kysely<any>, dialect: DialectSeam): Promise<void>;
}
