import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/create-engine.js';
import type { ProcessEngine } from '../../src/engine.js';
import { testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const postgres = testStoreConfigs().find((store) => store.name === 'postgres');
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const MODEL = wrap('relayed', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:serviceTask id="work" camunda:type="external" camunda:topic="relay" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />`);

async function eventually(check: () => boolean, timeoutMs = 5_000): Promise<void> {
  for (const started = Date.now(); !check(); ) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describe.skipIf(!postgres)('the cross-node event relay on PostgreSQL', () => {
  it('tells the other node about new external tasks, once, without echoing back', async () => {
    const store = postgres!.config('relay');
    const a = await createEngine({ store, logLevel: 'warn', jobExecutor: { activate: false } });
    const b = await createEngine({ store, logLevel: 'warn', jobExecutor: { activate: false } });
    engines.push(a, b);
    const heardByB: string[] = [];
    const heardByA: string[] = [];
    b.events.on('externalTask.available', ({ topicName }) => heardByB.push(topicName));
    a.events.on('externalTask.available', ({ topicName }) => heardByA.push(topicName));
    const { processDefinitions } = await a.deployment.deploy({ resources: [{ name: 'r.bpmn', bytes: Buffer.from(MODEL) }] });

    await a.runtime.startProcessInstanceById(processDefinitions![0].id);
    await eventually(() => heardByB.length === 1);
    await new Promise((resolve) => setTimeout(resolve, 200));

    expect(heardByB).toEqual(['relay']);
    expect(heardByA).toEqual(['relay']);
  });
});
