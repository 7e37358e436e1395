// A 1,000-authorization, 10,000-definition list query with authorization on, timed against the
// same query with authorization off, in one run (ratios, not absolute targets).
import Database from 'better-sqlite3';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createEngine, type ProcessEngine } from '@trellis/core';

const DEFINITIONS = 10_000;
const AUTHORIZATIONS = 1_000;
const ROUNDS = 20;

export async function authorizationFilterBench(): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'trellis-bench-'));
  const filename = join(folder, 'bench.db');
  try {
    await (await createEngine({ store: { type: 'sqlite', filename }, logLevel: 'warn', jobExecutor: { activate: false } })).close();
    seed(filename);
    const open = (enabled: boolean) =>
      createEngine({ store: { type: 'sqlite', filename }, logLevel: 'warn', jobExecutor: { activate: false }, authorization: { enabled } });
    const plain = await open(false);
    const secured = await open(true);
    const jonny = { userId: 'jonny', groupIds: ['sales', 'ops'], tenantIds: [] };
    const query = { latestVersion: true, sorting: [{ sortBy: 'key' as const, sortOrder: 'asc' as const }], maxResults: 50 };

    const baseline = await time('baseline: definition list, authorization off', () => plain.processDefinition.findProcessDefinitions(query));
    const filtered = await time('Trellis: same list as a user, 1,000 authorizations', () =>
      secured.runAs(jonny, () => secured.processDefinition.findProcessDefinitions(query)),
    );
    const visible = await secured.runAs(jonny, () => secured.processDefinition.countProcessDefinitions({}));
    console.log(`  (the user may read ${visible} of ${DEFINITIONS} definitions)`);
    console.log(`authorization filter ratio (authorized / plain query time): ${(filtered / baseline).toFixed(2)}\n`);
    await close(plain, secured);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

async function time(label: string, run: () => Promise<unknown>): Promise<number> {
  await run();
  const start = process.hrtime.bigint();
  for (let i = 0; i < ROUNDS; i++) await run();
  const ms = Number(process.hrtime.bigint() - start) / 1e6 / ROUNDS;
  console.log(`${label.padEnd(52)} ${ms.toFixed(2).padStart(8)} ms/query`);
  return ms;
}

// Rows straight into the store: 10,000 definitions over 1,000 keys, and grants for users and groups.
function seed(filename: string): void {
  const db = new Database(filename);
  db.pragma('journal_mode = WAL');
  db.transaction(() => {
    db.prepare("insert into trellis_deployment values ('d', 'bench', null, 0, null)").run();
    const definition = db.prepare(
      `insert into trellis_process_definition values (?, 1, ?, null, null, null, ?, null, 'bench.bpmn', null, 'd', 0, null, 0, 30, 1, 0)`,
    );
    for (let i = 0; i < DEFINITIONS; i++) definition.run(`key${i % 1000}:${Math.floor(i / 1000) + 1}:${i}`, `key${i % 1000}`, Math.floor(i / 1000) + 1);
    const authorization = db.prepare('insert into trellis_authorization values (?, 1, 1, ?, ?, 6, ?, 2, null, null)');
    for (let i = 0; i < AUTHORIZATIONS; i++) {
      const toGroup = i % 3 === 0;
      authorization.run(`a${i}`, toGroup ? null : `user${i % 50}`, toGroup ? (i % 2 ? 'sales' : `g${i}`) : null, `key${(i * 7) % 1000}`);
    }
    db.prepare("insert into trellis_authorization values ('mine', 1, 1, 'jonny', null, 6, 'key1', 2, null, null)").run();
  })();
  db.close();
}

async function close(...engines: ProcessEngine[]): Promise<void> {
  for (const engine of engines) await engine.close();
}
