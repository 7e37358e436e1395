import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="failing" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:serviceTask id="work" camunda:asyncBefore="true" camunda:expression="\${missing}" />
    <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="paying" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="pStart" />
    <bpmn:sequenceFlow id="p1" sourceRef="pStart" targetRef="pay" />
    <bpmn:serviceTask id="pay" camunda:type="external" camunda:topic="payments" camunda:taskPriority="7" />
    <bpmn:sequenceFlow id="p2" sourceRef="pay" targetRef="pEnd" />
    <bpmn:endEvent id="pEnd" />
  </bpmn:process>
</bpmn:definitions>`;

const get = (path: string, query: Record<string, string | number | boolean> = {}, headers?: Record<string, string>) => rest.request('GET', path, { query, headers });
const post = (path: string, json: unknown, query: Record<string, string | number | boolean> = {}) => rest.request('POST', path, { json, query });

interface Scenario {
  failing: string;
  paying: string;
  jobId: string;
  taskId: string;
}

/** A job that fails until it has no retries left (an incident), an external task that fails once and then completes. */
async function runScenario(headers?: Record<string, string>): Promise<Scenario> {
  await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
  const start = async (key: string) => (await rest.request('POST', `/process-definition/key/${key}/start`, { json: {}, headers })).body.id as string;
  const failing = await start('failing');
  const paying = await start('paying');
  await rest.engine.jobExecutor.runDueJobs();
  const [job] = await rest.engine.management.findJobs({ processInstanceId: failing });
  const [task] = await rest.engine.externalTask.fetchAndLock({ workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'payments', lockDuration: 1000 }] });
  await rest.engine.externalTask.handleFailure(task.id, { workerId: 'w1', errorMessage: 'declined', errorDetails: 'details of the decline', retries: 1, retryTimeout: 0 });
  await rest.engine.externalTask.fetchAndLock({ workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'payments', lockDuration: 1000 }] });
  await rest.engine.externalTask.complete(task.id, 'w1');
  return { failing, paying, jobId: job.id, taskId: task.id };
}

describe('the Historic Incident, Job Log and External Task Log groups', () => {
  let scenario: Scenario;

  beforeEach(async () => {
    rest = await startRestHarness();
    scenario = await runScenario();
  });
  afterEach(async () => rest.close());

  it('lists historic incidents as HistoricIncidentDto with their state', async () => {
    const open = await get('/history/incident', { open: true });
    await rest.engine.management.setJobRetries(scenario.jobId, 1);
    const resolved = await get('/history/incident', { resolved: true, sortBy: 'createTime', sortOrder: 'desc' });

    expect(open.status).toBe(200);
    expect(open.body).toEqual([
      expect.objectContaining({
        incidentType: 'failedJob',
        configuration: scenario.jobId,
        processInstanceId: scenario.failing,
        rootProcessInstanceId: scenario.failing,
        processDefinitionKey: 'failing',
        activityId: 'work',
        endTime: null,
        open: true,
        resolved: false,
        deleted: false,
      }),
    ]);
    expect(resolved.body).toEqual([expect.objectContaining({ id: open.body[0].id, open: false, resolved: true, endTime: expect.any(String) })]);
    expect((await get('/history/incident/count', { open: true })).body).toEqual({ count: 0 });
    // Camunda's DTO asks for open incidents whenever `open` is given; a second state is refused (500), naming the first.
    expect((await get('/history/incident/count', { open: false })).body).toEqual({ count: 0 });
    const twoStates = await get('/history/incident', { open: true, resolved: true });
    expect([twoStates.status, twoStates.body.message]).toEqual([500, 'Already querying for incident state <open>']);
    expect((await get('/history/incident/count', { processDefinitionKeyIn: 'failing,paying' })).body).toEqual({ count: 1 });
  });

  it('answers 400 for an unknown sortBy', async () => {
    const response = await get('/history/incident', { sortBy: 'nonsense', sortOrder: 'asc' });

    expect(response.status).toBe(400);
    expect(response.body.type).toBe('InvalidRequestException');
  });

  it('lists, counts and gets job log entries, and gives a failure’s stack trace as text', async () => {
    const list = await get('/history/job-log', { jobId: scenario.jobId, sortBy: 'occurrence', sortOrder: 'asc' });
    const failures = await post('/history/job-log', { jobId: scenario.jobId, failureLog: true, sorting: [{ sortBy: 'jobRetries', sortOrder: 'asc' }] }, { maxResults: 1 });
    const count = await post('/history/job-log/count', { processInstanceId: scenario.failing });
    const one = await get(`/history/job-log/${failures.body[0].id}`);
    const stacktrace = await get(`/history/job-log/${failures.body[0].id}/stacktrace`);
    // A creation entry has no stack trace: JAX-RS answers Camunda's null entity with 204, which the contract does not list.
    const noStacktrace = await rest.request('GET', `/history/job-log/${list.body[0].id}/stacktrace`, { outsideContract: true });

    expect(list.body.map((log: { creationLog: boolean; failureLog: boolean }) => [log.creationLog, log.failureLog])).toEqual([
      [true, false],
      [false, true],
      [false, true],
      [false, true],
    ]);
    expect(failures.body).toEqual([
      expect.objectContaining({ jobRetries: 1, failureLog: true, jobDefinitionType: 'async-continuation', processDefinitionKey: 'failing', hostname: rest.engine.config.hostname }),
    ]);
    // Camunda's default hostname: this machine's address and the engine's name.
    expect(rest.engine.config.hostname).toMatch(/^\d+\.\d+\.\d+\.\d+\$default$/);
    expect(count.body).toEqual({ count: 4 });
    // Several state flags: the last Camunda's DTO sets wins (creation, failure, success, deletion).
    expect((await get('/history/job-log/count', { jobId: scenario.jobId, creationLog: true, failureLog: true })).body).toEqual({ count: 3 });
    expect(one.body).toEqual(failures.body[0]);
    expect(stacktrace.status).toBe(200);
    expect(stacktrace.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(stacktrace.body.toString()).toContain('missing');
    expect(noStacktrace.status).toBe(204);
  });

  it('answers 404 for an unknown job log entry and its stack trace', async () => {
    const entry = await get('/history/job-log/nope');
    const stacktrace = await get('/history/job-log/nope/stacktrace');

    expect(entry.status).toBe(404);
    expect(entry.body).toEqual({ type: 'InvalidRequestException', message: 'Historic job log with id nope does not exist', code: null });
    expect(stacktrace.status).toBe(404);
    expect(stacktrace.body.message).toBe('No historic job log found with id nope: historicJobLog is null');
  });

  it('lists, counts and gets external task log entries, and gives a failure’s error details as text', async () => {
    const list = await get('/history/external-task-log', { externalTaskId: scenario.taskId, sortBy: 'timestamp', sortOrder: 'asc' });
    const failure = await post('/history/external-task-log', { failureLog: true, priorityHigherThanOrEquals: 7 });
    const count = await get('/history/external-task-log/count', { successLog: true, workerId: 'w1' });
    const details = await get(`/history/external-task-log/${failure.body[0].id}/error-details`);
    const missing = await get('/history/external-task-log/nope/error-details');

    expect(list.body).toHaveLength(3);
    expect(failure.body).toEqual([
      expect.objectContaining({ externalTaskId: scenario.taskId, topicName: 'payments', workerId: 'w1', errorMessage: 'declined', retries: null, priority: 7, failureLog: true }),
    ]);
    expect(count.body).toEqual({ count: 1 });
    expect((await get(`/history/external-task-log/${failure.body[0].id}`)).body).toEqual(failure.body[0]);
    expect((await get('/history/external-task-log/nope')).status).toBe(404);
    expect(details.status).toBe(200);
    expect(details.body.toString()).toBe('details of the decline');
    expect(missing.status).toBe(404);
  });

  it('deletes a finished instance’s incidents and logs with its history', async () => {
    await rest.engine.runtime.deleteProcessInstance(scenario.failing);
    expect((await get('/history/incident', { processInstanceId: scenario.failing })).body).toMatchObject([{ deleted: true }]);

    const response = await rest.request('DELETE', `/history/process-instance/${scenario.failing}`);

    expect(response.status).toBe(204);
    expect((await get('/history/incident/count', { processInstanceId: scenario.failing })).body).toEqual({ count: 0 });
    expect((await get('/history/job-log/count', { processInstanceId: scenario.failing })).body).toEqual({ count: 0 });
    expect((await get('/history/external-task-log/count', { processInstanceId: scenario.paying })).body).toEqual({ count: 3 });
  });
});

describe('historic incidents and logs with authorization on', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');
  let scenario: Scenario;

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
    scenario = await runScenario(admin);
  });
  afterEach(async () => rest.close());

  it('shows only entries of definitions the user has READ_HISTORY on', async () => {
    const before = await Promise.all(['/history/incident/count', '/history/job-log/count', '/history/external-task-log/count'].map((path) => get(path, {}, jonny)));
    const deniedStacktrace = await get(`/history/job-log/${(await get('/history/job-log', { failureLog: true }, admin)).body[0].id}/stacktrace`, {}, jonny);
    await rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 6, resourceId: 'paying', permissions: ['READ_HISTORY'] }, headers: admin });
    const after = await Promise.all(['/history/incident/count', '/history/job-log/count', '/history/external-task-log/count'].map((path) => get(path, {}, jonny)));

    expect(before.map((response) => response.body.count)).toEqual([0, 0, 0]);
    expect(deniedStacktrace.status).toBe(403);
    expect(after.map((response) => response.body.count)).toEqual([0, 0, 3]);
    expect((await get('/history/job-log/count', {}, admin)).body.count).toBeGreaterThan(0);
    expect(scenario.taskId).toBeTruthy();
  });

  it('shows the logs and incidents of batch jobs to everyone: they belong to no process definition', async () => {
    const batch = await rest.request('POST', '/process-instance/delete', { json: { processInstanceIds: [scenario.failing] }, headers: admin });
    const seed = (await get('/job', { jobDefinitionId: batch.body.seedJobDefinitionId }, admin)).body[0];
    await rest.request('PUT', `/job/${seed.id}/retries`, { json: { retries: 0 }, headers: admin });

    const logs = await get('/history/job-log', {}, jonny);
    const incidents = await get('/history/incident', {}, jonny);

    expect(logs.body.map((entry: { jobId: string }) => entry.jobId)).toEqual([seed.id]);
    expect(incidents.body.map((incident: { configuration: string }) => incident.configuration)).toEqual([seed.id]);
  });
});
