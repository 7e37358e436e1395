import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
  const deploy = async (key: string, options: Parameters<typeof simpleProcessXml>[1] & { tenantId?: string } = {}) => {
    await rest.engine.deployment.deploy({
      name: `deploy-${key}`,
      tenantId: options.tenantId ?? null,
      resources: [{ name: `${key}.bpmn`, bytes: Buffer.from(simpleProcessXml(key, options)) }],
    });
    rest.engine.clock.advance(1000);
  };
  await deploy('invoice', { name: 'Invoice', versionTag: 'v1', targetNamespace: 'finance' });
  await deploy('invoice', { name: 'Invoice', versionTag: 'v2', targetNamespace: 'finance' });
  await deploy('order', { name: 'Order', startableInTasklist: false, targetNamespace: 'sales' });
  await deploy('invoice', { name: 'Invoice (acme)', tenantId: 'acme', targetNamespace: 'finance' });
});
afterEach(async () => rest.close());

const keys = async (query: Record<string, string>) => {
  const response = await rest.request('GET', '/process-definition', { query });
  expect(response.status).toBe(200);
  return response.body.map((d: any) => `${d.key}:${d.version}${d.tenantId ? `@${d.tenantId}` : ''}`);
};

describe('GET /process-definition filters', () => {
  it('filters by key, keysIn, keyLike and version', async () => {
    expect(await keys({ key: 'invoice', sortBy: 'version', sortOrder: 'asc', withoutTenantId: 'true' })).toEqual(['invoice:1', 'invoice:2']);
    expect(await keys({ keysIn: 'order', version: '1' })).toEqual(['order:1']);
    expect(await keys({ keyLike: 'ord%' })).toEqual(['order:1']);
    expect(await keys({ ver: '2' })).toEqual(['invoice:2']);
  });

  it('keeps only the latest version per key and tenant', async () => {
    expect(await keys({ latestVersion: 'true', sortBy: 'key', sortOrder: 'asc', withoutTenantId: 'true' })).toEqual(['invoice:2', 'order:1']);
    expect((await keys({ latest: 'true' })).sort()).toEqual(['invoice:1@acme', 'invoice:2', 'order:1']);
  });

  it('filters by name, category, version tag and tasklist startability', async () => {
    expect(await keys({ nameLike: '%acme%' })).toEqual(['invoice:1@acme']);
    expect(await keys({ category: 'sales' })).toEqual(['order:1']);
    expect(await keys({ versionTag: 'v2' })).toEqual(['invoice:2']);
    expect((await keys({ withoutVersionTag: 'true' })).sort()).toEqual(['invoice:1@acme', 'order:1']);
    expect(await keys({ notStartableInTasklist: 'true' })).toEqual(['order:1']);
  });

  it('filters by tenant and suspension state', async () => {
    expect(await keys({ tenantIdIn: 'acme' })).toEqual(['invoice:1@acme']);
    expect((await keys({ tenantIdIn: 'acme', includeProcessDefinitionsWithoutTenantId: 'true', key: 'invoice' })).length).toBe(3);
    await rest.request('PUT', '/process-definition/key/order/suspended', { json: { suspended: true } });
    expect(await keys({ suspended: 'true' })).toEqual(['order:1']);
    expect((await keys({ active: 'true' })).length).toBe(3);
    // As Camunda's query keeps them: suspended wins over active, withoutTenantId over a tenant list,
    // an empty tenant list filters nothing, withoutVersionTag wins over versionTag.
    expect(await keys({ active: 'true', suspended: 'true' })).toEqual(['order:1']);
    expect((await keys({ tenantIdIn: 'acme', withoutTenantId: 'true' })).length).toBe(3);
    expect((await keys({ tenantIdIn: '' })).length).toBe(4);
    expect((await keys({ versionTag: 'v2', withoutVersionTag: 'true' })).sort()).toEqual(['invoice:1@acme', 'order:1']);
  });

  it('finds the definitions a user may start, as a candidate starter user or through a group', async () => {
    const starters = (key: string, attributes: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d_${key}" targetNamespace="t">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5" ${attributes}><bpmn:startEvent id="s" /></bpmn:process>
</bpmn:definitions>`;
    await rest.engine.deployment.deploy({
      resources: [
        { name: 'by-user.bpmn', bytes: Buffer.from(starters('byUser', 'camunda:candidateStarterUsers="mary"')) },
        { name: 'by-group.bpmn', bytes: Buffer.from(starters('byGroup', 'camunda:candidateStarterGroups="sales"')) },
      ],
    });
    await rest.engine.identity.createUser({ id: 'mary', firstName: 'M', lastName: 'S', email: null }, 'mary-secret');
    await rest.engine.identity.createGroup({ id: 'sales', name: 'Sales', type: null });
    await rest.engine.identity.createMembership('mary', 'sales');

    expect((await keys({ startableBy: 'mary' })).sort()).toEqual(['byGroup:1', 'byUser:1']);
    expect(await keys({ startableBy: 'john' })).toEqual([]);
  });

  it("matches names case-insensitively and refuses Camunda's invalid combinations", async () => {
    expect(await keys({ nameLike: '%ACME%' })).toEqual(['invoice:1@acme']);
    const zero = await rest.request('GET', '/process-definition', { query: { version: '0' } });
    const latestOfVersion = await rest.request('GET', '/process-definition', { query: { latestVersion: 'true', version: '1' } });
    expect([zero.status, zero.body.message]).toEqual([500, 'version is not greater than 0']);
    expect([latestOfVersion.status, latestOfVersion.body.message]).toEqual([
      500,
      'Calling latest() can only be used in combination with key(String) and keyLike(String) or name(String) and nameLike(String)',
    ]);
  });

  it('filters by deployment, resource name and deployment time', async () => {
    const [order] = (await rest.request('GET', '/process-definition', { query: { key: 'order' } })).body;
    const deployment = (await rest.request('GET', `/deployment/${order.deploymentId}`)).body;

    expect(await keys({ deploymentId: order.deploymentId })).toEqual(['order:1']);
    expect(await keys({ resourceName: 'order.bpmn' })).toEqual(['order:1']);
    expect(await keys({ deployedAt: deployment.deploymentTime })).toEqual(['order:1']);
    expect(await keys({ deployedAfter: deployment.deploymentTime })).toEqual(['invoice:1@acme']);
  });

  it('sorts by every documented field and pages', async () => {
    for (const sortBy of ['category', 'key', 'id', 'name', 'version', 'deploymentId', 'deployTime', 'tenantId', 'versionTag']) {
      expect((await keys({ sortBy, sortOrder: 'desc' })).length).toBe(4);
    }
    expect(await keys({ sortBy: 'deployTime', sortOrder: 'desc', maxResults: '2' })).toEqual(['invoice:1@acme', 'order:1']);
    expect(await keys({ sortBy: 'deployTime', sortOrder: 'asc', firstResult: '3' })).toEqual(['invoice:1@acme']);
  });

  it('counts with the same filters', async () => {
    const response = await rest.request('GET', '/process-definition/count', { query: { key: 'invoice', withoutTenantId: 'true' } });

    expect(response.body).toEqual({ count: 2 });
  });

  it('answers 400 for a bad value', async () => {
    const response = await rest.request('GET', '/process-definition', { query: { version: 'one' } });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe("Cannot set query parameter 'version' to value 'one': Cannot convert value one to java type java.lang.Integer");
  });
});

describe('GET /process-definition by incident', () => {
  it('finds the definitions with an incident matching every incident filter', async () => {
    const waiting = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="w" targetNamespace="http://trellis.test">
  <bpmn:process id="waiting" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="task" />
    <bpmn:userTask id="task" /><bpmn:sequenceFlow id="f2" sourceRef="task" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
    await rest.engine.deployment.deploy({ resources: [{ name: 'waiting.bpmn', bytes: Buffer.from(waiting) }] });
    const instance = (await rest.request('POST', '/process-definition/key/waiting/start', { json: {} })).body.id;
    const created = await rest.request('POST', `/execution/${instance}/create-incident`, { json: { incidentType: 'custom', message: 'broken belt' } });

    expect(created.status).toBe(200);
    expect(await keys({ incidentType: 'custom' })).toEqual(['waiting:1']);
    expect(await keys({ incidentId: created.body.id, incidentMessage: 'broken belt' })).toEqual(['waiting:1']);
    expect(await keys({ incidentMessageLike: 'broken%', incidentType: 'failedJob' })).toEqual([]);
    expect(await keys({ incidentMessageLike: '%belt' })).toEqual(['waiting:1']);
  });
});
