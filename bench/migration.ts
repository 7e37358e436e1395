// Migration benchmark on PostgreSQL: N instances (one waiting user task, three variables) started,
// migrated to a second version with one synchronous call, then migrated back by an asynchronous
// batch (seed, execution and monitor jobs, Camunda's defaults: 100 jobs per seed, 1 instance per
// job) run by the job executor of the same process. Prints the rates side by side and two ratios:
//   - synchronous migration ÷ starting the same instances (target noted: ≥ 1, migration should
//     cost no more than starting);
//   - the batch's items per second ÷ the synchronous rate (each item is its own job and transaction).
// Instances: BENCH_MIGRATION_INSTANCES (default 10,000). Database: TRELLIS_BENCH_DATABASE_URL
// (default: the local server's database `test`, see database-url.ts); a fresh schema, dropped at the end.
// Standalone: `npx tsx bench/migration.ts`; also part of `npm run bench`.
import { randomBytes } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { createEngine, type ProcessEngine, type TypedValue } from '@trellis/core';
import { benchDatabaseUrl } from './database-url.js';

const INSTANCES = Number(process.env.BENCH_MIGRATION_INSTANCES ?? 10_000);
const DATABASE_URL = benchDatabaseUrl();

const model = (name: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs" targetNamespace="http://trellis.bench">
  <bpmn:process id="migrated" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" name="${name}" /><bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

async function seconds(run: () => Promise<unknown>): Promise<number> {
  const start = process.hrtime.bigint();
  await run();
  return Number(process.hrtime.bigint() - start) / 1e9;
}

function line(label: string, value: string): void {
  console.log(`${label.padEnd(60)} ${value}`);
}

async function measure(engine: ProcessEngine): Promise<void> {
  const deploy = async (name: string) => (await engine.deployment.deploy({ resources: [{ name: 'migrated.bpmn', bytes: Buffer.from(model(name)) }] })).processDefinitions![0].id;
  const v1 = await deploy('Review');
  const ids: string[] = [];
  const variables = (i: number): Record<string, TypedValue> => ({
    orderId: { type: 'string', value: `order-${i}`, valueInfo: {} },
    amount: { type: 'integer', value: i, valueInfo: {} },
    express: { type: 'boolean', value: i % 2 === 0, valueInfo: {} },
  });
  const start = await seconds(async () => {
    for (let i = 0; i < INSTANCES; i++) ids.push((await engine.runtime.startProcessInstanceById(v1, { variables: variables(i) })).id);
  });
  const v2 = await deploy('Review (v2)');
  const forward = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
  const sync = await seconds(() => engine.migration.execute(forward, { processInstanceIds: ids }));
  if ((await engine.runtime.countProcessInstances({ processDefinitionId: v2 })) !== INSTANCES) throw new Error('synchronous migration left instances behind');

  const back = await engine.migration.generate({ sourceProcessDefinitionId: v2, targetProcessDefinitionId: v1 });
  const async = await seconds(async () => {
    const batch = await engine.batch.migrateAsync(back, { processInstanceIds: ids });
    // the execution jobs are done when the statistics show none remaining (the monitor comes 30 s later)
    for (;;) {
      await engine.jobExecutor.runDueJobs();
      const [statistics] = await engine.batch.statistics({ batchId: batch.id });
      if (!statistics || statistics.remainingJobs === 0) break;
    }
  });
  if ((await engine.runtime.countProcessInstances({ processDefinitionId: v1 })) !== INSTANCES) throw new Error('the batch left instances behind');

  line('Trellis (PostgreSQL): start, one user task, 3 variables', `${(INSTANCES / start).toFixed(0).padStart(8)} /s`);
  line('Trellis (PostgreSQL): migrate all in one synchronous call', `${(INSTANCES / sync).toFixed(0).padStart(8)} /s`);
  line('Trellis (PostgreSQL): migrate all as a batch (1 per job)', `${(INSTANCES / async).toFixed(0).padStart(8)} /s`);
  line('ratio synchronous migration / start', `${(start / sync).toFixed(2).padStart(8)}  (target ≥ 1: ${start / sync >= 1 ? 'met' : 'MISSED'})`);
  line('ratio batch migration / synchronous migration', `${(sync / async).toFixed(2).padStart(8)}`);
}

export async function main(): Promise<void> {
  console.log(`migration benchmark: ${INSTANCES} instances on PostgreSQL`);
  const client = new pg.Client({ connectionString: DATABASE_URL });
  try {
    await client.connect();
  } catch (error) {
    console.log(`migration benchmark skipped: cannot connect to ${DATABASE_URL} (${(error as Error).message})\n`);
    return;
  }
  const schema = `bench_${randomBytes(6).toString('hex')}`;
  const engine = await createEngine({ store: { type: 'postgres', connectionString: DATABASE_URL, schema }, logLevel: 'warn', jobExecutor: { activate: false, maxJobsPerAcquisition: 10 } });
  try {
    await measure(engine);
  } finally {
    await engine.close();
    await client.query(`drop schema if exists ${schema} cascade`);
    await client.end();
  }
  console.log();
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
