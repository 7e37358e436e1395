import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/create-engine.js';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, simpleProcessXml, testStoreConfigs } from '../../src/testing/index.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const resources = (key: string) => [{ name: `${key}.bpmn`, bytes: Buffer.from(simpleProcessXml(key)) }];

describe.each(testStoreConfigs())('job executor on $name', (testStore) => {
  async function engine() {
    const created = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(created);
    return created;
  }

  it('runs nothing before the due date and the job once it is due', async () => {
    const trellis = await engine();
    const { processDefinitions } = await trellis.deployment.deploy({
      activationTime: new Date(trellis.clock.now().getTime() + 60_000),
      resources: resources('later'),
    });
    const id = processDefinitions![0].id;

    const early = await trellis.jobExecutor.runDueJobs();
    trellis.clock.advance(60_001);
    const due = await trellis.jobExecutor.runDueJobs();
    const again = await trellis.jobExecutor.runDueJobs();

    expect([early, due, again]).toEqual([0, 1, 0]);
    expect((await trellis.processDefinition.getProcessDefinition(id)).suspended).toBe(false);
  });

  it('counts a failed attempt down and stops at zero retries', async () => {
    const trellis = await engine();
    await trellis.deployment.deploy({ resources: resources('gone') });
    await trellis.processDefinition.updateSuspensionState(
      { processDefinitionKey: 'gone' },
      { suspended: true, executionDate: new Date(trellis.clock.now().getTime() + 1000) },
    );
    await trellis.processDefinition.deleteProcessDefinitionsByKey('gone', null);
    trellis.clock.advance(2000);

    const attempts = [];
    for (let i = 0; i < 4; i++) attempts.push(await trellis.jobExecutor.runDueJobs());

    // Camunda's default: three attempts, each released for the next at once; then the job waits
    // (with an incident, once incidents exist).
    expect(attempts).toEqual([3, 0, 0, 0]);
  });
});

describe('a started job executor', () => {
  it('picks up a job that becomes due without being asked', async () => {
    const trellis = await createEngine({ logLevel: 'warn', jobExecutor: { waitTimeMs: 20 } });
    engines.push(trellis);
    const { processDefinitions } = await trellis.deployment.deploy({ activationTime: new Date(Date.now() + 100), resources: resources('soon') });
    const id = processDefinitions![0].id;
    expect(processDefinitions![0].suspended).toBe(true);

    const deadline = Date.now() + 5000;
    while ((await trellis.processDefinition.getProcessDefinition(id)).suspended && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }

    expect((await trellis.processDefinition.getProcessDefinition(id)).suspended).toBe(false);
  });
});
