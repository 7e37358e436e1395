// Engine benchmark: process instances per second for three models (bench/models.ts), on Trellis
// (in-memory SQLite and PostgreSQL) and on bpmn-engine (npm, in memory, no persistence).
//
// Like every benchmark here it prints ratios against baselines measured in the same run, so the
// machine's speed cancels out:
//   - Trellis on SQLite ÷ bpmn-engine, per model (target noted: ≥ 10× for start → end);
//   - Trellis on PostgreSQL start → end ÷ the database's own commit rate at the same concurrency,
//     one small INSERT per transaction (target noted: ≥ 0.40);
//   - the cost of history: start → end at history level full (the default, used by every run
//     above) beside the same at level none, on both stores.
// Peak RSS is process-wide (process.memoryUsage().rss, sampled during each measurement).
//
// Instances per model: BENCH_INSTANCES (default 10,000). PostgreSQL: TRELLIS_BENCH_DATABASE_URL
// (default: the local server's database `test`, see database-url.ts); the run uses a fresh schema and drops it.
// Standalone: `npx tsx bench/engine.ts`; also part of `npm run bench`.
import { randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { pathToFileURL } from 'node:url';
import { Engine } from 'bpmn-engine';
import pg from 'pg';
import { createEngine, type ProcessEngine, type StoreConfig } from '@trellis/core';
import { startEndXml, tenStepBpmnEngineXml, tenStepTrellisXml, userTaskXml } from './models.js';
import { benchDatabaseUrl } from './database-url.js';

const INSTANCES = Number(process.env.BENCH_INSTANCES ?? 10_000);
const DATABASE_URL = benchDatabaseUrl();
// Commands run one after another: every measurement (and baseline) awaits each instance before the next.
const CONCURRENCY = 1;
const RSS_SAMPLE_EVERY = 50;
// Untimed runs before each measurement, so JIT warm-up is not charged to whichever engine goes first.
const WARMUP = Math.min(200, Math.ceil(INSTANCES / 10));
const MiB = 2 ** 20;

interface Measurement {
  rate: number;
  peakRss: number;
}

interface ModelRates {
  startEnd: Measurement;
  userTask: Measurement;
  tenSteps: Measurement;
}

/**
 * Runs `run` WARMUP times untimed (i = count…), then count times timed (i = 0…count−1), in sequence;
 * prints and returns instances per second and the peak RSS seen while timing.
 */
async function timed(label: string, count: number, run: (i: number) => Promise<unknown>): Promise<Measurement> {
  for (let i = count; i < count + WARMUP; i++) await run(i);
  const rssBefore = process.memoryUsage.rss();
  let peakRss = rssBefore;
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    await run(i);
    if (i % RSS_SAMPLE_EVERY === 0) peakRss = Math.max(peakRss, process.memoryUsage.rss());
  }
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  const rate = count / seconds;
  const memory = `peak rss ${(peakRss / MiB).toFixed(0)} MiB (+${((peakRss - rssBefore) / MiB).toFixed(0)})`;
  console.log(`${label.padEnd(60)} ${rate.toFixed(0).padStart(8)} /s   ${memory}`);
  return { rate, peakRss };
}

function ratioLine(label: string, ratio: number, target?: number): void {
  const verdict = target === undefined ? '' : `   (target ≥ ${target}: ${ratio >= target ? 'met' : 'MISSED'})`;
  console.log(`${label.padEnd(60)} ${ratio.toFixed(2).padStart(8)}${verdict}`);
}

// ---------------------------------------------------------------- Trellis

async function deploy(engine: ProcessEngine, name: string, xml: string): Promise<string> {
  const { processDefinitions } = await engine.deployment.deploy({ name, resources: [{ name: `${name}.bpmn`, bytes: Buffer.from(xml) }] });
  return processDefinitions![0].id;
}

async function trellisStartEnd(engine: ProcessEngine, store: string, label = `Trellis (${store}): start → end`): Promise<Measurement> {
  const id = await deploy(engine, 'bench-start-end', startEndXml);
  return timed(label, INSTANCES, async () => {
    const instance = await engine.runtime.startProcessInstanceById(id);
    if (!instance.ended) throw new Error(`instance ${instance.id} did not end`);
  });
}

async function trellisUserTask(engine: ProcessEngine, store: string): Promise<Measurement> {
  const id = await deploy(engine, 'bench-user-task', userTaskXml);
  return timed(`Trellis (${store}): start → user task (find, complete) → end`, INSTANCES, async () => {
    const instance = await engine.runtime.startProcessInstanceById(id);
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    await engine.task.complete(task.id);
  });
}

async function trellisTenSteps(engine: ProcessEngine, store: string): Promise<Measurement> {
  const id = await deploy(engine, 'bench-ten-steps', tenStepTrellisXml);
  return timed(`Trellis (${store}): 10 steps, exclusive + 3-way parallel`, INSTANCES, async (i) => {
    const amount = i % 2 === 0 ? 150 : 50; // both sides of the exclusive gateway
    const variables = { amount: { type: 'integer' as const, value: amount, valueInfo: {} } };
    const instance = await engine.runtime.startProcessInstanceById(id, { variables });
    if (!instance.ended) throw new Error(`instance ${instance.id} did not end`);
  });
}

/** The three models on one engine; fails when an instance is left running (e.g. an uncompleted task). */
async function trellisModels(store: string, config: StoreConfig): Promise<ModelRates> {
  const engine = await createEngine({ store: config, logLevel: 'warn', jobExecutor: { activate: false } });
  try {
    const rates = { startEnd: await trellisStartEnd(engine, store), userTask: await trellisUserTask(engine, store), tenSteps: await trellisTenSteps(engine, store) };
    const running = await engine.runtime.countProcessInstances();
    if (running !== 0) throw new Error(`${running} Trellis instances still running on ${store}`);
    return rates;
  } finally {
    await engine.close();
  }
}

