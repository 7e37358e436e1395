import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" name="Approval" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" name="Review" camunda:assignee="mary" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="quick" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="qStart" />
    <bpmn:sequenceFlow id="q1" sourceRef="qStart" targetRef="qEnd" />
    <bpmn:endEvent id="qEnd" />
  </bpmn:process>
</bpmn:definitions>`;

const get = (path: string, query: Record<string, string | number | boolean> = {}, headers?: Record<string, string>) => rest.request('GET', path, { query, headers });
const post = (path: string, json: unknown, query: Record<string, string | number | boolean> = {}) => rest.request('POST', path, { json, query });
const ids = (body: Array<{ id: string }>) => body.map((each) => each.id).sort();

interface Started {
  approvalA: string;
  approvalB: string;
  quick: string;
}

async function deployAndStart(headers?: Record<string, string>): Promise<Started> {
  await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
  const start = async (key: string, businessKey: string) =>
    (await rest.request('POST', `/process-definition/key/${key}/start`, { json: { businessKey }, headers })).body.id as string;
  const approvalA = await start('approval', 'A-1');
  rest.engine.clock.advance(60_000);
  const approvalB = await start('approval', 'B-2');
  const quick = await start('quick', 'Q-3');
  return { approvalA, approvalB, quick };
}

describe('the Historic Process Instance group', () => {
  let started: Started;

  beforeEach(async () => {
    rest = await startRestHarness();
    started = await deployAndStart();
  });
  afterEach(async () => rest.close());

  it('lists historic process instances as HistoricProcessInstanceDto', async () => {
    const response = await get('/history/process-instance', { processInstanceId: started.quick });

    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: started.quick,
        rootProcessInstanceId: started.quick,
        superProcessInstanceId: null,
        superCaseInstanceId: null,
        caseInstanceId: null,
        processDefinitionName: null,
        processDefinitionKey: 'quick',
        processDefinitionVersion: 1,
        processDefinitionId: expect.stringMatching(/^quick:1:/),
        businessKey: 'Q-3',
        startTime: expect.any(String),
        endTime: expect.any(String),
        // The root ended: end time + its definition's time to live (removal time strategy end).
        removalTime: expect.any(String),
        durationInMillis: 0,
        startUserId: null,
        startActivityId: 'qStart',
        deleteReason: null,
        tenantId: null,
        state: 'COMPLETED',
        restartedProcessInstanceId: null,
      },
    ]);
  });

  it('filters, sorts, pages and counts, by GET and by POST', async () => {
    const { approvalA, approvalB, quick } = started;

    expect(ids((await get('/history/process-instance', { finished: true })).body)).toEqual([quick]);
    expect(ids((await get('/history/process-instance', { unfinished: true })).body)).toEqual([approvalA, approvalB].sort());
    expect(ids((await get('/history/process-instance', { processDefinitionKey: 'approval' })).body)).toEqual([approvalA, approvalB].sort());
    expect(ids((await get('/history/process-instance', { processInstanceBusinessKey: 'B-2' })).body)).toEqual([approvalB]);
    expect(ids((await get('/history/process-instance', { processInstanceIds: `${approvalA},${quick}` })).body)).toEqual([approvalA, quick].sort());
    expect(ids((await get('/history/process-instance', { startedBefore: '2026-01-15T10:00:30.000+0000' })).body)).toEqual([approvalA]);
    expect(ids((await get('/history/process-instance', { completed: true })).body)).toEqual([quick]);
    expect(ids((await get('/history/process-instance', { active: true })).body)).toEqual([approvalA, approvalB].sort());
    expect(ids((await get('/history/process-instance', { executedActivityIdIn: 'qEnd,nope' })).body)).toEqual([quick]);
    expect(ids((await get('/history/process-instance', { activeActivityIdIn: 'review' })).body)).toEqual([approvalA, approvalB].sort());
    const sorted = await get('/history/process-instance', { sortBy: 'businessKey', sortOrder: 'desc', firstResult: 1, maxResults: 1 });
    expect(sorted.body.map((each: { businessKey: string }) => each.businessKey)).toEqual(['B-2']);

    expect((await get('/history/process-instance/count', { processDefinitionKey: 'approval' })).body).toEqual({ count: 2 });
    expect((await post('/history/process-instance/count', { processInstanceBusinessKeyIn: ['A-1', 'Q-3'] })).body).toEqual({ count: 2 });
    const posted = await post('/history/process-instance', { unfinished: true, sorting: [{ sortBy: 'startTime', sortOrder: 'desc' }] }, { maxResults: 1 });
    expect(posted.status).toBe(200);
    expect(posted.body.map((each: { id: string }) => each.id)).toEqual([approvalB]);
  });

  it('refuses bad and not yet supported parameters with 400', async () => {
    const badSort = await get('/history/process-instance', { sortBy: 'nonsense', sortOrder: 'asc' });
    const badDate = await get('/history/process-instance', { startedBefore: 'yesterday' });
    const unsupported = await get('/history/process-instance', { caseInstanceId: 'case-1' });
    const twoStates = await get('/history/process-instance/count', { active: true, completed: true });

    expect(badSort.status).toBe(400);
    expect(badSort.body).toEqual({ type: 'InvalidRequestException', message: "Cannot set query parameter 'sortBy' to value 'nonsense'", code: null });
    expect(badDate.status).toBe(400);
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.message).toBe("Query parameter 'caseInstanceId' is not supported by Trellis yet");
    expect(twoStates.status).toBe(400);
  });

  it('gets one historic process instance, 404 for an unknown id', async () => {
    const one = await get(`/history/process-instance/${started.approvalA}`);
    const missing = await get('/history/process-instance/nope');

    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ id: started.approvalA, state: 'ACTIVE', endTime: null, businessKey: 'A-1', processDefinitionName: 'Approval' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ type: 'InvalidRequestException', message: 'Historic process instance with id nope does not exist', code: null });
  });

  it('deletes a finished instance’s history; refuses a running one and an unknown id as Camunda does', async () => {
    const deleted = await rest.request('DELETE', `/history/process-instance/${started.quick}`);
    const running = await rest.request('DELETE', `/history/process-instance/${started.approvalA}`);
    const unknown = await rest.request('DELETE', '/history/process-instance/nope');
    const tolerated = await rest.request('DELETE', '/history/process-instance/nope', { query: { failIfNotExists: false } });

    expect(deleted.status).toBe(204);
    expect((await get(`/history/process-instance/${started.quick}`)).status).toBe(404);
    expect((await get('/history/activity-instance/count', { processInstanceId: started.quick })).body).toEqual({ count: 0 });
    expect(running.status).toBe(404);
    expect(running.body).toEqual({ type: 'InvalidRequestException', message: `Historic process instance with id ${started.approvalA} does not exist`, code: null });
    expect((await get(`/history/process-instance/${started.approvalA}`)).status).toBe(200);
    expect(unknown.status).toBe(404);
    expect(tolerated.status).toBe(204);
  });

  it('deletes the history of finished instances by a batch over given ids and a query; a running one fails its job', async () => {
    await rest.request('DELETE', `/process-instance/${started.approvalB}`);
    const runBatchJobs = async () => {
      await rest.engine.jobExecutor.runDueJobs();
      rest.engine.clock.advance(30_000);
      await rest.engine.jobExecutor.runDueJobs();
    };

    const created = await post('/history/process-instance/delete', {
      historicProcessInstanceIds: [started.quick, 'nope'],
      historicProcessInstanceQuery: { processInstanceBusinessKey: 'B-2' },
      deleteReason: 'tidy up',
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'historic-instance-deletion', totalJobs: 3, invocationsPerBatchJob: 1 });
    await runBatchJobs();

    expect((await get(`/history/process-instance/${started.quick}`)).status).toBe(404);
    expect((await get(`/history/process-instance/${started.approvalB}`)).status).toBe(404);
    expect((await get('/history/activity-instance/count', { processInstanceId: started.approvalB })).body).toEqual({ count: 0 });
    expect((await get(`/history/process-instance/${started.approvalA}`)).status).toBe(200);
    expect((await get('/job', { jobDefinitionId: created.body.batchJobDefinitionId })).body).toEqual([]);

    const running = await post('/history/process-instance/delete', { historicProcessInstanceIds: [started.approvalA] });
    await runBatchJobs();
    const [failed] = (await get('/job', { jobDefinitionId: running.body.batchJobDefinitionId })).body;
    expect(failed.exceptionMessage).toBe(`Process instance is still running, cannot delete historic process instance: ${started.approvalA}: instance.getEndTime() is null`);
    expect((await get(`/history/process-instance/${started.approvalA}`)).status).toBe(200);
  });

  it('refuses a deletion batch that selects nothing with 400', async () => {
    const empty = await post('/history/process-instance/delete', {});
    const noMatch = await post('/history/process-instance/delete', { historicProcessInstanceIds: [], historicProcessInstanceQuery: { processInstanceBusinessKey: 'none' } });

    // A query that is no JSON object cannot bind (Jackson's 400), rather than selecting every instance.
    const notAQuery = await post('/history/process-instance/delete', { historicProcessInstanceQuery: 'all' });

    for (const response of [empty, noMatch]) {
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ type: 'InvalidRequestException', message: 'historicProcessInstanceIds is empty' });
    }
    expect([notAQuery.status, notAQuery.body.message]).toEqual([400, '']);
    expect((await get('/batch/count')).body).toEqual({ count: 0 });
  });

  it('keeps the history of a completed and of a deleted instance', async () => {
    const [task] = (await get('/task', { processInstanceId: started.approvalA })).body;
    rest.engine.clock.advance(1_500);
    await post(`/task/${task.id}/complete`, {});
    await rest.request('DELETE', `/process-instance/${started.approvalB}`);

    const completed = (await get(`/history/process-instance/${started.approvalA}`)).body;
    const terminated = (await get(`/history/process-instance/${started.approvalB}`)).body;

    expect(completed).toMatchObject({ state: 'COMPLETED', durationInMillis: 61_500 });
    expect(terminated).toMatchObject({ state: 'EXTERNALLY_TERMINATED', deleteReason: null, endTime: expect.any(String) });
    expect((await get('/history/process-instance/count', { externallyTerminated: true })).body).toEqual({ count: 1 });
    expect((await get('/history/process-instance/count', { finishedAfter: '2026-01-15T10:01:01.000+0000' })).body).toEqual({ count: 2 });
  });
});

describe('the Historic Activity Instance group', () => {
  let started: Started;

  beforeEach(async () => {
    rest = await startRestHarness();
    started = await deployAndStart();
  });
  afterEach(async () => rest.close());

  it('lists, filters and counts activity instances as HistoricActivityInstanceDto', async () => {
    const [task] = (await get('/task', { processInstanceId: started.approvalA })).body;
    const response = await get('/history/activity-instance', { processInstanceId: started.approvalA, activityType: 'userTask' });

    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: expect.stringMatching(/^review:/),
        parentActivityInstanceId: started.approvalA,
        activityId: 'review',
        activityName: 'Review',
        activityType: 'userTask',
        processDefinitionKey: 'approval',
        processDefinitionId: expect.stringMatching(/^approval:1:/),
        processInstanceId: started.approvalA,
        executionId: started.approvalA,
        taskId: task.id,
        assignee: 'mary',
        calledProcessInstanceId: null,
        calledCaseInstanceId: null,
        startTime: expect.any(String),
        endTime: null,
        durationInMillis: null,
        canceled: false,
        completeScope: false,
        tenantId: null,
        removalTime: null,
        rootProcessInstanceId: started.approvalA,
      },
    ]);
    expect((await get('/history/activity-instance/count', { taskAssignee: 'mary' })).body).toEqual({ count: 2 });
    expect((await get('/history/activity-instance/count', { finished: true })).body).toEqual({ count: 4 });
    expect((await get('/history/activity-instance/count', { unfinished: true, activityId: 'review' })).body).toEqual({ count: 2 });
    expect((await get('/history/activity-instance/count', { completeScope: true })).body).toEqual({ count: 1 });
    const twoStates = await get('/history/activity-instance/count', { completeScope: true, canceled: true });
    expect([twoStates.status, twoStates.body.message]).toEqual([500, 'Already querying for activity instance state <scopeComplete>']);
    expect((await post('/history/activity-instance/count', { activityName: 'Review', startedAfter: '2026-01-15T10:00:30.000+0000' })).body).toEqual({ count: 1 });
    // Camunda 7.22's DTO takes activityNameLike (its document leaves it out); an empty tenant list filters nothing.
    expect((await rest.request('GET', '/history/activity-instance/count', { query: { activityNameLike: 'Rev%' }, outsideContract: true })).body).toEqual({ count: 2 });
    expect((await get('/history/activity-instance/count', { tenantIdIn: '' })).body).toEqual((await get('/history/activity-instance/count')).body);
    const occurrence = await post('/history/activity-instance', { processInstanceId: started.quick, sorting: [{ sortBy: 'occurrence', sortOrder: 'asc' }] });
    expect(occurrence.body.map((each: { activityId: string }) => each.activityId)).toEqual(['qStart', 'qEnd']);
  });

  it('gets one activity instance, 404 for an unknown id, 400 for a bad sort', async () => {
    const [review] = (await get('/history/activity-instance', { processInstanceId: started.approvalB, activityId: 'review' })).body;

    const one = await get(`/history/activity-instance/${review.id}`);
    const missing = await get('/history/activity-instance/nope');
    const badSort = await get('/history/activity-instance', { sortBy: 'activityId' });

    expect(one.body).toEqual(review);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ type: 'InvalidRequestException', message: "Historic activity instance with id 'nope' does not exist", code: null });
    expect(badSort.status).toBe(400);
    expect(badSort.body.message).toBe('Only a single sorting parameter specified. sortBy and sortOrder required');
  });

  it('marks the activity of a deleted instance canceled', async () => {
    await rest.request('DELETE', `/process-instance/${started.approvalA}`);

    const [review] = (await get('/history/activity-instance', { processInstanceId: started.approvalA, activityId: 'review' })).body;

    // approvalA started a minute before the clock's present.
    expect(review).toMatchObject({ canceled: true, endTime: '2026-01-15T10:01:00.000+0000', durationInMillis: 60_000 });
    expect((await get('/history/activity-instance/count', { canceled: true })).body).toEqual({ count: 1 });
  });
});

describe('history with authorization on', () => {
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

  const grant = (resourceId: string, permissions: string[]) =>
    rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 6, resourceId, permissions }, headers: admin });

  it('shows the history of definitions the user has READ_HISTORY on', async () => {
    expect((await get('/history/process-instance/count', {}, admin)).body).toEqual({ count: 3 });
    expect((await get('/history/process-instance/count', {}, jonny)).body).toEqual({ count: 0 });
    expect((await get('/history/activity-instance/count', {}, jonny)).body).toEqual({ count: 0 });
    expect((await get(`/history/process-instance/${started.quick}`, {}, jonny)).status).toBe(404);

    await grant('quick', ['READ_HISTORY']);

    expect(ids((await get('/history/process-instance', {}, jonny)).body)).toEqual([started.quick]);
    expect((await get('/history/activity-instance/count', {}, jonny)).body).toEqual({ count: 2 });
    expect((await get(`/history/process-instance/${started.quick}`, {}, jonny)).body).toMatchObject({ startUserId: 'admin' });
    expect((await get('/history/process-instance/count', { startedBy: 'admin' }, admin)).body).toEqual({ count: 3 });
    expect((await get('/history/process-instance/count', { startedBy: 'jonny' }, admin)).body).toEqual({ count: 0 });
  });

  it('creates the history deletion batch with CREATE_BATCH_DELETE_FINISHED_PROCESS_INSTANCES and logs the operation', async () => {
    const request = () => rest.request('POST', '/history/process-instance/delete', { json: { historicProcessInstanceIds: [started.quick], deleteReason: 'tidy up' }, headers: jonny });
    const denied = await request();
    await rest.request('POST', '/authorization/create', {
      json: { type: 1, userId: 'jonny', resourceType: 13, resourceId: '*', permissions: ['CREATE_BATCH_DELETE_FINISHED_PROCESS_INSTANCES'] },
      headers: admin,
    });
    const allowed = await request();

    expect(denied.status).toBe(403);
    expect(denied.body.type).toBe('AuthorizationException');
    expect(allowed.status).toBe(200);
    const entries = (await get('/history/user-operation', { operationType: 'DeleteHistory' }, admin)).body as Array<Record<string, unknown>>;
    expect(entries.map(({ property, newValue, entityType, userId }) => ({ property, newValue, entityType, userId })).sort((a, b) => String(a.property).localeCompare(String(b.property)))).toEqual([
      { property: 'async', newValue: 'true', entityType: 'ProcessInstance', userId: 'jonny' },
      { property: 'deleteReason', newValue: 'tidy up', entityType: 'ProcessInstance', userId: 'jonny' },
      { property: 'nrOfInstances', newValue: '1', entityType: 'ProcessInstance', userId: 'jonny' },
    ]);
  });

  it('deletes history only with DELETE_HISTORY on the definition; the operation log stays, grants on the historic instance go', async () => {
    const logged = async () => (await get('/history/user-operation/count', { processInstanceId: started.quick }, admin)).body.count as number;
    const before = await logged();
    await rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 20, resourceId: started.quick, permissions: ['READ'] }, headers: admin });
    const grantsOnInstance = (await get('/authorization/count', { resourceType: 20, resourceId: started.quick }, admin)).body;
    const denied = await rest.request('DELETE', `/history/process-instance/${started.quick}`, { headers: jonny });
    await grant('quick', ['DELETE_HISTORY']);
    const allowed = await rest.request('DELETE', `/history/process-instance/${started.quick}`, { headers: jonny });

    expect(denied.status).toBe(403);
    expect(denied.body.type).toBe('AuthorizationException');
    expect(allowed.status).toBe(204);
    expect(before).toBeGreaterThan(0);
    expect(await logged()).toBe(before);
    expect(grantsOnInstance).toEqual({ count: 1 });
    expect((await get('/authorization/count', { resourceType: 20, resourceId: started.quick }, admin)).body).toEqual({ count: 0 });
  });
});
