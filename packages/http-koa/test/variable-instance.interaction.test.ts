import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';
import { grantMore } from '@trellis/core/testing';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:message id="m_paid" name="paid" />
  <bpmn:process id="approval" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="payment" />
    <bpmn:intermediateCatchEvent id="payment"><bpmn:messageEventDefinition messageRef="m_paid" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="payment" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="nested" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="nStart" />
    <bpmn:sequenceFlow id="n1" sourceRef="nStart" targetRef="sub" />
    <bpmn:subProcess id="sub">
      <bpmn:startEvent id="subStart" />
      <bpmn:sequenceFlow id="s1" sourceRef="subStart" targetRef="subTask" />
      <bpmn:userTask id="subTask" />
      <bpmn:sequenceFlow id="s2" sourceRef="subTask" targetRef="subEnd" />
      <bpmn:endEvent id="subEnd" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="n2" sourceRef="sub" targetRef="nEnd" />
    <bpmn:endEvent id="nEnd" />
  </bpmn:process>
</bpmn:definitions>`;

const base64 = (text: string) => Buffer.from(text).toString('base64');

const ALICE = {
  customer: { value: 'Alice', type: 'String' },
  amount: { value: 500, type: 'Integer' },
  payload: { value: '{"a":1}', type: 'Json' },
  blob: { value: base64('hello bytes'), type: 'Bytes' },
  doc: { value: base64('file text'), type: 'File', valueInfo: { filename: 'note.txt', mimetype: 'text/plain', mimeType: 'text/plain', encoding: 'UTF-8' } },
  raw: { value: base64('raw'), type: 'File', valueInfo: { filename: 'raw.bin' } },
  approved: { value: true, type: 'Boolean' },
};

async function deployAndStart(harness: RestHarness, headers?: Record<string, string>) {
  await harness.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
  await harness.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }], tenantId: 'acme' });
  const start = async (path: string, variables: unknown) => (await harness.request('POST', path, { json: { variables }, headers })).body;
  const alice = await start('/process-definition/key/approval/start', ALICE);
  const bob = await start('/process-definition/key/approval/tenant-id/acme/start', {
    customer: { value: 'Bob', type: 'String' },
    amount: { value: 50, type: 'Long' },
    Rate: { value: 2.5, type: 'Double' },
  });
  return { alice, bob };
}

type Dto = { id: string; name: string; type: string; value: unknown; valueInfo: Record<string, unknown>; processInstanceId: string; tenantId: string | null };
const get = (path: string, query: Record<string, string | number | boolean> = {}, headers?: Record<string, string>) => rest.request('GET', path, { query, headers });
const names = (body: Dto[]) => body.map((v) => v.name);
const count = async (query: Record<string, string | number | boolean>) => (await get('/variable-instance/count', query)).body.count as number;
const postCount = async (json: unknown) => (await rest.request('POST', '/variable-instance/count', { json })).body.count as number;

describe('the Variable Instance group', () => {
  let alice: { id: string; definitionId: string };
  let bob: { id: string; definitionId: string };

  beforeEach(async () => {
    rest = await startRestHarness();
    ({ alice, bob } = await deployAndStart(rest));
  });
  afterEach(async () => rest.close());

  it('lists variables as VariableInstanceDto, binaries left out', async () => {
    const response = await get('/variable-instance', { processInstanceIdIn: alice.id, sortBy: 'variableName', sortOrder: 'asc' });

    expect(response.status).toBe(200);
    expect(names(response.body)).toEqual(['amount', 'approved', 'blob', 'customer', 'doc', 'payload', 'raw']);
    const byName = Object.fromEntries(response.body.map((v: Dto) => [v.name, v]));
    expect(byName.customer).toEqual({
      id: expect.any(String), name: 'customer', type: 'String', value: 'Alice', valueInfo: {},
      processDefinitionId: alice.definitionId, processInstanceId: alice.id, executionId: alice.id,
      caseInstanceId: null, caseExecutionId: null, taskId: null, batchId: null, activityInstanceId: alice.id, tenantId: null, errorMessage: null,
    });
    expect(byName.amount).toMatchObject({ type: 'Integer', value: 500, valueInfo: {} });
    expect(byName.approved).toMatchObject({ type: 'Boolean', value: true });
    expect(byName.payload).toMatchObject({ type: 'Json', value: '{"a":1}' });
    expect(byName.blob).toMatchObject({ type: 'Bytes', value: null, valueInfo: {} });
    expect(byName.doc).toMatchObject({ type: 'File', value: null, valueInfo: { filename: 'note.txt', mimeType: 'text/plain', encoding: 'UTF-8' } });
  });

  it('gets one variable, 404 for an unknown id', async () => {
    const [customer] = (await get('/variable-instance', { variableName: 'customer', tenantIdIn: 'acme' })).body;

    const one = await get(`/variable-instance/${customer.id}`);
    const missing = await get('/variable-instance/nope');
    const missingData = await get('/variable-instance/nope/data');

    expect(one.status).toBe(200);
    expect(one.body).toEqual(customer);
    expect(one.body).toMatchObject({ value: 'Bob', tenantId: 'acme', processDefinitionId: bob.definitionId });
    for (const response of [missing, missingData]) {
      expect(response.status).toBe(404);
      expect(response.body).toEqual({ type: 'InvalidRequestException', message: "Variable instance with Id 'nope' does not exist.", code: null });
    }
  });

  it('serves Bytes and File values as binary data, other types as 400', async () => {
    const byName = Object.fromEntries((await get('/variable-instance', { processInstanceIdIn: alice.id })).body.map((v: Dto) => [v.name, v.id]));

    const blob = await get(`/variable-instance/${byName.blob}/data`);
    const doc = await get(`/variable-instance/${byName.doc}/data`);
    const raw = await get(`/variable-instance/${byName.raw}/data`);
    const text = await get(`/variable-instance/${byName.customer}/data`);

    expect(blob.status).toBe(200);
    expect(blob.headers.get('content-type')).toBe('application/octet-stream');
    expect(blob.body.toString()).toBe('hello bytes');
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toBe('text/plain; charset=UTF-8');
    expect(doc.headers.get('content-disposition')).toBe(`attachment; filename="note.txt"; filename*=UTF-8''note.txt`);
    expect(doc.body.toString()).toBe('file text');
    expect(raw.headers.get('content-type')).toBe('application/octet-stream');
    expect(raw.body.toString()).toBe('raw');
    expect(text.status).toBe(400);
    expect(text.body.message).toBe(`Value of variable with id ${byName.customer} is not a binary value.`);
  });

  it('filters by name, instance, execution, activity instance, scope, tenant and the case/batch/task ids', async () => {
    expect(await count({})).toBe(10);
    expect(await count({ variableName: 'customer' })).toBe(2);
    expect(await count({ variableNameLike: 'cust%' })).toBe(2);
    expect(await count({ processInstanceIdIn: `${alice.id},${bob.id}` })).toBe(10);
    expect(await count({ processInstanceIdIn: bob.id })).toBe(3);
    expect(await count({ executionIdIn: bob.id })).toBe(3);
    expect(await count({ activityInstanceIdIn: alice.id })).toBe(7);
    expect(await count({ variableScopeIdIn: bob.id })).toBe(3);
    expect(await count({ tenantIdIn: 'acme' })).toBe(3);
    // No such parameter in Camunda's VariableInstanceQueryDto: ignored.
    expect(await count({ withoutTenantId: true })).toBe(10);
    expect(await count({ taskIdIn: 'someTask' })).toBe(0);
    expect(await count({ caseInstanceIdIn: 'c1' })).toBe(0);
    expect(await count({ caseExecutionIdIn: 'c1' })).toBe(0);
    expect(await count({ batchIdIn: 'b1' })).toBe(0);
    // A String[] parameter splits as Java's String.split: `x=` is the one id '' (no variable has it),
    // `x=,` no id at all, which filters nothing (Camunda applies a list only when it holds values).
    expect(await count({ processInstanceIdIn: '' })).toBe(0);
    expect(await count({ processInstanceIdIn: ',' })).toBe(10);
    // A standalone task's variable has its task's tenant (Camunda's TENANT_ID_ of the variable).
    const note = await rest.engine.task.createTask({ name: 'note', tenantId: 'acme' });
    await rest.engine.task.setVariablesLocal(note.id, { memo: { type: 'string', value: 'x', valueInfo: {} } });
    expect((await get('/variable-instance', { tenantIdIn: 'acme', variableName: 'memo' })).body).toMatchObject([{ name: 'memo', tenantId: 'acme', taskId: note.id }]);
  });

  it('filters by variable values in the query string (values are strings)', async () => {
    expect(names((await get('/variable-instance', { variableValues: 'customer_eq_Alice' })).body)).toEqual(['customer']);
    expect(await count({ variableValues: 'customer_neq_Alice' })).toBe(1);
    expect(await count({ variableValues: 'customer_like_%li%' })).toBe(1);
    expect(await count({ variableValues: 'customer_gt_Alice' })).toBe(1);
    expect(await count({ variableValues: 'customer_gteq_Alice' })).toBe(2);
    expect(await count({ variableValues: 'customer_eq_alice' })).toBe(0);
    expect(await count({ variableValues: 'customer_eq_alice', variableValuesIgnoreCase: true })).toBe(1);
    expect(await count({ variableValues: 'CUSTOMER_eq_Bob', variableNamesIgnoreCase: true })).toBe(1);
    expect(await count({ variableValues: 'amount_eq_500' })).toBe(0);
    expect(await count({ variableValues: 'customer_eq_Alice,customer_like_A%' })).toBe(1);
    // Split as Java does (a trailing comma adds nothing); values read as Camunda's resolveValue
    // reads them (blank or "null" is null: no range condition takes it); "null" is no Boolean.
    expect(await count({ variableValues: 'customer_eq_Alice,' })).toBe(1);
    const nullRange = await get('/variable-instance/count', { variableValues: 'amount_gt_null' });
    expect([nullRange.status, nullRange.body.type, nullRange.body.message]).toEqual([400, 'NotValidException', "Booleans and null cannot be used in 'greater than' condition"]);
    expect(await count({ variableValues: 'customer_eq_Alice', variableNamesIgnoreCase: 'null' })).toBe(1);
  });

  it('filters by typed variable values in POST bodies, sorts and pages', async () => {
    expect(await postCount({ variableValues: [{ name: 'amount', operator: 'gteq', value: 50 }] })).toBe(2);
    expect(await postCount({ variableValues: [{ name: 'amount', operator: 'gt', value: 50 }] })).toBe(1);
    expect(await postCount({ variableValues: [{ name: 'amount', operator: 'lteq', value: 50.0 }] })).toBe(1);
    expect(await postCount({ variableValues: [{ name: 'amount', operator: 'lt', value: 49.5 }] })).toBe(0);
    // A number takes an integer type into the comparison only when it converts to it without loss
    // (Camunda's CompositeQueryVariableValueCondition): 500.5 compares with doubles alone.
    expect(await postCount({ variableValues: [{ name: 'amount', operator: 'lt', value: 501 }] })).toBe(2);
    expect(await postCount({ variableValues: [{ name: 'amount', operator: 'lt', value: 500.5 }] })).toBe(0);
    expect(await postCount({ variableValues: [{ name: 'Rate', operator: 'lt', value: 2.75 }] })).toBe(1);
    const invalid = await rest.request('POST', '/variable-instance/count', { json: { variableValues: [{ name: 'amount', operator: 'gt', value: true }] } });
    expect([invalid.status, invalid.body.type, invalid.body.message]).toEqual([400, 'NotValidException', "Booleans and null cannot be used in 'greater than' condition"]);
    expect(await postCount({ variableValues: [{ name: 'Rate', operator: 'eq', value: 2.5 }] })).toBe(1);
    expect(await postCount({ variableValues: [{ name: 'approved', operator: 'eq', value: true }] })).toBe(1);
    expect(await postCount({ variableValues: [{ name: 'approved', operator: 'neq', value: true }] })).toBe(0);
    expect(await postCount({ variableValues: [{ name: 'customer', operator: 'eq', value: 'Bob' }], tenantIdIn: ['acme'] })).toBe(1);
    expect(await postCount({ processInstanceIdIn: [alice.id], variableNameLike: '%o%' })).toBe(6);

    const sorted = await rest.request('POST', '/variable-instance', {
      json: { variableName: 'customer', sorting: [{ sortBy: 'tenantId', sortOrder: 'desc' }] },
    });
    expect(sorted.body.map((v: Dto) => v.value)).toEqual(['Bob', 'Alice']);

    const byType = (await get('/variable-instance', { processInstanceIdIn: bob.id, sortBy: 'variableType', sortOrder: 'asc' })).body;
    expect(byType.map((v: Dto) => v.type)).toEqual(['Double', 'Long', 'String']);
    const paged = await rest.request('POST', '/variable-instance', {
      query: { firstResult: 1, maxResults: 1 },
      json: { processInstanceIdIn: [bob.id], sorting: [{ sortBy: 'variableName', sortOrder: 'asc' }] },
    });
    expect(names(paged.body)).toEqual(['amount']);
    expect((await get('/variable-instance/count', { firstResult: 1, maxResults: 1 })).body).toEqual({ count: 10 });
    // A count has no paging: Camunda neither reads nor checks it (a list refuses what does not convert).
    expect((await get('/variable-instance/count', { firstResult: 'x', maxResults: '' })).body).toEqual({ count: 10 });
    expect((await get('/variable-instance', { firstResult: 'x' })).status).toBe(400);
    // Camunda orders by its serializer names: an Object is `spin://<its format>`.
    const objects = {
      xml: { value: '<list/>', type: 'Object', valueInfo: { objectTypeName: 'java.util.ArrayList', serializationDataFormat: 'application/xml' } },
      json: { value: '[]', type: 'Object', valueInfo: { objectTypeName: 'java.util.ArrayList', serializationDataFormat: 'application/json' } },
      small: { value: 1, type: 'Short' },
    };
    expect((await rest.request('POST', `/process-instance/${bob.id}/variables`, { json: { modifications: objects } })).status).toBe(204);
    const serializers = (await get('/variable-instance', { processInstanceIdIn: bob.id, sortBy: 'variableType', sortOrder: 'desc' })).body;
    expect(names(serializers).filter((name) => name in objects)).toEqual(['xml', 'json', 'small']);
  });

  it('answers 400 for bad parameters', async () => {
    const format = await get('/variable-instance', { variableValues: 'customer_eq' });
    const comparator = await get('/variable-instance', { variableValues: 'customer_between_x' });
    const sort = await get('/variable-instance', { sortBy: 'value', sortOrder: 'asc' });
    const postSort = await rest.request('POST', '/variable-instance', { json: { sorting: [{ sortBy: 'value', sortOrder: 'asc' }] } });
    const postComparator = await rest.request('POST', '/variable-instance/count', { json: { variableValues: [{ name: 'a', operator: 'between', value: 1 }] } });

    for (const response of [format, comparator, sort, postComparator]) {
      expect(response.status).toBe(400);
      expect(response.body.type).toBe('InvalidRequestException');
    }
    // A body's sorting is applied as Camunda's query takes it: an unknown sortBy orders nothing.
    expect([postSort.status, postSort.body.type, postSort.body.message]).toEqual([
      400, 'NotValidException', 'You should call any of the orderBy methods first before specifying a direction: currentOrderingProperty is null',
    ]);
    // Camunda's converter error, wrapped by its DTO; Java's split makes an empty value no value at all.
    expect(format.body.message).toBe("Cannot set query parameter 'variableValues' to value 'customer_eq': variable query parameter has to have format KEY_OPERATOR_VALUE.");
    const emptyValue = await get('/variable-instance', { variableValues: 'customer_eq_' });
    expect([emptyValue.status, emptyValue.body.message]).toEqual([400, "Cannot set query parameter 'variableValues' to value 'customer_eq_': variable query parameter has to have format KEY_OPERATOR_VALUE."]);
    expect(comparator.body.message).toBe('Invalid variable comparator specified: between');
  });

  it('deserializes JSON object values unless told not to', async () => {
    await rest.request('POST', `/process-instance/${alice.id}/variables`, {
      json: { modifications: { order: { value: '{"id":7}', type: 'Object', valueInfo: { objectTypeName: 'java.util.HashMap', serializationDataFormat: 'application/json' } } } },
    });
    const [order] = (await get('/variable-instance', { variableName: 'order' })).body;
    const [serialized] = (await get('/variable-instance', { variableName: 'order', deserializeValues: false })).body;

    expect(order).toMatchObject({ type: 'Object', value: { id: 7 }, valueInfo: { objectTypeName: 'java.util.HashMap', serializationDataFormat: 'application/json' } });
    expect(serialized.value).toBe('{"id":7}');
    expect((await get(`/variable-instance/${order.id}`, { deserializeValue: false })).body.value).toBe('{"id":7}');
    expect((await get(`/variable-instance/${order.id}`)).body.value).toEqual({ id: 7 });
  });

  it('gives a variable of a concurrent path the activity instance that path is in', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="p" targetNamespace="http://trellis.test">
  <bpmn:process id="split" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="s" /><bpmn:sequenceFlow id="f0" sourceRef="s" targetRef="fork" />
    <bpmn:parallelGateway id="fork" />
    <bpmn:sequenceFlow id="f1" sourceRef="fork" targetRef="a" /><bpmn:userTask id="a" />
    <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="b" /><bpmn:userTask id="b" />
  </bpmn:process>
</bpmn:definitions>`;
    await rest.engine.deployment.deploy({ resources: [{ name: 'split.bpmn', bytes: Buffer.from(xml) }] });
    const started = (await rest.request('POST', '/process-definition/key/split/start', { json: {} })).body;
    const tree = (await get(`/process-instance/${started.id}/activity-instances`)).body;
    const onA = tree.childActivityInstances.find((child: { activityId: string }) => child.activityId === 'a');
    expect((await rest.request('PUT', `/execution/${onA.executionIds[0]}/localVariables/mark`, { json: { value: 'x', type: 'String' } })).status).toBe(204);

    const [mark] = (await get('/variable-instance', { variableName: 'mark' })).body;
    expect(mark).toMatchObject({ executionId: onA.executionIds[0], activityInstanceId: onA.id });
    expect(names((await get('/variable-instance', { activityInstanceIdIn: onA.id })).body)).toEqual(['mark']);
  });

  it('gives local variables of a scope its activity instance', async () => {
    const started = (await rest.request('POST', '/process-definition/key/nested/start', { json: { variables: { top: { value: 1, type: 'Integer' } } } })).body;
    const tree = (await get(`/process-instance/${started.id}/activity-instances`)).body;
    const subInstance = tree.childActivityInstances.find((child: { activityId: string }) => child.activityId === 'sub');
    const [execution] = (await get('/execution', { processInstanceId: started.id, activityId: 'subTask' })).body;
    const scopeExecution = subInstance.executionIds[0] as string;
    expect(execution).toBeDefined();
    const put = await rest.request('PUT', `/execution/${scopeExecution}/localVariables/inner`, { json: { value: 'x', type: 'String' } });
    expect(put.status).toBe(204);

    const [inner] = (await get('/variable-instance', { variableName: 'inner' })).body;
    expect(inner).toMatchObject({ executionId: scopeExecution, processInstanceId: started.id, activityInstanceId: subInstance.id });
    expect(names((await get('/variable-instance', { activityInstanceIdIn: subInstance.id })).body)).toEqual(['inner']);
    expect((await get('/variable-instance', { variableName: 'top' })).body[0].activityInstanceId).toBe(started.id);
    expect((await get('/variable-instance', { activityInstanceIdIn: `${subInstance.id},${started.id}`, sortBy: 'activityInstanceId', sortOrder: 'asc' })).body).toHaveLength(2);
  });
});

describe('the Variable Instance group with authorization on', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');
  let alice: { id: string };
  let bob: { id: string };

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
    // A member of the tenant the data belongs to, so that only the grants decide (the tenant check hides other tenants' data).
    await rest.engine.identity.createTenant({ id: 'acme', name: 'Acme' });
    await rest.engine.identity.createTenantMembership('acme', { userId: 'jonny' });
    ({ alice, bob } = await deployAndStart(rest, admin));
  });
  afterEach(async () => rest.close());

  const grant = (resourceType: number, resourceId: string, permissions: string[]) => grantMore(rest.engine, { userId: 'jonny' }, resourceType, resourceId, permissions);
  const visible = async () => {
    const list = (await get('/variable-instance', {}, jonny)).body as Dto[];
    return [...new Set(list.map((v) => v.processInstanceId))].sort();
  };

  it('shows variables of readable instances, through READ or READ_INSTANCE (READ_INSTANCE_VARIABLE only counts with specific variable permissions)', async () => {
    expect((await get('/variable-instance/count', {}, admin)).body).toEqual({ count: 10 });
    expect(await visible()).toEqual([]);
    const [bobsCustomer] = (await get('/variable-instance', { processInstanceIdIn: bob.id, variableName: 'customer' }, admin)).body;
    expect((await get(`/variable-instance/${bobsCustomer.id}`, {}, jonny)).status).toBe(404);

    await grant(8, alice.id, ['READ']);
    expect(await visible()).toEqual([alice.id]);
    expect((await get('/variable-instance/count', {}, jonny)).body).toEqual({ count: 7 });

    await grant(6, 'approval', ['READ_INSTANCE_VARIABLE']);
    expect(await visible()).toEqual([alice.id]);
    await grant(6, 'approval', ['READ_INSTANCE']);
    expect(await visible()).toEqual([alice.id, bob.id].sort());
    expect((await get(`/variable-instance/${bobsCustomer.id}`, {}, jonny)).body.value).toBe('Bob');
  });

  it('sets instance variables with UPDATE_VARIABLE on the instance, execution variables with UPDATE_INSTANCE_VARIABLE on the definition', async () => {
    const put = (path: string) => rest.request('PUT', path, { json: { value: 1, type: 'Integer' }, headers: jonny });

    const denied = await put(`/process-instance/${alice.id}/variables/extra`);
    await grant(8, alice.id, ['UPDATE_VARIABLE']);
    const onInstance = await put(`/process-instance/${alice.id}/variables/extra`);
    const deniedLocal = await put(`/execution/${bob.id}/localVariables/extra`);
    await grant(6, 'approval', ['UPDATE_INSTANCE_VARIABLE']);
    const onDefinition = await put(`/execution/${bob.id}/localVariables/extra`);

    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([
      { permissionName: 'UPDATE_VARIABLE', resourceName: 'ProcessInstance', resourceId: alice.id },
      { permissionName: 'UPDATE_INSTANCE_VARIABLE', resourceName: 'ProcessDefinition', resourceId: 'approval' },
      { permissionName: 'UPDATE', resourceName: 'ProcessInstance', resourceId: alice.id },
      { permissionName: 'UPDATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'approval' },
    ]);
    expect(onInstance.status).toBe(204);
    expect(deniedLocal.status).toBe(403);
    expect(onDefinition.status).toBe(204);
  });

  it('shows the local variables of a task readable by READ on it', async () => {
    const [task] = (await rest.request('GET', `/task?processInstanceId=${bob.id}`, { headers: admin })).body;
    await rest.request('PUT', `/task/${task.id}/localVariables/note`, { json: { value: 'private', type: 'String' }, headers: admin });

    await grant(7, task.id, ['READ']);
    const list = (await get('/variable-instance', {}, jonny)).body as Dto[];

    expect(list.map((v) => [v.name, v.value])).toEqual([['note', 'private']]);
  });

  it('accepts READ_INSTANCE on the definition', async () => {
    await grant(6, 'approval', ['READ_INSTANCE']);
    expect((await get('/variable-instance/count', {}, jonny)).body).toEqual({ count: 10 });
  });
});

describe('variables with enforceSpecificVariablePermission (Camunda: the variable permissions instead of READ)', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');
  let alice: { id: string };

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true, enforceSpecificVariablePermission: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', { json: { profile: { id: 'jonny' }, credentials: { password: 'jonny-secret' } }, headers: admin });
    ({ alice } = await deployAndStart(rest, admin));
  });
  afterEach(async () => rest.close());

  const grant = (resourceType: number, resourceId: string, permissions: string[]) => grantMore(rest.engine, { userId: 'jonny' }, resourceType, resourceId, permissions);
  const count = async (path: string) => (await get(path, {}, jonny)).body.count as number;

  it('lists and reads instance variables through READ_INSTANCE_VARIABLE on the definition only', async () => {
    await grant(8, alice.id, ['READ']);
    await grant(6, 'approval', ['READ_INSTANCE']);
    expect(await count('/variable-instance/count')).toBe(0);
    const denied = await get(`/process-instance/${alice.id}/variables`, {}, jonny);
    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([{ permissionName: 'READ_INSTANCE_VARIABLE', resourceName: 'ProcessDefinition', resourceId: 'approval' }]);
    // Camunda's composite check, told as one even with one alternative
    expect(denied.body.message).toBe("The user with id 'jonny' does not have one of the following permissions: 'READ_INSTANCE_VARIABLE' permission on resource 'approval' of type 'ProcessDefinition'");
    expect((await get(`/execution/${alice.id}/localVariables`, {}, jonny)).status).toBe(403);

    await grant(6, 'approval', ['READ_INSTANCE_VARIABLE']);
    expect(await count('/variable-instance/count')).toBe(7);
    expect(Object.keys((await get(`/process-instance/${alice.id}/variables`, {}, jonny)).body)).toHaveLength(7);
    expect((await get(`/execution/${alice.id}/localVariables`, {}, jonny)).status).toBe(200);
  });

  it('reads task variables through READ_VARIABLE on the task or READ_TASK_VARIABLE on the definition; a new assignee is granted READ_VARIABLE', async () => {
    const [task] = (await get('/task', { processInstanceId: alice.id }, admin)).body;
    await rest.request('PUT', `/task/${task.id}/localVariables/note`, { json: { value: 'private', type: 'String' }, headers: admin });
    await grant(7, task.id, ['READ']);
    const denied = await get(`/task/${task.id}/variables`, {}, jonny);
    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([
      { permissionName: 'READ_VARIABLE', resourceName: 'Task', resourceId: task.id },
      { permissionName: 'READ_TASK_VARIABLE', resourceName: 'ProcessDefinition', resourceId: 'approval' },
    ]);
    expect(await count('/variable-instance/count')).toBe(0);

    // The form too: Camunda's GetTaskFormCmd checks the task variable read.
    expect((await get(`/task/${task.id}/form`, {}, jonny)).status).toBe(403);
    await grant(7, task.id, ['READ_VARIABLE']);
    expect((await get(`/task/${task.id}/variables`, {}, jonny)).status).toBe(200);
    expect((await get(`/task/${task.id}/form`, {}, jonny)).status).toBe(200);
    expect((await get(`/task/${task.id}/localVariables`, {}, jonny)).body).toEqual({ note: { type: 'String', value: 'private', valueInfo: {} } });
    expect((await get('/variable-instance', {}, jonny)).body.map((v: Dto) => v.name)).toEqual(['note']);

    // The default grant of an assignee: READ, UPDATE and READ_VARIABLE.
    await rest.request('POST', `/task/${task.id}/assignee`, { json: { userId: 'kermit' }, headers: admin });
    const [assigneeGrant] = (await get('/authorization', { userIdIn: 'kermit', resourceType: 7, resourceId: task.id }, admin)).body;
    expect([...assigneeGrant.permissions].sort()).toEqual(['READ', 'READ_VARIABLE', 'UPDATE']);
  });

  it('lists historic variables and details through READ_HISTORY_VARIABLE on the definition, not READ_HISTORY', async () => {
    await grant(6, 'approval', ['READ_HISTORY']);
    expect(await count('/history/variable-instance/count')).toBe(0);
    expect(await count('/history/detail/count')).toBe(0);
    await grant(6, 'approval', ['READ_HISTORY_VARIABLE']);
    expect(await count('/history/variable-instance/count')).toBe(7);
    expect(await count('/history/detail/count')).toBeGreaterThan(0);
  });
});
