import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

async function deploy(key: string, options: { tenantId?: string; xml?: string; files?: Array<{ name: string; bytes: Buffer }> } = {}) {
  const result = await rest.engine.deployment.deploy({
    tenantId: options.tenantId ?? null,
    resources: [{ name: `${key}.bpmn`, bytes: Buffer.from(options.xml ?? simpleProcessXml(key)) }, ...(options.files ?? [])],
  });
  return result.processDefinitions![0];
}

const callerXml = (calledElement: string, extra = '') => simpleProcessXml('caller', {
  body: `<bpmn:callActivity id="call" calledElement="${calledElement}" ${extra} />
    <bpmn:callActivity id="dynamic" calledElement="\${which}" />
    <bpmn:callActivity id="again" calledElement="${calledElement}" ${extra} />`,
});

describe('GET /process-definition/{id}, by key, by key and tenant', () => {
  it('reads one definition in every addressing form', async () => {
    await deploy('invoice');
    const latest = await deploy('invoice');
    const tenant = await deploy('invoice', { tenantId: 'acme' });

    const byId = await rest.request('GET', `/process-definition/${latest.id}`);
    const byKey = await rest.request('GET', '/process-definition/key/invoice');
    const byTenant = await rest.request('GET', '/process-definition/key/invoice/tenant-id/acme');

    expect(byId.body).toMatchObject({ id: latest.id, key: 'invoice', version: 2, tenantId: null });
    expect(byKey.body.id).toBe(latest.id);
    expect(byTenant.body.id).toBe(tenant.id);
  });

  it('answers 404 for an unknown id, key or tenant', async () => {
    await deploy('invoice');

    const byId = await rest.request('GET', '/process-definition/nope');
    const byKey = await rest.request('GET', '/process-definition/key/nope');
    const byTenant = await rest.request('GET', '/process-definition/key/invoice/tenant-id/nobody');

    expect(byId.status).toBe(404);
    expect(byId.body).toEqual({ type: 'InvalidRequestException', message: 'No matching definition with id nope', code: null });
    expect(byKey.body).toEqual({ type: 'RestException', message: 'No matching process definition with key: nope and no tenant-id', code: null });
    expect(byTenant.body.message).toBe('No matching process definition with key: invoice and tenant-id: nobody');
  });

  it('serves the same routes under /engine/{name}', async () => {
    const definition = await deploy('invoice');

    const named = await rest.request('GET', `/engine/default/process-definition/${definition.id}`);
    const unknown = await rest.request('GET', `/engine/other/process-definition/${definition.id}`);

    expect(named.body.id).toBe(definition.id);
    // Without the authentication filter Camunda's resources find no engine of that name.
    expect([unknown.status, unknown.body.message]).toEqual([400, 'No process engine available']);
  });
});

describe('GET …/xml and …/diagram', () => {
  it('returns the deployed XML', async () => {
    const definition = await deploy('invoice');

    const byId = await rest.request('GET', `/process-definition/${definition.id}/xml`);
    const byKey = await rest.request('GET', '/process-definition/key/invoice/xml');
    const tenant = await deploy('invoice', { tenantId: 'acme' });
    const byTenant = await rest.request('GET', '/process-definition/key/invoice/tenant-id/acme/xml');
    const unknown = await rest.request('GET', '/process-definition/nope/xml');

    expect(byId.body).toEqual({ id: definition.id, bpmn20Xml: simpleProcessXml('invoice') });
    expect(byKey.body.id).toBe(definition.id);
    expect(byTenant.body.id).toBe(tenant.id);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('No matching definition with id nope');
    expect(byId.headers.get('cache-control')).toBeNull();
  });

  it('returns the diagram image, or 204 without one', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>');
    const withDiagram = await deploy('drawn', { files: [{ name: 'drawn.drawn.svg', bytes: svg }] });
    const without = await deploy('plain');

    const image = await rest.request('GET', `/process-definition/${withDiagram.id}/diagram`);
    const none = await rest.request('GET', `/process-definition/${without.id}/diagram`);
    const unknown = await rest.request('GET', '/process-definition/nope/diagram');
    const byKey = await rest.request('GET', '/process-definition/key/drawn/diagram');

    expect(byKey.body).toEqual(svg);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\/svg\+xml/);
    expect(image.body).toEqual(svg);
    expect(none.status).toBe(204);
    // Camunda lets the engine's NotFoundException through here: 400, with the deployment cache's text.
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual({ type: 'NotFoundException', message: "no deployed process definition found with id 'nope': processDefinition is null", code: 0 });
  });
});

