import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** This run's id: the prefix of its PostgreSQL schemas, so that runs side by side never drop each other's. */
export function setup(): void {
  process.env.TRELLIS_TEST_RUN = randomBytes(4).toString('hex');
}

/** Drops this run's per-test PostgreSQL schemas (`t_<run><hash>`) once it is over, so the test database stays clean. */
export async function teardown(): Promise<void> {
  const url = process.env.TRELLIS_TEST_DATABASE_URL;
  const run = process.env.TRELLIS_TEST_RUN;
  if (!url || !run) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>('select nspname from pg_namespace where nspname ~ $1', [`^t_${run}[0-9a-f]{16}$`]);
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}
