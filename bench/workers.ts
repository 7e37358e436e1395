// Worker benchmark: K concurrent HTTP workers (fetchAndLock → complete) against a Trellis server on
// PostgreSQL, beside the same server's bare `GET /engine` request rate (the HTTP ceiling: the higher
// of K concurrent clients and as many as the workers can have requests in flight), both measured in
// this run, each as the median of several samples. Target: completed tasks ≥ 25 % of that ceiling.
// The clients (workers and ceiling alike) run in this process, on the server's thread, with Node's
// `http` client (BENCH_CLIENT=fetch: the global fetch instead, as until 2026-11-26).
// On Linux each worker run also shows its JavaScript thread's CPU per task and its time waiting,
// runnable, for a core (taken by PostgreSQL's backends and V8's helper threads on a small machine).
// Beside them, the engine alone (the same loop calling the engine directly) and the HTTP floor: the
// same loop through HTTP with the engine's part answered at once.
// Tasks: BENCH_TASKS (default 3,000) per run; workers: BENCH_WORKERS (default 8); default-fetch runs: BENCH_REPEATS (default 3);
// PostgreSQL connections: BENCH_POOL_SIZE (default 10, the engine's default).
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createEngine, type ProcessEngine } from '@trellis/core';
import { externalTaskProcessXml } from '@trellis/core/testing';
import { createRestApp } from '@trellis/http-koa';
import { benchDatabaseUrl } from './database-url.js';

const DATABASE_URL = benchDatabaseUrl();
const TASKS = Number(process.env.BENCH_TASKS ?? 3_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 8);
/** Runs with the client's default fetch (BENCH_REPEATS, default 3); the median counts. */
const REPEATS = Math.max(1, Number(process.env.BENCH_REPEATS ?? 3));
const POOL_SIZE = Math.max(1, Number(process.env.BENCH_POOL_SIZE ?? 10));

const median = (values: number[]) => percentile(values, 0.5);
const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

/** Keep-alive connections, one per request in flight (the server keeps them open for the whole run). */
const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });

/**
 * One request, a POST when there is a body; its status and body text. Node's `http` client by
 * default, as `got` (which camunda-external-task-client-js uses) is built on it: the global fetch
 * costs several times more per request (web streams, abort signals), and since the clients share the
 * server's thread, it made the ceiling mostly the clients' own cost — 3,300–5,800 instead of
 * 11,000–15,000 requests per second here.
 */
async function request(url: string, body?: string): Promise<{ status: number; text: string }> {
  if (process.env.BENCH_CLIENT === 'fetch') {
    const response = await fetch(url, body === undefined ? undefined : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body });
    return { status: response.status, text: await response.text() };
  }
  return new Promise((resolve, reject) => {
    const headers = body === undefined ? {} : { 'Content-Type': 'application/json', 'Content-Length': Buffer.byteLength(body) };
    const sent = http.request(url, { method: body === undefined ? 'GET' : 'POST', agent, headers }, (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (text += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, text }));
      response.on('error', reject);
    });
    sent.on('error', reject);
    sent.end(body);
  });
}

