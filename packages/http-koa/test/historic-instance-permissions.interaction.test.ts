import { afterEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

// Camunda's enableHistoricInstancePermissions: history queries also show what the caller holds READ
// on as a historic process instance (resource 20) or historic task (19).

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="claims" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const admin = basic('admin', 'admin-secret');
const jonny = basic('jonny', 'jonny-secret');
let rest: RestHarness;
afterEach(async () => rest?.close());

async function setup(enableHistoricInstancePermissions: boolean) {
  rest = await startRestHarness({ authorization: { enabled: true, enableHistoricInstancePermissions } }, { authentication: 'basic' });
  await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
  await rest.request('POST', '/user/create', { json: { profile: { id: 'jonny' }, credentials: { password: 'jonny-secret' } }, headers: admin });
  await rest.engine.deployment.deploy({ resources: [{ name: 'claims.bpmn', bytes: Buffer.from(MODEL) }] });
  const start = async (amount: number) =>
    (await rest.request('POST', '/process-definition/key/claims/start', { json: { variables: { amount: { value: amount, type: 'Integer' } } }, headers: admin })).body as { id: string };
  const first = await start(1);
  const second = await start(2);
  const taskOf = async (processInstanceId: string) => (await rest.request('GET', '/task', { query: { processInstanceId }, headers: admin })).body[0] as { id: string };
  // A standalone task, with a variable of its own.
  await rest.request('POST', '/task/create', { json: { id: 'solo', name: 'Solo' }, headers: admin });
  await rest.request('PUT', '/task/solo/localVariables/note', { json: { value: 'x', type: 'String' }, headers: admin });
  return { first, second, taskOf };
}

const grant = (resourceType: number, resourceId: string, permissions = ['READ']) =>
  rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType, resourceId, permissions }, headers: admin });
const ids = async (path: string, query: Record<string, string> = {}) => ((await rest.request('GET', path, { query, headers: jonny })).body as Array<{ id: string; processInstanceId?: string }>);
const count = async (path: string, query: Record<string, string> = {}) => (await rest.request('GET', `${path}/count`, { query, headers: jonny })).body.count as number;

