import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/create-engine.js';
import type { ProcessEngine } from '../../src/engine.js';
import { simpleProcessXml, testStoreConfigs } from '../../src/testing/index.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

async function open(store: Parameters<typeof createEngine>[0]) {
  const engine = await createEngine({ ...store, logLevel: 'warn' });
  engines.push(engine);
  return engine;
}

describe.each(testStoreConfigs())('an engine on $name', (testStore) => {
  it('reads back after a restart what an earlier engine deployed', async () => {
    const store = testStore.config(expect.getState().currentTestName!, { shared: true });
    const first = await open({ store });
    const deployed = await first.deployment.deploy({
      name: 'kept',
      resources: [{ name: 'kept.bpmn', bytes: Buffer.from(simpleProcessXml('kept', { name: 'Kept' })) }],
    });
    await first.close();

    const second = await open({ store });

    const deployment = await second.deployment.getDeployment(deployed.deployment.id);
    expect(deployment).toEqual(deployed.deployment);
    const definition = await second.processDefinition.getProcessDefinition(deployed.processDefinitions![0].id);
    expect(definition).toEqual(deployed.processDefinitions![0]);
    expect(await second.processDefinition.getProcessDefinitionXml(definition.id)).toBe(simpleProcessXml('kept', { name: 'Kept' }));
  });

  it("suspends the history cleanup job at start when no batch window is configured (Camunda's bootstrap cleanUpHistoryAsync(false))", async () => {
    const store = testStore.config(expect.getState().currentTestName!, { shared: true });
    const first = await open({ store, jobExecutor: { activate: false } });
    const job = await first.historyCleanup.cleanUpHistoryAsync(true);
    expect(job.suspended).toBe(false);
    await first.close();

    const second = await open({ store, jobExecutor: { activate: false } });
    expect(await second.historyCleanup.findHistoryCleanupJob()).toMatchObject({ id: job.id, suspended: true, dueDate: null });
  });
});

const postgres = testStoreConfigs().find((store) => store.name === 'postgres');

describe.runIf(postgres)('two engines on one PostgreSQL database', () => {
  it('deploying the same key at once end with versions 1 and 2', async () => {
    const store = postgres!.config(expect.getState().currentTestName!, { shared: true });
    const [a, b] = await Promise.all([open({ store }), open({ store })]);
    const resources = [{ name: 'race.bpmn', bytes: Buffer.from(simpleProcessXml('race')) }];

    const results = await Promise.all([
      a.deployment.deploy({ resources }),
      b.deployment.deploy({ resources }),
      a.deployment.deploy({ resources }),
      b.deployment.deploy({ resources }),
    ]);

    const versions = results.map((result) => result.processDefinitions![0].version).sort();
    expect(versions).toEqual([1, 2, 3, 4]);
  });
});
