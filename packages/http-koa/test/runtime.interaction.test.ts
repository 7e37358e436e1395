import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
let definitionId: string;

const APPROVAL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" name="Approval" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="decide" />
    <bpmn:exclusiveGateway id="decide" default="toReview" />
    <bpmn:sequenceFlow id="toAuto" sourceRef="decide" targetRef="end"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">\${amount &lt; 100}</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="toReview" sourceRef="decide" targetRef="review" />
    <bpmn:userTask id="review" name="Review" camunda:candidateGroups="sales" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

beforeEach(async () => {
  rest = await startRestHarness();
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'approval.bpmn', bytes: Buffer.from(APPROVAL) }] });
  definitionId = processDefinitions![0].id;
});
afterEach(async () => rest.close());

const start = (path: string, json: unknown) => rest.request('POST', path, { json });

describe('POST /process-definition/…/start', () => {
  it('starts an instance by id, by key and by key and tenant, with a self link', async () => {
    const byId = await start(`/process-definition/${definitionId}/start`, { businessKey: 'b1', variables: { amount: { value: 500, type: 'Integer' } } });
    const byKey = await start('/process-definition/key/approval/start', { variables: { amount: { value: '5', type: 'Long' } } });
    const noTenant = await start('/process-definition/key/approval/tenant-id/acme/start', {});
    // Jackson binds a number to the String field as its text.
    const numberKey = await start(`/process-definition/${definitionId}/start`, { businessKey: 5, variables: { amount: { value: 500, type: 'Integer' } } });
    const objectKey = await start(`/process-definition/${definitionId}/start`, { businessKey: { no: 1 } });

    expect(byId.status).toBe(200);
    expect(byId.body).toMatchObject({ definitionId, businessKey: 'b1', ended: false, suspended: false, tenantId: null });
    expect(byId.body.links).toEqual([{ method: 'GET', href: `${rest.url}/process-instance/${byId.body.id}`, rel: 'self' }]);
    expect(byKey.body.ended).toBe(true);
    expect(noTenant.status).toBe(404);
    expect(numberKey.body.businessKey).toBe('5');
    expect(objectKey.body).toEqual({ type: 'InvalidRequestException', message: '', code: null });
  });

  it('returns the variables when asked', async () => {
    const response = await start(`/process-definition/${definitionId}/start`, {
      variables: { amount: { value: 500, type: 'Integer' }, note: { value: 'hi', type: 'String' } },
      withVariablesInReturn: true,
    });

    expect(response.body.variables).toEqual({
      amount: { type: 'Integer', value: 500, valueInfo: {} },
      note: { type: 'String', value: 'hi', valueInfo: {} },
    });
  });

  it('answers 400 for a bad variable and 500 RestException for an engine failure', async () => {
    const badType = await start(`/process-definition/${definitionId}/start`, { variables: { amount: { value: 1, type: 'Sandwich' } } });
    const noVariable = await start(`/process-definition/${definitionId}/start`, {});

    expect(badType.status).toBe(400);
    expect(badType.body.message).toBe(`Cannot instantiate process definition ${definitionId}: Unsupported value type 'Sandwich'`);
    expect(noVariable.status).toBe(500);
    expect(noVariable.body.type).toBe('RestException');
    expect(noVariable.body.message).toMatch(new RegExp(`^Cannot instantiate process definition ${definitionId}: `));
  });
});