/** The cost of history: start → end on an engine writing none (the runs above write full, the default). */
async function trellisWithoutHistory(store: string, config: StoreConfig): Promise<Measurement> {
  const engine = await createEngine({ store: config, logLevel: 'warn', jobExecutor: { activate: false }, historyLevel: 'none' });
  try {
    return await trellisStartEnd(engine, store, `Trellis (${store}): start → end, history level none`);
  } finally {
    await engine.close();
  }
}

// ---------------------------------------------------------------- Baseline 1: bpmn-engine

// bpmn-engine's expressions cannot compare; model 3's condition calls this service instead.
const services = { isAbove: (value: number, limit: number) => value > limit };

/** Parses the XML once, as Trellis parses once at deployment; each instance then reuses the parsed source. */
async function parsedSource(xml: string) {
  const [definition] = await new Engine({ source: xml }).getDefinitions();
  return definition.context.definitionContext;
}

/** One bpmn-engine execution to its end; every wait state (the user task) is signalled at once. */
async function runBpmnEngine(sourceContext: Awaited<ReturnType<typeof parsedSource>>, variables: Record<string, unknown> = {}): Promise<void> {
  const engine = new Engine({ sourceContext, variables, services });
  const listener = new EventEmitter();
  listener.on('wait', (api: { signal: () => void }) => api.signal());
  const ended = engine.waitFor('end');
  await engine.execute({ listener });
  await ended;
}

async function bpmnEngineStartEnd(): Promise<Measurement> {
  const source = await parsedSource(startEndXml);
  return timed('bpmn-engine (in memory): start → end', INSTANCES, () => runBpmnEngine(source));
}

async function bpmnEngineUserTask(): Promise<Measurement> {
  const source = await parsedSource(userTaskXml);
  return timed('bpmn-engine (in memory): start → user task (signal) → end', INSTANCES, () => runBpmnEngine(source));
}

async function bpmnEngineTenSteps(): Promise<Measurement> {
  const source = await parsedSource(tenStepBpmnEngineXml);
  return timed('bpmn-engine (in memory): 10 steps, exclusive + 3-way parallel', INSTANCES, (i) =>
    runBpmnEngine(source, { amount: i % 2 === 0 ? 150 : 50 }),
  );
}

// ---------------------------------------------------------------- Baseline 2: PostgreSQL commit rate

/** The database's own commit rate: one small INSERT per transaction, one round trip each, on one client. */
async function postgresCommitRate(client: pg.Client, schema: string): Promise<Measurement> {
  await client.query(`create table ${schema}.bench_commit (id integer primary key, payload text not null)`);
  return timed('baseline: PostgreSQL, BEGIN; INSERT one row; COMMIT', INSTANCES, (i) =>
    client.query(`begin; insert into ${schema}.bench_commit values (${i}, 'bench'); commit`),
  );
}

/** PostgreSQL baseline and Trellis on PostgreSQL, in a fresh schema dropped at the end; null when no database answers. */
async function postgresRun(): Promise<{ commits: Measurement; trellis: ModelRates; withoutHistory: Measurement } | null> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
  } catch (error) {
    console.log(`PostgreSQL part skipped: cannot connect to ${DATABASE_URL} (${(error as Error).message})\n`);
    return null;
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  try {
    await client.query(`create schema ${schema}`);
    const commits = await postgresCommitRate(client, schema);
    const store: StoreConfig = { type: 'postgres', connectionString: DATABASE_URL, schema };
    const trellis = await trellisModels('PostgreSQL', store);
    const withoutHistory = await trellisWithoutHistory('PostgreSQL', { ...store, schema: `${schema}_none` });
    return { commits, trellis, withoutHistory };
  } finally {
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.query(`drop schema if exists ${schema}_none cascade`);
    await client.end();
  }
}

// ---------------------------------------------------------------- main

export async function main(): Promise<void> {
  console.log(`engine benchmark: ${INSTANCES} instances per model and engine (after ${WARMUP} untimed), concurrency ${CONCURRENCY} (sequential)`);
  const sqlite = await trellisModels('SQLite', { type: 'sqlite', filename: ':memory:' });
  const sqliteWithoutHistory = await trellisWithoutHistory('SQLite', { type: 'sqlite', filename: ':memory:' });
  const baseline = { startEnd: await bpmnEngineStartEnd(), userTask: await bpmnEngineUserTask(), tenSteps: await bpmnEngineTenSteps() };
  ratioLine('ratio Trellis (SQLite) / bpmn-engine: start → end', sqlite.startEnd.rate / baseline.startEnd.rate, 10);
  ratioLine('ratio Trellis (SQLite) / bpmn-engine: user task', sqlite.userTask.rate / baseline.userTask.rate);
  ratioLine('ratio Trellis (SQLite) / bpmn-engine: 10 steps', sqlite.tenSteps.rate / baseline.tenSteps.rate);
  ratioLine('history cost (SQLite): start → end at level full / none', sqlite.startEnd.rate / sqliteWithoutHistory.rate);
  console.log();

  const postgres = await postgresRun();
  if (postgres) {
    ratioLine('ratio Trellis (PostgreSQL) start → end / PG commit rate', postgres.trellis.startEnd.rate / postgres.commits.rate, 0.4);
    ratioLine('history cost (PostgreSQL): start → end at level full / none', postgres.trellis.startEnd.rate / postgres.withoutHistory.rate);
    console.log();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
