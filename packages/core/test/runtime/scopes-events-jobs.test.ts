import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BpmnError } from '../../src/runtime/bpmn-error.js';
import type { FixedClock } from '../../src/clock.js';
import type { EngineConfig } from '../../src/config.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import {
  asyncServiceModel,
  boundaryModel,
  callerModel,
  childModel,
  delegateModel,
  errorModel,
  eventGatewayModel,
  inclusiveModel,
  messageSignalModel,
  messageStartModel,
  scriptModel,
  subProcessModel,
  terminateInSubModel,
  timerStartModel,
  parallelMiModel,
  eventSubProcessModel,
  conditionalModel,
  sequentialMiModel,
  flow,
  wrap,
} from './scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });
const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const boolean = (value: boolean) => ({ type: 'boolean' as const, value, valueInfo: {} });
const HOUR = 3_600_000;

describe.each(testStoreConfigs())('scopes, events and jobs on $name', (testStore) => {
  async function engineWith(xmls: string[], config: Omit<Partial<EngineConfig>, 'clock'> = {}) {
    const engine = (await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), ...config })) as ProcessEngine & { clock: FixedClock };
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({
      resources: xmls.map((xml, i) => ({ name: `model${i}.bpmn`, bytes: Buffer.from(xml) })),
    });
    return { engine, definition: processDefinitions![0], definitions: processDefinitions! };
  }
  const taskKeys = async (engine: ProcessEngine, processInstanceId: string) =>
    (await engine.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey).sort();
  const completeTask = async (engine: ProcessEngine, processInstanceId: string, key: string, variables = {}) => {
    const task = (await engine.task.findTasks({ processInstanceId })).find((each) => each.taskDefinitionKey === key)!;
    return engine.task.complete(task.id, variables);
  };

  it('runs an embedded sub-process in its own scope: nested activity instances, local input, mapped output', async () => {
    const { engine, definition } = await engineWith([subProcessModel]);

    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { amount: integer(20) } });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    const before = await engine.runtime.getVariables(instance.id);
    await completeTask(engine, instance.id, 'work');
    const after = await engine.runtime.getVariables(instance.id);

    const sub = tree!.childActivityInstances[0];
    expect(sub).toMatchObject({ activityId: 'sub', activityType: 'subProcess', parentActivityInstanceId: instance.id });
    expect(sub.childActivityInstances.map((child) => [child.activityId, child.parentActivityInstanceId])).toEqual([['work', sub.id]]);
    expect(sub.executionIds[0]).not.toBe(instance.id);
    expect(Object.keys(before)).toEqual(['amount']);
    expect(after.result).toMatchObject({ value: 41 });
    expect(after.inner).toBeUndefined();
    expect(await taskKeys(engine, instance.id)).toEqual(['after']);
  });

  it('fires an interrupting boundary timer when the clock passes it, cancelling the task', async () => {
    const { engine, definition } = await engineWith([boundaryModel]);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    const [timer] = await engine.management.findJobs({ processInstanceId: instance.id });
    expect(await engine.jobExecutor.runDueJobs()).toBe(0);
    engine.clock.advance(HOUR + 1);
    expect(await engine.jobExecutor.runDueJobs()).toBe(1);

    expect(timer).toMatchObject({ type: 'timer', handlerType: 'timer-transition', activityId: 'late', dueDate: new Date(engine.clock.now().getTime() - 1) });
    expect(await taskKeys(engine, instance.id)).toEqual(['escalated']);
    expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toEqual([]);
  });

  it('opens a concurrent path for a non-interrupting message boundary event and keeps the task', async () => {
    const { engine, definition } = await engineWith([boundaryModel]);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    const [result] = await engine.message.correlate({ messageName: 'remark', processInstanceId: instance.id });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    await completeTask(engine, instance.id, 'note');
    await completeTask(engine, instance.id, 'review');

    expect(result.resultType).toBe('Execution');
    expect(tree!.childActivityInstances.map((child) => child.activityId).sort()).toEqual(['note', 'review']);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
    expect(await engine.management.findJobs()).toEqual([]);
  });

  it('catches an error end event with the error boundary event of the sub-process', async () => {
    const { engine, definition } = await engineWith([errorModel]);

    const failing = await engine.runtime.startProcessInstanceById(definition.id, { variables: { amount: integer(500) } });
    const passing = await engine.runtime.startProcessInstanceById(definition.id, { variables: { amount: integer(5) } });

    expect(await taskKeys(engine, failing.id)).toEqual(['handle']);
    expect((await engine.runtime.getVariables(failing.id)).code).toMatchObject({ value: 'LIMIT' });
    expect(await taskKeys(engine, passing.id)).toEqual(['done']);
  });

  it('correlates messages by business key and correlation keys, and broadcasts signals', async () => {
    const { engine, definition } = await engineWith([messageSignalModel]);
    const first = await engine.runtime.startProcessInstanceById(definition.id, { businessKey: 'A', variables: { order: string('o-1') } });
    const second = await engine.runtime.startProcessInstanceById(definition.id, { businessKey: 'B', variables: { order: string('o-2') } });

    const ambiguous = engine.message.correlate({ messageName: 'paid' });
    await expect(ambiguous).rejects.toThrow("Cannot correlate a message with name 'paid' to a single execution. 2 executions match");
    const none = engine.message.correlate({ messageName: 'paid', businessKey: 'Z' });
    await expect(none).rejects.toThrow("Cannot correlate message 'paid': No process definition or execution matches the parameters");
    await engine.message.correlate({ messageName: 'paid', businessKey: 'A', processVariables: { amount: integer(3) } });
    await engine.message.correlate({ messageName: 'paid', correlationKeys: { order: string('o-2') } });
    const waitingForSignal = await engine.management.findEventSubscriptions({ eventType: 'signal' });
    await engine.message.signal({ name: 'go' });

    expect(waitingForSignal.map((subscription) => subscription.processInstanceId).sort()).toEqual([first.id, second.id].sort());
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('starts an instance with a message start event, with the business key and variables', async () => {
    const { engine } = await engineWith([messageStartModel]);

    const [result] = await engine.message.correlate({ messageName: 'order', businessKey: 'order-9', processVariables: { item: string('book') }, all: true });

    expect(result).toMatchObject({ resultType: 'ProcessDefinition', processInstance: { businessKey: 'order-9', ended: false } });
    expect(await engine.runtime.getVariables(result.processInstance!.id)).toMatchObject({ item: { value: 'book' } });
    expect(await taskKeys(engine, result.processInstance!.id)).toEqual(['handle']);
  });

  it('continues an async-before activity in a job: a transition instance until then', async () => {
    const { engine, definition } = await engineWith([asyncServiceModel()]);
    const calls: string[] = [];
    engine.delegates.registerClass('com.example.Charge', (execution) => {
      calls.push(String(execution.getVariable('card')));
    });

    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { card: string('visa') } });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    await engine.jobExecutor.runDueJobs();

    expect(tree!.childActivityInstances).toEqual([]);
    expect(tree!.childTransitionInstances).toMatchObject([{ activityId: 'call', activityType: 'serviceTask', parentActivityInstanceId: instance.id }]);
    expect(calls).toEqual(['visa']);
    expect(await taskKeys(engine, instance.id)).toEqual(['after']);
  });

  it('retries a failing job per its retry cycle and opens a failedJob incident at the end', async () => {
    const { engine, definition } = await engineWith([asyncServiceModel('R2/PT5M')]);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    await engine.jobExecutor.runDueJobs();
    const [afterFirst] = await engine.management.findJobs({ processInstanceId: instance.id });
    expect(await engine.jobExecutor.runDueJobs()).toBe(0);
    engine.clock.advance(5 * 60_000);
    await engine.jobExecutor.runDueJobs();
    const [afterSecond] = await engine.management.findJobs({ processInstanceId: instance.id });
    const incidents = await engine.management.findIncidents({ processInstanceId: instance.id });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);

    expect(afterFirst).toMatchObject({ retries: 1, dueDate: new Date(engine.clock.now().getTime()) });
    expect(afterFirst.exceptionMessage).toContain("com.example.Charge");
    expect(afterSecond.retries).toBe(0);
    expect(incidents).toMatchObject([{ incidentType: 'failedJob', configuration: afterSecond.id, activityId: 'call', executionId: afterSecond.executionId }]);
    expect(tree!.childTransitionInstances[0].incidents).toEqual([{ id: incidents[0].id, activityId: 'call' }]);
  });

  it('reads a retry cycle as a list of intervals, an expression or an unbounded repetition, as Camunda', async () => {
    const { engine, definitions } = await engineWith([asyncServiceModel('PT1M, PT2M'), asyncServiceModel('${cycle}').replace(/asyncService/g, 'byExpression'), asyncServiceModel('R/PT1M').replace(/asyncService/g, 'unbounded')]);
    const byKey = (key: string) => definitions.find((each) => each.key === key)!.id;
    const list = await engine.runtime.startProcessInstanceById(byKey('asyncService'));
    const observed: Array<[number, number]> = [];
    for (let attempt = 0; attempt < 3; attempt++) {
      const started = engine.clock.now().getTime();
      await engine.jobExecutor.runDueJobs();
      const [job] = await engine.management.findJobs({ processInstanceId: list.id });
      observed.push([job!.retries, (job!.dueDate!.getTime() - started) / 60_000]);
      engine.clock.advance(2 * 60_000);
    }
    // Three attempts in all (two intervals plus one); the last failure still waits its interval.
    expect(observed).toEqual([[2, 1], [1, 2], [0, 2]]);

    const byExpression = await engine.runtime.startProcessInstanceById(byKey('byExpression'), { variables: { cycle: { type: 'string', value: 'R4/PT5M', valueInfo: {} } } });
    const unbounded = await engine.runtime.startProcessInstanceById(byKey('unbounded'));
    const before = engine.clock.now().getTime();
    await engine.jobExecutor.runDueJobs();
    const [expressionJob] = await engine.management.findJobs({ processInstanceId: byExpression.id });
    const [unboundedJob] = await engine.management.findJobs({ processInstanceId: unbounded.id });
    expect([expressionJob!.retries, expressionJob!.dueDate!.getTime() - before]).toEqual([3, 5 * 60_000]);
    expect(unboundedJob!.retries).toBe(2_147_483_646);
  });

  it('gives jobs the priority of their activity (a number or an expression), else of their process, as Camunda', async () => {
    const prioritized = (key: string, processPriority: string, taskPriority: string) =>
      asyncServiceModel()
        .replace(/asyncService/g, key)
        .replace('camunda:historyTimeToLive="5"', `camunda:historyTimeToLive="5" ${processPriority}`)
        .replace('camunda:asyncBefore="true"', `camunda:asyncBefore="true" ${taskPriority}`);
    const timerStart = wrap('timed', `<bpmn:startEvent id="start" camunda:jobPriority="5"><bpmn:timerEventDefinition><bpmn:timeCycle>R/PT1H</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:startEvent>${flow('f1', 'start', 'end')}<bpmn:endEvent id="end" />`);
    const { engine, definitions } = await engineWith([
      prioritized('byProcess', 'camunda:jobPriority="10"', ''),
      prioritized('byExpression', 'camunda:jobPriority="10"', 'camunda:jobPriority="${p}"'),
      timerStart,
    ]);
    const byKey = (key: string) => definitions.find((each) => each.key === key)!.id;
    const priorityOf = async (processInstanceId: string) => (await engine.management.findJobs({ processInstanceId }))[0]!.priority;

    expect(await priorityOf((await engine.runtime.startProcessInstanceById(byKey('byProcess'))).id)).toBe(10);
    expect(await priorityOf((await engine.runtime.startProcessInstanceById(byKey('byExpression'), { variables: { p: integer(42) } })).id)).toBe(42);
    await expect(engine.runtime.startProcessInstanceById(byKey('byExpression'), { variables: { p: string('high') } })).rejects.toThrow(
      /^Job call\/async-continuation instantiated in context of ProcessInstance\[.+\]: Priority value is not an Integer$/,
    );
    expect((await engine.management.findJobs()).filter((job) => job.processDefinitionKey === 'timed').map((job) => job.priority)).toEqual([5]);
    const refused = await engine.deployment.deploy({ resources: [{ name: 'bad.bpmn', bytes: Buffer.from(prioritized('bad', 'camunda:jobPriority="high"', '')) }] }).catch((error: Error) => error);
    expect((refused as Error).message).toContain("Value 'high' for attribute 'jobPriority' is not a valid number");
  });

  it('calls a process, passing variables in and out, and resumes when it ends', async () => {
    const { engine, definitions } = await engineWith([callerModel, childModel]);
    const caller = definitions.find((each) => each.key === 'caller')!;

    const parent = await engine.runtime.startProcessInstanceById(caller.id, { businessKey: 'bk', variables: { amount: integer(7) } });
    const [child] = await engine.runtime.findProcessInstances({ processDefinitionKey: 'child' });
    const childVariables = await engine.runtime.getVariables(child.id);
    await completeTask(engine, child.id, 'work', { total: integer(70) });

    expect(child.businessKey).toBe('bk');
    expect(childVariables).toMatchObject({ amount: { value: 7 } });
    expect(await engine.runtime.countProcessInstances({ processDefinitionKey: 'child' })).toBe(0);
    expect((await engine.runtime.getVariables(parent.id)).total).toMatchObject({ value: 70 });
    expect(await taskKeys(engine, parent.id)).toEqual(['after']);
  });

  it('cancels a called instance with its caller', async () => {
    const { engine, definitions } = await engineWith([callerModel, childModel]);
    const parent = await engine.runtime.startProcessInstanceById(definitions.find((each) => each.key === 'caller')!.id, { variables: { amount: integer(1) } });

    await engine.runtime.deleteProcessInstance(parent.id);

    expect(await engine.runtime.countProcessInstances()).toBe(0);
    expect(await engine.task.countTasks()).toBe(0);
  });

  it('forks an inclusive gateway on the conditions that hold and joins what was forked', async () => {
    const { engine, definition } = await engineWith([inclusiveModel]);
    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { a: boolean(true), b: boolean(false), c: boolean(true) } });

    const forked = await taskKeys(engine, instance.id);
    await completeTask(engine, instance.id, 'a');
    const afterOne = await taskKeys(engine, instance.id);
    await completeTask(engine, instance.id, 'c');

    expect(forked).toEqual(['a', 'c']);
    expect(afterOne).toEqual(['c']);
    expect(await taskKeys(engine, instance.id)).toEqual(['after']);
  });

  it('lets the first event after an event-based gateway win', async () => {
    const { engine, definition } = await engineWith([eventGatewayModel]);
    const answered = await engine.runtime.startProcessInstanceById(definition.id);
    const expired = await engine.runtime.startProcessInstanceById(definition.id);

    await engine.message.correlate({ messageName: 'reply', processInstanceId: answered.id });
    engine.clock.advance(25 * HOUR);
    await engine.jobExecutor.runDueJobs();

    expect(await taskKeys(engine, answered.id)).toEqual(['answered']);
    expect(await taskKeys(engine, expired.id)).toEqual(['expired']);
    expect(await engine.management.findJobs()).toEqual([]);
    expect(await engine.management.findEventSubscriptions()).toEqual([]);
  });

  it('ends only the sub-process at a terminate end event inside it', async () => {
    const { engine, definition } = await engineWith([terminateInSubModel]);

    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    expect(await taskKeys(engine, instance.id)).toEqual(['after']);
  });

  it('calls registered delegates, expressions on beans and listeners; a BpmnError reaches its boundary event', async () => {
    const { engine, definition } = await engineWith([delegateModel]);
    engine.delegates
      .registerClass('com.example.Pricing', (execution) => execution.setVariable('net', 100))
      .registerBean('taxes', { rate: (net: number) => net * 0.2 })
      .registerBean('checker', {
        execute: (execution: { getVariable(name: string): unknown }) => {
          if (execution.getVariable('rate') === 20) throw new BpmnError('REJECT', 'too much tax');
        },
      });

    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    expect(await engine.runtime.getVariables(instance.id)).toMatchObject({ started: { value: true }, net: { value: 100 }, rate: { value: 20 } });
    expect(await taskKeys(engine, instance.id)).toEqual(['review']);
  });

  it('fails at a class nobody registered the way Camunda fails a missing class', async () => {
    const { engine, definition } = await engineWith([delegateModel]);

    await expect(engine.runtime.startProcessInstanceById(definition.id)).rejects.toThrow("com.example.Pricing");
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('runs script tasks only when scripting is enabled', async () => {
    const off = await engineWith([scriptModel]);
    const on = await engineWith([scriptModel], { scripting: { enabled: true } });

    await expect(off.engine.runtime.startProcessInstanceById(off.definition.id, { variables: { amount: integer(4) } })).rejects.toThrow('scripting is disabled');
    const instance = await on.engine.runtime.startProcessInstanceById(on.definition.id, { variables: { amount: integer(4) } });

    expect((await on.engine.runtime.getVariables(instance.id)).doubled).toMatchObject({ value: 8 });
  });

  it('starts instances from a timer start event cycle and replaces it when a new version is deployed', async () => {
    const { engine } = await engineWith([timerStartModel]);

    engine.clock.advance(HOUR);
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(HOUR);
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(HOUR);
    await engine.jobExecutor.runDueJobs();
    const started = await engine.runtime.countProcessInstances();
    await engine.deployment.deploy({ resources: [{ name: 'again.bpmn', bytes: Buffer.from(timerStartModel) }] });
    const timers = await engine.management.findJobs({ timers: true });

    expect(started).toBe(2);
    expect(timers).toHaveLength(1);
    expect(timers[0].processDefinitionId).not.toBe((await engine.processDefinition.findProcessDefinitions({ key: 'daily', version: 1 }))[0]?.id);
  });

  it('runs parallel multi-instance over a collection until the completion condition holds', async () => {
    const { engine, definition } = await engineWith([parallelMiModel]);
    const voters = { type: 'json' as const, value: '["ann","bob","cy"]', valueInfo: {} };
    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { voters } });

    const tasks = await engine.task.findTasks({ processInstanceId: instance.id });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    await engine.task.complete(tasks.find((task) => task.assignee === 'ann')!.id);
    const afterOne = await engine.task.countTasks({ processInstanceId: instance.id });
    await engine.task.complete(tasks.find((task) => task.assignee === 'cy')!.id);

    expect(tasks.map((task) => task.assignee).sort()).toEqual(['ann', 'bob', 'cy']);
    expect(tree!.childActivityInstances[0]).toMatchObject({ activityId: 'vote#multiInstanceBody', activityType: 'multiInstanceBody' });
    expect(tree!.childActivityInstances[0].childActivityInstances.map((child) => child.activityId)).toEqual(['vote', 'vote', 'vote']);
    expect(afterOne).toBe(2);
    expect(await taskKeys(engine, instance.id)).toEqual(['after']);
  });

  it('runs a sequential multi-instance sub-process one instance after another with loopCounter', async () => {
    const { engine, definition } = await engineWith([sequentialMiModel]);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    const assignees: Array<string | null> = [];
    for (let i = 0; i < 3; i++) {
      const tasks = await engine.task.findTasks({ processInstanceId: instance.id });
      expect(tasks).toHaveLength(1);
      assignees.push(tasks[0].assignee);
      await engine.task.complete(tasks[0].id);
    }

    expect(assignees).toEqual(['user0', 'user1', 'user2']);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('runs a non-interrupting timer event sub-process beside the work, and an interrupting message one instead of it', async () => {
    const { engine, definition } = await engineWith([eventSubProcessModel]);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    engine.clock.advance(HOUR + 1);
    await engine.jobExecutor.runDueJobs();
    const reminded = await taskKeys(engine, instance.id);
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    await engine.message.correlate({ messageName: 'cancel', processInstanceId: instance.id });
    const cancelled = await taskKeys(engine, instance.id);
    await completeTask(engine, instance.id, 'cleanup');

    expect(reminded).toEqual(['remind', 'work']);
    expect(tree!.childActivityInstances.map((child) => [child.activityId, child.activityType]).sort()).toEqual([['reminder', 'subProcess'], ['work', 'userTask']]);
    expect(cancelled).toEqual(['cleanup']);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('fires a conditional boundary event when a variable change makes its condition true', async () => {
    const { engine, definition } = await engineWith([conditionalModel]);
    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { priority: string('low') } });

    await engine.runtime.modifyVariables(instance.id, { priority: string('medium') });
    const unchanged = await taskKeys(engine, instance.id);
    await engine.runtime.modifyVariables(instance.id, { priority: string('high') });

    expect(unchanged).toEqual(['work']);
    expect(await taskKeys(engine, instance.id)).toEqual(['escalate']);
  });
});
