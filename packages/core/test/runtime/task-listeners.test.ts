import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine } from '../../src/testing/index.js';

// A reminder every hour, twice: the listener escalates the task to the owner's manager.
const TIMEOUT_MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="t" targetNamespace="http://trellis.test">
  <bpmn:process id="reminding" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="answer" />
    <bpmn:userTask id="answer" camunda:assignee="mary">
      <bpmn:extensionElements>
        <camunda:taskListener event="timeout" id="reminder" class="com.acme.Remind">
          <bpmn:timerEventDefinition><bpmn:timeCycle>R2/PT1H</bpmn:timeCycle></bpmn:timerEventDefinition>
        </camunda:taskListener>
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="answer" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

// A user task with a listener of each kind: a class on create, an expression on assignment, a
// delegate expression on complete, a script on delete.
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve" name="Approve" camunda:candidateGroups="clerks">
      <bpmn:extensionElements>
        <camunda:taskListener event="create" class="com.acme.AssignByAmount" />
        <camunda:taskListener event="assignment" expression="\${execution.setVariable('assignedTo', task.assignee)}" />
        <camunda:taskListener event="complete" delegateExpression="\${auditor}" />
        <camunda:taskListener event="update" class="com.acme.OnUpdate" />
        <camunda:taskListener event="delete">
          <camunda:script scriptFormat="javascript">execution.setVariable('deletedTask', task.getId());</camunda:script>
        </camunda:taskListener>
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

// Listeners keeping a review counter on the task itself (local variables) and a note on the instance.
const LOCALS_MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="l" targetNamespace="http://trellis.test">
  <bpmn:process id="reviewing" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review">
      <bpmn:extensionElements>
        <camunda:taskListener event="create"><camunda:script scriptFormat="javascript">
          task.setVariableLocal('round', 1); task.setVariablesLocal({ draft: 'x' }); task.setVariable('openedBy', 'listener');
        </camunda:script></camunda:taskListener>
        <camunda:taskListener event="update"><camunda:script scriptFormat="javascript">
          task.setVariable('round', task.getVariable('round') + 1); task.setVariable('seenRound', task.getVariableLocal('round'));
        </camunda:script></camunda:taskListener>
        <camunda:taskListener event="assignment"><camunda:script scriptFormat="javascript">
          if (task.hasVariableLocal('draft')) task.removeVariableLocal('draft');
          task.setVariable('localNames', task.getVariableNamesLocal().join(','));
        </camunda:script></camunda:taskListener>
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