describe('PUT …/suspended', () => {
  it('suspends and activates one definition by id', async () => {
    const definition = await deploy('invoice');

    const suspend = await rest.request('PUT', `/process-definition/${definition.id}/suspended`, { json: { suspended: true, includeProcessInstances: true } });
    const suspended = (await rest.request('GET', `/process-definition/${definition.id}`)).body.suspended;
    await rest.request('PUT', `/process-definition/key/invoice/suspended`, { json: { suspended: false } });

    expect(suspend.status).toBe(204);
    expect(suspended).toBe(true);
    expect((await rest.request('GET', `/process-definition/${definition.id}`)).body.suspended).toBe(false);
  });

  it('suspends every version of a key at once', async () => {
    await deploy('invoice');
    await deploy('invoice');

    const response = await rest.request('PUT', '/process-definition/suspended', { json: { processDefinitionKey: 'invoice', suspended: true } });

    expect(response.status).toBe(204);
    expect((await rest.request('GET', '/process-definition/count', { query: { suspended: 'true' } })).body).toEqual({ count: 2 });
  });

  it('schedules the change for an execution date ahead, and applies it when due', async () => {
    const definition = await deploy('invoice');

    await rest.request('PUT', `/process-definition/${definition.id}/suspended`, { json: { suspended: true, executionDate: '2026-02-01T00:00:00' } });
    const before = (await rest.request('GET', `/process-definition/${definition.id}`)).body.suspended;
    rest.engine.clock.set(new Date('2026-02-02T00:00:00Z'));
    await rest.engine.jobExecutor.runDueJobs();

    expect(before).toBe(false);
    expect((await rest.request('GET', `/process-definition/${definition.id}`)).body.suspended).toBe(true);
  });

  it.each([
    ['/process-definition/suspended', { processDefinitionId: 'x', suspended: true }, 'Only processDefinitionKey can be set to update the suspension state.'],
    ['/process-definition/suspended', { suspended: true }, 'Either processDefinitionId or processDefinitionKey should be set to update the suspension state.'],
    // The date is read first.
    ['/process-definition/suspended', { suspended: true, executionDate: 'soon' }, 'Could not update the suspension state of Process Definitions due to: Invalid format: "soon"'],
  ])('PUT %s %o answers 400', async (path, json, message) => {
    const response = await rest.request('PUT', path, { json });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it('answers 400 for a key in a by-id request and for a bad execution date', async () => {
    const definition = await deploy('invoice');

    const withKey = await rest.request('PUT', `/process-definition/${definition.id}/suspended`, { json: { suspended: true, processDefinitionKey: 'k' } });
    const badDate = await rest.request('PUT', `/process-definition/${definition.id}/suspended`, { json: { suspended: true, executionDate: 'soon' } });

    expect(withKey.body.message).toBe('Only one of processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    expect(badDate.status).toBe(400);
    expect(badDate.body.message).toMatch(new RegExp(`^The suspension state of Process Definition with id ${definition.id} could not be updated due to: `));
  });

  it('suspends the latest definition of a key for one tenant only', async () => {
    const shared = await deploy('invoice');
    const tenant = await deploy('invoice', { tenantId: 'acme' });

    const response = await rest.request('PUT', '/process-definition/key/invoice/tenant-id/acme/suspended', { json: { suspended: true } });

    expect(response.status).toBe(204);
    expect((await rest.request('GET', `/process-definition/${tenant.id}`)).body.suspended).toBe(true);
    expect((await rest.request('GET', `/process-definition/${shared.id}`)).body.suspended).toBe(false);
  });

  it('answers 415 for a body that is not JSON and 413 for one over the limit', async () => {
    const definition = await deploy('invoice');
    const small = await startRestHarness({}, { bodyLimit: 64 });
    try {
      const wrongType = await rest.request('PUT', `/process-definition/${definition.id}/suspended`, {
        body: 'suspended=true',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      });
      const tooLarge = await small.request('PUT', '/process-definition/suspended', { json: { processDefinitionKey: 'x'.repeat(100), suspended: true } });

      expect(wrongType.status).toBe(415);
      expect(tooLarge.status).toBe(413);
    } finally {
      await small.close();
    }
  });

  it('reads a body sent in chunks, and answers 413 as soon as one crosses the limit', async () => {
    const small = await startRestHarness({}, { bodyLimit: 64 });
    const send = async (parts: string[]) => {
      const stream = new ReadableStream({
        start(controller) {
          for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
          controller.close();
        },
      });
      // No Content-Length: the body comes chunked and its size shows only while it is read.
      const response = await fetch(`${small.url}/process-definition/suspended`, {
        method: 'PUT',
        headers: { 'Content-Type': 'application/json' },
        body: stream,
        duplex: 'half',
      } as RequestInit);
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    };
    try {
      expect(await send(['{"processDefinitionKey":', '"nope","suspended":true}'])).toMatchObject({ status: 204 });
      expect(await send(['{"processDefinitionKey":"', 'x'.repeat(50), 'y'.repeat(50), '"}'])).toMatchObject({ status: 413, body: { type: 'InvalidRequestException' } });
      expect(await send(['{"processDefinitionKey":"nope","suspended":true}'])).toMatchObject({ status: 204 });
    } finally {
      await small.close();
    }
  });

  it('changes nothing for an unknown key or id (204, as Camunda), and 404 for an unknown key in the path', async () => {
    const definition = await deploy('invoice');

    const byKey = await rest.request('PUT', '/process-definition/suspended', { json: { processDefinitionKey: 'nope', suspended: true } });
    const byId = await rest.request('PUT', '/process-definition/nope/suspended', { json: { suspended: true, includeProcessInstances: true } });
    const inPath = await rest.request('PUT', '/process-definition/key/nope/suspended', { json: { suspended: true } });
    const logged = await rest.request('GET', '/history/user-operation', { query: { operationType: 'Suspend' } });

    expect([byKey.status, byId.status]).toEqual([204, 204]);
    expect(inPath.status).toBe(404);
    expect(inPath.body.message).toBe('No matching process definition with key: nope and no tenant-id');
    expect((await rest.request('GET', `/process-definition/${definition.id}`)).body.suspended).toBe(false);
    expect(logged.status).toBe(200);
  });
});

describe('PUT …/history-time-to-live', () => {
  it('updates the history time to live', async () => {
    const definition = await deploy('invoice');

    const response = await rest.request('PUT', `/process-definition/${definition.id}/history-time-to-live`, { json: { historyTimeToLive: 7 } });
    await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.processDefinition.updateHistoryTimeToLive(definition.id, 9));
    const logged = await rest.request('GET', '/history/user-operation', { query: { operationType: 'UpdateHistoryTimeToLive' } });

    expect(response.status).toBe(204);
    expect((await rest.request('GET', '/process-definition/key/invoice')).body.historyTimeToLive).toBe(9);
    expect(logged.body).toEqual([
      expect.objectContaining({ entityType: 'ProcessDefinition', processDefinitionId: definition.id, processDefinitionKey: 'invoice', property: 'historyTimeToLive', orgValue: '7', newValue: '9', userId: 'demo' }),
    ]);
  });

  it('updates the latest definition addressed by key and by key and tenant', async () => {
    const shared = await deploy('invoice');
    const tenant = await deploy('invoice', { tenantId: 'acme' });

    await rest.request('PUT', '/process-definition/key/invoice/history-time-to-live', { json: { historyTimeToLive: 3 } });
    await rest.request('PUT', '/process-definition/key/invoice/tenant-id/acme/history-time-to-live', { json: { historyTimeToLive: 4 } });

    expect((await rest.request('GET', `/process-definition/${shared.id}`)).body.historyTimeToLive).toBe(3);
    expect((await rest.request('GET', `/process-definition/${tenant.id}`)).body.historyTimeToLive).toBe(4);
  });

  it('rejects a negative value and null while TTL is enforced', async () => {
    const definition = await deploy('invoice');

    const negative = await rest.request('PUT', `/process-definition/${definition.id}/history-time-to-live`, { json: { historyTimeToLive: -1 } });
    const missing = await rest.request('PUT', `/process-definition/${definition.id}/history-time-to-live`, { json: { historyTimeToLive: null } });

    expect(negative.status).toBe(400);
    expect(negative.body).toMatchObject({ type: 'BadUserRequestException', message: 'historyTimeToLive is not greater than or equal to 0' });
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ type: 'NotAllowedException', message: 'Null historyTimeToLive values are not allowed' });
  });

  it('checks the value before it looks for the definition, as Camunda does', async () => {
    const negative = await rest.request('PUT', '/process-definition/nope/history-time-to-live', { json: { historyTimeToLive: -1 } });
    const missing = await rest.request('PUT', '/process-definition/nope/history-time-to-live', { json: { historyTimeToLive: null } });
    const unknown = await rest.request('PUT', '/process-definition/nope/history-time-to-live', { json: { historyTimeToLive: 5 } });

    expect([negative.status, negative.body.type]).toEqual([400, 'BadUserRequestException']);
    expect([missing.status, missing.body.type]).toEqual([400, 'NotAllowedException']);
    expect(unknown.status).toBe(404);
  });
});

