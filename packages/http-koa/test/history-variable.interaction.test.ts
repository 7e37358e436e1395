import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { HistoryLevel } from '@trellis/core';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const get = (path: string, query: Record<string, string | number | boolean> = {}, headers?: Record<string, string>) => rest.request('GET', path, { query, headers });
const post = (path: string, json: unknown, query: Record<string, string | number | boolean> = {}) => rest.request('POST', path, { json, query });

interface Started {
  instanceId: string;
  taskId: string;
}

/** Starts an instance with a String and a Bytes variable, then updates the String and adds an Integer. */
async function deployAndStart(headers?: Record<string, string>): Promise<Started> {
  await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
  const started = await rest.request('POST', '/process-definition/key/approval/start', {
    json: { variables: { subject: { value: 'draft', type: 'String' }, scan: { value: Buffer.from('PDF!').toString('base64'), type: 'Bytes' } } },
    headers,
  });
  const instanceId = started.body.id as string;
  rest.engine.clock.advance(1_000);
  await rest.request('POST', `/process-instance/${instanceId}/variables`, {
    json: { modifications: { subject: { value: 'final', type: 'String' }, amount: { value: 42, type: 'Integer' } } },
    headers,
  });
  const [task] = await rest.engine.task.findTasks({ processInstanceId: instanceId });
  return { instanceId, taskId: task.id };
}

