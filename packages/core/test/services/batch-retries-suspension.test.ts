import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException, ProcessEngineException } from '../../src/errors/index.js';
import { createTestEngine, grantMore, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

type TestEngine = Awaited<ReturnType<typeof createTestEngine>>;
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → external task (topic "work") → timer (1 h) → user task → end. */
const MODEL = wrap(
  'retried',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
   <bpmn:serviceTask id="call" camunda:type="external" camunda:topic="work" />${flow('f2', 'call', 'wait')}
   <bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
   ${flow('f3', 'wait', 'review')}<bpmn:userTask id="review" />${flow('f4', 'review', 'end')}<bpmn:endEvent id="end" />`,
);

describe.each(testStoreConfigs())('retries and suspension batches on $name', (testStore) => {
  async function setup(instances: number, authorization = false) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), authorization: { enabled: authorization } });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'retried.bpmn', bytes: Buffer.from(MODEL) }] });
    const ids: string[] = [];
    for (let i = 0; i < instances; i++) ids.push((await engine.runtime.startProcessInstanceById(processDefinitions![0].id, { businessKey: `bk${i}` })).id);
    return { engine, ids };
  }

  /** Runs the batch's seed, execution and monitor jobs; the monitor removes it on its next look. */
  async function runBatch(engine: TestEngine) {
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
  }

  /** Completes every external task, so that the instances wait at their timers. */
  async function toTimers(engine: ProcessEngine) {
    const locked = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 100, topics: [{ topicName: 'work', lockDuration: 60_000 }] });
    for (const task of locked) await engine.externalTask.complete(task.id, 'w');
    return (await engine.management.findJobs({})).filter((job) => job.processInstanceId !== null);
  }

  it('set-external-task-retries sets retries by ids, instances and queries, with incidents', async () => {
    const { engine, ids } = await setup(3);
    const [task] = await engine.externalTask.findExternalTasks({ processInstanceId: ids[0]! });
    const batch = await engine.asyncRetries.setExternalTaskRetriesAsync(
      { externalTaskIds: [task!.id], processInstanceIds: [ids[1]!], processInstanceQuery: { businessKey: 'bk2' } },
      0,
    );
    expect(batch).toMatchObject({ type: 'set-external-task-retries', totalJobs: 3, jobsCreated: 0, invocationsPerBatchJob: 1, batchJobsPerSeed: 100 });
    // Nothing changes before the batch jobs run.
    expect((await engine.externalTask.findExternalTasks({})).map((task) => task.retries)).toEqual([null, null, null]);

    await runBatch(engine);
    expect((await engine.externalTask.findExternalTasks({})).map((task) => task.retries)).toEqual([0, 0, 0]);
    expect(await engine.management.countIncidents({ incidentType: 'failedExternalTask' })).toBe(3);
    expect(await engine.batch.count()).toBe(0);

    await engine.asyncRetries.setExternalTaskRetriesAsync({ externalTaskQuery: { topicName: 'work' } }, 2);
    await runBatch(engine);
    expect((await engine.externalTask.findExternalTasks({})).map((task) => task.retries)).toEqual([2, 2, 2]);
    expect(await engine.management.countIncidents({})).toBe(0);
  });

  it('set-external-task-retries answers an empty selection and null ids with Camunda messages', async () => {
    const { engine } = await setup(1);
    await expect(engine.asyncRetries.setExternalTaskRetriesAsync({ externalTaskIds: [] }, 1)).rejects.toThrow(
      new BadUserRequestException('externalTaskIds is empty'),
    );
    await expect(engine.asyncRetries.setExternalTaskRetriesAsync({ externalTaskQuery: { topicName: 'none' } }, 1)).rejects.toThrow('externalTaskIds is empty');
    await expect(engine.asyncRetries.setExternalTaskRetriesAsync({ externalTaskIds: [null] }, 1)).rejects.toThrow(
      'External task id cannot be null: externalTaskIds contains null value',
    );
    expect(await engine.batch.count()).toBe(0);
  });

  it('set-external-task-retries: an unknown task or negative retries fail the execution job, as in Camunda', async () => {
    const { engine } = await setup(1);
    const batch = await engine.asyncRetries.setExternalTaskRetriesAsync({ externalTaskIds: ['missing'] }, 1);
    for (let i = 0; i < 4; i++) await engine.jobExecutor.runDueJobs();
    const [failed] = (await engine.management.findJobs({})).filter((job) => job.jobDefinitionId === batch.batchJobDefinitionId);
    expect(failed).toMatchObject({ retries: 0, exceptionMessage: 'Cannot find external task with id missing: externalTask is null' });
  });

  it('set-job-retries sets retries by job ids and job query, opening and resolving failedJob incidents', async () => {
    const { engine } = await setup(2);
    const [first, second] = await toTimers(engine);
    const batch = await engine.asyncRetries.setJobRetriesAsync({ jobIds: [first!.id], jobQuery: { jobId: second!.id } }, 0);
    expect(batch).toMatchObject({ type: 'set-job-retries', totalJobs: 2 });
    await runBatch(engine);
    const timers = () => engine.management.findJobs({}).then((jobs) => jobs.filter((job) => job.processInstanceId !== null));
    expect((await timers()).map((job) => job.retries)).toEqual([0, 0]);
    expect(await engine.management.countIncidents({ incidentType: 'failedJob' })).toBe(2);
    expect(await engine.batch.count()).toBe(0);

    const dueDate = new Date(engine.clock.now().getTime() + 7_200_000);
    await engine.asyncRetries.setJobRetriesAsync({ jobIds: [first!.id, second!.id] }, 5, dueDate);
    await runBatch(engine);
    expect((await timers()).map((job) => [job.retries, job.dueDate])).toEqual([
      [5, dueDate],
      [5, dueDate],
    ]);
    expect(await engine.management.countIncidents({})).toBe(0);
  });

  it('set-job-retries selects the jobs of given and queried process instances', async () => {
    const { engine, ids } = await setup(3);
    await toTimers(engine);
    const batch = await engine.asyncRetries.setJobRetriesAsync({ processInstanceIds: [ids[0]!], processInstanceQuery: { businessKey: 'bk1' } }, 7);
    expect(batch.totalJobs).toBe(2);
    await runBatch(engine);
    const byInstance = new Map((await engine.management.findJobs({})).map((job) => [job.processInstanceId, job.retries]));
    expect([byInstance.get(ids[0]!), byInstance.get(ids[1]!), byInstance.get(ids[2]!)]).toEqual([7, 7, 3]);
  });

  it('set-job-retries answers an empty selection and negative retries with Camunda messages', async () => {
    const { engine, ids } = await setup(1);
    await expect(engine.asyncRetries.setJobRetriesAsync({ jobIds: [] }, 1)).rejects.toThrow('ENGINE-13050 You must specify at least one of jobIds or jobQuery.');
    await expect(engine.asyncRetries.setJobRetriesAsync({ jobQuery: { jobId: 'nope' } }, 1)).rejects.toThrow(new BadUserRequestException('jobIds is empty'));
    // The instance waits at its external task: it has no job.
    await expect(engine.asyncRetries.setJobRetriesAsync({ processInstanceIds: ids }, 1)).rejects.toThrow('jobIds is empty');
    const [job] = await toTimers(engine);
    const negative = await engine.asyncRetries.setJobRetriesAsync({ jobIds: [job!.id] }, -1).catch((error: unknown) => error);
    expect(negative).toBeInstanceOf(ProcessEngineException);
    expect(negative).not.toBeInstanceOf(BadUserRequestException);
    expect(negative).toMatchObject({ message: 'Retries count is not greater than or equal to 0' });
  });

  it("suspends a job by id after the tenant check on its process instance, as Camunda's AbstractSetJobStateCmd", async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ tenantId: 'acme', resources: [{ name: 'retried.bpmn', bytes: Buffer.from(MODEL) }] });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const [job] = await toTimers(engine);
    const as = (tenantIds: string[]) => <T>(work: () => Promise<T>) => engine.runAs({ userId: 'u', groupIds: [], tenantIds }, work);

    await expect(as(['other'])(() => engine.management.updateJobSuspensionState({ jobId: job!.id }, true))).rejects.toThrow(
      `ENGINE-13034 Cannot update the process instance '${instance.id}' because it belongs to no authenticated tenant.`,
    );
    expect((await engine.management.getJob(job!.id))!.suspended).toBe(false);
    await as(['acme'])(() => engine.management.updateJobSuspensionState({ jobId: job!.id }, true));
    expect((await engine.management.getJob(job!.id))!.suspended).toBe(true);
  });

  it('instance-update-suspension-state suspends and activates instances by ids and query', async () => {
    const { engine, ids } = await setup(3);
    const batch = await engine.asyncRetries.updateSuspensionStateAsync({ processInstanceIds: [ids[0]!], processInstanceQuery: { businessKey: 'bk1' } }, true);
    expect(batch).toMatchObject({ type: 'instance-update-suspension-state', totalJobs: 2 });
    expect(await engine.runtime.countProcessInstances({ suspended: true })).toBe(0);
    await runBatch(engine);
    const suspended = async () => (await engine.runtime.findProcessInstances({ suspended: true })).map((each) => each.id).sort();
    expect(await suspended()).toEqual([ids[0]!, ids[1]!].sort());
    expect(await engine.batch.count()).toBe(0);

    await engine.asyncRetries.updateSuspensionStateAsync({ processInstanceQuery: { suspended: true } }, false);
    await runBatch(engine);
    expect(await suspended()).toEqual([]);
  });

  it('instance-update-suspension-state answers an empty selection and null ids with Camunda messages', async () => {
    const { engine, ids } = await setup(1);
    await expect(engine.asyncRetries.updateSuspensionStateAsync({ processInstanceIds: [] }, true)).rejects.toThrow(
      new BadUserRequestException('No process instance ids given: process Instance Ids is empty'),
    );
    await expect(engine.asyncRetries.updateSuspensionStateAsync({ processInstanceIds: [ids[0]!, null] }, true)).rejects.toThrow(
      'Cannot be null.: Process Instance ids contains null value',
    );
  });

  it('creating needs BATCH CREATE or the type CREATE_BATCH_* permission', async () => {
    const { engine, ids } = await setup(1, true);
    const asMia = <T>(work: () => Promise<T>) => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, work);
    const grant = (permissions: string[]) =>
      grantMore(engine, { userId: 'mia' }, 13, '*', permissions);
    const suspend = () => asMia(() => engine.asyncRetries.updateSuspensionStateAsync({ processInstanceIds: ids }, true));
    const denied = await suspend().catch((error: unknown) => error);
    expect(denied).toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [
        { permissionName: 'CREATE_BATCH_UPDATE_PROCESS_INSTANCES_SUSPEND', resourceName: 'Batch' },
        { permissionName: 'CREATE', resourceName: 'Batch' },
      ],
    });
    await grant(['CREATE_BATCH_UPDATE_PROCESS_INSTANCES_SUSPEND']);
    expect((await suspend()).type).toBe('instance-update-suspension-state');
    await expect(asMia(() => engine.asyncRetries.setExternalTaskRetriesAsync({ processInstanceIds: ids }, 1))).rejects.toMatchObject({
      name: 'AuthorizationException',
    });
    await grant(['CREATE']);
    expect((await asMia(() => engine.asyncRetries.setExternalTaskRetriesAsync({ processInstanceIds: ids }, 1))).type).toBe('set-external-task-retries');
  });
});
