import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

/** start → external task (topic "work") → timer (1 h) → user task → end. */
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="retried" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="call" />
    <bpmn:serviceTask id="call" camunda:type="external" camunda:topic="work" />
    <bpmn:sequenceFlow id="f2" sourceRef="call" targetRef="wait" />
    <bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="wait" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f4" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

let rest: RestHarness;
let ids: string[];
beforeEach(async () => {
  rest = await startRestHarness();
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'retried.bpmn', bytes: Buffer.from(MODEL) }] });
  ids = [];
  for (let i = 0; i < 3; i++) ids.push((await rest.engine.runtime.startProcessInstanceById(processDefinitions![0].id, { businessKey: `bk${i}` })).id);
});
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

/** Completes every external task, so that each instance waits at its timer job. */
async function toTimers() {
  const locked = await rest.request('POST', '/external-task/fetchAndLock', { json: { workerId: 'w', maxTasks: 10, topics: [{ topicName: 'work', lockDuration: 60_000 }] } });
  for (const task of locked.body) await rest.request('POST', `/external-task/${task.id}/complete`, { json: { workerId: 'w' } });
  return (await rest.request('GET', '/job', { query: { timers: 'true' } })).body as Array<{ id: string; processInstanceId: string }>;
}

const BATCH_DEFAULTS = { totalJobs: expect.any(Number), jobsCreated: 0, batchJobsPerSeed: 100, invocationsPerBatchJob: 1, suspended: false, executionStartTime: null };

