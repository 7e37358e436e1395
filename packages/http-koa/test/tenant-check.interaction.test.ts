import { afterEach, describe, expect, it } from 'vitest';
import { externalTaskProcessXml } from '@trellis/core/testing';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
afterEach(async () => rest.close());

// Camunda's tenant check applies to whoever HTTP Basic authenticates, with authorization on or off:
// a tenant's member sees what belongs to no tenant or to its tenants, and nothing of the others.
describe('the tenant check over REST', () => {
  it('shows a member the data of its tenants only, and refuses commands on the others', async () => {
    rest = await startRestHarness({}, { authentication: 'basic' });
    const { engine } = rest;
    await engine.identity.setUpAdministrator('admin', 'admin-secret');
    await engine.identity.createUser({ id: 'jonny', firstName: 'Jonny', lastName: 'Doe', email: null }, 'jonny-secret');
    for (const id of ['t1', 't2']) await engine.identity.createTenant({ id, name: id });
    await engine.identity.createTenantMembership('t1', { userId: 'jonny' });
    const definitions: Record<string, string> = {};
    for (const tenantId of ['t1', 't2']) {
      const { processDefinitions } = await engine.deployment.deploy({ tenantId, resources: [{ name: 'invoice.bpmn', bytes: Buffer.from(externalTaskProcessXml('invoice')) }] });
      definitions[tenantId] = processDefinitions![0].id;
      await engine.runtime.startProcessInstanceById(definitions[tenantId]);
    }
    const jonny = basic('jonny', 'jonny-secret');
    const admin = basic('admin', 'admin-secret');

    const listed = await rest.request('GET', '/process-definition', { headers: jonny });
    const hidden = await rest.request('GET', `/process-definition/${definitions.t2}`, { headers: jonny });
    const byKey = await rest.request('GET', '/process-definition/key/invoice/tenant-id/t2', { headers: jonny });
    const instances = await rest.request('GET', '/process-instance/count', { headers: jonny });
    const start = await rest.request('POST', `/process-definition/${definitions.t2}/start`, { json: {}, headers: jonny });
    const fetched = await rest.request('POST', '/external-task/fetchAndLock', {
      json: { workerId: 'w', maxTasks: 5, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] },
      headers: jonny,
    });
    const all = await rest.request('GET', '/process-instance/count', { headers: admin });
    // The user operation log is tenant-checked too (Camunda's UserOperationLogManager.configureQuery).
    const instanceIds: Record<string, string> = {};
    for (const instance of (await rest.request('GET', '/process-instance', { headers: admin })).body as Array<{ id: string; tenantId: string }>) {
      instanceIds[instance.tenantId] = instance.id;
      await rest.request('PUT', `/process-instance/${instance.id}/suspended`, { json: { suspended: true }, headers: admin });
    }
    const suspensions = (await rest.request('GET', '/history/user-operation', { query: { operationType: 'Suspend' }, headers: jonny })).body;
    const allSuspensions = (await rest.request('GET', '/history/user-operation/count', { query: { operationType: 'Suspend' }, headers: admin })).body;

    expect(listed.body.map((each: { tenantId: string }) => each.tenantId)).toEqual(['t1']);
    expect(hidden.status).toBe(404);
    expect(hidden.body.message).toBe(`No matching definition with id ${definitions.t2}`);
    expect(byKey.status).toBe(404);
    expect(instances.body).toEqual({ count: 1 });
    expect(start.status).toBe(500);
    expect(start.body.message).toBe(
      `Cannot instantiate process definition ${definitions.t2}: ENGINE-13034 Cannot create an instance of the process definition '${definitions.t2}' because it belongs to no authenticated tenant.`,
    );
    expect(fetched.body.map((task: { tenantId: string }) => task.tenantId)).toEqual(['t1']);
    expect(all.body).toEqual({ count: 2 });
    expect(suspensions.map((entry: { processInstanceId: string }) => entry.processInstanceId)).toEqual([instanceIds.t1]);
    expect(allSuspensions).toEqual({ count: 2 });
    // Camunda's historic activity statistics have no tenant check (only READ_HISTORY when authorization is on).
    const otherStatistics = (await rest.request('GET', `/history/process-definition/${definitions.t2}/statistics`, { headers: jonny })).body;
    expect(otherStatistics).toMatchObject([{ instances: 1 }]);
    // A removal time batch finds the ids given as a tenant-checked query does: another tenant's are not found.
    const removal = await rest.request('POST', '/history/process-instance/set-removal-time', {
      json: { clearedRemovalTime: true, historicProcessInstanceIds: [instanceIds.t2] },
      headers: jonny,
    });
    expect([removal.status, removal.body.message]).toEqual([400, 'historicProcessInstances is empty']);
  });
});

describe("start events of another tenant named in the request (Camunda's lookups by tenant check no tenant)", () => {
  const STARTS = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:signal id="s_go" name="go" /><bpmn:message id="m_go" name="goMessage" />
  <bpmn:process id="bySignal" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="s1"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:startEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="s1" targetRef="t1" /><bpmn:userTask id="t1" />
  </bpmn:process>
  <bpmn:process id="byMessage" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="s2"><bpmn:messageEventDefinition messageRef="m_go" /></bpmn:startEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="s2" targetRef="t2" /><bpmn:userTask id="t2" />
  </bpmn:process>
  <bpmn:process id="byCondition" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="s3"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\${hot}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:startEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="s3" targetRef="t3" /><bpmn:userTask id="t3" />
  </bpmn:process>
</bpmn:definitions>`;

  it('finds them and refuses to start them (500), where a request naming no tenant just does not see them', async () => {
    rest = await startRestHarness({}, { authentication: 'basic' });
    const { engine } = rest;
    await engine.identity.createUser({ id: 'jonny', firstName: null, lastName: null, email: null }, 'jonny-secret');
    for (const id of ['t1', 't2']) await engine.identity.createTenant({ id, name: id });
    await engine.identity.createTenantMembership('t1', { userId: 'jonny' });
    await engine.deployment.deploy({ tenantId: 't2', resources: [{ name: 'starts.bpmn', bytes: Buffer.from(STARTS) }] });
    const jonny = basic('jonny', 'jonny-secret');
    const refused = (response: { status: number; body: { message: string } }) => [response.status, /belongs to no authenticated tenant/.test(response.body.message)];

    expect((await rest.request('POST', '/signal', { json: { name: 'go' }, headers: jonny })).status).toBe(204);
    expect(refused(await rest.request('POST', '/signal', { json: { name: 'go', tenantId: 't2' }, headers: jonny }))).toEqual([500, true]);
    expect((await rest.request('POST', '/message', { json: { messageName: 'goMessage' }, headers: jonny })).status).toBe(400);
    expect(refused(await rest.request('POST', '/message', { json: { messageName: 'goMessage', tenantId: 't2' }, headers: jonny }))).toEqual([500, true]);
    const variables = { hot: { value: true, type: 'Boolean' } };
    expect(refused(await rest.request('POST', '/condition', { json: { variables, tenantId: 't2' }, headers: jonny }))).toEqual([500, true]);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });
});
