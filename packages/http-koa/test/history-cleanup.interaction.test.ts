import { afterEach, describe, expect, it } from 'vitest';
import { FixedClock } from '@trellis/core';
import { formatRestDate } from '../src/dto/dates.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="order" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve" />
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const DAY = 86_400_000;
let rest: RestHarness;
afterEach(async () => rest?.close());

async function start(options: Parameters<typeof startRestHarness>[0] = {}) {
  rest = await startRestHarness(options);
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'order.bpmn', bytes: Buffer.from(MODEL) }] });
  const startOne = async () => (await rest.engine.runtime.startProcessInstanceById(processDefinitions![0].id)).id;
  const finish = async (id: string) => {
    const [task] = await rest.engine.task.findTasks({ processInstanceId: id });
    await rest.engine.task.complete(task!.id);
  };
  return { startOne, finish };
}

describe('the History Cleanup group', () => {
  it('schedules the cleanup job (JobDto), finds it, and its run removes only due history', async () => {
    const { startOne, finish } = await start();
    const done = await startOne();
    await finish(done);
    const running = await startOne();

    expect((await rest.request('GET', '/history/cleanup/job')).status).toBe(404);
    expect((await rest.request('GET', '/history/cleanup/job')).body).toEqual({ type: 'RestException', message: 'History cleanup job does not exist', code: null });
    expect((await rest.request('GET', '/history/cleanup/jobs')).body).toMatchObject({ message: 'History cleanup jobs are empty' });

    const ended = (await rest.request('GET', `/history/process-instance/${done}`)).body;
    expect(ended.removalTime).toBe(formatRestDate(new Date(rest.engine.clock.now().getTime() + 5 * DAY)));
    expect((await rest.request('GET', `/history/process-instance/${running}`)).body.removalTime).toBeNull();

    rest.engine.clock.advance(5 * DAY);
    const scheduled = await rest.request('POST', '/history/cleanup');
    expect(scheduled.status).toBe(200);
    expect(scheduled.body).toMatchObject({ dueDate: formatRestDate(rest.engine.clock.now()), suspended: false, processInstanceId: null, jobDefinitionId: null, batchId: null });
    expect((await rest.request('GET', '/history/cleanup/job')).body).toEqual(scheduled.body);
    expect((await rest.request('GET', '/history/cleanup/jobs')).body).toEqual([scheduled.body]);
    expect((await rest.request('GET', '/job', { query: { jobId: scheduled.body.id } })).body).toEqual([scheduled.body]);
    // A job without job definition logs its handler type as the definition type, as Camunda does.
    expect((await rest.request('GET', '/history/job-log', { query: { jobId: scheduled.body.id } })).body).toMatchObject([{ jobDefinitionType: 'history-cleanup', jobDefinitionId: null }]);

    // A successful run resets the retries (Camunda's EverLivingJobEntity.postExecute).
    await rest.request('PUT', `/job/${scheduled.body.id}/retries`, { json: { retries: 1 } });
    await rest.engine.jobExecutor.runDueJobs();
    expect((await rest.request('GET', `/history/process-instance/${done}`)).status).toBe(404);
    // What a run removed goes to the meter log at once (Camunda's history cleanup metrics).
    expect((await rest.request('GET', '/metrics/history-cleanup-removed-process-instances/sum')).body).toEqual({ result: 1 });
    expect((await rest.request('GET', `/history/process-instance/${running}`)).status).toBe(200);
    expect((await rest.request('GET', '/history/activity-instance', { query: { processInstanceId: running } })).body.length).toBeGreaterThan(0);
    expect((await rest.request('GET', '/history/activity-instance', { query: { processInstanceId: done } })).body).toEqual([]);
    // Same job, asleep until scheduled again: suspended, its due date kept (HistoryCleanupSchedulerCmd.suspendJob).
    expect((await rest.request('GET', '/history/cleanup/job')).body).toMatchObject({ id: scheduled.body.id, suspended: true, dueDate: scheduled.body.dueDate, retries: 3 });

    // Scheduling again revives a job that ran out of retries (Camunda's JobEntity.init): retries reset, incident resolved.
    await rest.request('PUT', `/job/${scheduled.body.id}/retries`, { json: { retries: 0 } });
    expect((await rest.request('GET', '/incident/count', { query: { incidentType: 'failedJob' } })).body).toEqual({ count: 1 });
    const revived = await rest.request('POST', '/history/cleanup');
    expect(revived.body).toMatchObject({ id: scheduled.body.id, retries: 3, suspended: false, dueDate: formatRestDate(rest.engine.clock.now()) });
    expect((await rest.request('GET', '/incident/count', { query: { incidentType: 'failedJob' } })).body).toEqual({ count: 0 });
    // Not immediately due without a batch window: the job there is gets suspended, as Camunda's HistoryCleanupCmd does.
    const suspended = await rest.request('POST', '/history/cleanup', { query: { immediatelyDue: 'false' } });
    expect(suspended.body).toMatchObject({ id: scheduled.body.id, suspended: true, dueDate: null });
  });

  it('logs CreateHistoryCleanupJobs for the caller', async () => {
    rest = await startRestHarness({}, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    const admin = { authorization: `Basic ${Buffer.from('admin:admin-secret').toString('base64')}` };

    await rest.request('POST', '/history/cleanup', { headers: admin });

    const entries = (await rest.request('GET', '/history/user-operation', { query: { operationType: 'CreateHistoryCleanupJobs' }, headers: admin })).body;
    expect(entries).toMatchObject([{ entityType: 'Job', category: 'Operator', property: 'immediatelyDue', newValue: 'true', userId: 'admin' }]);
  });

  it('immediatelyDue=false needs a batch window; the configuration reports the window', async () => {
    await start();
    const refused = await rest.request('POST', '/history/cleanup', { query: { immediatelyDue: 'false' } });
    expect(refused.status).toBe(400);
    expect(refused.body.type).toBe('BadUserRequestException');
    expect((await rest.request('GET', '/history/cleanup/configuration')).body).toEqual({ batchWindowStartTime: null, batchWindowEndTime: null, enabled: true });
    await rest.close();

    const clock = new FixedClock(new Date(2026, 0, 15, 10, 0));
    await start({ clock, historyCleanup: { batchWindowStartTime: '22:00', batchWindowEndTime: '23:30' } });
    const windowStart = formatRestDate(new Date(2026, 0, 15, 22, 0));
    expect((await rest.request('GET', '/history/cleanup/configuration')).body).toEqual({
      batchWindowStartTime: windowStart,
      batchWindowEndTime: formatRestDate(new Date(2026, 0, 15, 23, 30)),
      enabled: true,
    });
    // Scheduled for the window on engine start; not immediately due keeps it there, immediately due moves it to now.
    expect((await rest.request('GET', '/history/cleanup/job')).body.dueDate).toBe(windowStart);
    expect((await rest.request('POST', '/history/cleanup', { query: { immediatelyDue: 'false' } })).body.dueDate).toBe(windowStart);
    expect((await rest.request('POST', '/history/cleanup')).body.dueDate).toBe(formatRestDate(clock.now()));
  });
});

describe('POST /history/process-instance/set-removal-time', () => {
  it('creates a process-set-removal-time batch whose jobs set the removal time', async () => {
    const { startOne, finish } = await start();
    const id = await startOne();
    await finish(id);
    const response = await rest.request('POST', '/history/process-instance/set-removal-time', {
      json: { absoluteRemovalTime: '2030-01-01T00:00:00.000+0000', historicProcessInstanceIds: [id] },
    });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ type: 'process-set-removal-time', totalJobs: 1 });
    await rest.engine.jobExecutor.runDueJobs();
    rest.engine.clock.advance(30_000);
    await rest.engine.jobExecutor.runDueJobs();
    expect((await rest.request('GET', `/history/process-instance/${id}`)).body.removalTime).toBe(formatRestDate(new Date('2030-01-01T00:00:00.000Z')));

    const noMode = await rest.request('POST', '/history/process-instance/set-removal-time', { json: { historicProcessInstanceIds: [id] } });
    expect(noMode.status).toBe(400);
    expect(noMode.body).toMatchObject({ type: 'BadUserRequestException', message: 'removalTime is null' });
    const nothing = await rest.request('POST', '/history/process-instance/set-removal-time', { json: { clearedRemovalTime: true } });
    expect(nothing.body).toMatchObject({ type: 'BadUserRequestException', message: 'Neither query nor ids provided.' });
    const twoModes = await rest.request('POST', '/history/process-instance/set-removal-time', { json: { clearedRemovalTime: true, calculatedRemovalTime: true, historicProcessInstanceIds: [id] } });
    expect(twoModes.body).toMatchObject({ type: 'BadUserRequestException', message: 'The removal time modes are mutually exclusive: mode is not null' });
  });

  it('updateInChunks: one job per instance, updateChunkSize from 1 to 500 (checked before anything else)', async () => {
    const { startOne, finish } = await start();
    const ids = [await startOne(), await startOne()];
    for (const id of ids) await finish(id);
    const chunked = await rest.request('POST', '/history/process-instance/set-removal-time', {
      json: { clearedRemovalTime: true, historicProcessInstanceIds: ids, updateInChunks: true, updateChunkSize: 1 },
    });
    expect(chunked.status).toBe(200);
    expect(chunked.body).toMatchObject({ type: 'process-set-removal-time', totalJobs: 2, invocationsPerBatchJob: 1 });
    for (let i = 0; i < 2; i++) {
      await rest.engine.jobExecutor.runDueJobs();
      rest.engine.clock.advance(30_000);
    }
    for (const id of ids) expect((await rest.request('GET', `/history/process-instance/${id}`)).body.removalTime).toBeNull();

    for (const updateChunkSize of [0, 501]) {
      // Wrong in two ways (no selection either): the chunk size is what Camunda's builder refuses first.
      const refused = await rest.request('POST', '/history/process-instance/set-removal-time', { json: { clearedRemovalTime: true, updateChunkSize } });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ type: 'BadUserRequestException', message: 'The value for chunk size should be between 1 and 500' });
    }
    const notAnInteger = await rest.request('POST', '/history/process-instance/set-removal-time', { json: { clearedRemovalTime: true, historicProcessInstanceIds: ids, updateChunkSize: 'ten' } });
    expect(notAnInteger.status).toBe(400);
    expect(notAnInteger.body.type).toBe('InvalidRequestException');
  });
});
