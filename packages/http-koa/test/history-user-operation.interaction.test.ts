import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { INVOICE } from './support/invoice-model.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
const demo = basic('demo', 'demo-secret');

beforeEach(async () => {
  rest = await startRestHarness({}, { authentication: 'basic' });
  await rest.engine.identity.setUpAdministrator('demo', 'demo-secret');
});
afterEach(async () => rest.close());

async function suspendedInstance() {
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'p.bpmn', bytes: Buffer.from(INVOICE) }] });
  const instance = await rest.engine.runtime.startProcessInstanceById(processDefinitions![0].id);
  const suspended = await rest.request('PUT', `/process-instance/${instance.id}/suspended`, { json: { suspended: true }, headers: demo });
  expect(suspended.status).toBe(204);
  return { instance, definition: processDefinitions![0] };
}

describe('GET /history/user-operation', () => {
  it('lists the entries of what an authenticated user did, as UserOperationLogEntryDto', async () => {
    const { instance, definition } = await suspendedInstance();

    const list = await rest.request('GET', '/history/user-operation', { headers: demo });

    expect(list.status).toBe(200);
    expect(list.body).toEqual([
      {
        id: expect.any(String),
        deploymentId: definition.deploymentId,
        processDefinitionId: definition.id,
        processDefinitionKey: 'invoice',
        processInstanceId: instance.id,
        executionId: null,
        caseDefinitionId: null,
        caseInstanceId: null,
        caseExecutionId: null,
        taskId: null,
        externalTaskId: null,
        batchId: null,
        jobId: null,
        jobDefinitionId: null,
        userId: 'demo',
        timestamp: '2026-01-15T10:00:00.000+0000',
        operationId: expect.any(String),
        operationType: 'Suspend',
        entityType: 'ProcessInstance',
        property: 'suspensionState',
        orgValue: null,
        newValue: 'suspended',
        removalTime: null,
        rootProcessInstanceId: instance.id,
        category: 'Operator',
        annotation: null,
      },
    ]);
  });

  it('filters by the contract’s parameters, counts, sorts and pages', async () => {
    const { instance } = await suspendedInstance();
    rest.engine.clock.advance(60_000);
    await rest.request('PUT', `/process-instance/${instance.id}/suspended`, { json: { suspended: false }, headers: demo });
    const types = (body: any[]) => body.map((entry) => entry.operationType);
    const get = (query: Record<string, string | number>) => rest.request('GET', '/history/user-operation', { query, headers: demo });

    const desc = await get({ sortBy: 'timestamp', sortOrder: 'desc' });
    const paged = await get({ firstResult: 1, maxResults: 1 });
    const after = await get({ afterTimestamp: '2026-01-15T10:00:30.000+0000' });
    const byType = await get({ operationType: 'Suspend', entityTypeIn: 'ProcessInstance,Job', categoryIn: 'Operator', userId: 'demo' });
    const none = await get({ processDefinitionKey: 'other' });
    const count = await rest.request('GET', '/history/user-operation/count', { query: { property: 'suspensionState', firstResult: 1 }, headers: demo });
    const badDate = await get({ beforeTimestamp: 'yesterday' });
    const badSort = await get({ sortBy: 'operationType', sortOrder: 'asc' });

    expect(types(desc.body)).toEqual(['Activate', 'Suspend']);
    expect(types(paged.body)).toEqual(['Activate']);
    expect(types(after.body)).toEqual(['Activate']);
    expect(types(byType.body)).toEqual(['Suspend']);
    expect(none.body).toEqual([]);
    expect(count.body).toEqual({ count: 2 });
    expect(badDate.status).toBe(400);
    expect(badDate.body).toMatchObject({
      type: 'InvalidRequestException',
      message: `Cannot set query parameter 'beforeTimestamp' to value 'yesterday': Cannot convert value "yesterday" to java type java.util.Date`,
    });
    expect(badSort.status).toBe(400);
  });
});

describe('PUT /history/user-operation/{operationId}/set-annotation and clear-annotation', () => {
  it('annotates the operation’s entries, logs that, and answers 400 for an unknown operation', async () => {
    await suspendedInstance();
    const [{ operationId }] = (await rest.request('GET', '/history/user-operation', { headers: demo })).body;

    const set = await rest.request('PUT', `/history/user-operation/${operationId}/set-annotation`, { json: { annotation: 'maintenance' }, headers: demo });
    const annotated = await rest.request('GET', '/history/user-operation', { query: { operationId }, headers: demo });
    const logged = await rest.request('GET', '/history/user-operation', { query: { entityType: 'OperationLog' }, headers: demo });
    const cleared = await rest.request('PUT', `/history/user-operation/${operationId}/clear-annotation`, { headers: demo });
    const afterClear = await rest.request('GET', '/history/user-operation', { query: { operationId }, headers: demo });
    const unknown = await rest.request('PUT', '/history/user-operation/nope/set-annotation', { json: { annotation: 'x' }, headers: demo });
    const unknownClear = await rest.request('PUT', '/history/user-operation/nope/clear-annotation', { headers: demo });

    expect([set.status, cleared.status]).toEqual([204, 204]);
    expect(annotated.body[0].annotation).toBe('maintenance');
    expect(logged.body).toEqual([
      expect.objectContaining({ operationType: 'SetAnnotation', property: 'operationId', newValue: operationId, category: 'Operator', userId: 'demo' }),
    ]);
    expect(afterClear.body[0].annotation).toBeNull();
    for (const response of [unknown, unknownClear]) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ type: 'BadUserRequestException', message: 'operation is null' });
    }
  });
});

describe('variable operations in the log', () => {
  it('logs each variable call as Camunda names it: POST ModifyVariable, PUT SetVariable, DELETE RemoveVariable', async () => {
    const { instance } = await suspendedInstance();
    await rest.request('PUT', `/process-instance/${instance.id}/suspended`, { json: { suspended: false }, headers: demo });
    const call = (method: string, path: string, json?: unknown) => rest.request(method, path, { json, headers: demo });
    expect((await call('POST', `/process-instance/${instance.id}/variables`, { modifications: { a: { value: 1, type: 'Integer' } } })).status).toBe(204);
    rest.engine.clock.advance(1_000);
    expect((await call('PUT', `/process-instance/${instance.id}/variables/b`, { value: 2, type: 'Integer' })).status).toBe(204);
    rest.engine.clock.advance(1_000);
    expect((await call('DELETE', `/process-instance/${instance.id}/variables/a`)).status).toBe(204);
    const entries = (await rest.request('GET', '/history/user-operation', { query: { entityType: 'Variable', sortBy: 'timestamp', sortOrder: 'asc' }, headers: demo })).body;
    expect(entries.map((entry: { operationType: string }) => entry.operationType)).toEqual(['ModifyVariable', 'SetVariable', 'RemoveVariable']);
  });
});
