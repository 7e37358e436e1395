import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException } from '../../src/errors/index.js';
import { createTestEngine } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const model = (taskName: string) =>
  wrap('batched', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" name="${taskName}" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />`);

async function setup(instances: number) {
  const engine = await createTestEngine();
  engines.push(engine);
  const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'batched.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
  const v1 = await deploy(model('Old'));
  const v2 = await deploy(model('New'));
  const ids: string[] = [];
  for (let i = 0; i < instances; i++) ids.push((await engine.runtime.startProcessInstanceById(v1)).id);
  const plan = { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [{ sourceActivityId: 'task', targetActivityId: 'task' }] };
  return { engine, v1, v2, ids, plan };
}

const jobsOf = async (engine: ProcessEngine, jobDefinitionId: string | null) => (await engine.management.findJobs({})).filter((job) => job.jobDefinitionId === jobDefinitionId);

describe('batches: asynchronous instance migration', () => {
  it('migrates 30 instances through seed, execution and monitor jobs, then removes the batch', async () => {
    const { engine, v2, ids, plan } = await setup(30);
    const changed: string[] = [];
    engine.events.on('batch.changed', ({ batchId }) => changed.push(batchId));

    const batch = await engine.batch.migrateAsync(plan, { processInstanceIds: ids });
    expect(batch).toMatchObject({ type: 'instance-migration', totalJobs: 30, jobsCreated: 0, batchJobsPerSeed: 100, invocationsPerBatchJob: 1, suspended: false, executionStartTime: null });
    expect(batch.seedJobDefinitionId).not.toBeNull();
    expect(changed).toEqual([batch.id]);
    expect(await engine.batch.count()).toBe(1);
    expect((await engine.batch.get(batch.id)).id).toBe(batch.id);
    const definitions = await engine.jobDefinition.findJobDefinitions({ jobConfiguration: batch.id });
    expect(definitions.map((each) => each.jobType).sort()).toEqual(['batch-monitor-job', 'batch-seed-job', 'instance-migration']);

    // The seed job creates all 30 execution jobs (fewer than 100 per seed) and the monitor job.
    const [seed] = await jobsOf(engine, batch.seedJobDefinitionId);
    await engine.jobExecutor.executeJobNow(seed!.id);
    let [stats] = await engine.batch.statistics({ batchId: batch.id });
    expect(stats).toMatchObject({ jobsCreated: 30, remainingJobs: 30, completedJobs: 0, failedJobs: 0 });
    const executionJobs = await jobsOf(engine, batch.batchJobDefinitionId);
    expect(executionJobs).toHaveLength(30);
    expect(executionJobs[0]).toMatchObject({ type: 'message', handlerType: 'instance-migration', processInstanceId: null });
    expect(await jobsOf(engine, batch.monitorJobDefinitionId)).toHaveLength(1);

    // One execution job: one instance moves, the execution start time is set.
    await engine.jobExecutor.executeJobNow(executionJobs[0]!.id);
    [stats] = await engine.batch.statistics({ batchId: batch.id });
    expect(stats).toMatchObject({ remainingJobs: 29, completedJobs: 1, failedJobs: 0 });
    expect(stats!.executionStartTime).toEqual(engine.clock.now());

    // The monitor finds execution jobs left and looks again 30 s later.
    const [monitor] = await jobsOf(engine, batch.monitorJobDefinitionId);
    await engine.jobExecutor.executeJobNow(monitor!.id);
    const [nextMonitor] = await jobsOf(engine, batch.monitorJobDefinitionId);
    expect(nextMonitor!.dueDate).toEqual(new Date(engine.clock.now().getTime() + 30_000));

    for (const job of executionJobs.slice(1)) await engine.jobExecutor.executeJobNow(job.id);
    for (const id of ids) expect((await engine.runtime.getProcessInstance(id))!.processDefinitionId).toBe(v2);
    expect(await engine.jobExecutor.runDueJobs()).toBe(0);
    [stats] = await engine.batch.statistics({ batchId: batch.id });
    // Completed but not yet seen by the monitor.
    expect(stats).toMatchObject({ remainingJobs: 0, completedJobs: 30 });

    engine.clock.advance(30_000);
    expect(await engine.jobExecutor.runDueJobs()).toBe(1);
    expect(await engine.batch.count()).toBe(0);
    expect(await engine.jobDefinition.findJobDefinitions({ jobConfiguration: batch.id })).toEqual([]);
    expect(await engine.management.findJobs({})).toEqual([]);
    expect(changed.at(-1)).toBe(batch.id);
  });

  it('stops while suspended and goes on once activated', async () => {
    const { engine, v2, ids, plan } = await setup(3);
    const batch = await engine.batch.migrateAsync(plan, { processInstanceIds: ids });
    await engine.batch.setSuspended(batch.id, true);
    expect(await engine.jobExecutor.runDueJobs()).toBe(0);
    expect((await engine.batch.get(batch.id)).suspended).toBe(true);
    expect((await engine.batch.statistics({ suspended: true })).map((each) => each.id)).toEqual([batch.id]);
    await engine.batch.setSuspended(batch.id, false);
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
    for (const id of ids) expect((await engine.runtime.getProcessInstance(id))!.processDefinitionId).toBe(v2);
    expect(await engine.batch.count()).toBe(0);
  });

  it('seeds in chunks of batchJobsPerSeed jobs with invocationsPerBatchJob ids each', async () => {
    const { engine, v2, ids, plan } = await setup(7);
    const batch = await engine.batch.migrateAsync(plan, { processInstanceIds: ids }, { batchJobsPerSeed: 2, invocationsPerBatchJob: 2 });
    expect(batch).toMatchObject({ totalJobs: 4, batchJobsPerSeed: 2, invocationsPerBatchJob: 2 });
    const [seed] = await jobsOf(engine, batch.seedJobDefinitionId);
    await engine.jobExecutor.executeJobNow(seed!.id);
    expect(await jobsOf(engine, batch.batchJobDefinitionId)).toHaveLength(2);
    expect(await jobsOf(engine, batch.seedJobDefinitionId)).toHaveLength(1);
    expect(await jobsOf(engine, batch.monitorJobDefinitionId)).toHaveLength(0);
    expect((await engine.batch.statistics())[0]).toMatchObject({ jobsCreated: 2, remainingJobs: 4, completedJobs: 0 });
    await engine.jobExecutor.runDueJobs();
    for (const id of ids) expect((await engine.runtime.getProcessInstance(id))!.processDefinitionId).toBe(v2);
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.batch.count()).toBe(0);
  });

  it('sets typed plan variables (a date, bytes) on every migrated instance as they were given', async () => {
    const { engine, ids, plan } = await setup(2);
    const at = new Date('2026-01-02T03:04:05.678Z');
    const variables = { at: { type: 'date', value: at }, blob: { type: 'bytes', value: Buffer.from([0, 1, 254, 255]) } } as never;
    const batch = await engine.batch.migrateAsync({ ...plan, variables }, { processInstanceIds: ids });
    // The batch keeps the plan variables as variables of its own until it completes.
    expect((await engine.variableInstance.findVariableInstances({ batchIdIn: [batch.id] })).map((each) => [each.name, each.batchId]).sort()).toEqual([['at', batch.id], ['blob', batch.id]]);
    for (let i = 0; i < 3; i++) await engine.jobExecutor.runDueJobs();
    for (const id of ids) {
      const stored = await engine.runtime.getVariables(id);
      expect(stored.at).toMatchObject({ type: 'date', value: at });
      expect(stored.blob).toMatchObject({ type: 'bytes' });
      expect(Buffer.from((stored.blob as { value: Uint8Array }).value)).toEqual(Buffer.from([0, 1, 254, 255]));
    }
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.batch.count()).toBe(0);
    expect(await engine.variableInstance.countVariableInstances({ batchIdIn: [batch.id] })).toBe(0);
  });

  it('keeps a batch with a failed execution job until the job is deleted', async () => {
    const { engine, ids, plan } = await setup(2);
    await engine.runtime.deleteProcessInstance(ids[1]!);
    const batch = await engine.batch.migrateAsync(plan, { processInstanceIds: ids });
    // Both given, Camunda's query keeps the one set last: withoutFailures (no job has failed yet).
    expect(await engine.batch.countStatistics({ withFailures: true, withoutFailures: true })).toBe(1);
    for (let i = 0; i < 4; i++) await engine.jobExecutor.runDueJobs();
    const [stats] = await engine.batch.statistics({ withFailures: true });
    expect(stats).toMatchObject({ id: batch.id, remainingJobs: 1, completedJobs: 1, failedJobs: 1 });
    expect(await engine.batch.countStatistics({ withoutFailures: true })).toBe(0);
    const [failed] = await jobsOf(engine, batch.batchJobDefinitionId);
    expect(failed!.retries).toBe(0);
    const incidents = (await engine.management.findIncidents({})).filter((each) => each.configuration === failed!.id);
    expect(incidents).toHaveLength(1);
    expect(incidents[0]).toMatchObject({ incidentType: 'failedJob', jobDefinitionId: batch.batchJobDefinitionId, processInstanceId: null });
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.batch.count()).toBe(1);
    await engine.management.deleteJob(failed!.id);
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.batch.count()).toBe(0);
  });

  it('rejects an empty selection and deletes a batch with its jobs', async () => {
    const { engine, ids, plan } = await setup(2);
    await expect(engine.batch.migrateAsync(plan, { processInstanceIds: [] })).rejects.toThrow(BadUserRequestException);
    await expect(engine.batch.migrateAsync(null, { processInstanceIds: ids })).rejects.toThrow('Migration plan cannot be null');
    const batch = await engine.batch.migrateAsync(plan, { processInstanceIds: ids });
    await engine.batch.delete(batch.id, true);
    expect(await engine.batch.count()).toBe(0);
    expect(await engine.management.findJobs({})).toEqual([]);
    await expect(engine.batch.delete(batch.id)).rejects.toThrow();
    await expect(engine.batch.get(batch.id)).rejects.toThrow(`Batch with id '${batch.id}' does not exist`);
  });
});
