import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreConfig } from '../persistence/store.js';

export interface TestStore {
  /** 'sqlite' or 'postgres', for test names. */
  name: string;
  /**
   * A fresh, isolated store for the given test identity (a private schema on PostgreSQL). With
   * `shared`, two engines opened on the config meet the same data (a temporary file for SQLite).
   */
  config(testId: string, options?: { shared?: boolean }): StoreConfig;
}

const sqliteMemory: TestStore = {
  name: 'sqlite',
  config: (testId, options) =>
    options?.shared
      ? { type: 'sqlite', filename: join(tmpdir(), 'trellis-tests', `${schemaName(testId)}.db`) }
      : { type: 'sqlite', filename: ':memory:' },
};

/**
 * The stores a suite should run against: SQLite in memory always, and PostgreSQL when
 * TRELLIS_TEST_DATABASE_URL is set (each test in its own schema, as pg-boss does).
 */
export function testStoreConfigs(env: NodeJS.ProcessEnv = process.env): TestStore[] {
  const url = env.TRELLIS_TEST_DATABASE_URL;
  if (!url) return [sqliteMemory];
  const postgres: TestStore = {
    name: 'postgres',
    config: (testId) => ({ type: 'postgres', connectionString: url, schema: schemaName(testId), poolSize: 4 }),
  };
  return [sqliteMemory, postgres];
}

/**
 * `t_` + the test run's id (TRELLIS_TEST_RUN, 8 hex digits, set by the vitest global setup so that
 * its teardown drops only this run's schemas) + sha1 of the test's identity plus a random part.
 */
export function schemaName(testId: string): string {
  const salt = `${process.pid}:${Date.now()}:${Math.random()}`;
  const hash = createHash('sha1').update(`${testId}:${salt}`).digest('hex');
  const run = /^[0-9a-f]{8}$/.test(process.env.TRELLIS_TEST_RUN ?? '') ? process.env.TRELLIS_TEST_RUN! : hash.slice(16, 24);
  return `t_${run}${hash.slice(0, 16)}`;
}
