import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const wrap = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="scenario" isExecutable="true" camunda:historyTimeToLive="5">${body}</bpmn:process>
</bpmn:definitions>`;

const linear = (tasks: string[]) => {
  const ids = ['start', ...tasks, 'end'];
  const nodes = tasks.map((t) => `<bpmn:userTask id="${t}" />`).join('');
  const flows = ids.slice(1).map((id, i) => `<bpmn:sequenceFlow id="f${i}" sourceRef="${ids[i]}" targetRef="${id}" />`).join('');
  return wrap(`<bpmn:startEvent id="start" />${nodes}<bpmn:endEvent id="end" />${flows}`);
};

const parallel = wrap(`<bpmn:startEvent id="start" /><bpmn:parallelGateway id="fork" />
  <bpmn:userTask id="a" /><bpmn:userTask id="b" /><bpmn:parallelGateway id="join" /><bpmn:endEvent id="end" />
  <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="fork" />
  <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="a" /><bpmn:sequenceFlow id="f3" sourceRef="fork" targetRef="b" />
  <bpmn:sequenceFlow id="f4" sourceRef="a" targetRef="join" /><bpmn:sequenceFlow id="f5" sourceRef="b" targetRef="join" />
  <bpmn:sequenceFlow id="f6" sourceRef="join" targetRef="end" />`);

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

const deploy = async (xml: string) => (await rest.engine.deployment.deploy({ resources: [{ name: 'scenario.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
const migrate = async (source: string, target: string, instanceId: string, extra: unknown[] = []) => {
  const plan = (await rest.request('POST', '/migration/generate', { json: { sourceProcessDefinitionId: source, targetProcessDefinitionId: target } })).body;
  const executed = await rest.request('POST', '/migration/execute', {
    json: { migrationPlan: { ...plan, instructions: [...plan.instructions, ...extra] }, processInstanceIds: [instanceId] },
  });
  expect(executed.status).toBe(204);
};
const tasks = async (id: string) => (await rest.request('GET', '/task', { query: { processInstanceId: id } })).body as Array<Record<string, unknown>>;
const ended = async (id: string) => (await rest.request('GET', `/process-instance/${id}`)).status === 404;

describe('migration scenarios over REST', () => {
  it('keeps a waiting task when the target adds an activity before it, and runs on to the end', async () => {
    const v1 = await deploy(linear(['review']));
    const v2 = await deploy(linear(['prepare', 'review']));
    const instance = await rest.engine.runtime.startProcessInstanceById(v1);
    const [before] = await tasks(instance.id);
    const treeBefore = (await rest.request('GET', `/process-instance/${instance.id}/activity-instances`)).body;

    await migrate(v1, v2, instance.id);

    const [after] = await tasks(instance.id);
    expect(after).toMatchObject({ id: before.id, processDefinitionId: v2, taskDefinitionKey: 'review' });
    const tree = (await rest.request('GET', `/process-instance/${instance.id}/activity-instances`)).body;
    expect(tree.childActivityInstances.map((c: { id: string; activityId: string }) => [c.id, c.activityId])).toEqual(
      treeBefore.childActivityInstances.map((c: { id: string }) => [c.id, 'review']),
    );
    expect((await rest.request('POST', `/task/${after.id}/complete`, { json: {} })).status).toBe(204);
    expect(await ended(instance.id)).toBe(true);
  });

  it('renames a task through an explicit instruction: the same task row gets the new key and keeps its assignee', async () => {
    const v1 = await deploy(linear(['review']));
    const v2 = await deploy(linear(['check']));
    const instance = await rest.engine.runtime.startProcessInstanceById(v1);
    const [before] = await tasks(instance.id);
    expect((await rest.request('POST', `/task/${before.id}/assignee`, { json: { userId: 'kermit' } })).status).toBe(204);

    await migrate(v1, v2, instance.id, [{ sourceActivityIds: ['review'], targetActivityIds: ['check'] }]);

    const [after] = await tasks(instance.id);
    expect(after).toMatchObject({ id: before.id, assignee: 'kermit', taskDefinitionKey: 'check', processDefinitionId: v2 });
    expect((await rest.request('POST', `/task/${after.id}/complete`, { json: {} })).status).toBe(204);
    expect(await ended(instance.id)).toBe(true);
  });

  it('migrates an instance waiting at a parallel join; completing the other branch on the target ends it', async () => {
    const v1 = await deploy(parallel);
    const v2 = await deploy(parallel);
    const instance = await rest.engine.runtime.startProcessInstanceById(v1);
    const first = (await tasks(instance.id)).find((t) => t.taskDefinitionKey === 'a')!;
    expect((await rest.request('POST', `/task/${first.id}/complete`, { json: {} })).status).toBe(204);

    await migrate(v1, v2, instance.id);

    const remaining = await tasks(instance.id);
    expect(remaining).toHaveLength(1);
    expect(remaining[0]).toMatchObject({ taskDefinitionKey: 'b', processDefinitionId: v2 });
    expect(await ended(instance.id)).toBe(false);
    expect((await rest.request('POST', `/task/${remaining[0].id}/complete`, { json: {} })).status).toBe(204);
    expect(await ended(instance.id)).toBe(true);
  });
  it('migrates an instance holding a locked external task; the worker then completes it on the target', async () => {
    const external = wrap(`<bpmn:startEvent id="start" /><bpmn:serviceTask id="charge" camunda:type="external" camunda:topic="pay" /><bpmn:endEvent id="end" />
      <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="charge" /><bpmn:sequenceFlow id="f2" sourceRef="charge" targetRef="end" />`);
    const v1 = await deploy(external);
    const v2 = await deploy(external);
    const instance = await rest.engine.runtime.startProcessInstanceById(v1);
    const locked = await rest.request('POST', '/external-task/fetchAndLock', { json: { workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'pay', lockDuration: 60000 }] } });
    expect(locked.body).toHaveLength(1);
    const taskId = locked.body[0].id;
    const before = (await rest.request('GET', `/external-task/${taskId}`)).body;

    await migrate(v1, v2, instance.id);

    const after = (await rest.request('GET', `/external-task/${taskId}`)).body;
    expect(after).toMatchObject({ processDefinitionId: v2, workerId: 'w1', lockExpirationTime: before.lockExpirationTime, retries: before.retries });
    expect((await rest.request('POST', `/external-task/${taskId}/complete`, { json: { workerId: 'w1' } })).status).toBe(204);
    expect(await ended(instance.id)).toBe(true);
  });
  it('migrates an instance with a failedJob incident: the incident and job move to the target definition', async () => {
    const failing = wrap(`<bpmn:startEvent id="start" /><bpmn:serviceTask id="charge" camunda:asyncBefore="true" camunda:class="com.example.Decline" /><bpmn:endEvent id="end" />
      <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="charge" /><bpmn:sequenceFlow id="f2" sourceRef="charge" targetRef="end" />`);
    let declining = true;
    rest.engine.delegates.registerClass('com.example.Decline', () => {
      if (declining) throw new Error('card declined');
    });
    const v1 = await deploy(failing);
    const v2 = await deploy(failing);
    const instance = await rest.engine.runtime.startProcessInstanceById(v1);
    for (let i = 0; i < 3; i++) await rest.engine.jobExecutor.runDueJobs();
    const [jobBefore] = (await rest.request('GET', '/job', { query: { processInstanceId: instance.id } })).body;
    expect(jobBefore.retries).toBe(0);
    const [incidentBefore] = (await rest.request('GET', '/incident', { query: { processInstanceId: instance.id } })).body;
    expect(incidentBefore).toMatchObject({ incidentType: 'failedJob', processDefinitionId: v1, configuration: jobBefore.id });

    await migrate(v1, v2, instance.id);

    const [jobAfter] = (await rest.request('GET', '/job', { query: { processInstanceId: instance.id } })).body;
    expect(jobAfter).toMatchObject({ id: jobBefore.id, processDefinitionId: v2, retries: 0 });
    expect(jobAfter.jobDefinitionId).not.toBe(jobBefore.jobDefinitionId);
    const [targetJobDefinition] = (await rest.request('GET', '/job-definition', { query: { processDefinitionId: v2, activityIdIn: 'charge' } })).body;
    expect(jobAfter.jobDefinitionId).toBe(targetJobDefinition.id);
    const incidents = (await rest.request('GET', '/incident', { query: { processInstanceId: instance.id } })).body;
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ id: incidentBefore.id, processDefinitionId: v2, jobDefinitionId: targetJobDefinition.id, configuration: jobBefore.id });

    declining = false;
    expect((await rest.request('PUT', `/job/${jobAfter.id}/retries`, { json: { retries: 1 } })).status).toBe(204);
    expect((await rest.request('POST', `/job/${jobAfter.id}/execute`)).status).toBe(204);
    expect(await ended(instance.id)).toBe(true);
  });
});
