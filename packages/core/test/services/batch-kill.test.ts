import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, FixedClock, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const WORKER = fileURLToPath(new URL('./support/batch-kill-worker.ts', import.meta.url));
const INSTANCES = 300;
const engines: ProcessEngine[] = [];
const children: ChildProcess[] = [];
afterEach(async () => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const model = (name: string) =>
  wrap('killed', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" name="${name}" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />`);

describe.each(testStoreConfigs())('killing an engine mid-batch on $name', (testStore) => {
  it('lets another engine finish the batch: every instance migrated once, none skipped', async () => {
    const store = testStore.config(expect.getState().currentTestName!, { shared: true });
    // The child runs on the real clock; this engine starts there and later moves past the child's locks.
    const engine = await createTestEngine({ store, clock: new FixedClock(new Date()) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'killed.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const v1 = await deploy(model('Old'));
    const v2 = await deploy(model('New'));
    const ids: string[] = [];
    for (let i = 0; i < INSTANCES; i++) ids.push((await engine.runtime.startProcessInstanceById(v1)).id);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    await engine.batch.migrateAsync(plan, { processInstanceIds: ids }, { batchJobsPerSeed: 50 });

    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(store)], { stdio: ['ignore', 'pipe', 'pipe'] });
    children.push(child);
    const onTarget = async () => (await engine.runtime.findProcessInstances({ processDefinitionId: v2 })).length;
    let migratedAtKill = 0;
    for (const started = Date.now(); migratedAtKill < 20; migratedAtKill = await onTarget()) {
      if (Date.now() - started > 30_000) throw new Error(`the child migrated nothing in 30 s (exit ${child.exitCode})`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    child.kill('SIGKILL');
    await new Promise((resolve) => child.once('exit', resolve));
    const migratedByChild = await onTarget();

    for (let round = 0; round < 100 && (await engine.batch.count()) > 0; round++) {
      engine.clock.advance(31_000); // past the child's locks and the monitor's poll time
      await engine.jobExecutor.runDueJobs();
    }

    expect(migratedByChild).toBeLessThan(INSTANCES);
    expect(await engine.batch.count()).toBe(0);
    expect(await onTarget()).toBe(INSTANCES);
    // An instance migrated twice would fail its second job (it is no longer on the source version).
    expect(await engine.management.findIncidents()).toEqual([]);
    expect(await engine.management.findJobs({})).toEqual([]);
    expect((await engine.task.findTasks({ maxResults: 1_000 })).map((task) => task.processDefinitionId)).toEqual(Array(INSTANCES).fill(v2));
    if (store.type === 'sqlite') rmSync(store.filename, { force: true });
  }, 90_000);
});
