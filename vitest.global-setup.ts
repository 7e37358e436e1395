import pg from 'pg';

/** Drops the per-test PostgreSQL schemas (`t_<sha1>`) once the run is over, so the test database stays clean. */
export async function teardown(): Promise<void> {
  const url = process.env.TRELLIS_TEST_DATABASE_URL;
  if (!url) return;
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ nspname: string }>(
      "select nspname from pg_namespace where nspname ~ '^t_[0-9a-f]{24}$'",
    );
    for (const { nspname } of rows) await client.query(`drop schema if exists "${nspname}" cascade`);
  } finally {
    await client.end();
  }
}
