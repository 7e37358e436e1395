import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { HistoryLevel } from '../../src/history/history-level.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { userTaskProcess } from '../runtime/models.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const variables = { reviewer: string('mary'), subject: string('contract') };

/** A user task a timer interrupts. */
const timedOut = wrap(
  'timed',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}
   <bpmn:userTask id="work" name="Work" camunda:candidateUsers="kermit" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />
   <bpmn:boundaryEvent id="late" attachedToRef="work"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
   ${flow('f3', 'late', 'lateEnd')}<bpmn:endEvent id="lateEnd" />`,
);

describe.each(testStoreConfigs())('task history on $name', (testStore) => {
  async function engineWith(historyLevel: HistoryLevel | undefined, ...xmls: string[]) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), historyLevel });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: xmls.map((xml, i) => ({ name: `model${i}.bpmn`, bytes: Buffer.from(xml) })) });
    return { engine, definitions: processDefinitions! };
  }

  it('keeps a completed task with its assignee changes, dates and delete reason completed', async () => {
    const { engine, definitions } = await engineWith(undefined, userTaskProcess);
    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables });
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    const created = await engine.history.tasks.findTasks({ taskId: task.id });

    await engine.task.setAssignee(task.id, 'john');
    await engine.task.setOwner(task.id, 'demo');
    engine.clock.advance(7_000);
    await engine.task.complete(task.id);

    expect(created).toEqual([
      expect.objectContaining({ id: task.id, name: 'Review contract', assignee: 'mary', priority: 70, endTime: null, deleteReason: null, taskState: 'Created' }),
    ]);
    expect(await engine.history.tasks.findTasks({ processInstanceId: instance.id })).toEqual([
      {
        id: task.id,
        processDefinitionKey: 'approval',
        processDefinitionId: definitions[0].id,
        processInstanceId: instance.id,
        rootProcessInstanceId: instance.id,
        executionId: task.executionId,
        activityInstanceId: task.activityInstanceId,
        name: 'Review contract',
        description: null,
        deleteReason: 'completed',
        owner: 'demo',
        assignee: 'john',
        startTime: task.created,
        endTime: new Date(engine.clock.now()),
        durationInMillis: 7_000,
        taskDefinitionKey: 'review',
        priority: 70,
        due: null,
        followUp: null,
        parentTaskId: null,
        tenantId: null,
        // Ended root: end time + the definition's time to live (removal time strategy end).
        removalTime: new Date(engine.clock.now().getTime() + definitions[0].historyTimeToLive! * 86_400_000),
        taskState: 'Completed',
      },
    ]);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('logs identity links at level full: candidates and assignee at creation, then changes by the authenticated user', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess);
    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables });
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });

    await engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => engine.task.setAssignee(task.id, 'john'));
    await engine.task.addCandidateUser(task.id, 'fozzie');
    await engine.task.deleteCandidateGroup(task.id, 'sales');

    const log = await engine.history.tasks.findIdentityLinkLogs({ taskId: task.id });
    const entries = log.map((each) => [each.type, each.operationType, each.userId ?? each.groupId, each.assignerId]);
    expect(entries).toHaveLength(7);
    expect(entries).toEqual(
      expect.arrayContaining([
        ['candidate', 'add', 'sales', null],
        ['candidate', 'add', 'management', null],
        ['assignee', 'add', 'mary', null],
        ['assignee', 'delete', 'mary', 'demo'],
        ['assignee', 'add', 'john', 'demo'],
        ['candidate', 'add', 'fozzie', null],
        ['candidate', 'delete', 'sales', null],
      ]),
    );
    expect(log.every((each) => each.processDefinitionKey === 'approval' && each.processDefinitionId === definitions[0].id && each.rootProcessInstanceId === instance.id)).toBe(true);
    expect(await engine.history.tasks.countIdentityLinkLogs({ operationType: 'delete' })).toBe(2);
    expect(await engine.history.tasks.countTasks({ taskHadCandidateGroup: 'management' })).toBe(1);
    expect(await engine.history.tasks.countTasks({ taskInvolvedUser: 'fozzie' })).toBe(1);
    expect(await engine.history.tasks.countTasks({ taskInvolvedUser: 'gonzo' })).toBe(0);
    expect(await engine.history.tasks.countTasks({ withoutCandidateGroups: true })).toBe(0);
  });

  it('writes task instances but no identity link log at levels activity and audit, and nothing at none', async () => {
    for (const level of ['none', 'activity', 'audit'] as const) {
      const { engine, definitions } = await engineWith(level, userTaskProcess);
      const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables });
      const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
      await engine.task.setAssignee(task.id, 'john');

      expect([level, await engine.history.tasks.countTasks({ taskAssignee: 'john' })]).toEqual([level, level === 'none' ? 0 : 1]);
      expect(await engine.history.tasks.countIdentityLinkLogs()).toBe(0);
    }
  });

  it('ends a task of a deleted instance with the deletion reason, and one a boundary event interrupts as deleted', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess, timedOut);
    const approval = definitions.find((each) => each.key === 'approval')!;
    const timed = definitions.find((each) => each.key === 'timed')!;
    const doomed = await engine.runtime.startProcessInstanceById(approval.id, { variables });
    const interrupted = await engine.runtime.startProcessInstanceById(timed.id);

    await engine.runtime.deleteProcessInstance(doomed.id, { reason: 'no longer needed' });
    engine.clock.advance(2 * 3600_000);
    const [timer] = await engine.management.findJobs({ processInstanceId: interrupted.id });
    await engine.management.executeJob(timer.id);

    expect(await engine.history.tasks.findTasks({ processInstanceId: doomed.id })).toEqual([
      expect.objectContaining({ deleteReason: 'no longer needed', taskState: 'Deleted', endTime: expect.any(Date) }),
    ]);
    expect(await engine.history.tasks.findTasks({ processInstanceId: interrupted.id })).toEqual([
      expect.objectContaining({ name: 'Work', deleteReason: 'deleted', taskState: 'Deleted', durationInMillis: 2 * 3600_000 }),
    ]);
    expect(await engine.history.tasks.countTasks({ finished: true, processFinished: true })).toBe(2);
    expect(await engine.history.tasks.countTasks({ taskHadCandidateUser: 'kermit' })).toBe(1);
  });

  it('filters and sorts historic tasks, and removes them with their historic process instance', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess);
    const first = await engine.runtime.startProcessInstanceById(definitions[0].id, { businessKey: 'A-1', variables });
    engine.clock.advance(1_000);
    const second = await engine.runtime.startProcessInstanceById(definitions[0].id, { businessKey: 'B-2', variables: { ...variables, reviewer: string('john') } });
    const [done] = await engine.task.findTasks({ processInstanceId: first.id });
    await engine.task.complete(done.id);

    const byStart = await engine.history.tasks.findTasks({ sorting: [{ sortBy: 'startTime', sortOrder: 'desc' }] });
    expect(byStart.map((each) => each.processInstanceId)).toEqual([second.id, first.id]);
    expect((await engine.history.tasks.findTasks({ processInstanceBusinessKeyLike: 'B%' })).map((each) => each.assignee)).toEqual(['john']);
    expect(await engine.history.tasks.countTasks({ unfinished: true, processUnfinished: true })).toBe(1);
    expect(await engine.history.tasks.countTasks({ taskDeleteReason: 'completed', taskAssigneeLike: 'ma%' })).toBe(1);
    expect(await engine.history.tasks.countTasks({ processDefinitionName: 'nope' })).toBe(0);
    expect(await engine.history.tasks.countTasks({ taskDefinitionKeyIn: ['review'], taskPriority: 70, withoutTaskDueDate: true })).toBe(2);

    await engine.history.deleteHistoricProcessInstance(first.id);

    expect((await engine.history.tasks.findTasks()).map((each) => each.processInstanceId)).toEqual([second.id]);
    expect(await engine.history.tasks.countIdentityLinkLogs({ taskId: done.id })).toBe(0);
    expect(await engine.history.tasks.countIdentityLinkLogs()).toBe(3);
  });

  it('follows a migrated task to its new definition and user task', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess);
    const v2 = (await engine.deployment.deploy({ resources: [{ name: 'v2.bpmn', bytes: Buffer.from(userTaskProcess.replaceAll('review', 'check')) }] })).processDefinitions![0];
    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables });

    await engine.migration.execute(
      { sourceProcessDefinitionId: definitions[0].id, targetProcessDefinitionId: v2.id, instructions: [{ sourceActivityId: 'review', targetActivityId: 'check', updateEventTrigger: false }] },
      { processInstanceIds: [instance.id] },
    );

    expect(await engine.history.tasks.findTasks({ processInstanceId: instance.id })).toEqual([
      expect.objectContaining({ processDefinitionId: v2.id, processDefinitionKey: 'approval', taskDefinitionKey: 'check', endTime: null }),
    ]);
  });

  it('deletes the task history of a definition deleted with cascade, comments and attachments included', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess);
    const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables });
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    await engine.task.createComment(task!.id, 'seen');
    await engine.task.createAttachment(task!.id, { name: 'scan', content: Buffer.from('scan') });

    await engine.processDefinition.deleteProcessDefinition(definitions[0].id, { cascade: true });

    expect(await engine.history.tasks.countTasks()).toBe(0);
    expect(await engine.history.tasks.countIdentityLinkLogs()).toBe(0);
    expect(await engine.task.getProcessInstanceComments(instance.id)).toEqual([]);
    expect(await engine.task.getTaskAttachments(task!.id)).toEqual([]);
  });

  it('reports finished tasks per name and per definition, and their durations per month and quarter of their end', async () => {
    const { engine, definitions } = await engineWith('full', userTaskProcess);
    for (const reviewer of ['mary', 'john', 'kermit']) {
      const instance = await engine.runtime.startProcessInstanceById(definitions[0].id, { variables: { ...variables, reviewer: string(reviewer) } });
      engine.clock.advance(({ mary: 3_000, john: 6_000, kermit: 0 } as Record<string, number>)[reviewer]);
      if (reviewer !== 'kermit') await engine.task.complete((await engine.task.findTasks({ processInstanceId: instance.id }))[0].id);
    }
    const end = new Date(engine.clock.now());

    expect(await engine.history.tasks.countFinishedTasks('taskName')).toEqual([
      { count: 2, taskName: 'Review contract', processDefinitionKey: 'approval', processDefinitionId: definitions[0].id, processDefinitionName: null, tenantId: null },
    ]);
    expect(await engine.history.tasks.countFinishedTasks('processDefinition', { completedAfter: new Date(end.getTime() + 1) })).toEqual([]);
    expect(await engine.history.tasks.finishedTaskDurations('MONTH')).toEqual([
      { period: end.getUTCMonth() + 1, periodUnit: 'MONTH', minimum: 3_000, maximum: 6_000, average: 4_500 },
    ]);
    expect(await engine.history.tasks.finishedTaskDurations('QUARTER', { completedBefore: end })).toEqual([
      { period: Math.floor(end.getUTCMonth() / 3) + 1, periodUnit: 'QUARTER', minimum: 3_000, maximum: 6_000, average: 4_500 },
    ]);
  });
});