describe('task listeners', () => {
  let engine: ProcessEngine;
  const audited: string[] = [];

  beforeEach(async () => {
    engine = await createTestEngine({ scripting: { enabled: true } });
    audited.length = 0;
    engine.delegates.registerClass('com.acme.AssignByAmount', (task) => {
      const t = task as unknown as { getVariable(name: string): unknown; setAssignee(id: string): void; addCandidateGroup(id: string): void; deleteCandidateGroup(id: string): void; setPriority(p: number): void; getEventName(): string };
      if ((t.getVariable('amount') as number) > 1000) t.setAssignee('boss');
      t.addCandidateGroup('managers');
      t.deleteCandidateGroup('clerks');
      t.setPriority(80);
    });
    engine.delegates.registerClass('com.acme.OnUpdate', (task) => {
      const t = task as unknown as { getEventName(): string; getAssignee(): string | null };
      audited.push(`${t.getEventName()}:${t.getAssignee()}`);
    });
    engine.delegates.registerBean('auditor', {
      notify(task: { getId(): string; getEventName(): string; setVariable(name: string, value: unknown): void }) {
        audited.push(`${task.getEventName()}:${task.getId()}`);
        task.setVariable('audited', true);
      },
    });
    await engine.deployment.deploy({ resources: [{ name: 'approval.bpmn', bytes: Buffer.from(MODEL) }] });
  });
  afterEach(async () => engine.close());

  const start = async (amount: number) => {
    const definition = await engine.processDefinition.findLatestByKey('approval');
    return engine.runtime.startProcessInstanceById(definition!.id, { variables: { amount: { type: 'integer' as const, value: amount, valueInfo: {} } } });
  };

  it('runs create (a class changing the task and its candidates) and then assignment (an expression) when the task is created', async () => {
    const { id } = await start(5000);
    const [task] = await engine.task.findTasks({ processInstanceId: id });
    const links = await engine.task.getIdentityLinks(task.id);
    const variables = await engine.runtime.getVariables(id);

    expect(task).toMatchObject({ assignee: 'boss', priority: 80 });
    expect(links.filter((link) => link.type === 'candidate').map((link) => link.groupId)).toEqual(['managers']);
    expect(variables.assignedTo).toMatchObject({ type: 'string', value: 'boss' });
    expect((await engine.history.tasks.findTasks({ taskId: task.id }))[0]).toMatchObject({ assignee: 'boss', priority: 80 });
  });

  it('runs no assignment listener for a task created without assignee; complete runs a delegate expression', async () => {
    const { id } = await start(10);
    const [task] = await engine.task.findTasks({ processInstanceId: id });
    const before = await engine.runtime.getVariables(id);
    await engine.task.complete(task.id);

    expect(task.assignee).toBeNull();
    expect(before.assignedTo).toBeUndefined();
    expect(audited).toEqual([`complete:${task.id}`]);
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: id }))[0].state).toBe('COMPLETED');
  });

  it('runs update on every change by a command, and then assignment whenever the assignee changed (claim, delegate, clearing it)', async () => {
    const { id } = await start(10);
    const [task] = await engine.task.findTasks({ processInstanceId: id });
    await engine.task.setOwner(task.id, 'peter');
    await engine.task.createComment(task.id, 'looks fine');
    expect(audited).toEqual(['update:null', 'update:null']);
    expect((await engine.runtime.getVariables(id)).assignedTo).toBeUndefined();
    await engine.task.claim(task.id, 'mary');
    const claimed = (await engine.runtime.getVariables(id)).assignedTo;
    await engine.task.delegateTask(task.id, 'john');
    const delegated = (await engine.runtime.getVariables(id)).assignedTo;
    await engine.task.setAssignee(task.id, null);

    expect([claimed?.value, delegated?.value]).toEqual(['mary', 'john']);
    expect(audited).toEqual(['update:null', 'update:null', 'update:mary', 'update:john', 'update:null']);
    expect((await engine.runtime.getVariables(id)).assignedTo?.value).toBeNull();
  });

  it('runs assignment listeners after an update listener reassigned the task, and the history follows', async () => {
    engine.delegates.registerClass('com.acme.Reassign', (task) => (task as unknown as { setAssignee(id: string): void }).setAssignee('bob'));
    const model = MODEL.replace('id="approval"', 'id="reassigning"').replace('class="com.acme.OnUpdate"', 'class="com.acme.Reassign"');
    await engine.deployment.deploy({ resources: [{ name: 'reassigning.bpmn', bytes: Buffer.from(model) }] });
    const definition = await engine.processDefinition.findLatestByKey('reassigning');
    const { id } = await engine.runtime.startProcessInstanceById(definition!.id, { variables: { amount: { type: 'integer' as const, value: 10, valueInfo: {} } } });
    const [task] = await engine.task.findTasks({ processInstanceId: id });

    await engine.task.createComment(task.id, 'please take it');

    const [activity] = await engine.history.findHistoricActivityInstances({ processInstanceId: id, activityId: 'approve' });
    expect((await engine.task.getTask(task.id))?.assignee).toBe('bob');
    // Camunda's triggerUpdateEvent: fireEvent(update) && fireAssignmentEvent(), which sees the listener's setAssignee.
    expect((await engine.runtime.getVariables(id)).assignedTo?.value).toBe('bob');
    expect(activity.assignee).toBe('bob');
  });

  it('runs a timeout listener when its timer fires (here a cycle of two), and removes its timer with the task', async () => {
    const reminders: string[] = [];
    engine.delegates.registerClass('com.acme.Remind', (task) => {
      const t = task as unknown as { getEventName(): string; getAssignee(): string; setAssignee(id: string): void };
      reminders.push(`${t.getEventName()}:${t.getAssignee()}`);
      t.setAssignee('boss');
    });
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'reminding.bpmn', bytes: Buffer.from(TIMEOUT_MODEL) }] });
    const { id } = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const clock = (engine as unknown as { clock: { advance(ms: number): void } }).clock;
    const jobs = () => engine.management.findJobs({ processInstanceId: id });

    const [first] = await jobs();
    // Its timer has a job definition of its own and can be recalculated, as Camunda's timeout listener declarations.
    const [definition] = await engine.jobDefinition.findJobDefinitions({ processDefinitionId: processDefinitions![0].id });
    expect([first!.jobDefinitionId, definition!.jobType, definition!.activityId, definition!.jobConfiguration]).toEqual([definition!.id, 'timer-task-listener', 'answer', 'CYCLE: R2/PT1H']);
    clock.advance(10 * 60_000);
    await engine.management.recalculateJobDuedate(first!.id);
    expect((await jobs())[0]!.dueDate!.getTime() - first!.dueDate!.getTime()).toBe(10 * 60_000);
    clock.advance(61 * 60_000);
    await engine.jobExecutor.runDueJobs();
    const [task] = await engine.task.findTasks({ processInstanceId: id });
    expect(reminders).toEqual(['timeout:mary']);
    expect(task.assignee).toBe('boss');
    expect(await jobs()).toHaveLength(1);

    await engine.task.complete(task.id);
    expect(await jobs()).toEqual([]);
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: id }))[0].state).toBe('COMPLETED');
  });

  it('runs delete (a script) when the task is cancelled, not when it completes', async () => {
    const first = await start(10);
    const [task] = await engine.task.findTasks({ processInstanceId: first.id });
    await engine.runtime.modifyProcessInstance(first.id, [{ type: 'cancel', activityId: 'approve' }, { type: 'startBeforeActivity', activityId: 'approve' }]);
    const afterCancel = await engine.runtime.getVariables(first.id);

    expect(afterCancel.deletedTask).toMatchObject({ value: task.id });
    const [next] = await engine.task.findTasks({ processInstanceId: first.id });
    await engine.task.complete(next.id);
    expect(audited).toEqual([`complete:${next.id}`]);
  });

  it('keep task-local variables on the task (DelegateTask setVariableLocal, getVariable, removeVariableLocal) and others on the instance', async () => {
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'reviewing.bpmn', bytes: Buffer.from(LOCALS_MODEL) }] });
    const { id } = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const [task] = await engine.task.findTasks({ processInstanceId: id });
    const created = await engine.task.getVariablesLocal(task.id);
    await engine.task.setOwner(task.id, 'peter');
    await engine.task.claim(task.id, 'mary');
    const locals = await engine.task.getVariablesLocal(task.id);
    const instance = await engine.runtime.getVariables(id);

    expect(Object.fromEntries(Object.entries(created).map(([name, value]) => [name, value.value]))).toEqual({ round: 1, draft: 'x' });
    // Two updates (owner, claim) counted on the task; the claim's assignment listener removed the draft.
    expect(Object.fromEntries(Object.entries(locals).map(([name, value]) => [name, value.value]))).toEqual({ round: 3 });
    expect(Object.fromEntries(Object.entries(instance).map(([name, value]) => [name, value.value]))).toEqual({ openedBy: 'listener', seenRound: 3, localNames: 'round' });
    const history = await engine.history.variables.find({ taskIdIn: [task.id], includeDeleted: true, sorting: [{ sortBy: 'variableName', sortOrder: 'asc' }] });
    expect(history.map((each) => [each.name, each.value.value, each.state])).toEqual([
      ['draft', 'x', 'DELETED'],
      ['round', 3, 'CREATED'],
    ]);
  });
});

