import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { HistoryLevel } from '../../src/history/history-level.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const failingJob = wrap(
  'failing',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}
   <bpmn:serviceTask id="work" camunda:asyncBefore="true" camunda:expression="\${missing}" />${flow('f2', 'work', 'end')}
   <bpmn:endEvent id="end" />`,
);
const externalTask = wrap(
  'paying',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'pay')}
   <bpmn:serviceTask id="pay" camunda:type="external" camunda:topic="payments" />${flow('f2', 'pay', 'end')}
   <bpmn:endEvent id="end" />`,
);

const guardedTask = wrap(
  'guarded',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}
   <bpmn:userTask id="review" />${flow('f2', 'review', 'end')}
   <bpmn:boundaryEvent id="late" attachedToRef="review"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
   ${flow('f3', 'late', 'lateEnd')}<bpmn:endEvent id="lateEnd" />
   <bpmn:endEvent id="end" />`,
);

describe.each(testStoreConfigs())('incident and log history on $name', (testStore) => {
  async function engineWith(historyLevel: HistoryLevel, xml: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), historyLevel });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(xml) }] });
    return { engine, definition: processDefinitions![0] };
  }

  it('logs a job’s creation, failures and success and keeps its incident with resolved state', async () => {
    const { engine, definition } = await engineWith('full', failingJob);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    await engine.jobExecutor.runDueJobs();
    const [job] = await engine.management.findJobs({ processInstanceId: instance.id });

    const [open] = await engine.history.incidents.find({ processInstanceId: instance.id });
    expect(open).toMatchObject({ incidentType: 'failedJob', configuration: job.id, open: true, resolved: false, endTime: null, processDefinitionKey: 'failing' });

    await engine.runtime.modifyVariables(instance.id, { missing: { type: 'string', value: 'x', valueInfo: {} } });
    await engine.management.setJobRetries(job.id, 1);
    const [resolved] = await engine.history.incidents.find({ processInstanceId: instance.id });
    expect(resolved).toMatchObject({ id: open.id, open: false, resolved: true, deleted: false });
    expect(resolved.endTime).toBeInstanceOf(Date);

    const logs = await engine.history.logs.findJobLogs({ jobId: job.id, sorting: [{ sortBy: 'occurrence', sortOrder: 'asc' }] });
    // A failure entry carries the retries the failed attempt had (Camunda logs it before its retry command runs).
    expect(logs.map((log) => [log.creationLog, log.failureLog, log.jobRetries])).toEqual([
      [true, false, 3],
      [false, true, 3],
      [false, true, 2],
      [false, true, 1],
    ]);
    expect(logs[1]).toMatchObject({ jobDefinitionType: 'async-continuation', jobDefinitionConfiguration: 'async-before', activityId: 'work', failedActivityId: 'work' });
    expect(logs[3].jobExceptionMessage).toBeTruthy();
    expect(open.historyConfiguration).toBe(logs[3].id);
    expect(await engine.history.logs.getJobLogStacktrace(logs[3].id)).toContain(logs[3].jobExceptionMessage!);
    expect(await engine.history.logs.countJobLogs({ failureLog: true, processInstanceId: instance.id })).toBe(3);

    await engine.jobExecutor.runDueJobs();
    // The success entry carries the activity the job failed in before (Camunda copies the job's failedActivityId).
    expect(await engine.history.logs.findJobLogs({ jobId: job.id, successLog: true })).toMatchObject([{ jobRetries: 1, processDefinitionKey: 'failing', failedActivityId: 'work' }]);
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: instance.id }))[0].state).toBe('COMPLETED');
  });

  it('marks incidents deleted when their instance is deleted, and deleting the history removes them', async () => {
    const { engine, definition } = await engineWith('full', failingJob);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    await engine.jobExecutor.runDueJobs();

    await engine.runtime.deleteProcessInstance(instance.id);

    const [incident] = await engine.history.incidents.find({ processInstanceId: instance.id });
    expect(incident).toMatchObject({ open: false, deleted: true });
    expect(await engine.history.logs.findJobLogs({ processInstanceId: instance.id, deletionLog: true })).toMatchObject([{ jobRetries: 0, activityId: 'work' }]);
    await engine.history.deleteHistoricProcessInstance(instance.id);
    expect(await engine.history.incidents.count({ processInstanceId: instance.id })).toBe(0);
    expect(await engine.history.logs.countJobLogs({ processInstanceId: instance.id })).toBe(0);
  });

  it('logs an external task’s creation, failure and success, and its incident', async () => {
    const { engine, definition } = await engineWith('full', externalTask);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const [task] = await engine.externalTask.fetchAndLock({ workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'payments', lockDuration: 1000 }] });
    await engine.externalTask.handleFailure(task.id, { workerId: 'w1', errorMessage: 'card declined', errorDetails: 'stack…', retries: 0, retryTimeout: 0 });
    expect(await engine.history.incidents.find({ open: true })).toMatchObject([{ incidentType: 'failedExternalTask', configuration: task.id }]);
    await engine.externalTask.setRetries(task.id, 1);
    await engine.externalTask.fetchAndLock({ workerId: 'w2', maxTasks: 1, topics: [{ topicName: 'payments', lockDuration: 1000 }] });
    await engine.externalTask.complete(task.id, 'w2');

    const logs = await engine.history.logs.findExternalTaskLogs({ externalTaskId: task.id, sorting: [{ sortBy: 'timestamp', sortOrder: 'asc' }] });
    const byKind = (kind: 'creationLog' | 'failureLog' | 'successLog') => logs.filter((log) => log[kind]);
    expect(logs).toHaveLength(3);
    expect(byKind('creationLog')[0]).toMatchObject({ topicName: 'payments', workerId: null, processInstanceId: instance.id, activityId: 'pay', rootProcessInstanceId: instance.id });
    // The retries the task had when it failed: none yet (Camunda logs the failure before it sets the new retries).
    expect(byKind('failureLog')[0]).toMatchObject({ workerId: 'w1', errorMessage: 'card declined', retries: null });
    expect(byKind('successLog')[0]).toMatchObject({ workerId: 'w2' });
    expect(await engine.history.logs.getExternalTaskLogErrorDetails(byKind('failureLog')[0].id)).toBe('stack…');
    expect(await engine.history.incidents.find({ resolved: true })).toHaveLength(1);
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: instance.id }))[0].state).toBe('COMPLETED');
  });

  it('logs the deletion of a timer job that goes with its activity', async () => {
    const { engine, definition } = await engineWith('full', guardedTask);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });

    await engine.task.complete(task.id);

    const logs = await engine.history.logs.findJobLogs({ processInstanceId: instance.id, sorting: [{ sortBy: 'occurrence', sortOrder: 'asc' }] });
    expect(logs.map((log) => [log.creationLog, log.deletionLog, log.activityId])).toEqual([
      [true, false, 'late'],
      [false, true, 'late'],
    ]);
  });

  it('logs an external task deleted by a BPMN error and annotations reach the historic incident', async () => {
    const { engine, definition } = await engineWith('full', externalTask);
    await engine.runtime.startProcessInstanceById(definition.id);
    const [task] = await engine.externalTask.fetchAndLock({ workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'payments', lockDuration: 1000 }] });
    await engine.externalTask.handleFailure(task.id, { workerId: 'w1', errorMessage: 'down', retries: 0, retryTimeout: 0 });
    const [incident] = await engine.history.incidents.find();

    await engine.management.setIncidentAnnotation(incident.id, 'looking into it');
    await engine.externalTask.handleBpmnError(task.id, 'w1', 'E1');

    // Camunda's ExternalTaskEntity.delete: the incident goes with its task, deleted rather than resolved.
    expect(await engine.history.incidents.find()).toMatchObject([{ id: incident.id, annotation: 'looking into it', resolved: false, deleted: true }]);
    expect(await engine.history.logs.findExternalTaskLogs({ deletionLog: true })).toMatchObject([{ externalTaskId: task.id, workerId: 'w1' }]);
  });

  it('removes a definition’s historic incidents and logs with a cascading definition delete', async () => {
    const { engine, definition } = await engineWith('full', failingJob);
    await engine.runtime.startProcessInstanceById(definition.id);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.history.incidents.count({ processDefinitionId: definition.id })).toBe(1);

    await engine.processDefinition.deleteProcessDefinition(definition.id, { cascade: true });

    expect(await engine.history.incidents.count({ processDefinitionId: definition.id })).toBe(0);
    expect(await engine.history.logs.countJobLogs({ processDefinitionId: definition.id })).toBe(0);
  });

  it('logs batch jobs with their batch and removes their log with a cascading batch delete', async () => {
    const { engine, definition } = await engineWith('full', guardedTask);
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const batch = await engine.instanceBatches.deleteProcessInstancesAsync({ processInstanceIds: [instance.id] });
    await engine.jobExecutor.runDueJobs();

    const logs = await engine.history.logs.findJobLogs({ jobDefinitionId: batch.seedJobDefinitionId! });
    expect(logs.filter((log) => log.successLog)).toMatchObject([{ batchId: batch.id, jobDefinitionType: 'batch-seed-job', processInstanceId: null }]);
    expect(await engine.history.logs.countJobLogs({ jobDefinitionId: batch.batchJobDefinitionId!, successLog: true })).toBe(1);

    await engine.historicBatches.delete(batch.id);
    expect(await engine.history.logs.countJobLogs({ jobDefinitionId: batch.seedJobDefinitionId! })).toBe(0);
  });

  it.each(['none', 'activity', 'audit'] as const)('writes no incidents or logs at level %s', async (level) => {
    const { engine, definition } = await engineWith(level, failingJob);
    await engine.runtime.startProcessInstanceById(definition.id);
    await engine.jobExecutor.runDueJobs();

    expect(await engine.management.findJobs({})).toHaveLength(1);
    expect(await engine.history.incidents.count()).toBe(0);
    expect(await engine.history.logs.countJobLogs()).toBe(0);
  });
});
