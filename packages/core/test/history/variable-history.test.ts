import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { HistoryLevel } from '../../src/history/history-level.js';
import type { HistoricVariableUpdate } from '../../src/services/history/historic-variable-types.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { startToEnd, userTaskProcess } from '../runtime/models.js';

type TestEngine = Awaited<ReturnType<typeof createTestEngine>>;
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });

describe.each(testStoreConfigs())('variable history on $name', (testStore) => {
  async function engineWith(historyLevel: HistoryLevel, xml = userTaskProcess) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), historyLevel });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(xml) }] });
    return { engine, definition: processDefinitions![0] };
  }

  /** Start with two variables, update one, add one on the task, remove one, complete. */
  async function runScenario(engine: TestEngine, definitionId: string) {
    const instance = await engine.runtime.startProcessInstanceById(definitionId, { variables: { reviewer: string('mary'), subject: string('x') } });
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    engine.clock.advance(1_000);
    await engine.runtime.modifyVariables(instance.id, { subject: string('y'), amount: integer(5) });
    await engine.task.setVariablesLocal(task.id, { note: string('checked') });
    await engine.runtime.modifyVariables(instance.id, {}, ['amount']);
    await engine.task.complete(task.id);
    return { instance, task };
  }

  it.each(['none', 'activity'] as const)('writes no variable history at level %s', async (level) => {
    const { engine, definition } = await engineWith(level);

    await runScenario(engine, definition.id);

    expect(await engine.history.variables.count({ includeDeleted: true })).toBe(0);
    expect(await engine.history.variables.countDetails()).toBe(0);
  });

  it('keeps the latest values and deletions at level audit, without details', async () => {
    const { engine, definition } = await engineWith('audit');

    const { instance, task } = await runScenario(engine, definition.id);

    const variables = await engine.history.variables.find({ includeDeleted: true, sorting: [{ sortBy: 'variableName', sortOrder: 'asc' }] });
    expect(variables.map((each) => [each.name, each.value.value, each.state])).toEqual([
      ['amount', 5, 'DELETED'],
      ['note', 'checked', 'CREATED'],
      ['reviewer', 'mary', 'CREATED'],
      ['subject', 'y', 'CREATED'],
    ]);
    expect(variables.find((each) => each.name === 'subject')).toMatchObject({
      processInstanceId: instance.id,
      rootProcessInstanceId: instance.id,
      activityInstanceId: instance.id,
      processDefinitionId: definition.id,
      processDefinitionKey: 'approval',
      executionId: instance.id,
      taskId: null,
    });
    expect(variables.find((each) => each.name === 'note')).toMatchObject({ taskId: task.id, processDefinitionKey: 'approval', activityInstanceId: task.activityInstanceId });
    expect(await engine.history.variables.count()).toBe(3);
    expect(await engine.history.variables.countDetails()).toBe(0);
  });

  it('writes a detail per create, update and delete at level full', async () => {
    const { engine, definition } = await engineWith('full');

    const { instance } = await runScenario(engine, definition.id);

    const details = (await engine.history.variables.findDetails({ processInstanceId: instance.id, sorting: [{ sortBy: 'time', sortOrder: 'asc' }] })) as HistoricVariableUpdate[];
    expect(details.map((each) => [each.variableName, each.value.value, each.revision, each.initial])).toEqual([
      ['reviewer', 'mary', 0, true],
      ['subject', 'x', 0, true],
      ['subject', 'y', 1, false],
      ['amount', 5, 0, false],
      ['note', 'checked', 0, false],
      ['amount', 5, 0, false],
    ]);
    const [subject] = await engine.history.variables.find({ variableName: 'subject' });
    expect(await engine.history.variables.countDetails({ variableInstanceId: subject.id })).toBe(2);
    expect(await engine.history.variables.countDetails({ variableTypeIn: ['Integer'] })).toBe(2);
    expect(await engine.history.variables.countDetails({ occurredAfter: new Date(engine.clock.now()) })).toBe(4);
  });

  it('marks as initial only what the instance had before it first took a flow (Camunda\'s isProcessInstanceStarting)', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d_i" targetNamespace="http://trellis.test">
  <bpmn:process id="initials" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start"><bpmn:extensionElements><camunda:executionListener event="end" class="com.example.FromStart" /></bpmn:extensionElements></bpmn:startEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="compute" />
    <bpmn:serviceTask id="compute" camunda:class="com.example.Compute" />
    <bpmn:sequenceFlow id="f2" sourceRef="compute" targetRef="wait" />
    <bpmn:userTask id="wait" />
    <bpmn:sequenceFlow id="f3" sourceRef="wait" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
    const { engine, definition } = await engineWith('full', xml);
    engine.delegates
      .registerClass('com.example.FromStart', (execution) => execution.setVariable('fromStart', 1))
      .registerClass('com.example.Compute', (execution) => execution.setVariable('computed', 2));

    await engine.runtime.startProcessInstanceById(definition.id, { variables: { given: string('g') } });

    const initial = await engine.history.variables.findDetails({ initial: true });
    expect(initial.map((detail) => (detail as HistoricVariableUpdate).variableName).sort()).toEqual(['fromStart', 'given']);
    expect(await engine.history.variables.countDetails()).toBe(3);
  });

  it('records the variables of an instance that ends in the command that starts it', async () => {
    const { engine, definition } = await engineWith('full', startToEnd);

    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { order: string('o-1') } });

    expect(await engine.history.variables.find()).toEqual([expect.objectContaining({ name: 'order', processInstanceId: instance.id, state: 'CREATED' })]);
    expect(await engine.history.variables.countDetails({ initial: true })).toBe(1);
  });

  it('filters by name, value and type, and removes rows with their process instance history', async () => {
    const { engine, definition } = await engineWith('full');
    const { instance } = await runScenario(engine, definition.id);

    expect((await engine.history.variables.find({ variableName: 'SUBJECT', variableNamesIgnoreCase: true })).map((each) => each.value.value)).toEqual(['y']);
    expect(await engine.history.variables.count({ variableName: 'subject', variableValue: 'y' })).toBe(1);
    expect(await engine.history.variables.count({ variableName: 'subject', variableValue: 'Y', variableValuesIgnoreCase: true })).toBe(1);
    expect(await engine.history.variables.count({ variableName: 'subject', variableValue: 'x' })).toBe(0);
    expect(await engine.history.variables.count({ variableTypeIn: ['integer'], includeDeleted: true })).toBe(1);
    expect(await engine.history.variables.count({ variableNameLike: 'sub%' })).toBe(1);

    await engine.history.deleteHistoricProcessInstance(instance.id);

    expect(await engine.history.variables.count({ includeDeleted: true })).toBe(0);
    expect(await engine.history.variables.countDetails()).toBe(0);
  });

  it('removes the variable history of a definition deleted with cascade', async () => {
    const { engine, definition } = await engineWith('full');
    await runScenario(engine, definition.id);
    await engine.runtime.startProcessInstanceById(definition.id, { variables: { reviewer: string('ann'), subject: string('z') } });

    await engine.processDefinition.deleteProcessDefinition(definition.id, { cascade: true });

    expect(await engine.history.variables.count({ includeDeleted: true })).toBe(0);
    expect(await engine.history.variables.countDetails()).toBe(0);
  });

  it('moves variable instances to the target definition of a migration; details keep theirs', async () => {
    const { engine, definition } = await engineWith('full');
    const v2 = (await engine.deployment.deploy({ resources: [{ name: 'v2.bpmn', bytes: Buffer.from(userTaskProcess) }] })).processDefinitions![0];
    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { reviewer: string('mary'), subject: string('x') } });

    await engine.migration.execute(
      { sourceProcessDefinitionId: definition.id, targetProcessDefinitionId: v2.id, instructions: [{ sourceActivityId: 'review', targetActivityId: 'review', updateEventTrigger: false }] },
      { processInstanceIds: [instance.id] },
    );

    expect(await engine.history.variables.count({ processDefinitionId: v2.id })).toBe(2);
    expect(await engine.history.variables.count({ processDefinitionId: definition.id })).toBe(0);
    expect((await engine.history.variables.findDetails()).map((each) => each.processDefinitionId)).toEqual([definition.id, definition.id]);
  });

  it('writes a form field detail per submitted String at level full only', async () => {
    const full = await engineWith('full');
    const audit = await engineWith('audit');

    for (const { engine, definition } of [full, audit]) {
      const started = await engine.startForm.submitStartForm(definition.id, { variables: { reviewer: string('mary'), subject: string('x'), amount: integer(3) } });
      const [task] = await engine.task.findTasks({ processInstanceId: started.id });
      await engine.task.submitTaskForm(task.id, { verdict: string('ok') });
    }

    const fields = await full.engine.history.variables.findDetails({ formFields: true, sorting: [{ sortBy: 'time', sortOrder: 'asc' }] });
    expect(fields.map((each) => (each.type === 'formField' ? [each.fieldId, each.fieldValue, each.taskId === null] : null))).toEqual([
      ['reviewer', 'mary', true],
      ['subject', 'x', true],
      ['verdict', 'ok', false],
    ]);
    expect(await full.engine.history.variables.countDetails({ formFields: true, variableUpdates: true })).toBe(4);
    expect(await audit.engine.history.variables.countDetails()).toBe(0);
  });

  it('deletes one historic variable instance with its details', async () => {
    const { engine, definition } = await engineWith('full');
    await runScenario(engine, definition.id);
    const [subject] = await engine.history.variables.find({ variableName: 'subject' });

    const demo = { userId: 'demo', groupIds: [], tenantIds: [] };
    await engine.runAs(demo, () => engine.history.variables.delete(subject.id));
    await engine.runAs(demo, () => engine.history.variables.deleteOfProcessInstance(subject.processInstanceId!));

    // Camunda's logHistoricVariableOperation: DeleteHistory of a Variable, with its name, then of the instance's.
    const logged = await engine.history.userOperations.find({ entityType: 'Variable', sorting: [{ sortBy: 'timestamp', sortOrder: 'asc' }] });
    expect(logged.map(({ operationType, property, newValue, processInstanceId }) => [operationType, property, newValue, processInstanceId])).toEqual([
      ['DeleteHistory', 'name', 'subject', subject.processInstanceId],
      ['DeleteHistory', null, null, subject.processInstanceId],
    ]);
    expect(await engine.history.variables.get(subject.id)).toBeNull();
    expect(await engine.history.variables.countDetails({ variableInstanceId: subject.id })).toBe(0);
    expect(await engine.history.variables.count()).toBe(0);
    await expect(engine.history.variables.delete(subject.id)).rejects.toThrow(`No historic variable instance found with id: ${subject.id}: variable is null`);
  });
});