describe('enableHistoricInstancePermissions', () => {
  it('on: READ on a historic process instance shows its instance, activities, tasks, variables and details; nothing else', async () => {
    const { first, second } = await setup(true);
    expect(await count('/history/process-instance')).toBe(0);
    expect(await count('/history/variable-instance')).toBe(0);

    const created = await grant(20, first.id);
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ resourceType: 20, resourceId: first.id, rootProcessInstanceId: first.id, removalTime: null });
    expect((await ids('/history/process-instance')).map((each) => each.id)).toEqual([first.id]);
    expect(new Set((await ids('/history/activity-instance')).map((each) => each.processInstanceId))).toEqual(new Set([first.id]));
    expect((await ids('/history/task')).map((each) => each.processInstanceId)).toEqual([first.id]);
    expect((await ids('/history/variable-instance')).map((each) => each.processInstanceId)).toEqual([first.id]);
    expect(await count('/history/detail')).toBe(1);
    // The standalone task's history shows only through a grant on its historic task.
    expect(await count('/history/task', { taskId: 'solo' })).toBe(0);
    expect(await count('/history/user-operation', { taskId: 'solo' })).toBe(0);
    await grant(19, 'solo');
    expect(await count('/history/task', { taskId: 'solo' })).toBe(1);
    expect(await count('/history/user-operation', { taskId: 'solo' })).toBeGreaterThan(0);
    expect((await ids('/history/variable-instance', { taskIdIn: 'solo' })).length).toBe(1);
    expect(second.id).not.toBe(first.id);
  });

  it("on: a task's assignee gets READ on its historic task, showing the task, its identity links and its instance's variables; the grant follows the root's removal time", async () => {
    const { first, second, taskOf } = await setup(true);
    const task = await taskOf(second.id);
    expect((await rest.request('POST', `/task/${task.id}/assignee`, { json: { userId: 'jonny' }, headers: admin })).status).toBe(204);
    const historic = (await rest.request('GET', '/authorization', { query: { resourceType: '19', userIdIn: 'jonny' }, headers: admin })).body;
    expect(historic).toEqual([expect.objectContaining({ resourceId: task.id, permissions: ['READ'], rootProcessInstanceId: second.id, removalTime: null })]);

    expect(await count('/history/process-instance')).toBe(0);
    expect((await ids('/history/task')).map((each) => each.id)).toEqual([task.id]);
    // Camunda joins the historic tasks of the value's instance: a grant on one of them shows them all.
    expect((await ids('/history/variable-instance')).map((each) => each.processInstanceId)).toEqual([second.id]);
    expect((await ids('/history/identity-link-log')).length).toBeGreaterThan(0);
    expect(await count('/history/identity-link-log', { taskId: task.id })).toBe(await count('/history/identity-link-log'));
    expect(first.id).not.toBe(second.id);

    await rest.request('POST', `/task/${task.id}/complete`, { json: {}, headers: admin });
    const [ended] = (await rest.request('GET', '/authorization', { query: { resourceType: '19', userIdIn: 'jonny' }, headers: admin })).body;
    expect(Date.parse(ended.removalTime)).toBe(rest.engine.clock.now().getTime() + 5 * 86_400_000);
    // Still readable after the task is gone; the runtime grant went with it.
    expect((await ids('/history/task')).map((each) => each.id)).toEqual([task.id]);
    expect(await rest.request('GET', '/authorization/count', { query: { resourceType: '7', userIdIn: 'jonny' }, headers: admin })).toMatchObject({ body: { count: 0 } });

    // Deleting the historic instance takes the grants on it along.
    await grant(20, second.id);
    expect((await rest.request('DELETE', `/history/process-instance/${second.id}`, { headers: admin })).status).toBe(204);
    expect(await rest.request('GET', '/authorization/count', { query: { resourceType: '20', userIdIn: 'jonny' }, headers: admin })).toMatchObject({ body: { count: 0 } });
  });

  it('/authorization/check answers for historic resources, on and off (Camunda refuses them only through its Java API)', async () => {
    const { first } = await setup(true);
    await grant(20, first.id);
    const check = (resourceId: string) =>
      rest.request('GET', '/authorization/check', { query: { permissionName: 'READ', resourceName: 'HistoricProcessInstance', resourceType: '20', resourceId, userId: 'jonny' }, headers: admin });
    expect((await check(first.id)).body).toMatchObject({ permissionName: 'READ', resourceId: first.id, authorized: true });
    expect((await check('other')).body).toMatchObject({ authorized: false });
    await rest.close();

    const { first: again } = await setup(false);
    await grant(20, again.id);
    expect((await check(again.id)).body).toMatchObject({ resourceId: again.id, authorized: true });
  });

  it('off: grants on historic instances show nothing, an assignee gets no historic grant, and standalone task history is unchecked', async () => {
    const { first, taskOf } = await setup(false);
    await grant(20, first.id);
    expect(await count('/history/process-instance')).toBe(0);
    expect(await count('/history/variable-instance')).toBe(1); // the standalone task's value
    expect(await count('/history/task')).toBe(1);
    expect((await ids('/history/task')).map((each) => each.id)).toEqual(['solo']);
    const task = await taskOf(first.id);
    await rest.request('POST', `/task/${task.id}/assignee`, { json: { userId: 'jonny' }, headers: admin });
    expect(await rest.request('GET', '/authorization/count', { query: { resourceType: '19', userIdIn: 'jonny' }, headers: admin })).toMatchObject({ body: { count: 0 } });
    expect(await rest.request('GET', '/authorization/count', { query: { resourceType: '7', userIdIn: 'jonny' }, headers: admin })).toMatchObject({ body: { count: 1 } });
    await grant(6, 'claims', ['READ_HISTORY']);
    expect(await count('/history/process-instance')).toBe(2);
  });
});
