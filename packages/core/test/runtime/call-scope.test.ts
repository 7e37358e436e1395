import { AsyncLocalStorage } from 'node:async_hooks';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, externalTaskProcessXml, simpleProcessXml } from '../../src/testing/index.js';

// Who calls and which command runs follow the async call chain (an AsyncLocalStorage), entered only
// when there is something to carry: on Node 20 every promise pays for it once it is in use.

const engines: ProcessEngine[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

async function engineWith(...xmls: string[]) {
  const engine = await createTestEngine();
  engines.push(engine);
  const { processDefinitions } = await engine.deployment.deploy({ resources: xmls.map((xml, i) => ({ name: `p${i}.bpmn`, bytes: Buffer.from(xml) })) });
  return { engine, ids: processDefinitions!.map((definition) => definition.id) };
}

const delegating = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="delegating" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="call" />
    <bpmn:serviceTask id="call" camunda:class="org.example.StartsAnother" />
    <bpmn:sequenceFlow id="f2" sourceRef="call" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

describe('call scope', () => {
  it('completes an external task without entering an AsyncLocalStorage while no host code is registered', async () => {
    const { engine, ids } = await engineWith(externalTaskProcessXml('plain'));
    const entered = vi.spyOn(AsyncLocalStorage.prototype, 'run');

    await engine.runAs(null, async () => {
      await engine.runtime.startProcessInstanceById(ids[0]);
      const [task] = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'plain', lockDuration: 1_000 }] });
      await engine.externalTask.complete(task.id, 'w');
    });

    expect(entered).not.toHaveBeenCalled();
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('runs a delegate registered after the engine started inside its command: the engine calls it makes share the transaction', async () => {
    const { engine, ids } = await engineWith(delegating, simpleProcessXml('another'));
    await engine.runtime.startProcessInstanceById(ids[1]); // a command before any host code existed
    let fail = true;
    engine.delegates.registerClass('org.example.StartsAnother', async () => {
      await engine.runtime.startProcessInstanceById(ids[1]);
      if (fail) throw new Error('the delegate fails after its engine call');
    });

    await expect(engine.runtime.startProcessInstanceById(ids[0])).rejects.toThrow('the delegate fails after its engine call');
    // The instance the delegate started went with the failed command's transaction.
    expect(await engine.history.countHistoricProcessInstances({ processDefinitionKey: 'another' })).toBe(1);

    fail = false;
    await engine.runtime.startProcessInstanceById(ids[0]);
    expect(await engine.history.countHistoricProcessInstances({ processDefinitionKey: 'another' })).toBe(2);
  });

  it('carries an authentication across awaits, and none inside a nested runAs(null)', async () => {
    const { engine } = await engineWith(simpleProcessXml('any'));
    const demo = { userId: 'demo', groupIds: ['camunda-admin'], tenantIds: [] };
    const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

    const seen = await engine.runAs(demo, async () => {
      await tick();
      const outer = engine.currentAuthentication();
      const inner = await engine.runAs(null, async () => {
        await tick();
        return engine.currentAuthentication();
      });
      await tick();
      return { outer, inner, after: engine.currentAuthentication() };
    });

    expect(seen).toEqual({ outer: demo, inner: null, after: demo });
    expect(await engine.runAs(null, async () => (await tick(), engine.currentAuthentication()))).toBeNull();
  });
});
