import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

/** start → message "go" → user task → end. */
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:message id="m_go" name="go" />
  <bpmn:process id="waiting" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="catch" />
    <bpmn:intermediateCatchEvent id="catch"><bpmn:messageEventDefinition messageRef="m_go" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="catch" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f3" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

let rest: RestHarness;
let ids: string[];

async function setUp(...options: Parameters<typeof startRestHarness>) {
  rest = await startRestHarness(...options);
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'waiting.bpmn', bytes: Buffer.from(MODEL) }] });
  ids = [];
  for (let i = 0; i < 3; i++) ids.push((await rest.engine.runtime.startProcessInstanceById(processDefinitions![0].id, { businessKey: `bk${i}` })).id);
}
afterEach(async () => rest.close());

const expectError = (response: { status: number; body: any }, status: number, type: string, message: string) => {
  expect({ status: response.status, type: response.body.type, message: response.body.message }).toEqual({ status, type, message });
};

/** Runs the seed, execution and monitor jobs; the monitor removes the batch on its next look. */
async function runBatches() {
  await rest.engine.jobExecutor.runDueJobs();
  rest.engine.clock.advance(30_000);
  await rest.engine.jobExecutor.runDueJobs();
  expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
}

const BATCH_DEFAULTS = { jobsCreated: 0, batchJobsPerSeed: 100, invocationsPerBatchJob: 1, suspended: false, executionStartTime: null };
const runningIds = async () => (await rest.request('GET', '/process-instance')).body.map((each: any) => each.id).sort();
/** GET /variable-instance?batchIdIn=<id>, sorted by name, without the generated ids. */
const batchVariables = async (batchId: string) => {
  const response = await rest.request('GET', `/variable-instance?batchIdIn=${batchId}&sortBy=variableName&sortOrder=asc`);
  expect(response.status).toBe(200);
  return response.body.map(({ id: _id, ...variable }: any) => variable);
};
/** What a batch variable shows besides its name, value and batch: no instance, execution, task, activity instance or tenant. */
const BATCH_VARIABLE = {
  valueInfo: {}, processDefinitionId: null, processInstanceId: null, executionId: null, caseInstanceId: null, caseExecutionId: null,
  taskId: null, activityInstanceId: null, tenantId: null, errorMessage: null,
};
const JAVA_OBJECT = { type: 'Object', value: 'rO0AB', valueInfo: { objectTypeName: 'com.Foo', serializationDataFormat: 'application/x-java-serialized-object' } };

