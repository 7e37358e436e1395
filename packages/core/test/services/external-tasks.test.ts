import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException, NotFoundException } from '../../src/errors/index.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const MODEL = wrap(
  'invoice',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'create')}
   <bpmn:serviceTask id="create" camunda:type="external" camunda:topic="invoice" camunda:taskPriority="\${prio}">
     <bpmn:extensionElements><camunda:properties><camunda:property name="kind" value="pdf" /></camunda:properties></bpmn:extensionElements>
   </bpmn:serviceTask>
   ${flow('f2', 'create', 'review')}<bpmn:userTask id="review" />${flow('f3', 'review', 'end')}<bpmn:endEvent id="end" />
   <bpmn:boundaryEvent id="rejected" attachedToRef="create"><bpmn:errorEventDefinition errorRef="e" /></bpmn:boundaryEvent>
   ${flow('f4', 'rejected', 'fix')}<bpmn:userTask id="fix" />${flow('f5', 'fix', 'end')}`,
  '<bpmn:error id="e" errorCode="REJECTED" />',
);
const WITH_ERROR_EXPRESSIONS = wrap(
  'screening',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'screen')}
   <bpmn:serviceTask id="screen" camunda:type="external" camunda:topic="screen">
     <bpmn:extensionElements>
       <camunda:errorEventDefinition id="ee1" errorRef="e_fraud" expression="\${score &gt; 90}" />
     </bpmn:extensionElements>
   </bpmn:serviceTask>
   ${flow('f2', 'screen', 'ok')}<bpmn:userTask id="ok" />${flow('f3', 'ok', 'end')}<bpmn:endEvent id="end" />
   <bpmn:boundaryEvent id="fraud" attachedToRef="screen"><bpmn:errorEventDefinition errorRef="e_fraud" /></bpmn:boundaryEvent>
   ${flow('f4', 'fraud', 'investigate')}<bpmn:userTask id="investigate" />${flow('f5', 'investigate', 'end')}`,
  '<bpmn:error id="e_fraud" errorCode="FRAUD" />',
);
const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });
const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });

describe.each(testStoreConfigs())('external tasks on $name', (testStore) => {
  async function setup() {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'invoice.bpmn', bytes: Buffer.from(MODEL) }] });
    const start = (businessKey: string, prio = 0) =>
      engine.runtime.startProcessInstanceById(processDefinitions![0].id, { businessKey, variables: { prio: integer(prio), customer: string(businessKey) } });
    return { engine, start };
  }
  const fetch = (engine: ProcessEngine, workerId: string, extra: object = {}, maxTasks = 10) =>
    engine.externalTask.fetchAndLock({ workerId, maxTasks, topics: [{ topicName: 'invoice', lockDuration: 60_000, ...extra }] });
  const userTasks = async (engine: ProcessEngine, id: string) => (await engine.task.findTasks({ processInstanceId: id })).map((task) => task.taskDefinitionKey);

  it('locks each task for one worker, with the variables the topic asks for, by priority when asked', async () => {
    const { engine, start } = await setup();
    await start('a', 1);
    await start('b', 9);

    const first = await engine.externalTask.fetchAndLock({
      workerId: 'w1',
      maxTasks: 1,
      usePriority: true,
      topics: [{ topicName: 'invoice', lockDuration: 1000, variables: ['customer'], includeExtensionProperties: true }],
    });
    const second = await fetch(engine, 'w2');
    const none = await fetch(engine, 'w3');
    engine.clock.advance(1001);
    const expired = await fetch(engine, 'w3');

    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({ businessKey: 'b', priority: 9, workerId: 'w1', topicName: 'invoice', variables: { customer: { value: 'b' } }, extensionProperties: { kind: 'pdf' } });
    expect(Object.keys(first[0].variables)).toEqual(['customer']);
    expect(second.map((task) => task.businessKey)).toEqual(['a']);
    expect(none).toEqual([]);
    expect(expired.map((task) => task.businessKey)).toEqual(['b']);
  });

  it('filters by business key and process variables', async () => {
    const { engine, start } = await setup();
    await start('a');
    await start('b');

    const byKey = await fetch(engine, 'w', { businessKey: 'b' });
    const byVariable = await fetch(engine, 'w', { processVariables: { customer: 'a' } });

    expect(byKey.map((task) => task.businessKey)).toEqual(['b']);
    expect(byVariable.map((task) => task.businessKey)).toEqual(['a']);
  });

  it('completes with variables, refusing another worker with Camunda’s message', async () => {
    const { engine, start } = await setup();
    const instance = await start('a');
    const [task] = await fetch(engine, 'w1');

    await expect(engine.externalTask.complete(task.id, 'w2')).rejects.toThrow(
      `External Task ${task.id} cannot be completed by worker 'w2'. It is locked by worker 'w1'.`,
    );
    await engine.externalTask.complete(task.id, 'w1', { total: integer(42) });

    expect(await userTasks(engine, instance.id)).toEqual(['review']);
    expect((await engine.runtime.getVariables(instance.id)).total).toMatchObject({ value: 42 });
    expect(await engine.externalTask.countExternalTasks()).toBe(0);
    await expect(engine.externalTask.complete(task.id, 'w1')).rejects.toThrow(NotFoundException);
  });

  it('records failures: retries to zero open a failedExternalTask incident, new retries resolve it', async () => {
    const { engine, start } = await setup();
    await start('a');
    const [task] = await fetch(engine, 'w1');

    await engine.externalTask.handleFailure(task.id, { workerId: 'w1', errorMessage: 'x'.repeat(700), errorDetails: 'stack', retries: 1, retryTimeout: 5000 });
    const hidden = await fetch(engine, 'w1');
    engine.clock.advance(5000);
    const [again] = await fetch(engine, 'w1');
    await engine.externalTask.handleFailure(task.id, { workerId: 'w1', errorMessage: 'boom', retries: 0, retryTimeout: 0 });
    const incidents = await engine.management.findIncidents({ incidentType: 'failedExternalTask' });
    const details = await engine.externalTask.getErrorDetails(task.id);
    await engine.externalTask.setRetries(task.id, 2);

    expect(hidden).toEqual([]);
    expect(again.errorMessage).toHaveLength(666);
    expect(incidents).toMatchObject([{ configuration: task.id, activityId: 'create', incidentMessage: 'boom' }]);
    // A failure without details keeps the ones reported before (Camunda's ExternalTaskEntity.failed).
    expect(details).toBe('stack');
    expect(await engine.management.findIncidents()).toEqual([]);
  });

  it('routes a BPMN error to the error boundary event', async () => {
    const { engine, start } = await setup();
    const instance = await start('a');
    const [task] = await fetch(engine, 'w1');

    await engine.externalTask.handleBpmnError(task.id, 'w1', 'REJECTED', 'nope', { reason: string('late') });

    expect(await userTasks(engine, instance.id)).toEqual(['fix']);
    expect((await engine.runtime.getVariables(instance.id)).reason).toMatchObject({ value: 'late' });
  });

  it('locks, extends and unlocks', async () => {
    const { engine, start } = await setup();
    await start('a');
    const [task] = await engine.externalTask.findExternalTasks();

    await engine.externalTask.lock(task.id, 'w1', 1000);
    await expect(engine.externalTask.lock(task.id, 'w2', 1000)).rejects.toThrow(BadUserRequestException);
    await engine.externalTask.extendLock(task.id, 'w1', 10_000);
    const extended = await engine.externalTask.getExternalTask(task.id);
    await engine.externalTask.unlock(task.id);
    const unlocked = await engine.externalTask.getExternalTask(task.id);

    expect(extended!.lockExpirationTime!.getTime()).toBe(engine.clock.now().getTime() + 10_000);
    expect(unlocked).toMatchObject({ workerId: null, lockExpirationTime: null });
    expect(await engine.externalTask.getTopicNames({ withUnlockedTasks: true })).toEqual(['invoice']);
  });

  it('gives back undelivered locks only where the fetch\'s lock still holds', async () => {
    const { engine, start } = await setup();
    await start('a');
    await start('b');
    const fetched = await fetch(engine, 'w1');
    const [kept, given] = fetched;
    await engine.externalTask.extendLock(kept.id, 'w1', 120_000);

    await engine.externalTask.unlockUndelivered(fetched);

    expect(await engine.externalTask.getExternalTask(kept.id)).toMatchObject({ workerId: 'w1' });
    expect(await engine.externalTask.getExternalTask(given.id)).toMatchObject({ workerId: null, lockExpirationTime: null });
    expect((await fetch(engine, 'w2')).map((task) => task.id)).toEqual([given.id]);
  });

  it('turns a completion or failure into a BPMN error when a camunda:errorEventDefinition expression holds', async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 's.bpmn', bytes: Buffer.from(WITH_ERROR_EXPRESSIONS) }] });
    const start = () => engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const clean = await start();
    const fraud = await start();
    const failing = await start();
    const tasks = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 3, topics: [{ topicName: 'screen', lockDuration: 1000 }] });
    const byInstance = (id: string) => tasks.find((task) => task.processInstanceId === id)!.id;

    await engine.externalTask.complete(byInstance(clean.id), 'w', { score: integer(10) });
    await engine.externalTask.complete(byInstance(fraud.id), 'w', { score: integer(95) });
    await engine.externalTask.handleFailure(byInstance(failing.id), { workerId: 'w', errorMessage: 'x', retries: 1, retryTimeout: 0, variables: { score: integer(99) } });

    expect(await userTasks(engine, clean.id)).toEqual(['ok']);
    expect(await userTasks(engine, fraud.id)).toEqual(['investigate']);
    expect(await userTasks(engine, failing.id)).toEqual(['investigate']);
  });
});
