import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException, NotFoundException } from '../../src/errors/index.js';
import { createTestEngine, externalTaskProcessXml, testStoreConfigs } from '../../src/testing/index.js';
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
   <bpmn:boundaryEvent id="fraud" attachedToRef="screen"><bpmn:errorEventDefinition errorRef="e_fraud" camunda:errorMessageVariable="reason" /></bpmn:boundaryEvent>
   ${flow('f4', 'fraud', 'investigate')}<bpmn:userTask id="investigate" />${flow('f5', 'investigate', 'end')}`,
  '<bpmn:error id="e_fraud" errorCode="FRAUD" />',
);
const SHIPPING = externalTaskProcessXml('shipping', { taskAttributes: 'camunda:taskPriority="${prio}"' });
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

  it('finds a task whose process variables match behind any number that do not, comparing typed values as Camunda', async () => {
    const { engine, start } = await setup();
    for (let i = 0; i < 12; i++) await start(`other${i}`, 3);
    const wanted = await start('wanted', 4);
    const byVariable = (processVariables: Record<string, unknown>) => fetch(engine, 'w', { processVariables }, 1);

    const byCustomer = await byVariable({ customer: 'wanted' });
    // A JSON number is an Integer to Camunda: it matches integer variables only, and text matches no number.
    const asText = await byVariable({ prio: '3' });
    const asDouble = await byVariable({ prio: 3.5 });
    // Any one of the variables suffices.
    const anyOne = await byVariable({ customer: 'nobody', prio: 3 });

    expect(byCustomer.map((task) => task.processInstanceId)).toEqual([wanted.id]);
    expect([asText, asDouble]).toEqual([[], []]);
    expect(anyOne).toHaveLength(1);
    expect(anyOne[0].priority).toBe(3);
    await expect(byVariable({ customer: { name: 'wanted' } })).rejects.toMatchObject({ name: 'ProcessEngineException', message: 'Object values cannot be used to query' });
  });

  it('fetches several topics as one query: priority and create time order across them, maxTasks limits them all', async () => {
    const { engine, start } = await setup();
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'shipping.bpmn', bytes: Buffer.from(SHIPPING) }] });
    const ship = (prio: number) => engine.runtime.startProcessInstanceById(processDefinitions![0].id, { variables: { prio: integer(prio) } });
    await ship(3);
    engine.clock.advance(1000);
    await start('a', 5);
    engine.clock.advance(1000);
    await ship(9);
    engine.clock.advance(1000);
    await start('b', 1);
    const topics = [{ topicName: 'invoice', lockDuration: 1000 }, { topicName: 'shipping', lockDuration: 5000 }];
    const now = engine.clock.now().getTime();

    const byPriority = await engine.externalTask.fetchAndLock({ workerId: 'w1', maxTasks: 3, usePriority: true, topics });
    engine.clock.advance(5000);
    const newestFirst = await engine.externalTask.fetchAndLock({ workerId: 'w2', maxTasks: 2, sorting: [{ sortBy: 'createTime', sortOrder: 'desc' }], topics });

    expect(byPriority.map((task) => [task.topicName, task.priority, task.lockExpirationTime!.getTime() - now])).toEqual([
      ['shipping', 9, 5000],
      ['invoice', 5, 1000],
      ['shipping', 3, 5000],
    ]);
    expect(newestFirst.map((task) => [task.topicName, task.priority])).toEqual([
      ['invoice', 1],
      ['shipping', 9],
    ]);
  });

  it('refuses a BPMN error with an empty or blank code or message as Camunda’s BpmnError does, leaving the task as it was', async () => {
    const { engine, start } = await setup();
    const instance = await start('a');
    const [task] = await fetch(engine, 'w1');

    for (const [code, message, refusal] of [
      ['', null, 'Error Code is empty'],
      [' \t\n', null, 'Error Code is empty'],
      ['REJECTED', '', 'Error Message is empty'],
      ['REJECTED', '  ', 'Error Message is empty'],
    ] as const) {
      await expect(engine.externalTask.handleBpmnError(task.id, 'w1', code, message)).rejects.toMatchObject({ name: 'ProcessEngineException', message: refusal });
    }

    expect(await engine.externalTask.getExternalTask(task.id)).toMatchObject({ workerId: 'w1' });
    expect(await userTasks(engine, instance.id)).toEqual([]);
  });

  it('queries as Camunda: noRetriesLeft wins over withRetriesLeft, and a lock that expires this very moment is not "not locked"', async () => {
    const { engine, start } = await setup();
    await start('a');
    await start('b');
    const [locked] = await fetch(engine, 'w1', {}, 1);
    const [other] = await engine.externalTask.findExternalTasks({ notLocked: true });
    await engine.externalTask.setRetries(other.id, 0);
    engine.clock.advance(60_000);

    const bothRetryFlags = await engine.externalTask.findExternalTasks({ withRetriesLeft: true, noRetriesLeft: true });
    const notLocked = await engine.externalTask.findExternalTasks({ notLocked: true });
    const unlockedTopics = await engine.externalTask.getTopicNames({ withUnlockedTasks: true, withRetriesLeft: true });
    // A fetch takes it, though: its lock has expired (Camunda's LOCK_EXP_TIME_ <= now).
    const fetched = await fetch(engine, 'w2');

    expect(bothRetryFlags.map((task) => task.id)).toEqual([other.id]);
    expect(notLocked.map((task) => task.id)).toEqual([other.id]);
    expect(unlockedTopics).toEqual([]);
    expect(fetched.map((task) => task.id)).toEqual([locked.id]);
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

  it('deletes a task whose completion an error event definition turns into a BPMN error: its message, its deletion log entry, its incident deleted', async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), historyLevel: 'full' });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 's.bpmn', bytes: Buffer.from(WITH_ERROR_EXPRESSIONS) }] });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const [task] = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'screen', lockDuration: 1000 }] });
    await engine.externalTask.handleFailure(task.id, { workerId: 'w', errorMessage: 'looks odd', retries: 0, retryTimeout: 0 });

    await engine.externalTask.complete(task.id, 'w', { score: integer(95) });

    expect(await userTasks(engine, instance.id)).toEqual(['investigate']);
    // Camunda's ExternalTaskEntity.complete throws the error with the task's error message.
    expect((await engine.runtime.getVariables(instance.id)).reason).toMatchObject({ value: 'looks odd' });
    const logs = await engine.history.logs.findExternalTaskLogs({ externalTaskId: task.id });
    expect([logs.filter((log) => log.successLog).length, logs.filter((log) => log.deletionLog).length]).toEqual([0, 1]);
    expect(await engine.history.incidents.find()).toMatchObject([{ configuration: task.id, deleted: true, resolved: false }]);
  });
});