async function post(url: string, json: unknown): Promise<unknown> {
  const { status, text } = await request(url, JSON.stringify(json));
  if (status >= 300) throw new Error(`${url}: ${status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Linux: milliseconds of CPU all `postgres` processes of this machine have used (null where /proc is not there). */
function postgresCpu(): number | null {
  try {
    let ticks = 0;
    for (const pid of readdirSync('/proc')) {
      if (!/^\d+$/.test(pid)) continue;
      let stat: string;
      try {
        stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      } catch {
        continue; // ended meanwhile
      }
      if (!stat.includes(' (postgres) ')) continue;
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      ticks += Number(fields[11]) + Number(fields[12]); // utime, stime
    }
    return ticks * 10; // USER_HZ 100
  } catch {
    return null;
  }
}

/** Linux: [busy, all] CPU ticks of the whole machine since boot (null where /proc is not there). */
function machineTicks(): [number, number] | null {
  try {
    const ticks = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const all = ticks.reduce((sum, value) => sum + value, 0);
    return [all - ticks[3] - ticks[4], all]; // less idle and iowait
  } catch {
    return null;
  }
}

/**
 * Linux: nanoseconds this process's JavaScript thread has run and has waited runnable for a core
 * (`/proc/…/schedstat`; null where it is not there).
 */
function jsThreadTimes(): [number, number] | null {
  try {
    const [run, wait] = readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').trim().split(' ').map(Number);
    return [run, wait];
  } catch {
    return null;
  }
}

interface CpuFigures {
  /** This process (server, engine and the benchmark's own HTTP clients), ms per item. */
  cpu: number;
  /** PostgreSQL's processes on this machine, ms per item (null: not measurable here). */
  pgCpu: number | null;
  /** Share of the machine's cores busy during the work, 0–1 (null: not measurable here). */
  busy: number | null;
  /** Share of the time this process's JavaScript thread was busy (event loop utilization), 0–1. */
  loop: number;
  /** The JavaScript thread's CPU and its time runnable but waiting for a core, ms per item (null: not measurable here). */
  jsThread: { cpu: number; wait: number } | null;
}

/** Starts measuring; the function returned gives the CPU time per item since then. */
function cpuMeter(): (items: number) => CpuFigures {
  const before = process.cpuUsage();
  const pgBefore = postgresCpu();
  const machineBefore = machineTicks();
  const loopBefore = performance.eventLoopUtilization();
  const threadBefore = jsThreadTimes();
  return (items) => {
    const { user, system } = process.cpuUsage(before);
    const pgAfter = postgresCpu();
    const machineAfter = machineTicks();
    const threadAfter = jsThreadTimes();
    return {
      cpu: (user + system) / 1000 / items,
      pgCpu: pgBefore === null || pgAfter === null ? null : (pgAfter - pgBefore) / items,
      busy: machineBefore && machineAfter ? (machineAfter[0] - machineBefore[0]) / (machineAfter[1] - machineBefore[1]) : null,
      loop: performance.eventLoopUtilization(loopBefore).utilization,
      jsThread:
        threadBefore && threadAfter ? { cpu: (threadAfter[0] - threadBefore[0]) / 1e6 / items, wait: (threadAfter[1] - threadBefore[1]) / 1e6 / items } : null,
    };
  };
}

/** The HTTP ceiling: GET /engine from `concurrency` clients, each sending its next request when its last is answered. */
async function bareRate(url: string, requests: number, concurrency: number): Promise<{ rate: number } & CpuFigures> {
  let left = requests;
  const started = process.hrtime.bigint();
  const cpu = cpuMeter();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const { status, text } = await request(`${url}/engine`);
        if (status !== 200) throw new Error(`GET /engine: ${status} ${text}`);
      }
    }),
  );
  return { rate: requests / (Number(process.hrtime.bigint() - started) / 1e9), ...cpu(requests) };
}

/**
 * WORKERS workers fetch (up to maxTasks each time) and complete until every task of the topic is
 * done, the tasks of one fetch side by side; tasks per second, and p50 / p99 of one fetch + complete round.
 */
async function workerRate(url: string, topicName: string, maxTasks: number, usePriority: boolean): Promise<{ rate: number; p99: number; p50: number } & CpuFigures> {
  let completed = 0;
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
  const cpu = cpuMeter();
  // The run ends when TASKS are done: workers then still long-polling for more wait up to their
  // timeout, which is not part of it.
  let finished: ({ at: bigint; completed: number } & CpuFigures) | null = null;
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, index) => {
      const workerId = `bench-${index}`;
      while (completed < TASKS) {
        const roundStart = process.hrtime.bigint();
        const tasks = (await post(`${url}/external-task/fetchAndLock`, {
          workerId,
          maxTasks,
          usePriority,
          ...(process.env.BENCH_LONG_POLL === 'false' ? {} : { asyncResponseTimeout: 1_000 }),
          topics: [{ topicName, lockDuration: 60_000 }],
        })) as Array<{ id: string }>;
        // As camunda-external-task-client-js: the handlers of one fetch's tasks run side by side.
        await Promise.all(
          tasks.map(async (task) => {
            await post(`${url}/external-task/${task.id}/complete`, { workerId });
            completed++;
          }),
        );
        if (tasks.length > 0) latencies.push(Number(process.hrtime.bigint() - roundStart) / 1e6);
        // The floor run's fetches may hand out more than TASKS: counted up to this moment.
        if (completed >= TASKS && !finished) finished = { at: process.hrtime.bigint(), completed, ...cpu(completed) };
      }
    }),
  );
  const { at, completed: done, ...figures } = finished ?? { at: process.hrtime.bigint(), completed, ...cpu(completed) };
  return { rate: done / (Number(at - started) / 1e9), p99: percentile(latencies, 0.99), p50: percentile(latencies, 0.5), ...figures };
}

/** The same loop with the client's default fetch, calling the engine directly: what the engine alone does here, without HTTP. */
async function engineRate(engine: ProcessEngine, topicName: string, count: number): Promise<{ rate: number } & CpuFigures> {
  let completed = 0;
  const started = process.hrtime.bigint();
  const cpu = cpuMeter();
  await Promise.all(
    Array.from({ length: WORKERS }, async (_, index) => {
      const workerId = `direct-${index}`;
      while (completed < count) {
        const tasks = await engine.externalTask.fetchAndLock({ workerId, maxTasks: 10, usePriority: true, topics: [{ topicName, lockDuration: 60_000 }] });
        if (tasks.length === 0) break;
        await Promise.all(
          tasks.map(async (task) => {
            await engine.externalTask.complete(task.id, workerId);
            completed++;
          }),
        );
      }
    }),
  );
  return { rate: completed / (Number(process.hrtime.bigint() - started) / 1e9), ...cpu(completed) };
}

/**
 * The HTTP floor: the same worker loop through the same server, routes and body parsing, with the
 * engine's fetchAndLock answering copies of a task it locked earlier and complete doing nothing. Its
 * rate is the most any engine could reach here; the gap to it is what the engine's work costs.
 */
async function httpFloor(engine: ProcessEngine, url: string, template: unknown): ReturnType<typeof workerRate> {
  const service = engine.externalTask;
  const { fetchAndLock, complete } = service;
  let served = 0;
  Object.assign(service, {
    fetchAndLock: async (request: { maxTasks: number }) => Array.from({ length: request.maxTasks }, () => ({ ...(template as object), id: `floor-${served++}` })),
    complete: async () => undefined,
  });
  try {
    return await workerRate(url, 'floor', 10, true);
  } finally {
    Object.assign(service, { fetchAndLock, complete });
  }
}

/** BENCH_PROFILE=<file>: a CPU profile of the first default-fetch run only, for Chrome DevTools. */
async function startProfile(file: string | undefined): Promise<(() => Promise<void>) | undefined> {
  if (!file) return undefined;
  const { Session } = await import('node:inspector/promises');
  const { writeFile } = await import('node:fs/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  return async () => {
    const { profile } = await session.post('Profiler.stop');
    await writeFile(file, JSON.stringify(profile));
    session.disconnect();
  };
}

export async function main(): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
  } catch (error) {
    console.log(`worker benchmark skipped: PostgreSQL at ${DATABASE_URL} does not answer (${(error as Error).message})\n`);
    return;
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const engine = await createEngine({ store: { type: 'postgres', connectionString: DATABASE_URL, schema, poolSize: POOL_SIZE }, logLevel: 'warn', jobExecutor: { activate: false } });
  const server = createRestApp(engine).listen(0, '127.0.0.1');
  // Idle keep-alive connections stay open between the runs (a client reusing one the server is just
  // closing would fail its request).
  server.keepAliveTimeout = 600_000;
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/engine-rest`;
    console.log(`worker benchmark: ${TASKS} external tasks per run, ${WORKERS} concurrent HTTP workers (fetchAndLock → complete each task), PostgreSQL (pool of ${POOL_SIZE})`);
    // One run with one task per fetch, then REPEATS runs fetching ten by priority as
    // camunda-external-task-client-js fetches by default, each on its own topic.
    const single = { topic: 'single', maxTasks: 1, usePriority: false, label: 'fetchAndLock maxTasks 1 → complete' };
    const batched = Array.from({ length: REPEATS }, (_, i) => ({ topic: `batched${i}`, maxTasks: 10, usePriority: true, label: 'maxTasks 10, usePriority (client defaults) → complete' }));
    const startTasks = async (topic: string, count = TASKS) => {
      const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: `${topic}.bpmn`, bytes: Buffer.from(externalTaskProcessXml(topic)) }] });
      for (let i = 0; i < count; i++) await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    };
    // Planner statistics, as a database that has run for more than a minute has them from autovacuum
    // (pgbench likewise vacuums before it measures): on tables created moments ago PostgreSQL has none
    // and may plan a fetch to read and sort every task of the topic.
    const analyze = async () => {
      const { rows } = await client.query<{ name: string }>(`select format('%I.%I', schemaname, relname) as name from pg_stat_user_tables where schemaname = $1`, [schema]);
      for (const { name } of rows) await client.query(`analyze ${name}`);
    };
    for (const run of [single, ...batched]) await startTasks(run.topic);
    await analyze();
    // Warm-up: the first thousands of requests pay for JIT compilation (the rate of successive runs
    // of 2,000 rose from about 1,400 to 4,200 /s here); it ends when a run is no faster than the last.
    for (let last = 0, runs = 0; runs < 10; runs++) {
      const { rate } = await bareRate(url, 2_000, WORKERS);
      if (rate < last * 1.05) break;
      last = rate;
    }
    // The ceiling, at two concurrencies: the workers' (one request each in flight) and the most the
    // default-fetch run has in flight (each worker completing up to ten tasks at once); the higher
    // rate counts. On a small shared machine one sample of it swings by a factor of two from one
    // second to the next, so it is sampled before the worker runs and after each default-fetch run,
    // and each concurrency's median counts; the default-fetch rate is likewise the median of its runs.
    const CONCURRENCIES = [WORKERS, WORKERS * 10];
    const samples = CONCURRENCIES.map(() => [] as Array<{ rate: number } & CpuFigures>);
    const sampleCeiling = async () => {
      for (const [i, concurrency] of CONCURRENCIES.entries()) samples[i].push(await bareRate(url, TASKS, concurrency));
    };
    await sampleCeiling();
    // One real locked task (its lock lapses at once), the model of the floor run's answers.
    const [template] = await engine.externalTask.fetchAndLock({ workerId: 'template', maxTasks: 1, topics: [{ topicName: batched[0].topic, lockDuration: 1 }] });
    const singleResult = { ...single, ...(await workerRate(url, single.topic, single.maxTasks, single.usePriority)) };
    const batchedResults = [];
    for (const [i, run] of batched.entries()) {
      const profile = i === 0 ? await startProfile(process.env.BENCH_PROFILE) : undefined;
      batchedResults.push({ ...run, ...(await workerRate(url, run.topic, run.maxTasks, run.usePriority)) });
      await profile?.();
      await sampleCeiling();
    }
    const floor = await httpFloor(engine, url, template);
    // Last, so that neither its tasks nor their clean-up weigh on the runs above.
    // Its first 1,000 tasks warm up (as the HTTP runs had the maxTasks 1 run before theirs).
    await startTasks('direct', TASKS + 1_000);
    await analyze();
    await engineRate(engine, 'direct', 1_000);
    const direct = await engineRate(engine, 'direct', TASKS);
    const ceilings = CONCURRENCIES.map((concurrency, i) => {
      const rates = samples[i].map((sample) => sample.rate);
      return { concurrency, rate: median(rates), cpu: median(samples[i].map((sample) => sample.cpu)), low: Math.min(...rates), high: Math.max(...rates) };
    });
    const best = ceilings.reduce((a, b) => (b.rate > a.rate ? b : a));
    const ceiling = best.rate;
    console.log(
      `${'baseline: GET /engine (the HTTP ceiling)'.padEnd(58)} ${ceiling.toFixed(0).padStart(8)} /s   ` +
        ceilings.map((c) => `${c.concurrency} clients ${c.rate.toFixed(0)} /s (median of ${samples[0].length}: ${c.low.toFixed(0)}–${c.high.toFixed(0)})`).join(', ') +
        `   cpu ${best.cpu.toFixed(2)} ms/request`,
    );
    // The default-fetch run whose rate is the median stands for them all (its latencies and CPU figures too).
    const middle = [...batchedResults].sort((a, b) => a.rate - b.rate)[Math.floor(batchedResults.length / 2)];
    for (const result of [singleResult, middle]) {
      const ratio = result.rate / ceiling;
      console.log(
        `${`Trellis: ${result.label}`.padEnd(58)} ${result.rate.toFixed(0).padStart(8)} tasks/s   p50 ${result.p50.toFixed(1)} ms   p99 ${result.p99.toFixed(1)} ms   ratio ${ratio.toFixed(2)}   cpu ${result.cpu.toFixed(2)} ms/task` +
          (result.pgCpu === null ? '' : ` + PostgreSQL ${result.pgCpu.toFixed(2)} ms/task`) +
          (result.busy === null ? '' : `   cores busy ${(result.busy * 100).toFixed(0)} %`) +
          `   JS thread busy ${(result.loop * 100).toFixed(0)} %` +
          (result.jsThread === null ? '' : ` (cpu ${result.jsThread.cpu.toFixed(2)} + waiting for a core ${result.jsThread.wait.toFixed(2)} ms/task)`) +
          (result === middle ? `   (median of ${batchedResults.length} runs: ${batchedResults.map((r) => r.rate.toFixed(0)).join(', ')} tasks/s)` : ''),
      );
    }
    console.log(
      `${'engine alone: the same loop (default fetch) without HTTP'.padEnd(58)} ${direct.rate.toFixed(0).padStart(8)} tasks/s   ratio ${(direct.rate / ceiling).toFixed(2)}   cpu ${direct.cpu.toFixed(2)} ms/task` +
        (direct.pgCpu === null ? '' : ` + PostgreSQL ${direct.pgCpu.toFixed(2)} ms/task`),
    );
    console.log(
      `${'HTTP floor: the same loop, engine calls answered at once'.padEnd(58)} ${floor.rate.toFixed(0).padStart(8)} tasks/s   p50 ${floor.p50.toFixed(1)} ms   p99 ${floor.p99.toFixed(1)} ms   ratio ${(floor.rate / ceiling).toFixed(2)}   cpu ${floor.cpu.toFixed(2)} ms/task`,
    );
    const ratio = middle.rate / ceiling;
    // Reciprocal rates: the time one task takes of the server's throughput, less its HTTP part.
    const engineShare = 1_000 / middle.rate - 1_000 / floor.rate;
    const budget = 1_000 / (0.25 * ceiling) - 1_000 / floor.rate;
    console.log(`engine's share per task with the client's default fetch: ${engineShare.toFixed(2)} ms (at the target at most ${budget.toFixed(2)} ms)`);
    const { cpu, pgCpu } = middle;
    if (pgCpu !== null) {
      // Even with every core busy all the time, the target rate leaves each task this much CPU in all.
      const cores = availableParallelism();
      console.log(
        `CPU per task with the client's default fetch: ${(cpu + pgCpu).toFixed(2)} ms (this process ${cpu.toFixed(2)}, PostgreSQL ${pgCpu.toFixed(2)}); ${cores} cores at the target rate give at most ${((cores * 1_000) / (0.25 * ceiling)).toFixed(2)} ms`,
      );
    }
    if (middle.jsThread) {
      // The thread runs the server, the engine and the clients: its CPU per task alone bounds the rate.
      const { cpu: threadCpu, wait } = middle.jsThread;
      console.log(
        `JS thread per task with the client's default fetch: ${threadCpu.toFixed(2)} ms CPU + ${wait.toFixed(2)} ms waiting for a core; ` +
          `its CPU alone allows at most ${(1_000 / threadCpu).toFixed(0)} tasks/s (ratio ${(1_000 / threadCpu / ceiling).toFixed(2)})`,
      );
    }
    console.log(`ratio completed tasks / HTTP ceiling with the client's default fetch: ${ratio.toFixed(2)}   (target ≥ 0.25: ${ratio >= 0.25 ? 'met' : 'MISSED'})\n`);
  } finally {
    agent.destroy();
    await new Promise((resolve) => server.close(resolve));
    await engine.close();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
