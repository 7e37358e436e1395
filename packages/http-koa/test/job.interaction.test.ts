import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grantMore, simpleProcessXml } from '@trellis/core/testing';
import { formatRestDate } from '../src/dto/dates.js';
import { basic } from './support/basic-auth.js';
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

type JobBody = Record<string, any>;

let rest: RestHarness;
let definitionId: string;
/** What the Charge delegate does: count calls, fail while `declining`. */
let charges: number;
let declining: boolean;

async function setUp(...options: Parameters<typeof startRestHarness>) {
  rest = await startRestHarness(...options);
  charges = 0;
  declining = false;
  rest.engine.delegates.registerClass('com.example.Charge', () => {
    charges++;
    if (declining) throw new Error('card declined');
  });
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'billing.bpmn', bytes: Buffer.from(MODEL) }] });
  definitionId = processDefinitions![0].id;
}
afterEach(async () => rest.close());

const start = async () => (await rest.engine.runtime.startProcessInstanceById(definitionId, {})).id;
const jobs = async (query: Record<string, string | number | boolean> = {}) => (await rest.request('GET', '/job', { query })).body as JobBody[];
const jobOf = async (processInstanceId: string, activityId = 'charge') => (await rest.engine.management.findJobs({ processInstanceId, activityId }))[0]!;
const expectError = (response: { status: number; body: any }, status: number, type: string, message: string) => {
  expect({ status: response.status, type: response.body.type, message: response.body.message }).toEqual({ status, type, message });
};