describe('POST /process-definition/…/start, checked as Camunda checks it', () => {
  const prefix = (id: string) => `Cannot instantiate process definition ${id}`;

  it('skips input/output mappings only when it starts at given activities', async () => {
    const mappedXml = APPROVAL.replace('id="approval"', 'id="mapped"').replace(
      '<bpmn:userTask id="review" name="Review" camunda:candidateGroups="sales" />',
      '<bpmn:userTask id="review" name="Review"><bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter name="local">mapped</camunda:inputParameter></camunda:inputOutput></bpmn:extensionElements></bpmn:userTask>',
    );
    const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'mapped.bpmn', bytes: Buffer.from(mappedXml) }] });
    const mappedId = processDefinitions![0].id;
    const atReview = { startInstructions: [{ type: 'startBeforeActivity', activityId: 'review' }] };
    const names = async (instanceId: string) => (await rest.request('GET', '/variable-instance', { query: { processInstanceIdIn: instanceId } })).body.map((v: any) => v.name);

    const skipped = await start(`/process-definition/${mappedId}/start`, { ...atReview, skipIoMappings: true });
    const mapped = await start(`/process-definition/${mappedId}/start`, atReview);
    const atStart = await start(`/process-definition/${definitionId}/start`, { skipCustomListeners: true });
    const unknown = await start('/process-definition/nope/start', { skipIoMappings: true });

    expect([skipped.status, mapped.status]).toEqual([200, 200]);
    expect(await names(skipped.body.id)).toEqual([]);
    expect(await names(mapped.body.id)).toEqual(['local']);
    const ENGINE_13024 = 'ENGINE-13024 Cannot skip custom listeners or input/output mappings when start a process instance at default start activity.';
    expect([atStart.status, atStart.body]).toEqual([500, { type: 'RestException', message: `${prefix(definitionId)}: ${ENGINE_13024}`, code: 0 }]);
    // Refused before the definition is looked for.
    expect(unknown.body.message).toBe(`${prefix('nope')}: ${ENGINE_13024}`);
  });

  it('reads the variables, then the instructions; then the definition, then its state', async () => {
    const noActivity = await start(`/process-definition/${definitionId}/start`, { startInstructions: [{ type: 'startBeforeActivity' }] });
    const badVariable = await start(`/process-definition/${definitionId}/start`, { variables: { a: { value: 1, type: 'Sandwich' } }, startInstructions: [{ type: 'startBeforeActivity' }] });
    const unknown = await start('/process-definition/nope/start', {});
    await rest.request('PUT', `/process-definition/${definitionId}/suspended`, { json: { suspended: true } });
    const suspended = await start(`/process-definition/${definitionId}/start`, {});
    // The first instruction's element is looked for before the suspension is noticed.
    const unknownElement = await start(`/process-definition/${definitionId}/start`, { startInstructions: [{ type: 'startBeforeActivity', activityId: 'nowhere' }] });
    const suspendedAtReview = await start(`/process-definition/${definitionId}/start`, { startInstructions: [{ type: 'startBeforeActivity', activityId: 'review' }] });

    expect([noActivity.status, noActivity.body]).toEqual([400, { type: 'InvalidRequestException', message: `${prefix(definitionId)}: For instruction type 'startBeforeActivity': 'activityId' must be set`, code: null }]);
    expect(badVariable.body.message).toBe(`${prefix(definitionId)}: Unsupported value type 'Sandwich'`);
    expect([unknown.status, unknown.body.message]).toEqual([500, `${prefix('nope')}: no deployed process definition found with id 'nope': processDefinition is null`]);
    expect([suspended.status, suspended.body.message]).toEqual([500, `${prefix(definitionId)}: ENGINE-03043 Process Definition with id '${definitionId}' is suspended.`]);
    expect([unknownElement.status, unknownElement.body.message]).toEqual([500, `${prefix(definitionId)}: Element 'nowhere' does not exist in process ${definitionId}: targetElement is null`]);
    expect(suspendedAtReview.body.message).toBe(suspended.body.message);
  });
});