describe('DELETE /process-definition', () => {
  it('deletes one version by id, and answers 404 for an unknown one', async () => {
    const first = await deploy('invoice');
    await deploy('invoice');

    const response = await rest.request('DELETE', `/process-definition/${first.id}`, { query: { cascade: 'TRUE' } });
    const unknown = await rest.request('DELETE', '/process-definition/nope');

    expect(response.status).toBe(204);
    expect((await rest.request('GET', '/process-definition/count')).body).toEqual({ count: 1 });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("No process definition found with id 'nope': processDefinition is null");
  });

  it('cascades to the instances as deletions do: called instances go too, end listeners run unless skipped', async () => {
    const model = (key: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5">${body}</bpmn:process>
</bpmn:definitions>`;
    const child = model('cascadeChild', `<bpmn:startEvent id="s" /><bpmn:sequenceFlow id="c1" sourceRef="s" targetRef="wait" />
      <bpmn:userTask id="wait"><bpmn:extensionElements><camunda:executionListener event="end" class="com.acme.Note" /></bpmn:extensionElements></bpmn:userTask>`);
    const parent = model('cascadeParent', `<bpmn:startEvent id="s" /><bpmn:sequenceFlow id="p1" sourceRef="s" targetRef="call" /><bpmn:callActivity id="call" calledElement="cascadeChild" />`);
    let ended = 0;
    rest.engine.delegates.registerClass('com.acme.Note', () => void ended++);
    await deploy('cascadeChild', { xml: child });
    const parentDefinition = await deploy('cascadeParent', { xml: parent });
    const children = async () => rest.engine.runtime.findProcessInstances({ processDefinitionKey: 'cascadeChild' });
    const startParent = async () => (await rest.request('POST', `/process-definition/${parentDefinition.id}/start`, { json: {} })).body.id as string;
    await startParent();
    const [firstChild] = await children();
    await startParent();

    const skipped = await rest.request('DELETE', `/process-definition/${parentDefinition.id}`, { query: { cascade: true, skipCustomListeners: true } });
    const afterSkipped = ended;
    const again = await deploy('cascadeParent', { xml: parent });
    parentDefinition.id = again.id;
    await startParent();
    await rest.request('DELETE', '/process-definition/key/cascadeParent', { query: { cascade: true } });

    expect(skipped.status).toBe(204);
    expect(afterSkipped).toBe(0);
    expect(ended).toBe(1);
    expect(await children()).toEqual([]);
    // Camunda's ExecutionManager.deleteProcessInstance: the called instance ends with its caller, for the same reason.
    expect((await rest.engine.history.findHistoricProcessInstances({ processInstanceId: firstChild.id }))[0]).toMatchObject({
      state: 'INTERNALLY_TERMINATED',
      deleteReason: 'deleted process definition',
    });
  });

  it('deletes every version of a key, per tenant', async () => {
    await deploy('invoice');
    await deploy('invoice');
    await deploy('invoice', { tenantId: 'acme' });

    const byKey = await rest.request('DELETE', '/process-definition/key/invoice');
    const remaining = (await rest.request('GET', '/process-definition')).body;
    const byTenant = await rest.request('DELETE', '/process-definition/key/invoice/tenant-id/acme');
    const unknown = await rest.request('DELETE', '/process-definition/key/invoice');

    expect(byKey.status).toBe(204);
    expect(remaining.map((d: any) => d.tenantId)).toEqual(['acme']);
    expect(byTenant.status).toBe(204);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("No process definition found with key 'invoice': processDefinitions is empty");
  });
});

describe('GET /process-definition/{id}/static-called-process-definitions', () => {
  it('lists statically called definitions with the call activities calling them', async () => {
    const called = await deploy('sub');
    const caller = await deploy('caller', { xml: callerXml('sub') });

    const response = await rest.request('GET', `/process-definition/${caller.id}/static-called-process-definitions`);

    expect(response.body).toEqual([
      expect.objectContaining({ id: called.id, key: 'sub', callingProcessDefinitionId: caller.id, calledFromActivityIds: ['call', 'again'] }),
    ]);
  });

  it('resolves version bindings and skips targets that do not exist', async () => {
    const v1 = await deploy('sub');
    await deploy('sub');
    const pinned = await deploy('caller', { xml: callerXml('sub', 'camunda:calledElementBinding="version" camunda:calledElementVersion="1"') });
    const missing = await deploy('caller', { xml: callerXml('ghost') });

    const versioned = await rest.request('GET', `/process-definition/${pinned.id}/static-called-process-definitions`);
    const none = await rest.request('GET', `/process-definition/${missing.id}/static-called-process-definitions`);
    const unknown = await rest.request('GET', '/process-definition/nope/static-called-process-definitions');

    expect(versioned.body.map((d: any) => d.id)).toEqual([v1.id]);
    expect(none.body).toEqual([]);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ type: 'InvalidRequestException', message: "no deployed process definition found with id 'nope': processDefinition is null", code: null });
  });
});