describe('the Historic Variable Instance and Historic Detail groups', () => {
  let started: Started;

  beforeEach(async () => {
    rest = await startRestHarness();
    started = await deployAndStart();
  });
  afterEach(async () => rest.close());

  it('lists historic variable instances as HistoricVariableInstanceDto', async () => {
    const response = await get('/history/variable-instance', { variableName: 'subject' });

    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: expect.any(String),
        name: 'subject',
        type: 'String',
        value: 'final',
        valueInfo: {},
        processDefinitionKey: 'approval',
        processDefinitionId: expect.stringMatching(/^approval:1:/),
        processInstanceId: started.instanceId,
        executionId: started.instanceId,
        activityInstanceId: started.instanceId,
        caseDefinitionKey: null,
        caseDefinitionId: null,
        caseInstanceId: null,
        caseExecutionId: null,
        taskId: null,
        tenantId: null,
        errorMessage: null,
        state: 'CREATED',
        createTime: '2026-01-15T10:00:00.000+0000',
        removalTime: null,
        rootProcessInstanceId: started.instanceId,
      },
    ]);
  });

  it('filters, sorts, pages and counts', async () => {
    const names = (body: Array<{ name: string }>) => body.map((each) => each.name);

    expect(names((await get('/history/variable-instance', { sortBy: 'variableName', sortOrder: 'desc' })).body)).toEqual(['subject', 'scan', 'amount']);
    expect(names((await get('/history/variable-instance', { sortBy: 'variableName', sortOrder: 'asc', firstResult: 1, maxResults: 1 })).body)).toEqual(['scan']);
    expect((await get('/history/variable-instance/count', { variableTypeIn: 'integer,bytes' })).body).toEqual({ count: 2 });
    expect((await get('/history/variable-instance/count', { variableName: 'subject', variableValue: 'FINAL', variableValuesIgnoreCase: true })).body).toEqual({ count: 1 });
    expect((await get('/history/variable-instance/count', { variableNameLike: 'S%', variableNamesIgnoreCase: true })).body).toEqual({ count: 2 });
    expect((await get('/history/variable-instance/count', { processInstanceIdIn: 'other' })).body).toEqual({ count: 0 });
    expect(names((await post('/history/variable-instance', { variableName: 'amount', variableValue: 42 })).body)).toEqual(['amount']);
    expect((await post('/history/variable-instance/count', { activityInstanceIdIn: [started.instanceId], sorting: [{ sortBy: 'instanceId', sortOrder: 'asc' }] })).body).toEqual({ count: 3 });
  });

  it('names an Object variable by its serializer, as Camunda keeps it, in type filters and the detail sorting', async () => {
    const list = { value: '[]', type: 'Object', valueInfo: { objectTypeName: 'java.util.ArrayList', serializationDataFormat: 'application/json' } };
    await post(`/process-instance/${started.instanceId}/variables`, { modifications: { list } });
    expect((await get('/history/variable-instance/count', { variableTypeIn: 'object' })).body).toEqual({ count: 0 });
    expect((await get('/history/variable-instance/count', { variableTypeIn: 'spin://application/json,integer' })).body).toEqual({ count: 2 });
    expect((await get('/history/detail/count', { variableTypeIn: 'SPIN://application/json' })).body).toEqual({ count: 1 });
    const details = await get('/history/detail', { processInstanceId: started.instanceId, sortBy: 'variableType', sortOrder: 'desc' });
    expect(details.body.map((each: { variableName: string }) => each.variableName)).toEqual(['subject', 'subject', 'list', 'amount', 'scan']);
  });

  it('refuses case filters and a value without a name', async () => {
    const caseFilter = await get('/history/variable-instance', { caseInstanceId: 'c' });
    const valueOnly = await get('/history/variable-instance', { variableValue: 'final' });
    const badSort = await get('/history/variable-instance', { sortBy: 'variableType', sortOrder: 'asc' });

    expect(caseFilter.status).toBe(400);
    expect(valueOnly.status).toBe(400);
    expect(valueOnly.body.message).toBe(
      'Only a single variable value parameter specified: variable name and value are required to be able to query after a specific variable value.',
    );
    expect(badSort.status).toBe(400);
  });

  it('gets one by id, its binary data, and answers 404 for unknown ids', async () => {
    const [scan] = (await get('/history/variable-instance', { variableName: 'scan' })).body;

    const single = await get(`/history/variable-instance/${scan.id}`);
    const data = await get(`/history/variable-instance/${scan.id}/data`);
    const [subject] = (await get('/history/variable-instance', { variableName: 'subject' })).body;
    const notBinary = await get(`/history/variable-instance/${subject.id}/data`);
    const missing = await get('/history/variable-instance/nope');

    expect(single.body).toMatchObject({ name: 'scan', type: 'Bytes', value: null });
    expect(data.status).toBe(200);
    expect(data.headers.get('content-type')).toBe('application/octet-stream');
    expect(data.body.toString()).toBe('PDF!');
    expect(notBinary.status).toBe(400);
    expect(notBinary.body.message).toBe(`Value of variable with id ${subject.id} is not a binary value.`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ type: 'InvalidRequestException', message: "Historic variable instance with Id 'nope' does not exist.", code: null });

    // One variable is read with Camunda's `deserializeValue` (singular), as its HistoricVariableInstanceResource takes it.
    await rest.request('PUT', `/process-instance/${started.instanceId}/variables/cart`, {
      json: { type: 'Object', value: '{"items":2}', valueInfo: { objectTypeName: 'java.util.LinkedHashMap', serializationDataFormat: 'application/json' } },
    });
    const [cart] = (await get('/history/variable-instance', { variableName: 'cart' })).body;
    const serialized = await rest.request('GET', `/history/variable-instance/${cart.id}`, { query: { deserializeValue: 'false' }, outsideContract: true });
    expect(serialized.body.value).toBe('{"items":2}');
    expect((await get(`/history/variable-instance/${cart.id}`)).body.value).toEqual({ items: 2 });
  });

  it('lists variable updates as HistoricDetailDto', async () => {
    const response = await get('/history/detail', { processInstanceId: started.instanceId, sortBy: 'time', sortOrder: 'asc', variableTypeIn: 'String' });
    const [subject] = (await get('/history/variable-instance', { variableName: 'subject' })).body;

    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      expect.objectContaining({ type: 'variableUpdate', variableName: 'subject', variableType: 'String', value: 'draft', revision: 0, initial: true, variableInstanceId: subject.id, time: '2026-01-15T10:00:00.000+0000' }),
      expect.objectContaining({ variableName: 'subject', value: 'final', revision: 1, initial: false, time: '2026-01-15T10:00:01.000+0000', userOperationId: null }),
    ]);
    expect((await get('/history/detail/count', { variableInstanceId: subject.id })).body).toEqual({ count: 2 });
    expect((await get('/history/detail/count', { occurredAfter: '2026-01-15T10:00:00.500+0000' })).body).toEqual({ count: 2 });
    expect((await get('/history/detail/count', { userOperationId: 'op' })).body).toEqual({ count: 0 });
    expect((await post('/history/detail', { variableNameLike: 'AM%' })).body.map((each: { value: unknown }) => each.value)).toEqual([42]);
    // Given at all, excludeTaskDetails applies (Camunda's DTO checks for null only).
    expect((await get('/history/detail/count', { excludeTaskDetails: false })).body).toEqual((await get('/history/detail/count', { excludeTaskDetails: true })).body);
  });

  it('gets one detail by id with its binary data; 404 for unknown ids', async () => {
    const [scan] = (await get('/history/detail', { variableTypeIn: 'Bytes' })).body;

    expect((await get(`/history/detail/${scan.id}`)).body).toMatchObject({ id: scan.id, variableName: 'scan', variableType: 'Bytes' });
    expect((await get(`/history/detail/${scan.id}/data`)).body.toString()).toBe('PDF!');
    expect((await get('/history/detail/nope')).body.message).toBe("Historic detail with Id 'nope' does not exist.");
    expect((await get('/history/detail/nope/data')).status).toBe(404);
  });

  it('lists submitted form fields as HistoricDetailDto; they have no binary data', async () => {
    await rest.request('POST', `/task/${started.taskId}/submit-form`, { json: { variables: { verdict: { value: 'ok', type: 'String' } } } });

    const response = await get('/history/detail', { formFields: true });
    const data = await get(`/history/detail/${response.body[0].id}/data`);

    expect(response.body).toEqual([
      expect.objectContaining({ type: 'formField', fieldId: 'verdict', fieldValue: 'ok', taskId: started.taskId, processInstanceId: started.instanceId, executionId: started.instanceId }),
    ]);
    expect(response.body[0]).not.toHaveProperty('variableName');
    expect(data.status).toBe(400);
    expect(data.body.message).toBe(`Historic detail with Id '${response.body[0].id}' is not a variable update.`);
  });

  it('deletes one historic variable instance, and all of a historic process instance', async () => {
    const [subject] = (await get('/history/variable-instance', { variableName: 'subject' })).body;

    const deleted = await rest.request('DELETE', `/history/variable-instance/${subject.id}`);
    const again = await rest.request('DELETE', `/history/variable-instance/${subject.id}`);
    const ofInstance = await rest.request('DELETE', `/history/process-instance/${started.instanceId}/variable-instances`);
    const unknownInstance = await rest.request('DELETE', '/history/process-instance/nope/variable-instances');

    expect(deleted.status).toBe(204);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`No historic variable instance found with id: ${subject.id}: variable is null`);
    expect(ofInstance.status).toBe(204);
    expect((await get('/history/variable-instance/count')).body).toEqual({ count: 0 });
    expect((await get('/history/detail/count')).body).toEqual({ count: 0 });
    expect(unknownInstance.status).toBe(404);
    expect(unknownInstance.body.message).toBe('No historic process instance found with id: nope: instance is null');
  });

  it('keeps deleted variables out of lists unless includeDeleted, and removes them with the process instance history', async () => {
    await rest.request('DELETE', `/process-instance/${started.instanceId}/variables/amount`);

    expect((await get('/history/variable-instance/count')).body).toEqual({ count: 2 });
    expect((await get('/history/variable-instance', { includeDeleted: true, variableName: 'amount' })).body).toEqual([expect.objectContaining({ state: 'DELETED', value: 42 })]);

    await rest.request('POST', `/task/${started.taskId}/complete`, { json: {} });
    expect((await rest.request('DELETE', `/history/process-instance/${started.instanceId}`)).status).toBe(204);

    expect((await get('/history/variable-instance/count', { includeDeleted: true })).body).toEqual({ count: 0 });
    expect((await get('/history/detail/count')).body).toEqual({ count: 0 });
  });
});

