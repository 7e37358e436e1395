import { afterEach, describe, expect, it } from 'vitest';
import { externalTaskProcessXml, testStoreConfigs } from '@trellis/core/testing';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

// Two engine nodes on one PostgreSQL database, eight HTTP workers long-polling across both:
// every external task is delivered to exactly one worker and completed exactly once.
const postgres = testStoreConfigs().find((store) => store.name === 'postgres');
const TASKS = 5_000;
const MODEL = externalTaskProcessXml('ping');

const nodes: RestHarness[] = [];
afterEach(async () => {
  await Promise.all(nodes.splice(0).map((node) => node.close()));
});

async function post(url: string, json: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(json) });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe.skipIf(!postgres)('two engine nodes on one PostgreSQL', () => {
  it(`deliver ${TASKS} external tasks to 8 long-polling workers, each exactly once`, async () => {
    const store = postgres!.config('two-nodes');
    nodes.push(await startRestHarness({ store }), await startRestHarness({ store }));
    const [a, b] = nodes;
    const { processDefinitions } = await a.engine.deployment.deploy({ resources: [{ name: 'ping.bpmn', bytes: Buffer.from(MODEL) }] });
    const definitionId = processDefinitions![0].id;

    const delivered = new Map<string, string>();
    const duplicates: string[] = [];
    const refused: unknown[] = [];
    let completed = 0;
    const worker = async (node: RestHarness, workerId: string) => {
      while (completed < TASKS) {
        const { body: tasks } = await post(`${node.url}/external-task/fetchAndLock`, {
          workerId,
          maxTasks: 20,
          asyncResponseTimeout: 2_000,
          topics: [{ topicName: 'ping', lockDuration: 600_000 }],
        });
        for (const task of tasks as Array<{ id: string }>) {
          if (delivered.has(task.id)) duplicates.push(task.id);
          delivered.set(task.id, workerId);
          const done = await post(`${node.url}/external-task/${task.id}/complete`, { workerId });
          if (done.status === 204) completed++;
          else refused.push(done.body);
        }
      }
    };
    const workers = Array.from({ length: 8 }, (_, i) => worker(i % 2 === 0 ? a : b, `worker-${i}`));
    // Start the instances on both nodes while the workers already poll.
    for (let i = 0; i < TASKS; i++) await (i % 2 === 0 ? a : b).engine.runtime.startProcessInstanceById(definitionId);
    await Promise.all(workers);

    expect(duplicates).toEqual([]);
    expect(refused).toEqual([]);
    expect(delivered.size).toBe(TASKS);
    expect(new Set(delivered.values()).size).toBeGreaterThan(1);
    expect(await a.engine.externalTask.countExternalTasks()).toBe(0);
    expect(await b.engine.runtime.countProcessInstances()).toBe(0);
  }, 180_000);
});
