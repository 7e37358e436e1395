import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, type FixedClock } from '../../src/testing/index.js';

/** A one-user-task process whose task element is `task` (its id 'approve'). */
const model = (task: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    ${task}
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const performer = (role: 'humanPerformer' | 'potentialOwner', text: string) =>
  `<bpmn:${role}><bpmn:resourceAssignmentExpression><bpmn:formalExpression>${text}</bpmn:formalExpression></bpmn:resourceAssignmentExpression></bpmn:${role}>`;

describe('user task humanPerformer and potentialOwner', () => {
  let engine: ProcessEngine;

  beforeEach(async () => {
    engine = await createTestEngine();
  });
  afterEach(async () => engine.close());

  const deploy = (task: string) => engine.deployment.deploy({ resources: [{ name: 'approval.bpmn', bytes: Buffer.from(model(task)) }] });

  /** Starts the process with the variables and answers its task's assignee and candidate links. */
  const run = async (task: string, variables: Record<string, string> = {}) => {
    await deploy(task);
    const typed = Object.fromEntries(Object.entries(variables).map(([name, value]) => [name, { type: 'string' as const, value, valueInfo: {} }]));
    const definition = await engine.processDefinition.findLatestByKey('approval');
    const { id } = await engine.runtime.startProcessInstanceById(definition!.id, { variables: typed });
    const [created] = await engine.task.findTasks({ processInstanceId: id });
    const links = (await engine.task.getIdentityLinks(created.id)).filter((link) => link.type === 'candidate');
    return { assignee: created.assignee, users: links.flatMap((link) => link.userId ?? []), groups: links.flatMap((link) => link.groupId ?? []) };
  };

  it('takes the assignee from humanPerformer and candidates from potentialOwner, plain entries as groups', async () => {
    // given
    const task = `<bpmn:userTask id="approve" name="Approve">
      ${performer('humanPerformer', '${boss}')}
      ${performer('potentialOwner', 'user(kermit), group( management ), accountancy')}
      ${performer('potentialOwner', 'user(${clerk})')}
    </bpmn:userTask>`;

    // when
    const result = await run(task, { boss: 'gonzo', clerk: 'fozzie' });

    // then
    expect(result).toEqual({ assignee: 'gonzo', users: ['kermit', 'fozzie'], groups: ['management', 'accountancy'] });
  });

  it('adds camunda:candidateUsers and candidateGroups after the potential owners', async () => {
    const task = `<bpmn:userTask id="approve" camunda:candidateUsers="piggy, \${clerk}" camunda:candidateGroups="sales">
      ${performer('potentialOwner', 'user(kermit), board')}
    </bpmn:userTask>`;

    const result = await run(task, { clerk: 'fozzie, animal' });

    expect(result).toEqual({ assignee: null, users: ['kermit', 'piggy', 'fozzie', 'animal'], groups: ['board', 'sales'] });
  });

  it('reads a humanPerformer without resourceAssignmentExpression as no assignee, and then camunda:assignee', async () => {
    const result = await run(`<bpmn:userTask id="approve" camunda:assignee="kermit"><bpmn:humanPerformer /></bpmn:userTask>`);

    expect(result.assignee).toBe('kermit');
  });

  it('refuses more than one humanPerformer with Camunda\'s text', async () => {
    const task = `<bpmn:userTask id="approve" name="Approve">${performer('humanPerformer', 'kermit')}${performer('humanPerformer', 'gonzo')}</bpmn:userTask>`;

    await expect(deploy(task)).rejects.toThrow('Invalid task definition: multiple humanPerformer sub elements defined for Approve');
  });

  it('refuses a humanPerformer together with camunda:assignee (the name printed as null when missing)', async () => {
    const task = `<bpmn:userTask id="approve" camunda:assignee="gonzo">${performer('humanPerformer', 'kermit')}</bpmn:userTask>`;

    await expect(deploy(task)).rejects.toThrow('Invalid usage: duplicate assignee declaration for task null');
  });

  it('fails the start when a candidate expression resolves to neither a string nor a collection', async () => {
    await deploy(`<bpmn:userTask id="approve" camunda:candidateGroups="\${null}" />`);
    const definition = await engine.processDefinition.findLatestByKey('approval');

    await expect(engine.runtime.startProcessInstanceById(definition!.id, {})).rejects.toThrow('Expression did not resolve to a string or collection of strings');
  });

  it("offers the engine's functions to a model's expressions: now(), dateTime(), currentUser(), currentUserGroups()", async () => {
    await deploy(
      `<bpmn:userTask id="approve" camunda:assignee="\${currentUser()}" camunda:candidateGroups="\${currentUserGroups()}"
         camunda:dueDate="\${dateTime().plusDays(2).toDate()}" camunda:followUpDate="\${now()}" />`,
    );
    const definition = await engine.processDefinition.findLatestByKey('approval');
    const now = (engine as ProcessEngine & { clock: FixedClock }).clock.now();

    const { id } = await engine.runAs({ userId: 'mary', groupIds: ['sales'], tenantIds: [] }, () => engine.runtime.startProcessInstanceById(definition!.id));
    const [created] = await engine.task.findTasks({ processInstanceId: id });
    const groups = (await engine.task.getIdentityLinks(created.id)).flatMap((link) => (link.type === 'candidate' ? (link.groupId ?? []) : []));

    expect(created.assignee).toBe('mary');
    expect(groups).toEqual(['sales']);
    expect(created.followUp).toEqual(now);
    expect(created.due!.getTime() - now.getTime()).toBe(2 * 86_400_000);
  });
});