describe('the Process Instance and Task groups', () => {
  async function startReview(amount = 500) {
    return (await start(`/process-definition/${definitionId}/start`, { businessKey: `order-${amount}`, variables: { amount: { value: amount, type: 'Integer' } } })).body;
  }

  it('lists, counts, reads and deletes instances', async () => {
    const first = await startReview(500);
    await startReview(600);

    const list = await rest.request('GET', '/process-instance', { query: { businessKeyLike: 'order-%', sortBy: 'businessKey', sortOrder: 'desc' } });
    const count = await rest.request('GET', '/process-instance/count', { query: { processDefinitionKey: 'approval' } });
    const one = await rest.request('GET', `/process-instance/${first.id}`);
    const removed = await rest.request('DELETE', `/process-instance/${first.id}`);
    const gone = await rest.request('GET', `/process-instance/${first.id}`);

    expect(list.body.map((i: any) => i.businessKey)).toEqual(['order-600', 'order-500']);
    expect(count.body).toEqual({ count: 2 });
    expect(one.body).toMatchObject({ id: first.id, definitionId, links: [] });
    expect(removed.status).toBe(204);
    expect(gone.status).toBe(404);
  });

  it('shows the activity instance tree', async () => {
    const instance = await startReview();

    const response = await rest.request('GET', `/process-instance/${instance.id}/activity-instances`);

    expect(response.body).toMatchObject({ id: instance.id, activityId: definitionId, activityType: 'processDefinition', activityName: 'Approval' });
    expect(response.body.childActivityInstances).toEqual([
      expect.objectContaining({ activityId: 'review', activityType: 'userTask', parentActivityInstanceId: instance.id, childActivityInstances: [] }),
    ]);
  });

  it('reads and modifies instance variables', async () => {
    const instance = await startReview();

    await rest.request('POST', `/process-instance/${instance.id}/variables`, {
      json: { modifications: { note: { value: 'urgent', type: 'String' } }, deletions: ['amount'] },
    });
    const variables = await rest.request('GET', `/process-instance/${instance.id}/variables`);

    expect(variables.body).toEqual({ note: { type: 'String', value: 'urgent', valueInfo: {} } });
  });

  it('claims, unclaims and completes a task, which ends the instance', async () => {
    const instance = await startReview();
    const [task] = (await rest.request('GET', '/task', { query: { candidateGroup: 'sales' } })).body;

    const claim = await rest.request('POST', `/task/${task.id}/claim`, { json: { userId: 'mary' } });
    const claimed = await rest.request('GET', `/task/${task.id}`);
    const otherClaim = await rest.request('POST', `/task/${task.id}/claim`, { json: { userId: 'john' } });
    await rest.request('POST', `/task/${task.id}/unclaim`);
    const complete = await rest.request('POST', `/task/${task.id}/complete`, { json: { variables: { approved: { value: true, type: 'Boolean' } } } });
    const after = await rest.request('GET', '/process-instance/count');

    expect(task).toMatchObject({ name: 'Review', processInstanceId: instance.id, taskDefinitionKey: 'review', assignee: null });
    expect(claim.status).toBe(204);
    expect(claimed.body.assignee).toBe('mary');
    expect(otherClaim.status).toBe(500);
    expect(complete.status).toBe(204);
    expect(after.body).toEqual({ count: 0 });
  });

  it('answers 404 for an unknown task (500 to complete it, as Camunda) and 400 for a filter Trellis does not support yet', async () => {
    const unknown = await rest.request('GET', '/task/nope');
    const completeUnknown = await rest.request('POST', '/task/nope/complete', { json: {} });
    const unsupported = await rest.request('GET', '/task', { query: { dueAfterExpression: '${now()}' } });

    expect(unknown.status).toBe(404);
    expect([completeUnknown.status, completeUnknown.body]).toEqual([500, { type: 'RestException', message: 'Cannot complete task nope: Cannot find task with id nope: task is null', code: 0 }]);
    expect(unsupported.status).toBe(400);
  });

  it('refuses to complete a suspended task with 500 and ENGINE-03043', async () => {
    const instance = await startReview(500);
    const [task] = (await rest.request('GET', '/task', { query: { processInstanceId: instance.id } })).body;
    await rest.request('PUT', `/process-instance/${instance.id}/suspended`, { json: { suspended: true } });

    const completed = await rest.request('POST', `/task/${task.id}/complete`, { json: {} });

    expect([completed.status, completed.body.message]).toEqual([500, `Cannot complete task ${task.id}: ENGINE-03043 task with id '${task.id}' is suspended.`]);
  });
});

