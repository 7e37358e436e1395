// Benchmarks print ratios against a baseline measured in the same run, never absolute targets:
// the machine's speed cancels out. Run with `npm run bench`.
import Database from 'better-sqlite3';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import { createEngine } from '@trellis/core';
import { simpleProcessXml } from '@trellis/core/testing';
import { createRestApp } from '@trellis/http-koa';
import { authorizationFilterBench } from './authorization-filter.js';
import { main as engineBench } from './engine.js';
import { main as migrationBench } from './migration.js';
import { main as workerBench } from './workers.js';

const DEPLOYMENTS = 300;
const REQUESTS = 1000;
const xml = Buffer.from(simpleProcessXml('bench', { name: 'Bench' }));

async function timed(label: string, count: number, run: (i: number) => Promise<unknown> | unknown): Promise<number> {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await run(i);
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  const rate = count / seconds;
  console.log(`${label.padEnd(52)} ${rate.toFixed(0).padStart(8)} /s`);
  return rate;
}

// Baseline: the same three rows a deployment writes, inserted by hand in one transaction each.
function rawSqliteBaseline(): Database.Database {
  const db = new Database(':memory:');
  db.exec(`create table d (id text primary key, name text, t integer);
           create table r (id text primary key, d text, name text, bytes blob);
           create table p (id text primary key, key text, version integer, d text)`);
  return db;
}

async function deploymentThroughput(): Promise<void> {
  const db = rawSqliteBaseline();
  const insert = db.transaction((i: number) => {
    const id = randomUUID();
    db.prepare('insert into d values (?, ?, ?)').run(id, 'bench', Date.now());
    db.prepare('insert into r values (?, ?, ?, ?)').run(randomUUID(), id, 'bench.bpmn', xml);
    db.prepare('insert into p values (?, ?, ?, ?)').run(`bench:${i}:${randomUUID()}`, 'bench', i, id);
  });
  const baseline = await timed('baseline: raw SQLite, 3 inserts per transaction', DEPLOYMENTS, (i) => insert(i));
  const engine = await createEngine({ logLevel: 'warn', jobExecutor: { activate: false } });
  const trellis = await timed('Trellis: deploy one BPMN (parse, version, store)', DEPLOYMENTS, () =>
    engine.deployment.deploy({ name: 'bench', resources: [{ name: 'bench.bpmn', bytes: xml }] }),
  );
  console.log(`deploy throughput ratio (Trellis / raw inserts): ${(trellis / baseline).toFixed(3)}\n`);
  await engine.close();
}

async function listen(app: Koa): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

async function restLatency(): Promise<void> {
  const engine = await createEngine({ logLevel: 'warn', jobExecutor: { activate: false } });
  const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'bench.bpmn', bytes: xml }] });
  const id = processDefinitions![0].id;
  const body = await engine.processDefinition.getProcessDefinition(id);
  const bare = new Koa().use((ctx) => {
    ctx.body = body;
  });
  const baselineServer = await listen(bare);
  const trellisServer = await listen(createRestApp(engine));
  const baseline = await timed('baseline: bare Koa answering the same JSON', REQUESTS, () => fetch(baselineServer.url).then((r) => r.text()));
  const trellis = await timed('Trellis: GET /process-definition/{id}', REQUESTS, () =>
    fetch(`${trellisServer.url}/engine-rest/process-definition/${id}`).then((r) => r.text()),
  );
  console.log(`REST read ratio (Trellis / bare Koa): ${(trellis / baseline).toFixed(3)}\n`);
  await baselineServer.close();
  await trellisServer.close();
  await engine.close();
}

await deploymentThroughput();
await engineBench();
await restLatency();
await authorizationFilterBench();
await workerBench();
await migrationBench();
const { rss, heapUsed } = process.memoryUsage();
console.log(`memory after the run: rss ${(rss / 2 ** 20).toFixed(0)} MiB, heap ${(heapUsed / 2 ** 20).toFixed(0)} MiB`);
