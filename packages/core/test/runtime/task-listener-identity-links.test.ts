import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine } from '../../src/testing/index.js';

// A review task for the clerks and piggy: its create listener and its assignment listener change its links.
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="review" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="check" />
    <bpmn:userTask id="check" camunda:candidateUsers="piggy" camunda:candidateGroups="clerks">
      <bpmn:extensionElements>
        <camunda:taskListener event="create" class="com.acme.OnCreate" />
        <camunda:taskListener event="assignment" class="com.acme.OnAssignment" />
      </bpmn:extensionElements>
    </bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="check" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

interface Link {
  userId: string | null;
  groupId: string | null;
  type: string | null;
}

/** The DelegateTask identity link methods the listeners use. */
interface LinkingTask {
  getCandidates(): Array<Link & { taskId: string }>;
  addCandidateUsers(userIds: string[]): void;
  addCandidateGroup(groupId: string): void;
  addUserIdentityLink(userId: string, type: string): void;
  addGroupIdentityLink(groupId: string, type: string): void;
  deleteCandidateGroup(groupId: string): void;
  deleteCandidateUser(userId: string): void;
  deleteUserIdentityLink(userId: string | null, type: string): void;
  deleteGroupIdentityLink(groupId: string, type: string): void;
}

const plain = (links: Link[]) => links.map(({ userId, groupId, type }) => ({ userId, groupId, type }));

describe('task listeners: DelegateTask identity links', () => {
  let engine: ProcessEngine;
  const seen: Record<string, Link[]> = {};

  beforeEach(async () => {
    engine = await createTestEngine({ historyLevel: 'full' });
    engine.delegates.registerClass('com.acme.OnCreate', (delegate) => {
      const task = delegate as unknown as LinkingTask;
      seen.create = plain(task.getCandidates());
      task.addCandidateUsers(['kermit', 'gonzo']);
      task.deleteCandidateGroup('clerks');
      task.addUserIdentityLink('statler', 'watcher');
      task.addGroupIdentityLink('auditors', 'watcher');
      task.deleteGroupIdentityLink('auditors', 'watcher');
      task.deleteUserIdentityLink(null, 'watcher');
    });
    engine.delegates.registerClass('com.acme.OnAssignment', (delegate) => {
      const task = delegate as unknown as LinkingTask;
      task.deleteCandidateUser('piggy');
      task.addCandidateGroup('management');
      seen.assignment = plain(task.getCandidates());
    });
    await engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(MODEL) }] });
  });
  afterEach(async () => engine.close());

  const startTask = async () => {
    const definition = await engine.processDefinition.findLatestByKey('review');
    const { id } = await engine.runtime.startProcessInstanceById(definition!.id, {});
    const [task] = await engine.task.findTasks({ processInstanceId: id });
    return task;
  };
  const storedLinks = async (taskId: string) => plain(await engine.task.getIdentityLinks(taskId));

  it('a create listener sees the candidates and adds and deletes candidates and links of other types', async () => {
    // when
    const task = await startTask();

    // then
    expect(seen.create).toEqual([
      { userId: 'piggy', groupId: null, type: 'candidate' },
      { userId: null, groupId: 'clerks', type: 'candidate' },
    ]);
    expect(await storedLinks(task.id)).toEqual([
      { userId: 'piggy', groupId: null, type: 'candidate' },
      { userId: 'kermit', groupId: null, type: 'candidate' },
      { userId: 'gonzo', groupId: null, type: 'candidate' },
      { userId: 'statler', groupId: null, type: 'watcher' },
    ]);
  });

  it('a listener of a stored task changes its stored links, which the identity link log records', async () => {
    // given
    const task = await startTask();

    // when
    await engine.task.setAssignee(task.id, 'fozzie');

    // then
    expect(seen.assignment).toEqual([
      { userId: 'kermit', groupId: null, type: 'candidate' },
      { userId: 'gonzo', groupId: null, type: 'candidate' },
      { userId: null, groupId: 'management', type: 'candidate' },
    ]);
    const candidates = (await storedLinks(task.id)).filter((link) => link.type === 'candidate');
    expect(candidates.map((link) => link.userId ?? link.groupId)).toEqual(['kermit', 'gonzo', 'management']);
    const log = await engine.history.tasks.findIdentityLinkLogs({ taskId: task.id });
    const entries = log.map((each) => `${each.type}:${each.operationType}:${each.userId ?? each.groupId}`);
    expect(entries).toEqual(expect.arrayContaining(['watcher:add:statler', 'watcher:add:auditors', 'watcher:delete:auditors', 'candidate:delete:piggy', 'candidate:add:management']));
  });
});
