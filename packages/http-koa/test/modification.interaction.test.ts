import { afterEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const model = (key: string, tasks: string[]) => {
  const nodes = ['start', ...tasks, 'end'];
  const elements = tasks.map((task) => `<bpmn:userTask id="${task}" />`).join('');
  const flows = nodes.slice(1).map((to, i) => `<bpmn:sequenceFlow id="f${i}" sourceRef="${nodes[i]}" targetRef="${to}" />`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />${elements}<bpmn:endEvent id="end" />${flows}
  </bpmn:process>
</bpmn:definitions>`;
};

let rest: RestHarness;
let ids: string[];
let definitionId: string;
let otherId: string;

async function setUp(engineOptions: Parameters<typeof startRestHarness>[0] = {}, restOptions: Parameters<typeof startRestHarness>[1] = {}) {
  rest = await startRestHarness(engineOptions, restOptions);
  const { processDefinitions } = await rest.engine.deployment.deploy({
    resources: [
      { name: 'modified.bpmn', bytes: Buffer.from(model('modified', ['review', 'approve'])) },
      { name: 'other.bpmn', bytes: Buffer.from(model('other', ['review'])) },
    ],
  });
  definitionId = processDefinitions!.find((each) => each.key === 'modified')!.id;
  otherId = processDefinitions!.find((each) => each.key === 'other')!.id;
  ids = [];
  for (let i = 0; i < 3; i++) ids.push((await rest.engine.runtime.startProcessInstanceById(definitionId, { businessKey: `bk${i}` })).id);
}
afterEach(async () => rest.close());

const expectError = (response: { status: number; body: any }, status: number, type: string, message: string) => {
  expect({ status: response.status, type: response.body.type, message: response.body.message }).toEqual({ status, type, message });
};

const TO_APPROVE = [
  { type: 'startBeforeActivity', activityId: 'approve' },
  { type: 'cancel', activityId: 'review' },
];

/** The activities each instance waits in (null once it ended). */
async function positions(instanceIds: string[] = ids, headers: Record<string, string> = {}) {
  const answers = await Promise.all(instanceIds.map((id) => rest.request('GET', `/process-instance/${id}/activity-instances`, { headers })));
  return answers.map((answer) => (answer.status === 200 ? answer.body.childActivityInstances.map((child: { activityId: string }) => child.activityId) : null));
}

/** Runs the seed, execution and monitor jobs; the monitor removes the batch on its next look. */
async function runBatches() {
  await rest.engine.jobExecutor.runDueJobs();
  rest.engine.clock.advance(30_000);
  await rest.engine.jobExecutor.runDueJobs();
  expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
}

describe('POST /modification/execute', () => {
  it('modifies every instance selected by ids and query, then answers 204', async () => {
    await setUp();
    const response = await rest.request('POST', '/modification/execute', {
      json: { processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: [ids[0]], processInstanceQuery: { businessKey: 'bk2' }, skipCustomListeners: true },
    });
    expect(response.status).toBe(204);
    expect(await positions()).toEqual([['approve'], ['review'], ['approve']]);
  });

  it('changes no instance when one of them cannot be modified (one transaction)', async () => {
    await setUp();
    const stranger = (await rest.engine.runtime.startProcessInstanceById(otherId)).id;
    const response = await rest.request('POST', '/modification/execute', {
      json: { processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: [...ids, stranger] },
    });
    expectError(
      response,
      500,
      'ProcessEngineException',
      `ENGINE-13037 Process instance '${stranger}' cannot be modified. Its process definition '${otherId}' does not match given process definition '${definitionId}'`,
    );
    const unknownActivity = await rest.request('POST', '/modification/execute', {
      json: { processDefinitionId: definitionId, instructions: [...TO_APPROVE, { type: 'startBeforeActivity', activityId: 'nowhere' }], processInstanceIds: ids },
    });
    expect(unknownActivity.status).toBe(400);
    expect(unknownActivity.body.type).toBe('InvalidRequestException');
    expect(unknownActivity.body.message).toBe(`Cannot perform instruction: Start before activity 'nowhere'; Element 'nowhere' does not exist in process '${definitionId}': element is null`);
    expect(await positions([...ids, stranger])).toEqual([['review'], ['review'], ['review'], ['review']]);
  });

  it('answers invalid requests with Camunda status and message', async () => {
    await setUp();
    const post = (json: Record<string, unknown>) => rest.request('POST', '/modification/execute', { json });
    const base = { processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: ids };
    expectError(await post({ ...base, processDefinitionId: undefined, instructions: [{ type: 'cancel' }] }), 400, 'InvalidRequestException', 'processDefinitionId is null');
    expectError(await post({ ...base, instructions: [{ type: 'startBeforeActivity' }] }), 400, 'InvalidRequestException', "For instruction type 'startBeforeActivity': 'activityId' must be set");
    expectError(await post({ ...base, instructions: [{ type: 'startAfterActivity' }] }), 400, 'InvalidRequestException', "For instruction type 'startAfterActivity': 'activityId' must be set");
    expectError(await post({ ...base, instructions: [{ type: 'startTransition' }] }), 400, 'InvalidRequestException', "For instruction type 'startTransition': 'transitionId' must be set");
    expectError(await post({ ...base, instructions: [{ type: 'cancel', activityInstanceId: 'x' }] }), 400, 'InvalidRequestException', "For instruction type 'cancel': 'activityId' must be set");
    expectError(await post({ ...base, instructions: undefined }), 400, 'InvalidRequestException', 'Modification instructions cannot be empty is empty');
    expectError(await post({ ...base, processInstanceIds: [] }), 400, 'InvalidRequestException', 'Process instance ids cannot be empty: Process instance ids is empty');
    expectError(await post({ ...base, processInstanceIds: [ids[0], null] }), 400, 'InvalidRequestException', 'Process instance ids cannot be null: Process instance ids contains null value');
    expectError(
      await post({ ...base, processDefinitionId: 'unknown' }),
      400,
      'InvalidRequestException',
      "no deployed process definition found with id 'unknown': processDefinition is null",
    );
    expect(await positions()).toEqual([['review'], ['review'], ['review']]);
    // Camunda passes the engine's message alone (no cause): the body's code is null.
    expect((await post({ ...base, processInstanceIds: [] })).body.code).toBeNull();
  });

  it('ends an instance it leaves empty as internally terminated; the single-instance resource as externally terminated', async () => {
    await setUp();
    const cancelReview = [{ type: 'cancel', activityId: 'review' }];
    expect((await rest.request('POST', '/modification/execute', { json: { processDefinitionId: definitionId, instructions: cancelReview, processInstanceIds: [ids[0]] } })).status).toBe(204);
    expect((await rest.request('POST', `/process-instance/${ids[1]}/modification`, { json: { instructions: cancelReview } })).status).toBe(204);
    const state = async (id: string) => (await rest.request('GET', `/history/process-instance/${id}`)).body.state;
    expect(await state(ids[0])).toBe('INTERNALLY_TERMINATED');
    expect(await state(ids[1])).toBe('EXTERNALLY_TERMINATED');
    // A cancel naming more than one target is refused as Camunda's CancellationInstructionDto refuses it.
    const tree = await rest.request('GET', `/process-instance/${ids[2]}/activity-instances`);
    const both = await rest.request('POST', `/process-instance/${ids[2]}/modification`, {
      json: { instructions: [{ type: 'cancel', activityId: 'review', activityInstanceId: tree.body.childActivityInstances[0].id }] },
    });
    expectError(both, 400, 'InvalidRequestException', "For instruction type 'cancel': exactly one, 'activityId', 'activityInstanceId', or 'transitionInstanceId', is required");
  });
});

describe('POST /modification/executeAsync', () => {
  it('answers an instance-modification BatchDto whose jobs modify the instances', async () => {
    await setUp();
    const created = await rest.request('POST', '/modification/executeAsync', {
      json: { processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceQuery: { processDefinitionId: definitionId } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'instance-modification', totalJobs: 3, jobsCreated: 0, batchJobsPerSeed: 100, invocationsPerBatchJob: 1, tenantId: null });
    expect((await rest.request('GET', `/batch/${created.body.id}`)).body).toEqual(created.body);
    expect(await positions()).toEqual([['review'], ['review'], ['review']]);

    await runBatches();
    expect(await positions()).toEqual([['approve'], ['approve'], ['approve']]);
  });

  it('validates before creating a batch', async () => {
    await setUp();
    const response = await rest.request('POST', '/modification/executeAsync', { json: { processDefinitionId: definitionId, instructions: TO_APPROVE } });
    expectError(response, 400, 'InvalidRequestException', 'Process instance ids cannot be empty: Process instance ids is empty');
    const missing = await rest.request('POST', '/modification/executeAsync', { json: { processDefinitionId: definitionId, processInstanceIds: ids, instructions: [{ type: 'cancel' }] } });
    expectError(missing, 400, 'InvalidRequestException', "For instruction type 'cancel': 'activityId' must be set");
    expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
  });
});

describe('POST /process-instance/{id}/modification-async', () => {
  it('runs the single-instance instructions in a batch', async () => {
    await setUp();
    const tree = await rest.request('GET', `/process-instance/${ids[1]}/activity-instances`);
    const review = tree.body.childActivityInstances[0].id;
    const created = await rest.request('POST', `/process-instance/${ids[1]}/modification-async`, {
      json: { instructions: [{ type: 'startBeforeActivity', activityId: 'approve' }, { type: 'cancel', activityInstanceId: review }] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'instance-modification', totalJobs: 1 });
    await runBatches();
    expect(await positions()).toEqual([['review'], ['approve'], ['review']]);

    const unknown = await rest.request('POST', '/process-instance/nope/modification-async', { json: { instructions: TO_APPROVE } });
    expectError(unknown, 500, 'ProcessEngineException', "ENGINE-13036 Process instance 'nope' cannot be modified. The process instance does not exist");
    // Camunda refuses no instructions before it looks for the instance (the typo is Camunda's).
    expectError(await rest.request('POST', '/process-instance/nope/modification-async', { json: { instructions: [] } }), 400, 'InvalidRequestException', 'The provided instuctions are invalid.');
  });
});

describe('POST /process-instance/{id}/modification', () => {
  it('modifies one instance and writes its annotation to the operation log', async () => {
    await setUp({}, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    const admin = basic('admin', 'admin-secret');

    const response = await rest.request('POST', `/process-instance/${ids[0]}/modification`, { json: { instructions: TO_APPROVE, annotation: 'moved by hand' }, headers: admin });

    expect(response.status).toBe(204);
    expect(await positions([ids[0]], admin)).toEqual([['approve']]);
    const entries = (await rest.request('GET', '/history/user-operation', { query: { operationType: 'ModifyProcessInstance' }, headers: admin })).body;
    expect(entries).toMatchObject([{ processInstanceId: ids[0], annotation: 'moved by hand', property: null }]);
  });
});

describe('instruction variables', () => {
  it('sets a variable marked local on the new path, any other as setVariable does (on the instance when none holds it)', async () => {
    await setUp();
    const response = await rest.request('POST', `/process-instance/${ids[0]}/modification`, {
      json: { instructions: [{ type: 'startBeforeActivity', activityId: 'approve', variables: { shared: { value: 1, type: 'Integer' }, mine: { value: 2, type: 'Integer', local: true } } }] },
    });
    expect(response.status).toBe(204);
    expect(Object.keys((await rest.request('GET', `/process-instance/${ids[0]}/variables`)).body)).toEqual(['shared']);
    const [approve] = await rest.engine.task.findTasks({ processInstanceId: ids[0], taskDefinitionKey: 'approve' });
    expect(Object.keys((await rest.request('GET', `/execution/${approve.executionId}/localVariables`)).body)).toEqual(['mine']);
  });
});

describe('modifying a suspended instance', () => {
  it('cancels (Camunda removes executions whatever their state) but starts nothing: the first start fails with ENGINE-03043', async () => {
    await setUp();
    for (const id of ids.slice(0, 2)) await rest.request('PUT', `/process-instance/${id}/suspended`, { json: { suspended: true } });

    const start = await rest.request('POST', `/process-instance/${ids[0]}/modification`, { json: { instructions: [{ type: 'startBeforeActivity', activityId: 'approve' }] } });
    const cancel = await rest.request('POST', `/process-instance/${ids[1]}/modification`, { json: { instructions: [{ type: 'cancel', activityId: 'review' }] } });

    expect([start.status, start.body.type]).toEqual([400, 'SuspendedEntityInteractionException']);
    expect(start.body.message).toMatch(/^ENGINE-03043 Execution with id '[^']+' is suspended\.$/);
    expect(await positions([ids[0]])).toEqual([['review']]);
    expect(cancel.status).toBe(204);
    expect(await positions([ids[1]])).toEqual([null]);
  });
});

describe('modification with authorization', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  it('needs BATCH CREATE for a batch and UPDATE on each instance to modify at once (403 otherwise)', async () => {
    await setUp({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
    const json = { processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: ids };

    const deniedAsync = await rest.request('POST', '/modification/executeAsync', { json, headers: jonny });
    expect(deniedAsync.status).toBe(403);
    expect(deniedAsync.body).toMatchObject({ type: 'AuthorizationException', missingAuthorizations: [{ permissionName: 'CREATE_BATCH_MODIFY_PROCESS_INSTANCES', resourceName: 'Batch' }, { permissionName: 'CREATE', resourceName: 'Batch' }] });
    const deniedOne = await rest.request('POST', `/process-instance/${ids[0]}/modification-async`, { json: { instructions: TO_APPROVE }, headers: jonny });
    expect(deniedOne.status).toBe(403);
    const denied = await rest.request('POST', '/modification/execute', { json, headers: jonny });
    expect(denied.status).toBe(403);
    expect(denied.body.type).toBe('AuthorizationException');
    expect(await positions(ids, admin)).toEqual([['review'], ['review'], ['review']]);

    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 13, resourceId: '*', permissions: ['CREATE_BATCH_MODIFY_PROCESS_INSTANCES'] });
    expect((await rest.request('POST', '/modification/executeAsync', { json, headers: jonny })).status).toBe(200);
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'modified', permissions: ['UPDATE_INSTANCE'] });
    expect((await rest.request('POST', '/modification/execute', { json, headers: jonny })).status).toBe(204);
    expect(await positions(ids, admin)).toEqual([['approve'], ['approve'], ['approve']]);

    // Cancelling everything deletes the instance: Camunda's ModifyProcessInstanceCmd then also needs DELETE.
    const cancelAll = { instructions: [{ type: 'cancel', activityId: 'approve' }] };
    const deniedDelete = await rest.request('POST', `/process-instance/${ids[0]}/modification`, { json: cancelAll, headers: jonny });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 8, resourceId: ids[0], permissions: ['DELETE'] });
    const deleted = await rest.request('POST', `/process-instance/${ids[0]}/modification`, { json: cancelAll, headers: jonny });
    expect(deniedDelete.status).toBe(403);
    expect(deniedDelete.body.missingAuthorizations).toEqual([
      { permissionName: 'DELETE', resourceName: 'ProcessInstance', resourceId: ids[0] },
      { permissionName: 'DELETE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'modified' },
    ]);
    expect(deleted.status).toBe(204);
    expect((await rest.request('GET', `/process-instance/${ids[0]}`, { headers: admin })).status).toBe(404);
  });
});
