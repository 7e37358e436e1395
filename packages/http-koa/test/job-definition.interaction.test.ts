import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="billing" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="charge" />
    <bpmn:serviceTask id="charge" camunda:asyncBefore="true" camunda:class="com.example.Charge" />
    <bpmn:sequenceFlow id="f2" sourceRef="charge" targetRef="wait" />
    <bpmn:userTask id="wait" />
    <bpmn:boundaryEvent id="late" attachedToRef="wait"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="wait" targetRef="end" />
    <bpmn:sequenceFlow id="f4" sourceRef="late" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

/** A timer start event (far in the future) and an asynchronous task an instance started there by hand waits at. */
const TIMER_START_MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="n" targetNamespace="http://trellis.test">
  <bpmn:process id="nightly" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="timer"><bpmn:timerEventDefinition><bpmn:timeDate>2999-01-01T00:00:00Z</bpmn:timeDate></bpmn:timerEventDefinition></bpmn:startEvent>
    <bpmn:sequenceFlow id="n1" sourceRef="timer" targetRef="prepare" />
    <bpmn:serviceTask id="prepare" camunda:asyncBefore="true" camunda:expression="\${true}" />
    <bpmn:sequenceFlow id="n3" sourceRef="prepare" targetRef="done" />
    <bpmn:endEvent id="done" />
  </bpmn:process>
