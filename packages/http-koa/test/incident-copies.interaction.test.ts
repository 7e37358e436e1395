import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const process = (id: string, body: string) => `<bpmn:process id="${id}" isExecutable="true" camunda:historyTimeToLive="5">${body}</bpmn:process>`;
const caller = (id: string, called: string) =>
  process(
    id,
    `<bpmn:startEvent id="${id}Start" /><bpmn:sequenceFlow id="${id}F1" sourceRef="${id}Start" targetRef="${id}Call" />
     <bpmn:callActivity id="${id}Call" calledElement="${called}" /><bpmn:sequenceFlow id="${id}F2" sourceRef="${id}Call" targetRef="${id}End" />
     <bpmn:endEvent id="${id}End" />`,
  );
const callee = (id: string, work: string, element: string) =>
  process(
    id,
    `<bpmn:startEvent id="${id}Start" /><bpmn:sequenceFlow id="${id}F1" sourceRef="${id}Start" targetRef="${work}" />${element}
     <bpmn:sequenceFlow id="${id}F2" sourceRef="${work}" targetRef="${id}End" /><bpmn:endEvent id="${id}End" />`,
  );

// top calls middle calls jobChild (a job that fails); taskCaller calls taskChild (an external task, a scope of its own for its boundary timer).
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  ${caller('top', 'middle')}
  ${caller('middle', 'jobChild')}
  ${callee('jobChild', 'charge', '<bpmn:serviceTask id="charge" camunda:asyncBefore="true" camunda:expression="${missing}" />')}
  ${caller('taskCaller', 'taskChild')}
  ${callee(
    'taskChild',
    'pay',
    `<bpmn:serviceTask id="pay" camunda:type="external" camunda:topic="payments" />
     <bpmn:boundaryEvent id="payLate" attachedToRef="pay"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
     <bpmn:sequenceFlow id="lateF" sourceRef="payLate" targetRef="lateEnd" /><bpmn:endEvent id="lateEnd" />`,
  )}