describe('instance batches', () => {
  beforeEach(() => setUp());

  describe('POST /process-instance/delete', () => {
    it('answers an instance-deletion BatchDto whose jobs delete the given and queried instances', async () => {
      const created = await rest.request('POST', '/process-instance/delete', {
        json: { processInstanceIds: [ids[0], 'unknown'], processInstanceQuery: { businessKey: 'bk1' }, deleteReason: 'cleanup', skipCustomListeners: true, skipIoMappings: true },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ ...BATCH_DEFAULTS, type: 'instance-deletion', totalJobs: 3 });
      expect((await rest.request('GET', `/batch/${created.body.id}`)).body).toEqual(created.body);
      expect(await runningIds()).toEqual([...ids].sort());

      await runBatches();
      expect(await runningIds()).toEqual([ids[2]]);
    });

    it('answers an empty selection with 400 and ignores a historic query, as Camunda does', async () => {
      const empty = await rest.request('POST', '/process-instance/delete', { json: { processInstanceIds: [] } });
      const nothing = await rest.request('POST', '/process-instance/delete', { json: { processInstanceQuery: { businessKey: 'none' } } });
      const historic = await rest.request('POST', '/process-instance/delete', { json: { historicProcessInstanceQuery: { processInstanceBusinessKey: 'bk0' } } });
      for (const response of [empty, nothing, historic]) expectError(response, 400, 'InvalidRequestException', 'processInstanceIds is empty');
      expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
    });
  });

  describe('POST /process-instance/variables-async', () => {
    it('answers a set-variables BatchDto whose jobs set the variables on each instance', async () => {
      const created = await rest.request('POST', '/process-instance/variables-async', {
        json: {
          processInstanceIds: [ids[0]],
          processInstanceQuery: { businessKey: 'bk1' },
          variables: { note: { value: 'checked', type: 'String' }, amount: { value: 42, type: 'Integer' } },
        },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ ...BATCH_DEFAULTS, type: 'set-variables', totalJobs: 2 });
      // The batch keeps its variables as variable instances of the batch, listed with the others.
      expect(await batchVariables(created.body.id)).toEqual([
        { ...BATCH_VARIABLE, name: 'amount', value: 42, type: 'Integer', batchId: created.body.id },
        { ...BATCH_VARIABLE, name: 'note', value: 'checked', type: 'String', batchId: created.body.id },
      ]);
      expect((await rest.request('GET', '/variable-instance/count')).body).toEqual({ count: 2 });
      expect((await rest.request('POST', '/variable-instance/count', { json: { batchIdIn: [created.body.id] } })).body).toEqual({ count: 2 });

      await runBatches();
      for (const id of [ids[0], ids[1]]) {
        expect((await rest.request('GET', `/process-instance/${id}/variables`)).body).toEqual({
          note: { value: 'checked', type: 'String', valueInfo: {} },
          amount: { value: 42, type: 'Integer', valueInfo: {} },
        });
      }
      expect((await rest.request('GET', `/process-instance/${ids[2]}/variables`)).body).toEqual({});
      // The batch variables went with the completed batch: only the instances' four remain.
      expect((await rest.request('GET', '/variable-instance/count')).body).toEqual({ count: 4 });
      expect(await batchVariables(created.body.id)).toEqual([]);
    });

    it('drops the batch variables with a deleted batch', async () => {
      const created = await rest.request('POST', '/process-instance/variables-async', { json: { processInstanceIds: ids, variables: { note: { value: 'x', type: 'String' } } } });
      expect(await batchVariables(created.body.id)).toHaveLength(1);
      expect((await rest.request('DELETE', `/batch/${created.body.id}`)).status).toBe(204);
      expect((await rest.request('GET', '/variable-instance/count')).body).toEqual({ count: 0 });
    });

    it('answers Camunda errors for missing or empty variables and selections and Java objects', async () => {
      const post = (json: unknown) => rest.request('POST', '/process-instance/variables-async', { json });
      const one = { a: { value: 'a', type: 'String' } };
      expectError(await post({ processInstanceIds: ids }), 400, 'InvalidRequestException', 'variables is null');
      expectError(await post({ processInstanceIds: ids, variables: {} }), 400, 'BadUserRequestException', 'variables is empty');
      expectError(await post({ variables: one }), 400, 'InvalidRequestException', 'No process instances found.');
      expectError(await post({ processInstanceIds: ['unknown'], variables: one }), 400, 'BadUserRequestException', 'processInstanceIds is empty');
      expectError(
        await post({ processInstanceIds: ids, variables: { foo: JAVA_OBJECT } }),
        400,
        'InvalidRequestException',
        'ENGINE-17007 Cannot set variable with name foo. Java serialization format is prohibited',
      );
      const badValue = await post({ processInstanceIds: ids, variables: { n: { value: 'x', type: 'Integer' } } });
      expect(badValue.status).toBe(400);
      expect(badValue.body.message).toMatch(/^Cannot set variables: /);
      expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
    });
  });

  describe('POST /process-instance/message-async', () => {
    it('answers a correlate-message BatchDto whose jobs correlate to each instance with the variables', async () => {
      const created = await rest.request('POST', '/process-instance/message-async', {
        json: { messageName: 'go', processInstanceIds: [ids[0]], processInstanceQuery: { businessKey: 'bk1' }, variables: { reply: { value: 'yes', type: 'String' } } },
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ ...BATCH_DEFAULTS, type: 'correlate-message', totalJobs: 2 });
      expect((await rest.request('GET', '/task/count')).body).toEqual({ count: 0 });
      expect(await batchVariables(created.body.id)).toEqual([{ ...BATCH_VARIABLE, name: 'reply', value: 'yes', type: 'String', batchId: created.body.id }]);

      await runBatches();
      const tasks = (await rest.request('GET', '/task')).body.map((task: any) => task.processInstanceId).sort();
      expect(tasks).toEqual([ids[0], ids[1]].sort());
      expect((await rest.request('GET', `/process-instance/${ids[0]}/variables/reply`)).body).toMatchObject({ value: 'yes', type: 'String' });
      expect((await rest.request('GET', '/variable-instance/count')).body).toEqual({ count: 2 });
    });

    it('answers Camunda errors for missing selections and Java objects', async () => {
      const post = (json: unknown, outsideContract = false) => rest.request('POST', '/process-instance/message-async', { json, outsideContract });
      expectError(await post({ messageName: 'go' }), 400, 'InvalidRequestException', 'No process instances found.');
      expectError(
        await post({ messageName: 'go', processInstanceIds: [] }),
        400,
        'BadUserRequestException',
        'Process instance ids cannot be empty: process instance ids is empty',
      );
      // Camunda's resource converts only NullValueException; the Java-serialization refusal stays a 500.
      expectError(
        await post({ messageName: 'go', processInstanceIds: ids, variables: { foo: JAVA_OBJECT } }, true),
        500,
        'ProcessEngineException',
        'ENGINE-17007 Cannot set variable with name foo. Java serialization format is prohibited',
      );
      expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
    });
  });
});

describe('instance batches with authorization', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  beforeEach(async () => {
    await setUp({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
  });

  it('creating needs the type\'s CREATE_BATCH_* permission or BATCH CREATE (403 listing them in that order)', async () => {
    const requests = [
      { path: '/process-instance/delete', json: { processInstanceIds: ids }, permission: 'CREATE_BATCH_DELETE_RUNNING_PROCESS_INSTANCES', in403Contract: false },
      { path: '/process-instance/variables-async', json: { processInstanceIds: ids, variables: { a: { value: 1, type: 'Integer' } } }, permission: 'CREATE_BATCH_SET_VARIABLES', in403Contract: true },
      { path: '/process-instance/message-async', json: { messageName: 'go', processInstanceIds: ids }, permission: 'CREATE_BATCH_CORRELATE_MESSAGE', in403Contract: true },
    ];
    for (const { path, json, permission, in403Contract } of requests) {
      // The 7.22 contract lists no 403 for /process-instance/delete, though Camunda answers one.
      const denied = await rest.request('POST', path, { json, headers: jonny, outsideContract: !in403Contract });
      expect(denied.status).toBe(403);
      expect(denied.body).toMatchObject({
        type: 'AuthorizationException',
        userId: 'jonny',
        missingAuthorizations: [
          { permissionName: permission, resourceName: 'Batch', resourceId: null },
          { permissionName: 'CREATE', resourceName: 'Batch', resourceId: null },
        ],
      });
    }
    await rest.request('POST', '/authorization/create', {
      json: { type: 1, userId: 'jonny', resourceType: 13, resourceId: '*', permissions: requests.map((each) => each.permission) },
      headers: admin,
    });
    for (const { path, json } of requests) expect((await rest.request('POST', path, { json, headers: jonny })).status).toBe(200);
    expect((await rest.request('GET', '/batch/count', { headers: admin })).body).toEqual({ count: 3 });
  });
});