describe('the Process Instance group answering wrong requests as Camunda 7.22', () => {
  const request = (method: string, path: string, json?: unknown, query?: Record<string, string>) => rest.request(method, path, { json, query });
  const startReview = async () => (await start(`/process-definition/${definitionId}/start`, { variables: { amount: { value: 500, type: 'Integer' } } })).body.id as string;
  const answer = (response: { status: number; body: { type?: string; message?: string } }) => [response.status, response.body?.type, response.body?.message];

  it('finds no instance as each command does: variables 500, deletion 404, modification ENGINE-13036, comments 404', async () => {
    const gone = "execution nope doesn't exist: execution is null";
    expect(answer(await request('GET', '/process-instance/nope/variables'))).toEqual([500, 'NullValueException', gone]);
    expect(answer(await request('POST', '/process-instance/nope/variables', { modifications: { a: { value: 1, type: 'Integer' } } }))).toEqual([
      500, 'RestException', `Cannot modify variables for process instance nope: ${gone}`,
    ]);
    expect(answer(await request('PUT', '/process-instance/nope/variables/a', { value: 1, type: 'Integer' }))).toEqual([500, 'RestException', `Cannot put process instance variable a: ${gone}`]);
    expect(answer(await request('DELETE', '/process-instance/nope/variables/a'))).toEqual([500, 'RestException', `Cannot delete process instance variable a: ${gone}`]);
    // A bad value names no instance: the conversion fails before the engine is asked.
    expect(answer(await request('POST', '/process-instance/nope/variables', { modifications: { a: { value: 1, type: 'Sandwich' } } }))).toEqual([
      400, 'InvalidRequestException', "Cannot modify variables for process instance: Unsupported value type 'Sandwich'",
    ]);
    expect(answer(await request('DELETE', '/process-instance/nope'))).toEqual([404, 'InvalidRequestException', "No process instance found for id 'nope': processInstance is null"]);
    // Primitive booleans: anything but "true" (any case) is false.
    expect((await request('DELETE', '/process-instance/nope', undefined, { failIfNotExists: 'no' })).status).toBe(204);
    expect((await request('DELETE', '/process-instance/nope', undefined, { failIfNotExists: 'FALSE', skipIoMappings: 'yes' })).status).toBe(204);
    expect(answer(await request('POST', '/process-instance/nope/modification', { instructions: [{ type: 'startBeforeActivity', activityId: 'review' }] }))).toEqual([
      500, 'ProcessEngineException', "ENGINE-13036 Process instance 'nope' cannot be modified. The process instance does not exist",
    ]);
    expect((await request('POST', '/process-instance/nope/modification', { instructions: [] })).status).toBe(204);
    expect(answer(await request('GET', '/process-instance/nope/comment'))).toEqual([404, 'InvalidRequestException', 'No process instance found for id nope']);
    expect(answer(await request('POST', '/execution/nope/signal', {}))).toEqual([500, 'RestException', `Cannot signal execution nope: ${gone}`]);
  });

  it('refuses a Java-serialized object anywhere a variable is set (ENGINE-17007), as Camunda by default', async () => {
    const id = await startReview();
    const java = { value: 'rO0ABXQAA2FiYw==', type: 'Object', valueInfo: { objectTypeName: 'java.lang.String', serializationDataFormat: 'application/x-java-serialized-object' } };
    const prohibited = 'ENGINE-17007 Cannot set variable with name blob. Java serialization format is prohibited';
    expect(answer(await request('PUT', `/process-instance/${id}/variables/blob`, java))).toEqual([500, 'RestException', `Cannot put process instance variable blob: ${prohibited}`]);
    const [task] = (await request('GET', '/task', undefined, { processInstanceId: id })).body;
    expect(answer(await request('PUT', `/task/${task.id}/localVariables/blob`, java))).toEqual([500, 'RestException', `Cannot put task variable blob: ${prohibited}`]);
    expect(answer(await request('POST', `/task/${task.id}/complete`, { variables: { blob: java } }))).toEqual([500, 'RestException', `Cannot complete task ${task.id}: ${prohibited}`]);
    expect((await request('GET', `/process-instance/${id}/variables`)).body.blob).toBeUndefined();
  });

  it("refuses an Object its serializers cannot write, wherever it is set, as Camunda's engine does", async () => {
    const id = await startReview();
    const untyped = { value: '{}', type: 'Object', valueInfo: { serializationDataFormat: 'application/json' } };
    const weird = { value: '1', type: 'Object', valueInfo: { objectTypeName: 'x.Y', serializationDataFormat: 'text/weird' } };
    const noTypeName = "Cannot write serialized value for variable 'x': no 'objectTypeName' provided for non-null value.";
    const noSerializer = "Cannot find serializer for value 'ObjectValue [value=null, isDeserialized=false, serializationDataFormat=text/weird, objectTypeName=x.Y, serializedValue=1 chars, isTransient=false]'.";
    expect(answer(await request('PUT', `/process-instance/${id}/variables/x`, untyped))).toEqual([500, 'RestException', `Cannot put process instance variable x: ${noTypeName}`]);
    expect(answer(await request('PUT', `/process-instance/${id}/variables/x`, weird))).toEqual([500, 'RestException', `Cannot put process instance variable x: ${noSerializer}`]);
    expect(answer(await request('PUT', `/execution/${id}/localVariables/x`, untyped))).toEqual([500, 'RestException', `Cannot put execution variable x: ${noTypeName}`]);
    const [task] = (await request('GET', '/task', undefined, { processInstanceId: id })).body;
    expect(answer(await request('PUT', `/task/${task.id}/localVariables/x`, weird))).toEqual([500, 'RestException', `Cannot put task variable x: ${noSerializer}`]);
    expect(answer(await request('POST', `/task/${task.id}/complete`, { variables: { x: untyped } }))).toEqual([500, 'RestException', `Cannot complete task ${task.id}: ${noTypeName}`]);
    expect((await request('GET', `/process-instance/${id}/variables`)).body.x).toBeUndefined();
    // A null value needs no type name; a transient value is never serialized.
    expect((await request('PUT', `/process-instance/${id}/variables/x`, { ...untyped, value: null })).status).toBe(204);
    expect((await request('PUT', `/process-instance/${id}/variables/t`, { ...weird, valueInfo: { ...weird.valueInfo, transient: true } })).status).toBe(204);
    const started = await start('/process-definition/key/approval/start', { variables: { amount: { value: 500, type: 'Integer' }, x: untyped } });
    expect([started.status, started.body.message]).toEqual([500, `Cannot instantiate process definition ${definitionId}: ${noTypeName}`]);
  });

  it('suspends as Camunda: suspended absent means activate, an unknown instance or definition changes nothing, one selector kind only', async () => {
    const id = await startReview();
    expect((await request('PUT', `/process-instance/${id}/suspended`, { suspended: true })).status).toBe(204);
    expect((await request('GET', `/process-instance/${id}`)).body.suspended).toBe(true);
    expect((await request('PUT', `/process-instance/${id}/suspended`, {})).status).toBe(204);
    expect((await request('GET', `/process-instance/${id}`)).body.suspended).toBe(false);
    expect((await request('PUT', '/process-instance/nope/suspended', { suspended: true })).status).toBe(204);
    expect((await request('PUT', '/process-instance/suspended', { processDefinitionKey: 'unknown', suspended: true })).status).toBe(204);

    expect(answer(await request('PUT', '/process-instance/suspended', { processDefinitionKey: 'approval', processInstanceIds: [id] }))).toEqual([
      400, 'InvalidRequestException',
      'Choose either a single processInstance with processDefinitionId or processDefinitionKey or a group of processInstances with processInstanceIds, procesInstanceQuery or historicProcessInstanceQuery.',
    ]);
    expect(answer(await request('PUT', '/process-instance/suspended', { suspended: true }))).toEqual([
      400, 'InvalidRequestException', 'Either processDefinitionId or processDefinitionKey should be set to update the suspension state.',
    ]);
    expect(answer(await request('PUT', '/process-instance/suspended', { processInstanceIds: [], suspended: true }))).toEqual([
      400, 'BadUserRequestException', 'No process instance ids given: Process Instance ids is empty',
    ]);
    expect(answer(await request('PUT', '/process-instance/suspended', { processInstanceIds: [id, null], suspended: true }))).toEqual([
      400, 'BadUserRequestException', 'Cannot be null.: Process Instance ids contains null value',
    ]);
    // A group by query.
    expect((await request('PUT', '/process-instance/suspended', { processInstanceQuery: { processDefinitionKey: 'approval' }, suspended: true })).status).toBe(204);
    expect((await request('GET', `/process-instance/${id}`)).body.suspended).toBe(true);
  });
});