describe('POST /external-task/retries-async', () => {
  it('answers a set-external-task-retries BatchDto whose jobs set the retries', async () => {
    const [task] = (await rest.request('GET', '/external-task', { query: { processInstanceId: ids[0]! } })).body;
    const created = await rest.request('POST', '/external-task/retries-async', {
      json: { retries: 0, externalTaskIds: [task.id], processInstanceIds: [ids[1]], processInstanceQuery: { businessKey: 'bk2' } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ...BATCH_DEFAULTS, type: 'set-external-task-retries', totalJobs: 3 });
    expect((await rest.request('GET', `/batch/${created.body.id}`)).body).toEqual(created.body);

    await runBatches();
    expect((await rest.request('GET', '/external-task')).body.map((each: any) => each.retries)).toEqual([0, 0, 0]);
    expect((await rest.request('GET', '/incident/count', { query: { incidentType: 'failedExternalTask' } })).body).toEqual({ count: 3 });

    expect((await rest.request('POST', '/external-task/retries-async', { json: { retries: 4, externalTaskQuery: { topicName: 'work' } } })).status).toBe(200);
    await runBatches();
    expect((await rest.request('GET', '/external-task')).body.map((each: any) => each.retries)).toEqual([4, 4, 4]);
    expect((await rest.request('GET', '/incident/count')).body).toEqual({ count: 0 });
  });

  it('answers missing retries and an empty selection with 400', async () => {
    const noRetries = await rest.request('POST', '/external-task/retries-async', { json: { externalTaskIds: ['a'] } });
    const empty = await rest.request('POST', '/external-task/retries-async', { json: { retries: 1, externalTaskIds: [] } });
    const nothing = await rest.request('POST', '/external-task/retries-async', { json: { retries: 1, externalTaskQuery: { topicName: 'none' } } });
    expectError(noRetries, 400, 'InvalidRequestException', 'The number of retries cannot be null.');
    expectError(empty, 400, 'InvalidRequestException', 'externalTaskIds is empty');
    expectError(nothing, 400, 'InvalidRequestException', 'externalTaskIds is empty');
    expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
  });
});

describe('POST /job/retries', () => {
  it('answers a set-job-retries BatchDto whose jobs set retries and the due date', async () => {
    const [first, second] = await toTimers();
    const created = await rest.request('POST', '/job/retries', {
      json: { retries: 0, jobIds: [first!.id], jobQuery: { processInstanceId: second!.processInstanceId } },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ...BATCH_DEFAULTS, type: 'set-job-retries', totalJobs: 2 });
    await runBatches();
    const retries = async () => new Map((await rest.request('GET', '/job')).body.map((job: any) => [job.id, job.retries]));
    const byId = await retries();
    expect([byId.get(first!.id), byId.get(second!.id)]).toEqual([0, 0]);
    expect((await rest.request('GET', '/incident/count', { query: { incidentType: 'failedJob' } })).body).toEqual({ count: 2 });

    const dueDate = '2031-01-01T10:00:00.000+0000';
    expect((await rest.request('POST', '/job/retries', { json: { retries: 2, jobIds: [first!.id], dueDate } })).status).toBe(200);
    await runBatches();
    const job = (await rest.request('GET', `/job/${first!.id}`)).body;
    expect({ retries: job.retries, dueDate: new Date(job.dueDate.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')).toISOString() }).toEqual({
      retries: 2,
      dueDate: '2031-01-01T10:00:00.000Z',
    });
    expect((await rest.request('GET', '/incident/count', { query: { incidentType: 'failedJob' } })).body).toEqual({ count: 1 });
  });

  it('answers Camunda errors for missing retries, an empty selection and negative retries', async () => {
    const [job] = await toTimers();
    expectError(await rest.request('POST', '/job/retries', { json: { jobIds: [job!.id] } }), 400, 'InvalidRequestException', 'retries is null');
    // SetJobRetriesByJobsAsyncBuilderImpl: neither ids nor a query is ENGINE-13050 (500); a query finding nothing an empty selection.
    expectError(await rest.request('POST', '/job/retries', { json: { retries: 1, jobIds: [] } }), 500, 'ProcessEngineException', 'ENGINE-13050 You must specify at least one of jobIds or jobQuery.');
    expectError(await rest.request('POST', '/job/retries', { json: { retries: 1, jobQuery: { jobId: 'nope' } } }), 400, 'InvalidRequestException', 'jobIds is empty');
    const negative = await rest.request('POST', '/job/retries', { json: { retries: -1, jobIds: [job!.id] }, outsideContract: true });
    expectError(negative, 500, 'ProcessEngineException', 'Retries count is not greater than or equal to 0');
  });
});

describe('POST /process-instance/job-retries', () => {
  it('sets the retries of the jobs of given and queried instances', async () => {
    await toTimers();
    const created = await rest.request('POST', '/process-instance/job-retries', { json: { retries: 6, processInstances: [ids[0]], processInstanceQuery: { businessKey: 'bk1' } } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ...BATCH_DEFAULTS, type: 'set-job-retries', totalJobs: 2 });
    await runBatches();
    const jobs = (await rest.request('GET', '/job')).body as Array<{ processInstanceId: string; retries: number }>;
    expect(ids.map((id) => jobs.find((job) => job.processInstanceId === id)!.retries)).toEqual([6, 6, 3]);
  });

  it('answers Camunda errors for missing retries and an empty selection', async () => {
    expectError(await rest.request('POST', '/process-instance/job-retries', { json: { processInstances: ids } }), 400, 'InvalidRequestException', 'retries is null');
    // The instances wait at their external tasks: no jobs yet.
    expectError(await rest.request('POST', '/process-instance/job-retries', { json: { retries: 1, processInstances: ids } }), 400, 'InvalidRequestException', 'jobIds is empty');
    expectError(await rest.request('POST', '/process-instance/job-retries', { json: { retries: 1 } }), 500, 'ProcessEngineException',
      'ENGINE-13051 You must specify at least one of or one of processInstanceIds, processInstanceQuery, or historicProcessInstanceQuery.');
  });
});

describe('POST /process-instance/suspended-async', () => {
  it('answers an instance-update-suspension-state BatchDto whose jobs suspend and activate', async () => {
    const created = await rest.request('POST', '/process-instance/suspended-async', { json: { suspended: true, processInstanceIds: [ids[0]], processInstanceQuery: { businessKey: 'bk1' } } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ ...BATCH_DEFAULTS, type: 'instance-update-suspension-state', totalJobs: 2 });
    await runBatches();
    const suspended = async () => (await rest.request('GET', '/process-instance', { query: { suspended: 'true' } })).body.map((each: any) => each.id).sort();
    expect(await suspended()).toEqual([ids[0], ids[1]].sort());

    expect((await rest.request('POST', '/process-instance/suspended-async', { json: { suspended: false, processInstanceQuery: { suspended: true } } })).status).toBe(200);
    await runBatches();
    expect(await suspended()).toEqual([]);
  });

  it('answers Camunda errors for an empty selection and a null id', async () => {
    const empty = await rest.request('POST', '/process-instance/suspended-async', { json: { suspended: true, processInstanceIds: [] } });
    const withNull = await rest.request('POST', '/process-instance/suspended-async', { json: { suspended: true, processInstanceIds: [ids[0], null] } });
    expectError(empty, 400, 'InvalidRequestException', 'No process instance ids given: process Instance Ids is empty');
    expectError(withNull, 400, 'InvalidRequestException', 'Cannot be null.: Process Instance ids contains null value');
    const none = await rest.request('POST', '/process-instance/suspended-async', { json: { suspended: true } });
    expectError(none, 400, 'InvalidRequestException', 'Either processInstanceIds, processInstanceQuery or historicProcessInstanceQuery should be set to update the suspension state.');
  });
});