describe('the Job group', () => {
  beforeEach(async () => setUp());

  it('lists, filters, sorts, pages and counts jobs; gets one', async () => {
    const a = await start();
    const b = await start();
    const chargeA = await jobOf(a);
    const chargeB = await jobOf(b);
    await rest.request('POST', `/job/${chargeA.id}/execute`);
    const timerA = await jobOf(a, 'late');
    const now = rest.engine.clock.now();

    const all = await jobs();
    const timers = await jobs({ timers: true });
    const messages = await jobs({ messages: true });
    const dueLater = await jobs({ dueDates: `gt_${formatRestDate(now)}` });
    const dueEarlier = await jobs({ dueDates: `lt_${formatRestDate(now)}` });
    const byDueDate = await jobs({ sortBy: 'jobDueDate', sortOrder: 'desc' });
    const executableNow = await jobs({ executable: true });
    const byInstance = await jobs({ processInstanceId: a });
    const byInstances = await rest.request('POST', '/job', { json: { processInstanceIds: [a, b], activityId: 'late' } });
    const byDefinition = await rest.request('GET', '/job/count', { query: { processDefinitionKey: 'billing', withRetriesLeft: true } });
    const postCount = await rest.request('POST', '/job/count', { json: { jobIds: [chargeB.id, timerA.id, 'nope'], dueDates: [{ operator: 'gt', value: formatRestDate(now) }] } });
    const paged = await rest.request('GET', '/job', { query: { sortBy: 'jobId', sortOrder: 'asc', firstResult: 1, maxResults: 1 } });
    const one = await rest.request('GET', `/job/${timerA.id}`);
    const missing = await rest.request('GET', '/job/nope');
    rest.engine.clock.advance(2 * 3600_000);
    const executableLater = await jobs({ executable: true, sortBy: 'processInstanceId', sortOrder: 'asc' });

    expect(all.map((job) => job.id)).toEqual([chargeB.id, timerA.id].sort());
    expect(timers.map((job) => job.id)).toEqual([timerA.id]);
    expect(messages.map((job) => job.id)).toEqual([chargeB.id]);
    expect(dueLater.map((job) => job.id)).toEqual([timerA.id]);
    expect(dueEarlier).toEqual([]);
    expect(byDueDate.map((job) => job.id)).toEqual([timerA.id, chargeB.id]);
    expect(executableNow.map((job) => job.id)).toEqual([chargeB.id]);
    expect(byInstance.map((job) => job.id)).toEqual([timerA.id]);
    expect(byInstances.body.map((job: JobBody) => job.id)).toEqual([timerA.id]);
    expect(byDefinition.body).toEqual({ count: 2 });
    expect(postCount.body).toEqual({ count: 1 });
    expect(paged.body.map((job: JobBody) => job.id)).toEqual([[chargeB.id, timerA.id].sort()[1]]);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id: timerA.id,
      jobDefinitionId: timerA.jobDefinitionId,
      processInstanceId: a,
      processDefinitionId: definitionId,
      processDefinitionKey: 'billing',
      executionId: timerA.executionId,
      exceptionMessage: null,
      failedActivityId: null,
      retries: 3,
      dueDate: formatRestDate(new Date(now.getTime() + 3600_000)),
      suspended: false,
      priority: 0,
      tenantId: null,
      createTime: formatRestDate(now),
      batchId: null,
    });
    expectError(missing, 404, 'InvalidRequestException', 'Job with id nope does not exist');
    expect(executableLater.map((job) => job.processInstanceId)).toEqual([a, b].sort());
    // Camunda's Job.xml: createTimes lt_ includes the bound; an executable job's instance is not suspended.
    expect((await jobs({ createTimes: `lt_${formatRestDate(now)}` })).length).toBe(2);
    await rest.request('PUT', `/process-instance/${a}/suspended`, { json: { suspended: true } });
    expect((await jobs({ executable: true })).map((job) => job.processInstanceId)).toEqual([b]);
  });

  it('refuses invalid query parameters', async () => {
    const sortBy = await rest.request('GET', '/job', { query: { sortBy: 'activityId', sortOrder: 'asc' } });
    const comparator = await rest.request('GET', '/job', { query: { dueDates: 'eq_2024-01-01T00:00:00.000+0000' } });
    const format = await rest.request('GET', '/job/count', { query: { createTimes: 'gt_yesterday' } });
    const bodyComparator = await rest.request('POST', '/job', { json: { createTimes: [{ operator: 'ge', value: '2024-01-01T00:00:00.000+0000' }] } });
    const priority = await rest.request('GET', '/job', { query: { priorityHigherThanOrEquals: 'high' } });

    expectError(sortBy, 400, 'InvalidRequestException', "Cannot set query parameter 'sortBy' to value 'activityId'");
    expectError(comparator, 400, 'InvalidRequestException', 'Invalid due date comparator specified: eq');
    expectError(format, 400, 'InvalidRequestException', 'Invalid create time format: Cannot convert value "yesterday" to java type java.util.Date');
    expectError(bodyComparator, 400, 'InvalidRequestException', 'Invalid create time comparator specified: ge');
    expect(priority.status).toBe(400);
    // JobQueryDto reads timers with messages before the date conditions.
    const both = await rest.request('GET', '/job', { query: { timers: true, messages: true, dueDates: 'eq_2024-01-01T00:00:00.000+0000' } });
    expectError(both, 400, 'InvalidRequestException', 'Parameter timers cannot be used together with parameter messages.');
  });

  it('executes a job: the instance moves on; a failing job loses a retry, keeps its error and answers 500', async () => {
    const ok = await start();
    const failing = await start();
    const okJob = await jobOf(ok);
    const failingJob = await jobOf(failing);

    const executed = await rest.request('POST', `/job/${okJob.id}/execute`);
    declining = true;
    const failed = await rest.request('POST', `/job/${failingJob.id}/execute`);
    const afterFailure = await rest.request('GET', `/job/${failingJob.id}`);
    const withException = await jobs({ withException: true });
    const byMessage = await jobs({ exceptionMessage: 'card declined', failedActivityId: 'charge' });
    const stacktrace = await rest.request('GET', `/job/${failingJob.id}/stacktrace`);
    const missing = await rest.request('POST', '/job/nope/execute');

    expect(executed.status).toBe(204);
    expect(charges).toBe(2);
    expect((await rest.engine.task.findTasks({ processInstanceId: ok })).map((task) => task.taskDefinitionKey)).toEqual(['wait']);
    expect(await rest.engine.management.findJobs({ processInstanceId: ok, activityId: 'charge' })).toEqual([]);
    expectError(failed, 500, 'RestException', 'card declined');
    expect(afterFailure.body).toMatchObject({ retries: 2, exceptionMessage: 'card declined', failedActivityId: 'charge' });
    expect(withException.map((job) => job.id)).toEqual([failingJob.id]);
    expect(byMessage.map((job) => job.id)).toEqual([failingJob.id]);
    expect(stacktrace.status).toBe(200);
    expect(stacktrace.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(String(stacktrace.body)).toMatch(/^Error: card declined\n\s+at /);
    expect((await rest.engine.task.findTasks({ processInstanceId: failing })).length).toBe(0);
    expectError(missing, 404, 'InvalidRequestException', "ENGINE-14026 No job found with id 'nope'");
  });

  it('answers the stack trace endpoint with 404 for an unknown job and 204 for a job that never failed', async () => {
    const job = await jobOf(await start());
    const missing = await rest.request('GET', '/job/nope/stacktrace');
    // 204 is what JAX-RS answers for Camunda's null stack trace; the contract does not list it.
    const none = await rest.request('GET', `/job/${job.id}/stacktrace`, { outsideContract: true });

    expectError(missing, 404, 'InvalidRequestException', 'No job found with id nope: job is null');
    expect(none.status).toBe(204);
  });

  it('sets retries: back from 0 the failedJob incident is resolved and the job runs again; invalid retries are refused', async () => {
    const instance = await start();
    const job = await jobOf(instance);
    declining = true;
    for (let i = 0; i < 3; i++) await rest.engine.jobExecutor.runDueJobs();
    const exhausted = await rest.request('GET', `/job/${job.id}`);
    const noRetries = await jobs({ noRetriesLeft: true });
    const incidentsBefore = await rest.engine.management.findIncidents({ configuration: job.id });

    const negative = await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: -1 } });
    const unknown = await rest.request('PUT', '/job/nope/retries', { json: { retries: 1 } });
    const retried = await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: 1 } });
    const incidentsAfter = await rest.engine.management.findIncidents({ configuration: job.id });
    const afterRetries = await rest.request('GET', `/job/${job.id}`);
    declining = false;
    const ran = await rest.engine.jobExecutor.runDueJobs();

    expect(exhausted.body.retries).toBe(0);
    expect(noRetries.map((each) => each.id)).toEqual([job.id]);
    expect(incidentsBefore.map((incident) => incident.incidentType)).toEqual(['failedJob']);
    expectError(negative, 500, 'InvalidRequestException', "ENGINE-13054 The number of job retries must be a non-negative Integer, but '-1' has been provided.");
    expectError(unknown, 500, 'InvalidRequestException', "ENGINE-13053 No job found with id 'nope'.'");
    expect(retried.status).toBe(204);
    expect(incidentsAfter).toEqual([]);
    expect(afterRetries.body).toMatchObject({ retries: 1, exceptionMessage: 'card declined' });
    expect(ran).toBe(1);
    expect((await rest.engine.task.findTasks({ processInstanceId: instance })).length).toBe(1);
  });

  it('sets retries to 0 (opens an incident) together with a due date', async () => {
    const job = await jobOf(await start());
    const due = new Date(rest.engine.clock.now().getTime() + 60_000);
    const response = await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: 0, dueDate: formatRestDate(due) } });

    expect(response.status).toBe(204);
    expect((await rest.request('GET', `/job/${job.id}`)).body).toMatchObject({ retries: 0, dueDate: formatRestDate(due) });
    expect((await rest.engine.management.findIncidents({ configuration: job.id })).map((incident) => incident.incidentType)).toEqual(['failedJob']);
  });

  it('suspends and activates jobs one by one and by process definition; suspended jobs are not acquired', async () => {
    const a = await start();
    const b = await start();
    const jobA = await jobOf(a);
    const jobB = await jobOf(b);

    const suspendOne = await rest.request('PUT', `/job/${jobA.id}/suspended`, { json: { suspended: true } });
    const suspended = await jobs({ suspended: true });
    const active = await jobs({ active: true });
    const ranWhileSuspended = await rest.engine.jobExecutor.runDueJobs();
    const suspendAll = await rest.request('PUT', '/job/suspended', { json: { processDefinitionKey: 'billing', suspended: true } });
    const afterAll = await rest.request('GET', '/job/count', { query: { suspended: true } });
    const activateInstance = await rest.request('PUT', '/job/suspended', { json: { processInstanceId: a, suspended: false } });
    const ranAfterActivation = await rest.engine.jobExecutor.runDueJobs();
    const twoSelectors = await rest.request('PUT', '/job/suspended', { json: { processDefinitionId: definitionId, processInstanceId: a, suspended: true } });
    const noSelector = await rest.request('PUT', '/job/suspended', { json: { suspended: true } });

    expect(suspendOne.status).toBe(204);
    expect(suspended.map((job) => job.id)).toEqual([jobA.id]);
    expect(active.map((job) => job.id)).toEqual([jobB.id]);
    expect(ranWhileSuspended).toBe(1);
    expect(suspendAll.status).toBe(204);
    // Only a's charge job is left; b's ran and b now waits with a timer job, suspended too.
    expect(afterAll.body).toEqual({ count: 2 });
    expect(activateInstance.status).toBe(204);
    expect(ranAfterActivation).toBe(1);
    expect(charges).toBe(2);
    expect((await rest.engine.task.findTasks({ processInstanceId: a })).length).toBe(1);
    expect((await jobs({ processInstanceId: b })).map((job) => [job.suspended, job.processInstanceId])).toEqual([[true, b]]);
    expectError(
      twoSelectors,
      400,
      'InvalidRequestException',
      'Only one of jobId, jobDefinitionId, processInstanceId, processDefinitionId or processDefinitionKey should be set to update the suspension state.',
    );
    expectError(
      noSelector,
      400,
      'InvalidRequestException',
      'Either jobId, jobDefinitionId, processInstanceId, processDefinitionId or processDefinitionKey should be set to update the suspension state.',
    );
    // The path's job counts as a selector; a jobId in the bulk body is refused.
    const [job] = await jobs({ processInstanceId: b });
    expectError(
      await rest.request('PUT', `/job/${job!.id}/suspended`, { json: { suspended: true, processInstanceId: b } }),
      400,
      'InvalidRequestException',
      'Only one of jobId, jobDefinitionId, processInstanceId, processDefinitionId or processDefinitionKey should be set to update the suspension state.',
    );
    expectError(
      await rest.request('PUT', '/job/suspended', { json: { suspended: true, jobId: job!.id } }),
      400,
      'InvalidRequestException',
      'Either jobDefinitionId, processInstanceId, processDefinitionId or processDefinitionKey can be set to update the suspension state.',
    );
  });

  it('sets the priority and the due date of a job', async () => {
    const a = await start();
    const b = await start();
    const jobA = await jobOf(a);
    const jobB = await jobOf(b);
    const due = new Date(rest.engine.clock.now().getTime() + 3 * 3600_000);

    const priority = await rest.request('PUT', `/job/${jobA.id}/priority`, { json: { priority: 7 } });
    const nullPriority = await rest.request('PUT', `/job/${jobA.id}/priority`, { json: {} });
    const unknownPriority = await rest.request('PUT', '/job/nope/priority', { json: { priority: 1 } });
    const high = await jobs({ priorityHigherThanOrEquals: 5 });
    const low = await jobs({ priorityLowerThanOrEquals: 5 });
    const byPriority = await jobs({ sortBy: 'jobPriority', sortOrder: 'desc' });
    const dueDate = await rest.request('PUT', `/job/${jobB.id}/duedate`, { json: { duedate: formatRestDate(due), cascade: false } });
    const unknownDueDate = await rest.request('PUT', '/job/nope/duedate', { json: { duedate: null } });
    const ran = await rest.engine.jobExecutor.runDueJobs();
    const afterRun = await rest.request('GET', `/job/${jobB.id}`);

    expect(priority.status).toBe(204);
    expectError(nullPriority, 400, 'RestException', `Priority for job '${jobA.id}' cannot be null.`);
    expectError(unknownPriority, 404, 'InvalidRequestException', "No job found with id 'nope': job is null");
    expect(high.map((job) => [job.id, job.priority])).toEqual([[jobA.id, 7]]);
    expect(low.map((job) => job.id)).toEqual([jobB.id]);
    expect(byPriority.map((job) => job.id)).toEqual([jobA.id, jobB.id]);
    expect(dueDate.status).toBe(204);
    expectError(unknownDueDate, 500, 'InvalidRequestException', "No job found with id 'nope'.");
    expect(ran).toBe(1);
    expect(afterRun.body.dueDate).toBe(formatRestDate(due));
    rest.engine.clock.set(due);
    // b's charge job, and a's boundary timer (due an hour after a's charge ran).
    expect(await rest.engine.jobExecutor.runDueJobs()).toBe(2);
    expect(charges).toBe(2);
  });

  it('recalculates a timer job\'s due date from now or from its creation; other jobs are refused', async () => {
    const instance = await start();
    await rest.engine.jobExecutor.runDueJobs(); // the charge runs; the boundary timer 'late' (PT1H) waits
    const timer = await jobOf(instance, 'late');
    const created = timer.createTime.getTime();
    rest.engine.clock.advance(30 * 60_000);

    const fromNow = await rest.request('POST', `/job/${timer.id}/duedate/recalculate`);
    const afterNow = await rest.request('GET', `/job/${timer.id}`);
    const fromCreation = await rest.request('POST', `/job/${timer.id}/duedate/recalculate`, { query: { creationDateBased: true } });
    const afterCreation = await rest.request('GET', `/job/${timer.id}`);
    const other = await start();
    const otherJob = await jobOf(other);
    const notATimer = await rest.request('POST', `/job/${otherJob.id}/duedate/recalculate`);
    const unknown = await rest.request('POST', '/job/nope/duedate/recalculate');
    await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.management.recalculateJobDuedate(timer.id, true));
    const logged = await rest.request('GET', '/history/user-operation', { query: { operationType: 'RecalculateDuedate', jobId: timer.id } });

    expect(fromNow.status).toBe(204);
    expect(afterNow.body.dueDate).toBe(formatRestDate(new Date(rest.engine.clock.now().getTime() + 3600_000)));
    expect(fromCreation.status).toBe(204);
    expect(afterCreation.body.dueDate).toBe(formatRestDate(new Date(created + 3600_000)));
    expect(notATimer.status).toBe(500);
    expect(notATimer.body).toEqual({ type: 'InvalidRequestException', message: `Only timer jobs can be recalculated, but the job with id '${otherJob.id}' is of type 'async-continuation'.`, code: null });
    // Camunda passes the engine's NotFoundException as the cause: its code shows.
    expect([unknown.status, unknown.body.code]).toEqual([404, 0]);
    expect(unknown.body.message).toBe("No job found with id 'nope': job is null");
    expect(logged.body.map((entry: { property: string; newValue: string }) => [entry.property, entry.newValue])).toEqual(
      expect.arrayContaining([['creationDateBased', 'true'], ['duedate', String(created + 3600_000)]]),
    );
  });

  it('deletes a job', async () => {
    const job = await jobOf(await start());
    const deleted = await rest.request('DELETE', `/job/${job.id}`);
    const gone = await rest.request('GET', `/job/${job.id}`);
    const again = await rest.request('DELETE', `/job/${job.id}`);

    expect(deleted.status).toBe(204);
    expect(gone.status).toBe(404);
    expectError(again, 404, 'InvalidRequestException', `No job found with id '${job.id}': job is null`);
  });
});