</bpmn:definitions>`;

const get = async (path: string, query: Record<string, string | number | boolean> = {}) => (await rest.request('GET', path, { query })).body;
const start = async (key: string) => (await rest.request('POST', `/process-definition/key/${key}/start`, { json: {} })).body.id as string;
const calledBy = async (superProcessInstance: string) => (await get('/process-instance', { superProcessInstance }))[0].id as string;
/** Runtime or historic incidents, the original first, then each copy up the chain. */
const byChain = (incidents: any[]) => {
  const chain = [incidents.find((incident) => incident.causeIncidentId === incident.id)];
  for (let above; (above = incidents.find((incident) => incident.causeIncidentId === chain.at(-1).id && incident.id !== incident.causeIncidentId)); ) chain.push(above);
  expect(chain).toHaveLength(incidents.length);
  return chain;
};
/** What Camunda's createRecursiveIncidents leaves unset on a copy. */
const bareCopy = { incidentMessage: null, configuration: null, jobDefinitionId: null };

/** top → middle → jobChild, its job run until no retry is left. */
async function failJobChain() {
  const top = await start('top');
  const middle = await calledBy(top);
  const child = await calledBy(middle);
  for (let i = 0; i < 3; i++) await rest.engine.jobExecutor.runDueJobs();
  const [job] = await get('/job', { processInstanceId: child });
  return { top, middle, child, job };
}

/** taskCaller → taskChild, its external task fetched. */
async function lockExternalTask() {
  const parent = await start('taskCaller');
  const child = await calledBy(parent);
  const [task] = await rest.engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'payments', lockDuration: 60_000 }] });
  return { parent, child, taskId: task.id };
}

describe('incidents copied up the call chain', () => {
  beforeEach(async () => {
    rest = await startRestHarness();
    await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
  });
  afterEach(async () => rest.close());

  it('carry no message, configuration, job definition or history configuration; the original points at its last failure', async () => {
    const { top, middle, child, job } = await failJobChain();

    const [original, inMiddle, inTop] = byChain(await get('/incident'));
    const historic = byChain(await get('/history/incident'));
    const [lastFailure] = (await rest.request('POST', '/history/job-log', { json: { jobId: job.id, failureLog: true, sorting: [{ sortBy: 'jobRetries', sortOrder: 'asc' }] } })).body;

    expect(original).toMatchObject({ processInstanceId: child, activityId: 'charge', configuration: job.id, jobDefinitionId: job.jobDefinitionId, incidentMessage: expect.stringContaining('missing') });
    expect(inMiddle).toMatchObject({ ...bareCopy, processInstanceId: middle, activityId: 'middleCall', failedActivityId: 'middleCall', causeIncidentId: original.id, rootCauseIncidentId: original.id });
    expect(inTop).toMatchObject({ ...bareCopy, processInstanceId: top, activityId: 'topCall', causeIncidentId: inMiddle.id, rootCauseIncidentId: original.id });
    expect(lastFailure.jobRetries).toBe(1);
    expect(historic.map((incident) => [incident.id, incident.historyConfiguration])).toEqual([
      [original.id, lastFailure.id],
      [inMiddle.id, null],
      [inTop.id, null],
    ]);
    expect(historic.slice(1)).toEqual([expect.objectContaining(bareCopy), expect.objectContaining(bareCopy)]);
  });

  it('go with the job’s incident when it gets retries again', async () => {
    const { job } = await failJobChain();

    await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: 1 } });

    expect(await get('/incident')).toEqual([]);
    expect((await get('/history/incident')).map((incident: any) => incident.resolved)).toEqual([true, true, true]);
  });

  it('go with the job’s incident when the job is deleted', async () => {
    const { job } = await failJobChain();

    await rest.request('DELETE', `/job/${job.id}`);

    expect(await get('/incident')).toEqual([]);
    expect((await get('/history/incident')).map((incident: any) => incident.deleted)).toEqual([true, true, true]);
  });

  it('go when the failing activity is cancelled in the called instance, which goes on', async () => {
    const { taskId, child } = await lockExternalTask();
    await rest.request('POST', `/external-task/${taskId}/failure`, { json: { workerId: 'w', errorMessage: 'declined', retries: 0, retryTimeout: 0 } });
    const failing = (await get(`/process-instance/${child}/activity-instances`)).childActivityInstances[0].id;

    // Started again (a new task, no incident) and the failed one cancelled: its scope execution goes, the called instance stays.
    const instructions = [{ type: 'startBeforeActivity', activityId: 'pay' }, { type: 'cancel', activityInstanceId: failing }];
    const modified = await rest.request('POST', `/process-instance/${child}/modification`, { json: { instructions } });

    expect(modified.status).toBe(204);
    expect(await get('/process-instance/count')).toEqual({ count: 2 });
    expect(await get('/incident')).toEqual([]);
    expect((await get('/history/incident')).map((incident: any) => incident.deleted)).toEqual([true, true]);
  });

  it('of a failed external task: the original points at the failure log entry, the copy at none; retries resolve both', async () => {
    const { parent, child, taskId } = await lockExternalTask();
    await rest.request('POST', `/external-task/${taskId}/failure`, { json: { workerId: 'w', errorMessage: 'declined', retries: 0, retryTimeout: 0 } });

    const [original, copy] = byChain(await get('/incident'));
    const [historicOriginal, historicCopy] = byChain(await get('/history/incident'));
    const failures = await get('/history/external-task-log', { externalTaskId: taskId, failureLog: true });
    await rest.request('PUT', `/external-task/${taskId}/retries`, { json: { retries: 2 } });

    // Camunda's ExternalTaskEntity.createIncidentContext names no failed activity; a copy names its call activity (createRecursiveIncidents).
    expect(original).toMatchObject({ incidentType: 'failedExternalTask', processInstanceId: child, configuration: taskId, incidentMessage: 'declined', failedActivityId: null });
    expect(copy).toMatchObject({ ...bareCopy, incidentType: 'failedExternalTask', processInstanceId: parent, activityId: 'taskCallerCall', failedActivityId: 'taskCallerCall', causeIncidentId: original.id });
    expect(failures).toHaveLength(1);
    expect(historicOriginal).toMatchObject({ id: original.id, configuration: taskId, incidentMessage: 'declined', historyConfiguration: failures[0].id, failedActivityId: null });
    expect(historicCopy).toMatchObject({ ...bareCopy, id: copy.id, historyConfiguration: null });
    expect(await get('/incident')).toEqual([]);
    expect((await get('/history/incident')).map((incident: any) => incident.resolved)).toEqual([true, true]);
  });

  it('have no history configuration when retries are set to 0 by hand: no failure was logged in that command', async () => {
    const { taskId } = await lockExternalTask();
    await rest.request('PUT', `/external-task/${taskId}/retries`, { json: { retries: 0 } });
    const { job } = await failJobChain();
    await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: 1 } });
    await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: 0 } });

    const open = await get('/history/incident', { open: true });

    expect(open).toHaveLength(5);
    expect(open.map((incident: any) => incident.historyConfiguration)).toEqual([null, null, null, null, null]);
  });
});

describe('a failedExternalTask incident below history level full', () => {
  afterEach(async () => rest.close());

  it('writes neither the failure log entry nor the historic incident, as Camunda (both are level full)', async () => {
    rest = await startRestHarness({ historyLevel: 'audit' });
    await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
    const { taskId } = await lockExternalTask();

    await rest.request('POST', `/external-task/${taskId}/failure`, { json: { workerId: 'w', errorMessage: 'declined', retries: 0, retryTimeout: 0 } });

    expect(await get('/incident')).toHaveLength(2);
    expect(await get('/history/external-task-log')).toEqual([]);
    expect(await get('/history/incident')).toEqual([]);
  });
});
