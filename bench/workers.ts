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
  <bpmn:process id="work" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="task" />
    <bpmn:serviceTask id="task" camunda:type="external" camunda:topic="bench" />
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

/** The HTTP ceiling: GET /engine from WORKERS concurrent clients. */
async function bareRate(url: string, requests: number): Promise<number> {
  let left = requests;
  const started = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: WORKERS }, async () => {
      while (left-- > 0) await (await fetch(`${url}/engine`)).text();
    }),
  );
  return requests / (Number(process.hrtime.bigint() - started) / 1e9);
}

/** WORKERS workers fetch and complete until every task is done; tasks per second and p99 of one fetch + complete round. */
async function workerRate(url: string): Promise<{ rate: number; p99: number; p50: number }> {
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
          maxTasks: 1,
          ...(process.env.BENCH_LONG_POLL === 'false' ? {} : { asyncResponseTimeout: 1_000 }),
          topics: [{ topicName: 'bench', lockDuration: 60_000 }],
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
    console.log(`worker benchmark: ${TASKS} external tasks, ${WORKERS} concurrent HTTP workers (fetchAndLock maxTasks 1 → complete), PostgreSQL`);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'work.bpmn', bytes: Buffer.from(MODEL) }] });
    for (let i = 0; i < TASKS; i++) await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const ceiling = await bareRate(url, TASKS * 2);
    const workers = await workerRate(url);
    console.log(`${'baseline: GET /engine (the HTTP ceiling)'.padEnd(52)} ${ceiling.toFixed(0).padStart(8)} /s`);
    console.log(`${'Trellis: fetchAndLock → complete'.padEnd(52)} ${workers.rate.toFixed(0).padStart(8)} tasks/s   p50 ${workers.p50.toFixed(1)} ms   p99 ${workers.p99.toFixed(1)} ms`);
    const ratio = workers.rate / ceiling;
    console.log(`ratio completed tasks / HTTP ceiling: ${ratio.toFixed(2)}   (target ≥ 0.25: ${ratio >= 0.25 ? 'met' : 'MISSED'})\n`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
    await engine.close();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