describe('jobs with authorization', () => {
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

  it('shows only jobs of readable instances and needs UPDATE to execute or change them', async () => {
    const visible = await start();
    await start();
    const job = await jobOf(visible);
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 8, resourceId: visible, permissions: ['READ'] });

    const list = await rest.request('GET', '/job', { headers: jonny });
    const count = await rest.request('GET', '/job/count', { headers: admin });
    // The engine API's own job search shows the caller the same jobs.
    const asJonny = { userId: 'jonny', groupIds: [], tenantIds: [] };
    const found = await rest.engine.runAs(asJonny, () => rest.engine.management.findJobs({ activityId: 'charge' }));
    const denied = await rest.request('POST', `/job/${job.id}/execute`, { headers: jonny });
    // Camunda's ExecuteJobsCmd hands the job to its failure collector before the check: the refusal costs a retry.
    const afterDenial = (await rest.request('GET', `/job/${job.id}`, { headers: admin })).body;
    const deniedRetries = await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: 5 }, headers: jonny });
    await grantMore(rest.engine, { userId: 'jonny' }, 6, 'billing', ['UPDATE_INSTANCE']);
    const allowed = await rest.request('POST', `/job/${job.id}/execute`, { headers: jonny });

    expect(list.body.map((each: JobBody) => each.id)).toEqual([job.id]);
    expect(found.map((each) => each.id)).toEqual([job.id]);
    expect(count.body).toEqual({ count: 2 });
    expect(denied.status).toBe(403);
    expect(afterDenial).toMatchObject({ retries: job.retries - 1, exceptionMessage: denied.body.message });
    expect(deniedRetries.status).toBe(403);
    expect(allowed.status).toBe(204);
    expect(charges).toBe(1);
  });

  it('suspends a job with UPDATE on its instance or UPDATE_INSTANCE on its definition, not with SUSPEND_INSTANCE', async () => {
    const job = await jobOf(await start());
    const suspend = () => rest.request('PUT', `/job/${job.id}/suspended`, { json: { suspended: true }, headers: jonny });

    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'billing', permissions: ['SUSPEND_INSTANCE'] });
    const denied = await suspend();
    // By definition: checked once on the definition's instances as a whole (an instance grant is not enough).
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 8, resourceId: job.processInstanceId!, permissions: ['UPDATE'] });
    const byKeyDenied = await rest.request('PUT', '/job/suspended', { json: { processDefinitionKey: 'billing', suspended: true }, headers: jonny });
    await grantMore(rest.engine, { userId: 'jonny' }, 6, 'billing', ['UPDATE_INSTANCE']);
    const allowed = await suspend();
    const byKey = await rest.request('PUT', '/job/suspended', { json: { processDefinitionKey: 'billing', suspended: false }, headers: jonny });

    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations.map((each: { permissionName: string }) => each.permissionName)).toEqual(['UPDATE', 'UPDATE_INSTANCE']);
    expect(byKeyDenied.status).toBe(403);
    expect(byKeyDenied.body.missingAuthorizations).toEqual([
      { permissionName: 'UPDATE', resourceName: 'ProcessInstance', resourceId: null },
      { permissionName: 'UPDATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'billing' },
    ]);
    expect(allowed.status).toBe(204);
    expect(byKey.status).toBe(204);
  });

  it('suspends a job definition with UPDATE on its process definition, its jobs too only with UPDATE_INSTANCE', async () => {
    const job = await jobOf(await start());
    const suspend = (includeJobs: boolean) =>
      rest.request('PUT', `/job-definition/${job.jobDefinitionId}/suspended`, { json: { suspended: true, includeJobs }, headers: jonny });
    const grantOnBilling = (permissions: string[]) =>
      grantMore(rest.engine, { userId: 'jonny' }, 6, 'billing', permissions);

    await grantOnBilling(['SUSPEND']);
    const withSuspend = await suspend(false);
    await grantOnBilling(['UPDATE']);
    const withUpdate = await suspend(false);
    const withJobs = await suspend(true);
    await grantOnBilling(['UPDATE_INSTANCE']);
    const withJobsAllowed = await suspend(true);

    expect(withSuspend.status).toBe(403);
    expect(withUpdate.status).toBe(204);
    expect(withJobs.status).toBe(403);
    expect(withJobs.body.missingAuthorizations).toEqual([
      { permissionName: 'UPDATE', resourceName: 'ProcessInstance', resourceId: null },
      { permissionName: 'UPDATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'billing' },
    ]);
    expect(withJobsAllowed.status).toBe(204);
  });

  it('checks job definition suspension by definition once, also when the definition has no job definitions', async () => {
    const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'plain.bpmn', bytes: Buffer.from(simpleProcessXml('plain')) }] });
    const byKey = () => rest.request('PUT', '/job-definition/suspended', { json: { processDefinitionKey: 'plain', suspended: true }, headers: jonny });
    const byId = () => rest.request('PUT', '/job-definition/suspended', { json: { processDefinitionId: processDefinitions![0].id, suspended: true }, headers: jonny });

    const [deniedByKey, deniedById] = [await byKey(), await byId()];
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'plain', permissions: ['UPDATE'] });

    expect(deniedByKey.status).toBe(403);
    expect(deniedByKey.body.missingAuthorizations).toEqual([{ permissionName: 'UPDATE', resourceName: 'ProcessDefinition', resourceId: 'plain' }]);
    expect(deniedById.status).toBe(403);
    expect((await byKey()).status).toBe(204);
    expect((await byId()).status).toBe(204);
  });

  it('shows batch jobs and their incidents to everyone: they belong to no process definition', async () => {
    const instance = await start();
    const batch = await rest.request('POST', '/process-instance/delete', { json: { processInstanceIds: [instance] }, headers: admin });
    const seed = (await rest.request('GET', `/job?jobDefinitionId=${batch.body.seedJobDefinitionId}`, { headers: admin })).body[0];
    await rest.request('PUT', `/job/${seed.id}/retries`, { json: { retries: 0 }, headers: admin });

    const jobs = await rest.request('GET', '/job', { headers: jonny });
    const incidents = await rest.request('GET', '/incident', { headers: jonny });

    expect(batch.status).toBe(200);
    expect(jobs.body.map((each: JobBody) => each.id)).toEqual([seed.id]);
    expect(incidents.body.map((each: { configuration: string }) => each.configuration)).toEqual([seed.id]);
  });
});
