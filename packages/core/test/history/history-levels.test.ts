import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { isHistoryEventProduced, type HistoryLevel } from '../../src/history/history-level.js';
import { resolveConfig } from '../../src/config.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { noDefaultGateway, startToEnd, userTaskProcess } from '../runtime/models.js';
import { callerModel, childModel, wrap, flow } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });

/** A terminate end event ends the instance while another path waits in a called instance. */
const terminateModel = wrap(
  'terminating',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}
   <bpmn:parallelGateway id="fork" />${flow('f2', 'fork', 'wait')}${flow('f3', 'fork', 'gate')}
   <bpmn:callActivity id="wait" calledElement="child" />${flow('f4', 'wait', 'end')}<bpmn:endEvent id="end" />
   <bpmn:userTask id="gate" />${flow('f5', 'gate', 'kill')}
   <bpmn:endEvent id="kill"><bpmn:terminateEventDefinition /></bpmn:endEvent>`,
);

describe('history levels (configuration)', () => {
  it('defaults to full and refuses an unknown level at engine start', async () => {
    expect(resolveConfig({}).historyLevel).toBe('full');
    expect(resolveConfig({ historyLevel: 'audit' }).historyLevel).toBe('audit');
    await expect(createTestEngine({ historyLevel: 'verbose' as HistoryLevel })).rejects.toThrow(/historyLevel must be one of none, activity, audit, full/);
  });

  it('produces the events of Camunda’s HistoryLevel classes', () => {
    const produced = (type: Parameters<typeof isHistoryEventProduced>[1]) =>
      (['none', 'activity', 'audit', 'full'] as const).map((level) => isHistoryEventProduced(level, type));

    expect(produced('process-instance-start')).toEqual([false, true, true, true]);
    expect(produced('activity-instance-end')).toEqual([false, true, true, true]);
    expect(produced('task-instance-create')).toEqual([false, true, true, true]);
    expect(produced('variable-instance-update')).toEqual([false, false, true, true]);
    expect(produced('form-property-update')).toEqual([false, false, false, true]);
    expect(produced('job-fail')).toEqual([false, false, false, true]);
    expect(produced('user-operation-log')).toEqual([false, false, false, true]);
  });
});

describe.each(testStoreConfigs())('history on $name', (testStore) => {
  async function engineWith(historyLevel: HistoryLevel | undefined, ...xmls: string[]) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), historyLevel });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: xmls.map((xml, i) => ({ name: `model${i}.bpmn`, bytes: Buffer.from(xml) })) });
    return { engine, definitions: processDefinitions! };
  }

  it.each(['activity', 'audit', 'full'] as const)('writes process and activity instances at level %s', async (level) => {
    const { engine, definitions } = await engineWith(level, startToEnd);

    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { businessKey: 'order-1' });

    expect(await engine.history.findHistoricProcessInstances()).toEqual([
      expect.objectContaining({ id: instance.id, businessKey: 'order-1', state: 'COMPLETED', startActivityId: 'start', endActivityId: 'end', durationInMillis: 0 }),
    ]);
    expect((await engine.history.findHistoricActivityInstances({ sorting: [{ sortBy: 'occurrence', sortOrder: 'asc' }] })).map((a) => [a.activityId, a.activityType])).toEqual([
      ['start', 'startEvent'],
      ['end', 'noneEndEvent'],
    ]);
  });

  it("marks completeScope as Camunda's HistoricActivityInstanceStateTest: multi-instance inner activities, every path of a join without outgoing flow, not a compensation handler", async () => {
    const model = wrap(
      'scopes',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'mi')}
       <bpmn:serviceTask id="mi" camunda:expression="\${true}"><bpmn:multiInstanceLoopCharacteristics isSequential="true"><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:serviceTask>
       ${flow('f2', 'mi', 'fork')}<bpmn:parallelGateway id="fork" />${flow('f3', 'fork', 'book')}${flow('f4', 'fork', 'other')}
       <bpmn:serviceTask id="book" camunda:expression="\${true}" />
       <bpmn:boundaryEvent id="undoBook" attachedToRef="book"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
       <bpmn:serviceTask id="cancelBook" isForCompensation="true" camunda:expression="\${true}" />
       <bpmn:association id="a1" associationDirection="One" sourceRef="undoBook" targetRef="cancelBook" />
       ${flow('f5', 'book', 'compensate')}<bpmn:intermediateThrowEvent id="compensate"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>
       ${flow('f6', 'compensate', 'join')}<bpmn:serviceTask id="other" camunda:expression="\${true}" />${flow('f7', 'other', 'join')}
       <bpmn:parallelGateway id="join" />`,
    );
    const { engine, definitions } = await engineWith('full', model);

    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id);
    const rows = await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id });
    const completing = (activityId: string) => rows.filter((row) => row.activityId === activityId).map((row) => row.completeScope);

    expect(completing('mi')).toEqual([true, true]);
    expect(completing('mi#multiInstanceBody')).toEqual([false]);
    expect(completing('join')).toEqual([true, true]);
    expect(completing('cancelBook')).toEqual([false]);
  });

  it('writes the execution an activity instance ended in, as Camunda rewrites it at the end', async () => {
    const model = wrap(
      'pruned',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
       ${flow('f2', 'fork', 'ta')}${flow('f3', 'fork', 'tb')}
       <bpmn:userTask id="ta" />${flow('f4', 'ta', 'endA')}<bpmn:endEvent id="endA" />
       <bpmn:userTask id="tb" />${flow('f5', 'tb', 'endB')}<bpmn:endEvent id="endB" />`,
    );
    const { engine, definitions } = await engineWith('full', model);
    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id);
    const taskAt = async (key: string) => (await engine.task.findTasks({ processInstanceId: instance.id })).find((task) => task.taskDefinitionKey === key)!;

    await engine.task.complete((await taskAt('ta')).id);
    const tb = await taskAt('tb');
    await engine.task.complete(tb.id);

    const [row] = await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'tb' });
    expect(row.executionId).toBe(tb.executionId);
  });

  it('writes nothing at level none', async () => {
    const { engine, definitions } = await engineWith('none', userTaskProcess);

    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables: { reviewer: string('mary'), subject: string('x') } });
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    await engine.task.complete(task.id);

    expect(await engine.history.countHistoricProcessInstances()).toBe(0);
    expect(await engine.history.countHistoricActivityInstances()).toBe(0);
  });

  it('keeps the history of a finished instance after its runtime rows are gone', async () => {
    const { engine, definitions } = await engineWith(undefined, userTaskProcess);
    const definition = definitions[0];

    const instance = await engine.runtime.startProcessInstanceById(definition.id, { businessKey: 'b-7', variables: { reviewer: string('mary'), subject: string('x') } });
    const running = await engine.history.getHistoricProcessInstance(instance.id);
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    const waiting = await engine.history.findHistoricActivityInstances({ activityId: 'review' });
    await engine.task.setAssignee(task.id, 'john');
    engine.clock.advance(5_000);
    await engine.task.complete(task.id);

    expect(running).toMatchObject({ state: 'ACTIVE', endTime: null, durationInMillis: null, rootProcessInstanceId: instance.id, processDefinitionKey: 'approval', processDefinitionVersion: 1 });
    expect(waiting).toEqual([expect.objectContaining({ taskId: task.id, assignee: 'mary', endTime: null, parentActivityInstanceId: instance.id })]);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
    expect(await engine.history.getHistoricProcessInstance(instance.id)).toMatchObject({
      state: 'COMPLETED',
      businessKey: 'b-7',
      durationInMillis: 5_000,
      endActivityId: 'end',
      endTime: new Date(engine.clock.now()),
    });
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'review' })).toEqual([
      expect.objectContaining({ durationInMillis: 5_000, canceled: false, completeScope: false, taskId: task.id, assignee: 'john' }),
    ]);
    expect(await engine.history.findHistoricActivityInstances({ activityId: 'end' })).toEqual([expect.objectContaining({ completeScope: true, canceled: false })]);
    expect(await engine.history.countHistoricActivityInstances({ processInstanceId: instance.id, finished: true })).toBe(3);
  });

  it('writes no history for a command that rolled back', async () => {
    const { engine, definitions } = await engineWith('full', noDefaultGateway);

    await expect(engine.runtime.startProcessInstanceById(definitions[0].id, { variables: { amount: { type: 'integer', value: 5, valueInfo: {} } } })).rejects.toThrow();

    expect(await engine.history.countHistoricProcessInstances()).toBe(0);
    expect(await engine.history.countHistoricActivityInstances()).toBe(0);
  });

  it('marks a deleted instance externally terminated with its reason and its open activities canceled', async () => {
    const { engine, definitions } = await engineWith('activity', userTaskProcess);
    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables: { reviewer: string('mary'), subject: string('x') } });

    await engine.runtime.deleteProcessInstance(instance.id, { reason: 'no longer needed' });

    expect(await engine.history.getHistoricProcessInstance(instance.id)).toMatchObject({ state: 'EXTERNALLY_TERMINATED', deleteReason: 'no longer needed' });
    expect(await engine.history.findHistoricActivityInstances({ activityId: 'review' })).toEqual([expect.objectContaining({ canceled: true })]);
    expect(await engine.history.countHistoricProcessInstances({ externallyTerminated: true })).toBe(1);
    expect(await engine.history.countHistoricProcessInstances({ completed: true })).toBe(0);
  });

  // Camunda: HistoricProcessInstanceStateTest (testTerminatedInternalWithGateway, testWithCallActivity).
  it('completes an instance ended by a terminate end event; what it called is internally terminated', async () => {
    const { engine, definitions } = await engineWith('full', terminateModel, childModel);
    const instance = await engine.runtime.startProcessInstanceById(definitions.find((each) => each.key === 'terminating')!.id);
    const gate = (await engine.task.findTasks({ processInstanceId: instance.id, taskDefinitionKey: 'gate' }))[0];
    const [called] = await engine.history.findHistoricProcessInstances({ superProcessInstanceId: instance.id });

    await engine.task.complete(gate.id);

    expect(await engine.history.getHistoricProcessInstance(instance.id)).toMatchObject({ state: 'COMPLETED', endActivityId: 'kill' });
    expect(await engine.history.getHistoricProcessInstance(called.id)).toMatchObject({ state: 'INTERNALLY_TERMINATED', rootProcessInstanceId: instance.id, endTime: expect.any(Date) });
    expect(await engine.history.countHistoricProcessInstances({ internallyTerminated: true })).toBe(1);
    expect(await engine.history.findHistoricActivityInstances({ activityId: 'wait' })).toEqual([expect.objectContaining({ canceled: true, calledProcessInstanceId: called.id })]);
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: called.id, activityId: 'work' })).toEqual([expect.objectContaining({ canceled: true })]);
    expect(await engine.history.findHistoricActivityInstances({ activityId: 'kill' })).toEqual([expect.objectContaining({ canceled: false, completeScope: true })]);
  });

  it('records suspension and the called instance with its super and root', async () => {
    const { engine, definitions } = await engineWith('full', callerModel, childModel);
    const caller = definitions.find((each) => each.key === 'caller')!;

    const instance = await engine.runtime.startProcessInstanceById(caller.id, { businessKey: 'k', variables: { amount: { type: 'integer', value: 3, valueInfo: {} } } });
    await engine.runtime.updateSuspensionState({ processInstanceIds: [instance.id] }, true);
    const [called] = await engine.history.findHistoricProcessInstances({ superProcessInstanceId: instance.id });

    expect(called).toMatchObject({ processDefinitionKey: 'child', rootProcessInstanceId: instance.id, state: 'ACTIVE' });
    expect(await engine.history.findHistoricActivityInstances({ activityId: 'call' })).toEqual([expect.objectContaining({ calledProcessInstanceId: called.id, activityType: 'callActivity' })]);
    expect(await engine.history.getHistoricProcessInstance(instance.id)).toMatchObject({ state: 'SUSPENDED' });
    expect(await engine.history.countHistoricProcessInstances({ suspended: true })).toBe(1);
  });

  it('follows instances suspended and activated with their definition', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess);
    const variables = { reviewer: string('mary'), subject: string('x') };
    await engine.runtime.startProcessInstanceById(definitions[0].id, { variables });
    await engine.runtime.startProcessInstanceById(definitions[0].id, { variables });

    await engine.processDefinition.updateSuspensionState({ processDefinitionKey: 'approval' }, { suspended: true, includeProcessInstances: true });
    const suspended = await engine.history.countHistoricProcessInstances({ suspended: true });
    await engine.processDefinition.updateSuspensionState({ processDefinitionKey: 'approval' }, { suspended: false, includeProcessInstances: true });

    expect(suspended).toBe(2);
    expect(await engine.history.countHistoricProcessInstances({ active: true })).toBe(2);
  });

  it('finds instances by the activities they executed or wait in', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess, startToEnd);
    const waiting = await engine.runtime.startProcessInstanceById(definitions.find((each) => each.key === 'approval')!.id, { variables: { reviewer: string('mary'), subject: string('x') } });
    const done = await engine.runtime.startProcessInstanceById(definitions.find((each) => each.key === 'startToEnd')!.id);

    expect((await engine.history.findHistoricProcessInstances({ activeActivityIdIn: ['review'] })).map((each) => each.id)).toEqual([waiting.id]);
    expect((await engine.history.findHistoricProcessInstances({ executedActivityIdIn: ['end'] })).map((each) => each.id)).toEqual([done.id]);
    expect(await engine.history.countHistoricProcessInstances({ executedActivityIdIn: ['start'] })).toBe(2);
    expect(await engine.history.countHistoricProcessInstances({ executedActivityIdIn: ['review'] })).toBe(0);
  });

  it('deletes the history of a finished instance and refuses a running one', async () => {
    const { engine, definitions } = await engineWith('full', startToEnd, userTaskProcess);
    const byKey = (key: string) => definitions.find((each) => each.key === key)!.id;
    const finished = await engine.runtime.startProcessInstanceById(byKey('startToEnd'));
    const running = await engine.runtime.startProcessInstanceById(byKey('approval'), { variables: { reviewer: string('mary'), subject: string('x') } });

    await engine.history.deleteHistoricProcessInstance(finished.id);

    expect(await engine.history.getHistoricProcessInstance(finished.id)).toBeNull();
    expect(await engine.history.countHistoricActivityInstances({ processInstanceId: finished.id })).toBe(0);
    await expect(engine.history.deleteHistoricProcessInstance(running.id)).rejects.toThrow(/Process instance is still running, cannot delete historic process instance/);
    await expect(engine.history.deleteHistoricProcessInstance('nope')).rejects.toThrow(/No historic process instance found with id: nope/);
  });

  it('follows a migrated instance to its new definition and its renamed activity', async () => {
    const renamed = userTaskProcess.replaceAll('review', 'check');
    const { engine, definitions } = await engineWith('full', userTaskProcess);
    const v2 = (await engine.deployment.deploy({ resources: [{ name: 'v2.bpmn', bytes: Buffer.from(renamed) }] })).processDefinitions![0];
    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables: { reviewer: string('mary'), subject: string('x') } });

    await engine.migration.execute(
      { sourceProcessDefinitionId: definitions[0].id, targetProcessDefinitionId: v2.id, instructions: [{ sourceActivityId: 'review', targetActivityId: 'check', updateEventTrigger: false }] },
      { processInstanceIds: [instance.id] },
    );

    expect(await engine.history.getHistoricProcessInstance(instance.id)).toMatchObject({ processDefinitionId: v2.id, processDefinitionVersion: 2, state: 'ACTIVE' });
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, unfinished: true })).toEqual([
      expect.objectContaining({ activityId: 'check', activityType: 'userTask', processDefinitionId: v2.id }),
    ]);
    // The ended start event keeps its definition (Camunda migrates the running activity instances only).
    expect(await engine.history.countHistoricActivityInstances({ processDefinitionId: v2.id })).toBe(1);
    expect(await engine.history.countHistoricActivityInstances({ processDefinitionId: definitions[0].id })).toBe(1);
  });

  it('deletes a definition’s history with a cascading definition delete, and keeps it otherwise', async () => {
    const { engine, definitions } = await engineWith('full', startToEnd);
    await engine.runtime.startProcessInstanceById(definitions[0].id);

    await engine.processDefinition.deleteProcessDefinition(definitions[0].id, { cascade: true });

    expect(await engine.history.countHistoricProcessInstances()).toBe(0);
    expect(await engine.history.countHistoricActivityInstances()).toBe(0);
  });
});