</bpmn:definitions>`;

let rest: RestHarness;
let definitionId: string;
let charges = 0;
beforeEach(async () => {
  rest = await startRestHarness();
  charges = 0;
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'billing.bpmn', bytes: Buffer.from(MODEL) }] });
  definitionId = processDefinitions![0].id;
});
afterEach(async () => rest.close());

const definitions = async (query = '') => (await rest.request('GET', `/job-definition${query}`)).body as Array<Record<string, unknown>>;

describe('the Job Definition group', () => {
  it('lists the async and timer job definitions a deployment created, with filters, sorting and count', async () => {
    const all = await definitions('?sortBy=activityId&sortOrder=asc');
    const timers = await rest.request('POST', '/job-definition', { json: { jobType: 'timer-transition' } });
    const count = await rest.request('GET', `/job-definition/count?processDefinitionId=${definitionId}&activityIdIn=charge,late`);
    const one = await rest.request('GET', `/job-definition/${all[0].id}`);
    const missing = await rest.request('GET', '/job-definition/nope');

    expect(all).toEqual([
      expect.objectContaining({ activityId: 'charge', jobType: 'async-continuation', jobConfiguration: 'async-before', processDefinitionKey: 'billing', suspended: false, overridingJobPriority: null }),
      expect.objectContaining({ activityId: 'late', jobType: 'timer-transition', jobConfiguration: 'DURATION: PT1H' }),
    ]);
    expect(timers.body.map((each: { activityId: string }) => each.activityId)).toEqual(['late']);
    expect(count.body).toEqual({ count: 2 });
    expect(one.body).toEqual(all[0]);
    expect(missing.status).toBe(404);
  });

  it('suspends a job definition with its jobs; new jobs are created suspended; activation lets them run', async () => {
    rest.engine.delegates.registerClass('com.example.Charge', () => void charges++);
    const [charge] = await definitions('?activityIdIn=charge');
    const first = (await rest.request('POST', '/process-definition/key/billing/start', { json: {} })).body.id;

    const suspended = await rest.request('PUT', `/job-definition/${charge.id}/suspended`, { json: { suspended: true, includeJobs: true } });
    await rest.request('POST', '/process-definition/key/billing/start', { json: {} });
    const ranWhileSuspended = await rest.engine.jobExecutor.runDueJobs();
    const jobs = await rest.engine.management.findJobs({ activityId: 'charge' });
    await rest.request('PUT', '/job-definition/suspended', { json: { suspended: false, includeJobs: true, processDefinitionKey: 'billing' } });
    await rest.engine.jobExecutor.runDueJobs();

    expect(suspended.status).toBe(204);
    expect(ranWhileSuspended).toBe(0);
    expect(jobs.map((job) => [job.suspended, job.jobDefinitionId])).toEqual([[true, charge.id], [true, charge.id]]);
    expect((await definitions('?suspended=true')).length).toBe(0);
    expect(charges).toBe(2);
    expect((await rest.engine.task.findTasks({ processInstanceId: first })).length).toBe(1);
  });

  it("suspends a process definition's job definitions and start timer with it, and by process definition the start timer always", async () => {
    const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'nightly.bpmn', bytes: Buffer.from(TIMER_START_MODEL) }] });
    const nightly = processDefinitions![0].id;
    const started = (await rest.request('POST', `/process-definition/${nightly}/start`, { json: { startInstructions: [{ type: 'startBeforeActivity', activityId: 'prepare' }] } })).body.id;
    const states = async () => {
      const jobs = await rest.engine.management.findJobs({ processDefinitionId: nightly });
      return {
        jobDefinitions: (await definitions(`?processDefinitionId=${nightly}&sortBy=activityId&sortOrder=asc`)).map((each) => [each.activityId, each.suspended]),
        jobs: jobs.map((job) => [job.activityId, job.suspended]).sort(),
      };
    };

    const before = await states();
    await rest.request('PUT', `/process-definition/${nightly}/suspended`, { json: { suspended: true } });
    const definitionSuspended = await states();
    await rest.request('PUT', '/process-definition/key/nightly/suspended', { json: { suspended: false } });
    const definitionActivated = await states();
    await rest.request('PUT', '/job-definition/suspended', { json: { suspended: true, processDefinitionId: nightly } });
    const byProcessDefinition = await states();
    await rest.request('PUT', '/job-definition/suspended', { json: { suspended: false, processDefinitionKey: 'nightly', includeJobs: true } });
    const [startTimer] = await definitions(`?processDefinitionId=${nightly}&activityIdIn=timer`);
    await rest.request('PUT', `/job-definition/${startTimer.id}/suspended`, { json: { suspended: true } });
    const byJobDefinition = await states();

    expect(started).toEqual(expect.any(String));
    expect(before).toEqual({ jobDefinitions: [['prepare', false], ['timer', false]], jobs: [['prepare', false], ['timer', false]] });
    // Camunda: the definition's job definitions (not the instance's jobs) and its start timer job follow it.
    expect(definitionSuspended).toEqual({ jobDefinitions: [['prepare', true], ['timer', true]], jobs: [['prepare', false], ['timer', true]] });
    expect(definitionActivated).toEqual(before);
    expect(byProcessDefinition).toEqual({ jobDefinitions: [['prepare', true], ['timer', true]], jobs: [['prepare', false], ['timer', true]] });
    // By its own id a job definition takes its jobs along only with includeJobs.
    expect(byJobDefinition).toEqual({ jobDefinitions: [['prepare', false], ['timer', true]], jobs: [['prepare', false], ['timer', false]] });
  });

  it('overrides the priority of new and existing jobs, and gives failed jobs new retries', async () => {
    const [charge] = await definitions('?activityIdIn=charge');
    await rest.request('POST', '/process-definition/key/billing/start', { json: {} });
    for (let i = 0; i < 3; i++) await rest.engine.jobExecutor.runDueJobs();

    const priority = await rest.request('PUT', `/job-definition/${charge.id}/jobPriority`, { json: { priority: 42, includeJobs: true } });
    const failed = await rest.engine.management.findJobs({ activityId: 'charge' });
    const incidents = await rest.engine.management.findIncidents();
    const retries = await rest.request('PUT', `/job-definition/${charge.id}/retries`, { json: { retries: 2, dueDate: '2030-01-01T00:00:00.000+0000' } });
    const [retried] = await rest.engine.management.findJobs({ activityId: 'charge' });
    const reset = await rest.request('PUT', `/job-definition/${charge.id}/jobPriority`, { json: { priority: null, includeJobs: true } });

    expect(priority.status).toBe(204);
    expect(failed.map((job) => [job.retries, job.priority])).toEqual([[0, 42]]);
    expect(incidents).toHaveLength(1);
    expect(retries.status).toBe(204);
    expect(retried.retries).toBe(2);
    expect(retried.dueDate).toEqual(new Date('2030-01-01T00:00:00.000Z'));
    // Camunda's bulk update of the failed jobs leaves their incidents open; failing again keeps the same one
    expect((await rest.engine.management.findIncidents()).map((incident) => incident.id)).toEqual([incidents[0].id]);
    await rest.engine.clock.advance(365 * 5 * 86_400_000);
    for (let i = 0; i < 2; i++) await rest.engine.jobExecutor.runDueJobs();
    expect((await rest.engine.management.findIncidents()).map((incident) => incident.id)).toEqual([incidents[0].id]);
    // the priority cascaded to the jobs is logged for them too, with the same operation (logged for an authenticated user)
    await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.jobDefinition.setOverridingJobPriority(charge.id as string, 43, true));
    const logged = (await rest.request('GET', '/history/user-operation', { query: { operationType: 'SetPriority' } })).body;
    expect(logged.map((entry: Record<string, unknown>) => [entry.entityType, entry.property, entry.orgValue, entry.newValue, entry.jobDefinitionId])).toEqual([
      ['JobDefinition', 'overridingPriority', '42', '43', charge.id],
      ['Job', 'priority', null, '43', charge.id],
    ]);
    expect(new Set(logged.map((entry: Record<string, unknown>) => entry.operationId)).size).toBe(1);
    expect([reset.status, reset.body]).toEqual([400, { type: 'InvalidRequestException', message: `Cannot reset priority for job definition ${charge.id} with includeJobs=true`, code: null }]);
    expect((await definitions('?withOverridingJobPriority=true')).map((each) => each.id)).toEqual([charge.id]);
  });

  it('answers wrong requests as Camunda 7.22 does', async () => {
    const put = (path: string, json: unknown) => rest.request('PUT', path, { json });
    const answer = async (path: string, json: unknown) => {
      const response = await put(path, json);
      return [response.status, response.body?.type, response.body?.message];
    };
    const [charge] = await definitions('?activityIdIn=charge');

    // An unknown job definition: retries and suspension change nothing (204), the priority is a 404.
    expect((await put('/job-definition/nope/retries', { retries: 1 })).status).toBe(204);
    expect((await put('/job-definition/nope/suspended', { suspended: true })).status).toBe(204);
    expect(await answer('/job-definition/nope/jobPriority', { priority: 5 })).toEqual([404, 'InvalidRequestException', "Job definition with id 'nope' does not exist: jobDefinition is null"]);
    expect(await answer(`/job-definition/${charge.id}/retries`, { retries: -1 })).toEqual([
      500, 'InvalidRequestException', "ENGINE-13054 The number of job retries must be a non-negative Integer, but '-1' has been provided.",
    ]);

    // Exactly one selector, the path's counted; suspended absent means activate.
    expect(await answer('/job-definition/suspended', { suspended: true })).toEqual([
      400, 'InvalidRequestException', 'Either jobDefinitionId, processDefinitionId or processDefinitionKey should be set to update the suspension state.',
    ]);
    expect(await answer('/job-definition/suspended', { processDefinitionId: definitionId, processDefinitionKey: 'billing' })).toEqual([
      400, 'InvalidRequestException', 'Only one of jobDefinitionId, processDefinitionId or processDefinitionKey should be set to update the suspension state.',
    ]);
    expect(await answer(`/job-definition/${charge.id}/suspended`, { suspended: true, processDefinitionKey: 'billing' })).toEqual([
      400, 'InvalidRequestException', 'Only one of jobDefinitionId, processDefinitionId or processDefinitionKey should be set to update the suspension state.',
    ]);
    expect(await answer('/job-definition/suspended', { jobDefinitionId: charge.id, suspended: true })).toEqual([
      400, 'InvalidRequestException', 'Either processDefinitionId or processDefinitionKey can be set to update the suspension state.',
    ]);
    expect(await answer(`/job-definition/${charge.id}/suspended`, { suspended: true, executionDate: 'soon' })).toEqual([
      400, 'InvalidRequestException', `The suspension state of Job Definition with id ${charge.id} could not be updated due to: Invalid format: "soon"`,
    ]);
    expect((await put(`/job-definition/${charge.id}/suspended`, { suspended: true, executionDate: '' })).status).toBe(204);
    expect((await definitions('?suspended=true')).map((each) => each.id)).toEqual([charge.id]);
    // A date, even a past one, schedules the change: it happens when the job executor runs the job.
    expect((await put('/job-definition/suspended', { processDefinitionKey: 'billing', executionDate: '2020-01-01T00:00:00' })).status).toBe(204);
    expect((await definitions('?suspended=true')).map((each) => each.id)).toEqual([charge.id]);
    await rest.engine.jobExecutor.runDueJobs();
    expect(await definitions('?suspended=true')).toEqual([]);
  });
});
