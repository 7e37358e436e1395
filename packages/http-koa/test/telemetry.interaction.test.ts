import { afterEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';
import { basic } from './support/basic-auth.js';

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="tick" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:task id="work" /><bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

let rest: RestHarness;
afterEach(async () => rest.close());

describe('the Telemetry group', () => {
  it('keeps the configuration a deprecated no-op (always false) and reports what the engine did', async () => {
    rest = await startRestHarness();
    await rest.engine.deployment.deploy({ resources: [{ name: 'tick.bpmn', bytes: Buffer.from(MODEL) }] });
    const before = await rest.request('GET', '/telemetry/configuration');
    const configured = await rest.request('POST', '/telemetry/configuration', { json: { enableTelemetry: true } });
    const after = await rest.request('GET', '/telemetry/configuration');
    for (let i = 0; i < 3; i++) await rest.request('POST', '/process-definition/key/tick/start', { json: {} });

    const data = await rest.request('GET', '/telemetry/data');
    const again = await rest.request('GET', '/telemetry/data');

    expect(before.body).toEqual({ enableTelemetry: false });
    expect(configured.status).toBe(204);
    expect(after.body).toEqual({ enableTelemetry: false });
    expect(data.body.product).toMatchObject({ name: 'Trellis', edition: 'community' });
    expect(data.body.product.internals.database).toMatchObject({ vendor: 'SQLite' });
    expect(data.body.product.internals.jdk).toEqual({ vendor: 'Node.js', version: process.versions.node });
    expect(data.body.product.internals.metrics).toEqual({
      'process-instances': { count: 3 },
      'flow-node-instances': { count: 9 },
      'decision-instances': { count: 0 },
      'executed-decision-elements': { count: 0 },
    });
    expect(data.body.product.internals.commands.StartProcessInstanceCmd).toEqual({ count: 3 });
    expect(again.body.installation).toBe(data.body.installation);
  });

  it('shows the data only to administrators and users with READ on System', async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.engine.identity.createUser({ id: 'ops', firstName: 'O', lastName: 'Ps', email: null }, 'ops-secret');

    const denied = await rest.request('GET', '/telemetry/data', { headers: basic('ops', 'ops-secret') });
    await rest.engine.runAs({ userId: 'admin', groupIds: ['camunda-admin'], tenantIds: [] }, () =>
      rest.engine.authorization.createAuthorization({ type: 1, userId: 'ops', resourceType: 21, resourceId: '*', permissions: ['READ'] }),
    );
    const allowed = await rest.request('GET', '/telemetry/data', { headers: basic('ops', 'ops-secret') });
    // the deprecated configuration command checks nothing
    const configured = await rest.request('POST', '/telemetry/configuration', { json: { enableTelemetry: true }, headers: basic('ops', 'ops-secret') });

    expect(configured.status).toBe(204);
    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe(
      "ENGINE-03110 Required admin authenticated group or user or any of the following permissions: 'READ' permission on resource 'System'.",
    );
    expect(allowed.status).toBe(200);
  });
});

describe('the Schema Log group', () => {
  it("lists the schema's steps (GET and POST, by version, sorted and paged); empty for a user without READ on System", async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.engine.identity.createUser({ id: 'ops', firstName: 'O', lastName: 'Ps', email: null }, 'ops-secret');
    const admin = basic('admin', 'admin-secret');

    const all = await rest.request('GET', '/schema/log', { headers: admin });
    const one = await rest.request('GET', '/schema/log', { query: { version: '7.22.0' }, headers: admin });
    const other = await rest.request('GET', '/schema/log', { query: { version: '7.21.0' }, headers: admin });
    const page = await rest.request('POST', '/schema/log', { query: { firstResult: 1, maxResults: 2 }, json: { sorting: [{ sortBy: 'timestamp', sortOrder: 'asc' }] }, headers: admin });
    const badSort = await rest.request('GET', '/schema/log', { query: { sortBy: 'version', sortOrder: 'asc' }, headers: admin });
    const hidden = await rest.request('GET', '/schema/log', { headers: basic('ops', 'ops-secret') });

    // A schema created in one go is one entry, as Camunda's create scripts write it.
    expect(all.status).toBe(200);
    expect(all.body).toEqual([{ id: '0', timestamp: expect.any(String), version: '7.22.0' }]);
    expect(one.body).toEqual(all.body);
    expect(other.body).toEqual([]);
    expect(page.body).toEqual([]);
    expect(badSort.status).toBe(400);
    expect(hidden.body).toEqual([]);
  });
});
