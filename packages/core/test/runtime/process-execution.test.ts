import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { ProcessEngineException } from '../../src/errors/index.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { gatewayProcess, noDefaultGateway, parallelProcess, startToEnd, userTaskProcess } from './models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });

describe.each(testStoreConfigs())('process execution on $name', (testStore) => {
  async function engineWith(xml: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(xml) }] });
    return { engine, definition: processDefinitions![0] };
  }

  it('runs start → end in one command and leaves nothing behind', async () => {
    const { engine, definition } = await engineWith(startToEnd);

    const instance = await engine.runtime.startProcessInstanceById(definition.id, { businessKey: 'order-1' });

    expect(instance).toMatchObject({ ended: true, businessKey: 'order-1', processDefinitionId: definition.id });
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('waits in a user task with evaluated assignee, candidates and name, and ends when it is completed', async () => {
    const { engine, definition } = await engineWith(userTaskProcess);

    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { reviewer: string('mary'), subject: string('invoice 7') } });
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    const candidates = await engine.task.countTasks({ candidateGroup: 'sales' });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    await engine.task.complete(task.id, { approved: { type: 'boolean', value: true, valueInfo: {} } });

    expect(instance.ended).toBe(false);
    expect(task).toMatchObject({ name: 'Review invoice 7', assignee: 'mary', priority: 70, taskDefinitionKey: 'review', formKey: 'embedded:app:forms/review.html' });
    expect(candidates).toBe(0);
    expect(tree).toMatchObject({ id: instance.id, activityId: definition.id, activityType: 'processDefinition' });
    expect(tree!.childActivityInstances.map((child) => [child.activityId, child.activityType])).toEqual([['review', 'userTask']]);
    expect(tree!.childActivityInstances[0].id).toMatch(/^review:/);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
    expect(await engine.task.countTasks()).toBe(0);
  });

  it('routes by an exclusive gateway condition, or takes the default flow', async () => {
    const { engine, definition } = await engineWith(gatewayProcess);

    const large = await engine.runtime.startProcessInstanceById(definition.id, { variables: { amount: integer(5000) } });
    const small = await engine.runtime.startProcessInstanceById(definition.id, { variables: { amount: integer(10) } });

    expect((await engine.task.findTasks({ processInstanceId: large.id }))[0].taskDefinitionKey).toBe('large');
    expect((await engine.task.findTasks({ processInstanceId: small.id }))[0].taskDefinitionKey).toBe('small');
  });

  it("fails with Camunda's ENGINE-02004 when no flow of an exclusive gateway can be taken, and stores nothing", async () => {
    const { engine, definition } = await engineWith(noDefaultGateway);

    const attempt = engine.runtime.startProcessInstanceById(definition.id, { variables: { amount: integer(1) } });

    await expect(attempt).rejects.toThrow(/^ENGINE-02004 No outgoing sequence flow for the element with id 'decide' could be selected/);
    await expect(attempt).rejects.toBeInstanceOf(ProcessEngineException);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('forks at a parallel gateway and joins when both paths arrive', async () => {
    const { engine, definition } = await engineWith(parallelProcess);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const keys = async () => (await engine.task.findTasks({ processInstanceId: instance.id })).map((t) => t.taskDefinitionKey).sort();

    const forked = await keys();
    const [a] = await engine.task.findTasks({ taskDefinitionKey: 'a' });
    await engine.task.complete(a.id);
    const waiting = await keys();
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    const [b] = await engine.task.findTasks({ taskDefinitionKey: 'b' });
    await engine.task.complete(b.id);
    const joined = await keys();
    const [after] = await engine.task.findTasks({ taskDefinitionKey: 'after' });
    await engine.task.complete(after.id);

    expect(forked).toEqual(['a', 'b']);
    expect(waiting).toEqual(['b']);
    expect(tree!.childActivityInstances.map((child) => child.activityId).sort()).toEqual(['b', 'join']);
    expect(joined).toEqual(['after']);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('refuses to start a suspended definition and keeps variables per instance', async () => {
    const { engine, definition } = await engineWith(userTaskProcess);
    const first = await engine.runtime.startProcessInstanceById(definition.id, { variables: { reviewer: string('a'), subject: string('x') } });
    await engine.processDefinition.updateSuspensionState({ processDefinitionId: definition.id }, { suspended: true });

    await expect(engine.runtime.startProcessInstanceById(definition.id)).rejects.toThrow(
      `ENGINE-03043 Process Definition with id '${definition.id}' is suspended.`,
    );
    const variables = await engine.runtime.getVariables(first.id);

    expect(Object.keys(variables).sort()).toEqual(['reviewer', 'subject']);
  });

  it('deletes a running instance, and a definition with instances only with cascade', async () => {
    const { engine, definition } = await engineWith(userTaskProcess);
    const vars = { reviewer: string('a'), subject: string('x') };
    const one = await engine.runtime.startProcessInstanceById(definition.id, { variables: vars });
    await engine.runtime.startProcessInstanceById(definition.id, { variables: vars });

    await engine.runtime.deleteProcessInstance(one.id);
    const refused = engine.processDefinition.deleteProcessDefinition(definition.id);

    await expect(refused).rejects.toThrow(/^ENGINE-03076 Deletion of process definition without cascading failed.* there are 1 dependent process instances\.$/);
    await engine.processDefinition.deleteProcessDefinition(definition.id, { cascade: true });
    expect(await engine.runtime.countProcessInstances()).toBe(0);
    expect(await engine.task.countTasks()).toBe(0);
  });
});
