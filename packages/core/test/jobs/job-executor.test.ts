import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/create-engine.js';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, simpleProcessXml, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

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
    // An asynchronous continuation whose expression names a bean nobody registered.
    const failing = wrap(
      'failing',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
       <bpmn:serviceTask id="call" camunda:asyncBefore="true" camunda:expression="\${nobody.call()}" />${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`,
    );
    const { processDefinitions } = await trellis.deployment.deploy({ resources: [{ name: 'failing.bpmn', bytes: Buffer.from(failing) }] });
    await trellis.runtime.startProcessInstanceById(processDefinitions![0].id);

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

describe.each(testStoreConfigs())('exclusive jobs on $name', (testStore) => {
  const FORK = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="fork" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="split" />
    <bpmn:parallelGateway id="split" /><bpmn:sequenceFlow id="f2" sourceRef="split" targetRef="a" /><bpmn:sequenceFlow id="f3" sourceRef="split" targetRef="b" />
    <bpmn:task id="a" camunda:asyncBefore="true" /><bpmn:task id="b" camunda:asyncBefore="true" />
    <bpmn:sequenceFlow id="f4" sourceRef="a" targetRef="ea" /><bpmn:sequenceFlow id="f5" sourceRef="b" targetRef="eb" />
    <bpmn:endEvent id="ea" /><bpmn:endEvent id="eb" />
  </bpmn:process>
</bpmn:definitions>`;

  it('never hands two exclusive jobs of one instance to two nodes at once', async () => {
    const trellis = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(trellis);
    const { processDefinitions } = await trellis.deployment.deploy({ resources: [{ name: 'fork.bpmn', bytes: Buffer.from(FORK) }] });
    const first = await trellis.runtime.startProcessInstanceById(processDefinitions![0].id);
    const second = await trellis.runtime.startProcessInstanceById(processDefinitions![0].id);
    // Two nodes' acquisitions, as the job executor runs them (its command executor from the container).
    const commands = (trellis as unknown as { container: { get(token: unknown): { run<T>(name: string, fn: (ctx: any) => Promise<T>): Promise<T> } } }).container.get(
      (await import('../../src/command/command-executor.js')).CommandExecutor,
    );
    const acquire = (owner: string, limit: number) =>
      commands.run('AcquireJobsCmd', (ctx) => ctx.jobs.acquire(owner, trellis.clock.now(), new Date(trellis.clock.now().getTime() + 60_000), limit));

    const nodeA = (await acquire('node-a', 1)) as Array<{ processInstanceId: string }>;
    const nodeB = (await acquire('node-b', 10)) as Array<{ processInstanceId: string }>;
    const nodeAAgain = (await acquire('node-a', 10)) as Array<{ processInstanceId: string }>;

    const busy = nodeA[0].processInstanceId;
    const other = busy === first.id ? second.id : first.id;
    expect(nodeB.map((job) => job.processInstanceId)).toEqual([other, other]);
    expect(nodeAAgain.map((job) => job.processInstanceId)).toEqual([busy]);
  });
});