// DelegateTask.complete(): a listener completes its task (Camunda's TaskEntity.complete).
const completing = (listeners: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="c" targetNamespace="http://trellis.test">
  <bpmn:process id="autoComplete" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:userTask id="work"><bpmn:extensionElements>${listeners}
      <camunda:taskListener event="complete" expression="\${log.add('complete')}" /></bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="after" /><bpmn:userTask id="after" />
  </bpmn:process>
</bpmn:definitions>`;

describe('task listeners completing their task', () => {
  let engine: ProcessEngine;
  const log: string[] = [];
  afterEach(async () => engine.close());
  const deployAndStart = async (listeners: string) => {
    engine = await createTestEngine();
    log.length = 0;
    engine.delegates.registerBean('log', { add: (entry: string) => log.push(entry) });
    await engine.deployment.deploy({ resources: [{ name: 'auto.bpmn', bytes: Buffer.from(completing(listeners)) }] });
    const definition = await engine.processDefinition.findLatestByKey('autoComplete');
    return engine.runtime.startProcessInstanceById(definition!.id);
  };
  const keys = async (processInstanceId: string) => (await engine.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey);

  it('completes the task from a create listener: complete listeners run, the history shows it completed, the process moves on', async () => {
    const { id } = await deployAndStart('<camunda:taskListener event="create" expression="\${task.complete()}" />');
    expect(await keys(id)).toEqual(['after']);
    expect(log).toEqual(['complete']);
    const [historic] = await engine.history.tasks.findTasks({ processInstanceId: id, taskDefinitionKey: 'work' });
    expect(historic).toMatchObject({ deleteReason: 'completed' });
    expect(historic!.endTime).not.toBeNull();
  });

  it('completes the task from an assignment listener when a command assigns it', async () => {
    const { id } = await deployAndStart('<camunda:taskListener event="assignment" expression="\${task.complete()}" />');
    const [work] = await engine.task.findTasks({ processInstanceId: id });
    await engine.task.setAssignee(work!.id, 'kermit');
    expect(await keys(id)).toEqual(['after']);
    expect(log).toEqual(['complete']);
  });

  it("refuses task.complete() from a complete listener (Camunda's invalid task state)", async () => {
    const { id } = await deployAndStart('<camunda:taskListener event="complete" expression="\${task.complete()}" />');
    const [work] = await engine.task.findTasks({ processInstanceId: id });
    await expect(engine.task.complete(work!.id)).rejects.toThrow("ENGINE-03051 There was an exception while invoking the TaskListener. Message: 'invalid task state'");
    expect(await keys(id)).toEqual(['work']);
  });
});