describe.each([
  ['none', 0, 0],
  ['activity', 0, 0],
  ['audit', 3, 0],
  ['full', 3, 4],
] as const)('variable history at level %s', (level: HistoryLevel, instances: number, details: number) => {
  beforeEach(async () => {
    rest = await startRestHarness({ historyLevel: level });
    await deployAndStart();
  });
  afterEach(async () => rest.close());

  it(`writes ${instances} variable instances and ${details} details`, async () => {
    expect((await get('/history/variable-instance/count')).body).toEqual({ count: instances });
    expect((await get('/history/detail/count')).body).toEqual({ count: details });
  });
});

describe('variable history with authorization on', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');
  let started: Started;

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
    started = await deployAndStart(admin);
  });
  afterEach(async () => rest.close());

  const grant = (permissions: string[]) =>
    rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 6, resourceId: 'approval', permissions }, headers: admin });

  it('shows variables and details of definitions the user has READ_HISTORY on, and those of standalone tasks to everyone', async () => {
    expect((await get('/history/variable-instance/count', {}, jonny)).body).toEqual({ count: 0 });
    expect((await get('/history/detail/count', {}, jonny)).body).toEqual({ count: 0 });
    const standalone = await rest.engine.task.createTask({ name: 'note' });
    await rest.engine.task.setVariablesLocal(standalone.id, { memo: { type: 'string', value: 'call back', valueInfo: {} } });
    expect((await get('/history/variable-instance', {}, jonny)).body.map((each: { name: string }) => each.name)).toEqual(['memo']);
    // So are the identity link log entries of standalone tasks.
    await rest.engine.task.addCandidateUser(standalone.id, 'mary');
    expect((await get('/history/identity-link-log', {}, jonny)).body.map((each: { userId: string }) => each.userId)).toEqual(['mary']);

    await grant(['READ_HISTORY']);

    // The approval instance's three variables and four updates, and the standalone task's one of each.
    expect((await get('/history/variable-instance/count', {}, jonny)).body).toEqual({ count: 4 });
    expect((await get('/history/detail/count', {}, jonny)).body).toEqual({ count: 5 });
  });

  it("stamps the details a user's command writes with that command's operation id", async () => {
    await rest.request('POST', `/process-instance/${started.instanceId}/variables`, {
      json: { modifications: { a: { value: 1, type: 'Integer' }, b: { value: 2, type: 'Integer' } } },
      headers: admin,
    });

    const [entry] = (await get('/history/user-operation', { operationType: 'ModifyVariable', sortBy: 'timestamp', sortOrder: 'desc' }, admin)).body;
    const details = (await get('/history/detail', { userOperationId: entry.operationId }, admin)).body;
    expect(details.map((detail: { variableName: string }) => detail.variableName).sort()).toEqual(['a', 'b']);
  });

  it('deletes only with DELETE_HISTORY on the definition', async () => {
    const denied = await rest.request('DELETE', `/history/process-instance/${started.instanceId}/variable-instances`, { headers: jonny });
    await grant(['DELETE_HISTORY']);
    const allowed = await rest.request('DELETE', `/history/process-instance/${started.instanceId}/variable-instances`, { headers: jonny });

    expect(denied.status).toBe(403);
    expect(denied.body.type).toBe('AuthorizationException');
    expect(allowed.status).toBe(204);
  });
});
