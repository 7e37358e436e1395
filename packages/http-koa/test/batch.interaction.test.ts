import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const model = (taskName: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="order" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve" name="${taskName}" />
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

let rest: RestHarness;
let v1: string;
let v2: string;
let ids: string[];
beforeEach(async () => {
  rest = await startRestHarness();
  const deploy = async (xml: string) => (await rest.engine.deployment.deploy({ resources: [{ name: 'order.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
  v1 = await deploy(model('Approve'));
  v2 = await deploy(model('Approve order'));
  ids = [];
  for (let i = 0; i < 5; i++) ids.push((await rest.engine.runtime.startProcessInstanceById(v1)).id);
});
afterEach(async () => rest.close());

const plan = () => ({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [{ sourceActivityIds: ['approve'], targetActivityIds: ['approve'] }] });

describe('the Batch group with asynchronous migration', () => {
  it('creates a migration batch, reports it and its statistics, and removes it once done', async () => {
    const created = await rest.request('POST', '/migration/executeAsync', { json: { migrationPlan: plan(), processInstanceIds: ids } });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'instance-migration', totalJobs: 5, jobsCreated: 0, batchJobsPerSeed: 100, invocationsPerBatchJob: 1, suspended: false, createUserId: null, executionStartTime: null });
    const batchId = created.body.id as string;

    expect((await rest.request('GET', '/batch')).body.map((each: { id: string }) => each.id)).toEqual([batchId]);
    expect((await rest.request('GET', '/batch/count', { query: { type: 'instance-migration' } })).body).toEqual({ count: 1 });
    expect((await rest.request('GET', '/batch/count', { query: { type: 'instance-deletion' } })).body).toEqual({ count: 0 });
    expect((await rest.request('GET', `/batch/${batchId}`)).body).toEqual(created.body);
    // A batch's job definitions serve no process (Camunda's BatchEntity leaves those fields unset).
    const seedDefinition = (await rest.request('GET', `/job-definition/${created.body.seedJobDefinitionId}`)).body;
    expect(seedDefinition).toMatchObject({ processDefinitionId: null, processDefinitionKey: null, activityId: null, jobType: 'batch-seed-job', jobConfiguration: batchId });
    expect((await rest.request('GET', '/job-definition/count', { query: { processDefinitionId: batchId } })).body).toEqual({ count: 0 });
    const statistics = await rest.request('GET', '/batch/statistics');
    expect(statistics.body).toEqual([{ ...created.body, remainingJobs: 5, completedJobs: 0, failedJobs: 0 }]);
    expect((await rest.request('GET', '/batch/statistics/count', { query: { withFailures: 'true' } })).body).toEqual({ count: 0 });

    const jobsOf = async (jobDefinitionId: string) => (await rest.request('GET', '/job', { query: { jobDefinitionId } })).body as Array<{ id: string }>;
    const [seed] = await jobsOf(created.body.seedJobDefinitionId);
    expect((await rest.request('POST', `/job/${seed!.id}/execute`)).status).toBe(204);
    const executionJobs = await jobsOf(created.body.batchJobDefinitionId);
    expect(executionJobs).toHaveLength(5);
    for (const job of executionJobs) expect((await rest.request('POST', `/job/${job.id}/execute`)).status).toBe(204);
    const done = await rest.request('GET', '/batch/statistics');
    expect(done.body[0]).toMatchObject({ jobsCreated: 5, remainingJobs: 0, completedJobs: 5, failedJobs: 0 });
    expect(done.body[0].executionStartTime).not.toBeNull();
    for (const id of ids) expect((await rest.engine.runtime.getProcessInstance(id))!.processDefinitionId).toBe(v2);

    // The monitor job (due at once) sees no execution job left and removes the batch.
    expect(await jobsOf(created.body.monitorJobDefinitionId)).toHaveLength(1);
    await rest.engine.jobExecutor.runDueJobs();
    expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
    const gone = await rest.request('GET', `/batch/${batchId}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ type: 'InvalidRequestException', message: `Batch with id '${batchId}' does not exist` });
  });

  it('suspends, activates and deletes a batch; unknown ids give Camunda 400s', async () => {
    const { body: batch } = await rest.request('POST', '/migration/executeAsync', { json: { migrationPlan: plan(), processInstanceIds: ids } });
    expect((await rest.request('PUT', `/batch/${batch.id}/suspended`, { json: { suspended: true } })).status).toBe(204);
    expect((await rest.request('GET', '/batch', { query: { suspended: 'true' } })).body).toHaveLength(1);
    expect(await rest.engine.jobExecutor.runDueJobs()).toBe(0);
    expect((await rest.request('PUT', `/batch/${batch.id}/suspended`, { json: { suspended: false } })).status).toBe(204);
    expect((await rest.request('GET', '/batch', { query: { suspended: 'true' } })).body).toHaveLength(0);
    // Activating an active batch is logged too, as in Camunda.
    await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.batch.setSuspended(batch.id, false));
    const logged = await rest.request('GET', '/history/user-operation', { query: { operationType: 'ActivateBatch' } });
    expect(logged.body.map((entry: { userId: string; batchId: string }) => [entry.userId, entry.batchId])).toEqual([['demo', batch.id]]);

    expect((await rest.request('DELETE', `/batch/${batch.id}`, { query: { cascade: 'TRUE' } })).status).toBe(204);
    expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
    // cascade (a JAX-RS boolean: any case) took the historic batch along.
    expect((await rest.request('GET', '/history/batch', { query: { batchId: batch.id } })).body).toEqual([]);
    expect(await rest.engine.jobExecutor.runDueJobs()).toBe(0);

    const suspend = await rest.request('PUT', '/batch/nope/suspended', { json: { suspended: true } });
    expect(suspend.status).toBe(400);
    expect(suspend.body).toMatchObject({ type: 'InvalidRequestException', message: "Unable to suspend batch with id 'nope'", code: 0 });
    const activate = await rest.request('PUT', '/batch/nope/suspended', { json: { suspended: false } });
    expect(activate.body.message).toBe("Unable to activate batch with id 'nope'");
    const deleted = await rest.request('DELETE', '/batch/nope');
    expect(deleted.status).toBe(400);
    expect(deleted.body.message).toBe("Unable to delete batch with id 'nope'");
  });

  it('rejects an empty selection and a missing plan as Camunda does', async () => {
    const empty = await rest.request('POST', '/migration/executeAsync', { json: { migrationPlan: plan(), processInstanceIds: [] } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Process instance ids cannot empty: process instance ids is empty');
    const noPlan = await rest.request('POST', '/migration/executeAsync', { json: { processInstanceIds: ids } });
    expect(noPlan.status).toBe(400);
    expect(noPlan.body.message).toBe('Migration plan cannot be null: migration plan is null');
  });
});

describe('the jobs of a batch and their job definitions', () => {
  const jobsOf = async (jobDefinitionId: string) =>
    (await rest.request('GET', '/job', { query: { jobDefinitionId } })).body as Array<{ id: string; priority: number; suspended: boolean }>;

  it("take their job definition's overriding priority and suspension (Camunda's JobDeclaration)", async () => {
    const { body: batch } = await rest.request('POST', '/migration/executeAsync', { json: { migrationPlan: plan(), processInstanceIds: ids } });
    expect((await rest.request('PUT', `/job-definition/${batch.batchJobDefinitionId}/jobPriority`, { json: { priority: 42 } })).status).toBe(204);
    expect((await rest.request('PUT', `/job-definition/${batch.monitorJobDefinitionId}/jobPriority`, { json: { priority: 7 } })).status).toBe(204);
    expect((await rest.request('PUT', `/job-definition/${batch.batchJobDefinitionId}/suspended`, { json: { suspended: true } })).status).toBe(204);
    const [seed] = await jobsOf(batch.seedJobDefinitionId);
    expect((await rest.request('POST', `/job/${seed!.id}/execute`)).status).toBe(204);
    const executionJobs = await jobsOf(batch.batchJobDefinitionId);
    expect(executionJobs.map((job) => [job.priority, job.suspended])).toEqual(Array(5).fill([42, true]));
    expect((await jobsOf(batch.monitorJobDefinitionId)).map((job) => [job.priority, job.suspended])).toEqual([[7, false]]);
  });

  it('are activated with the batch also when the batch is active already (AbstractSetBatchStateCmd)', async () => {
    const { body: batch } = await rest.request('POST', '/migration/executeAsync', { json: { migrationPlan: plan(), processInstanceIds: ids } });
    const suspendSeed = await rest.request('PUT', `/job-definition/${batch.seedJobDefinitionId}/suspended`, { json: { suspended: true, includeJobs: true } });
    expect(suspendSeed.status).toBe(204);
    expect((await jobsOf(batch.seedJobDefinitionId)).map((job) => job.suspended)).toEqual([true]);
    expect((await rest.request('PUT', `/batch/${batch.id}/suspended`, { json: { suspended: false } })).status).toBe(204);
    expect((await jobsOf(batch.seedJobDefinitionId)).map((job) => job.suspended)).toEqual([false]);
    expect((await rest.request('GET', `/job-definition/${batch.seedJobDefinitionId}`)).body.suspended).toBe(false);
    expect((await rest.request('GET', `/batch/${batch.id}`)).body.suspended).toBe(false);
  });

  it('are deleted with the batch as JobEntity.delete does: logged, their failedJob incidents deleted', async () => {
    const { body: batch } = await rest.request('POST', '/migration/executeAsync', { json: { migrationPlan: plan(), processInstanceIds: ids } });
    const [seed] = await jobsOf(batch.seedJobDefinitionId);
    expect((await rest.request('POST', `/job/${seed!.id}/execute`)).status).toBe(204);
    const [failed] = await jobsOf(batch.batchJobDefinitionId);
    expect((await rest.request('PUT', `/job/${failed!.id}/retries`, { json: { retries: 0 } })).status).toBe(204);
    expect((await rest.request('GET', '/history/incident', { query: { jobDefinitionId: batch.batchJobDefinitionId } })).body).toMatchObject([{ open: true }]);

    expect((await rest.request('DELETE', `/batch/${batch.id}`)).status).toBe(204);
    const incidents = (await rest.request('GET', '/history/incident', { query: { jobDefinitionId: batch.batchJobDefinitionId } })).body;
    expect(incidents).toMatchObject([{ open: false, deleted: true, resolved: false, configuration: failed!.id }]);
    expect(incidents[0].endTime).not.toBeNull();
    expect((await rest.request('GET', '/incident/count')).body).toEqual({ count: 0 });
    // The five execution jobs and the monitor job, each with a deletion entry.
    const deletions = (await rest.request('GET', '/history/job-log', { query: { deletionLog: 'true' } })).body as Array<{ jobDefinitionId: string }>;
    expect(deletions.map((entry) => entry.jobDefinitionId).sort()).toEqual([...Array(5).fill(batch.batchJobDefinitionId), batch.monitorJobDefinitionId].sort());
  });
});
