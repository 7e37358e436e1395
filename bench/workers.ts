// Worker benchmark: K concurrent HTTP workers (fetchAndLock → complete) against a Trellis server on
// PostgreSQL, beside the same server's bare `GET /engine` request rate with the same concurrency
// (the HTTP ceiling), both measured in this run. Target: completed tasks ≥ 25 % of that ceiling.
// Tasks: BENCH_TASKS (default 3,000); workers: BENCH_WORKERS (default 8).
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createEngine } from '@trellis/core';
import { createRestApp } from '@trellis/http-koa';

const DATABASE_URL = process.env.TRELLIS_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const TASKS = Number(process.env.BENCH_TASKS ?? 3_000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 8);
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.bench">
  <bpmn:process id="TOPIC" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="task" />
    <bpmn:serviceTask id="task" camunda:type="external" camunda:topic="TOPIC" />
    <bpmn:sequenceFlow id="f2" sourceRef="task" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))] ?? 0;

async function post(url: string, json: unknown): Promise<unknown> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) });
  const text = await response.text();
  if (response.status >= 300) throw new Error(`${url}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** Milliseconds of this process's CPU time (server, engine and the benchmark's own HTTP clients) per item of `work`. */
async function cpuPer<T>(items: number, work: () => Promise<T>): Promise<T & { cpu: number }> {
  const before = process.cpuUsage();
  const result = await work();
  const { user, system } = process.cpuUsage(before);
  return { ...result, cpu: (user + system) / 1000 / items };
}

/** The HTTP ceiling: GET /engine from WORKERS concurrent clients. */
async function bareRate(url: string, requests: number): Promise<{ rate: number; cpu: number }> {
  let left = requests;
  const started = process.hrtime.bigint();
  return cpuPer(requests, async () => {
    await Promise.all(
      Array.from({ length: WORKERS }, async () => {
        while (left-- > 0) await (await fetch(`${url}/engine`)).text();
      }),
    );
    return { rate: requests / (Number(process.hrtime.bigint() - started) / 1e9) };
  });
}

/**
 * WORKERS workers fetch (up to maxTasks each time) and complete until every task of the topic is
 * done; tasks per second, and p50 / p99 of one fetch + complete round.
 */
async function workerRate(url: string, topicName: string, maxTasks: number, usePriority: boolean): Promise<{ rate: number; p99: number; p50: number }> {
  let completed = 0;
  const latencies: number[] = [];
  const started = process.hrtime.bigint();
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
        for (const task of tasks) {
          await post(`${url}/external-task/${task.id}/complete`, { workerId });
          completed++;
        }
        if (tasks.length > 0) latencies.push(Number(process.hrtime.bigint() - roundStart) / 1e6);
      }
    }),
  );
  return { rate: TASKS / (Number(process.hrtime.bigint() - started) / 1e9), p99: percentile(latencies, 0.99), p50: percentile(latencies, 0.5) };
}

/** BENCH_PROFILE=<file>: a CPU profile of the worker phase only, for Chrome DevTools. */
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
  const engine = await createEngine({ store: { type: 'postgres', connectionString: DATABASE_URL, schema, poolSize: 10 }, logLevel: 'warn', jobExecutor: { activate: false } });
  const server = createRestApp(engine).listen(0, '127.0.0.1');
  try {
    await new Promise((resolve) => server.once('listening', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/engine-rest`;
    console.log(`worker benchmark: ${TASKS} external tasks per run, ${WORKERS} concurrent HTTP workers (fetchAndLock → complete each task), PostgreSQL`);
    // Two runs on two topics: one task per fetch, and ten by priority per fetch as camunda-external-task-client-js fetches by default.
    const runs = [
      { topic: 'single', maxTasks: 1, usePriority: false, label: 'fetchAndLock maxTasks 1 → complete' },
      { topic: 'batched', maxTasks: 10, usePriority: true, label: 'maxTasks 10, usePriority (client defaults) → complete' },
    ];
    for (const run of runs) {
      const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: `${run.topic}.bpmn`, bytes: Buffer.from(MODEL.replaceAll('TOPIC', run.topic)) }] });
      for (let i = 0; i < TASKS; i++) await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    }
    // The ceiling is measured before and after the worker runs and averaged, so load that drifts
    // during the run (other processes on the machine) weighs on both sides alike.
    await bareRate(url, 1_000); // warm-up: the first requests pay for JIT compilation
    const before = await bareRate(url, TASKS * 2);
    const profile = await startProfile(process.env.BENCH_PROFILE);
    const results = [];
    for (const run of runs) results.push({ ...run, ...(await cpuPer(TASKS, () => workerRate(url, run.topic, run.maxTasks, run.usePriority))) });
    await profile?.();
    const after = await bareRate(url, TASKS * 2);
    const ceiling = (before.rate + after.rate) / 2;
    // CPU per request / per task of this one process: the budget a task gets at the target is four requests'.
    const requestCpu = (before.cpu + after.cpu) / 2;
    console.log(
      `${'baseline: GET /engine (the HTTP ceiling)'.padEnd(58)} ${ceiling.toFixed(0).padStart(8)} /s   (before ${before.rate.toFixed(0)}, after ${after.rate.toFixed(0)})   cpu ${requestCpu.toFixed(2)} ms/request`,
    );
    for (const result of results) {
      const ratio = result.rate / ceiling;
      console.log(
        `${`Trellis: ${result.label}`.padEnd(58)} ${result.rate.toFixed(0).padStart(8)} tasks/s   p50 ${result.p50.toFixed(1)} ms   p99 ${result.p99.toFixed(1)} ms   ratio ${ratio.toFixed(2)}   cpu ${result.cpu.toFixed(2)} ms/task`,
      );
    }
    const ratio = results[1].rate / ceiling;
    console.log(`ratio completed tasks / HTTP ceiling with the client's default fetch: ${ratio.toFixed(2)}   (target ≥ 0.25: ${ratio >= 0.25 ? 'met' : 'MISSED'})\n`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await engine.close();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
