import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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

let rest: RestHarness;
let ids: string[];
beforeEach(async () => {
  rest = await startRestHarness({ batchOperationHistoryTimeToLive: 'P1D' });
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'order.bpmn', bytes: Buffer.from(MODEL) }] });
  ids = [];
  for (let i = 0; i < 2; i++) ids.push((await rest.engine.runtime.startProcessInstanceById(processDefinitions![0].id)).id);
});
afterEach(async () => rest.close());

const suspendAsync = async () => (await rest.request('POST', '/process-instance/suspended-async', { json: { processInstanceIds: ids, suspended: true } })).body;
/** Seed, execution and monitor jobs: every batch whose jobs are active completes. */
async function runBatches() {
  await rest.engine.jobExecutor.runDueJobs();
  rest.engine.clock.advance(30_000);
  await rest.engine.jobExecutor.runDueJobs();
}

describe('the Historic Batch group', () => {
  it('lists, counts and gets historic batches as HistoricBatchDto; jobs of a batch carry its batchId', async () => {
    const batch = await suspendAsync();
    const list = await rest.request('GET', '/history/batch');
    expect(list.status).toBe(200);
    const { jobsCreated: _jobs, suspended: _suspended, ...shared } = batch;
    expect(list.body).toEqual([{ ...shared, endTime: null, removalTime: null }]);
    expect((await rest.request('GET', `/history/batch/${batch.id}`)).body).toEqual(list.body[0]);
    expect((await rest.request('GET', '/history/batch/count', { query: { completed: 'false', type: 'instance-update-suspension-state' } })).body).toEqual({ count: 1 });

    const jobs = await rest.request('GET', '/job', { query: { jobDefinitionId: batch.seedJobDefinitionId } });
    expect(jobs.body.map((job: { batchId: string }) => job.batchId)).toEqual([batch.id]);
    expect((await rest.request('POST', `/job/${jobs.body[0].id}/execute`)).status).toBe(204);
    const executionJobs = await rest.request('GET', '/job', { query: { jobDefinitionId: batch.batchJobDefinitionId } });
    expect(executionJobs.body.map((job: { batchId: string }) => job.batchId)).toEqual([batch.id, batch.id]);
    await runBatches();
    const done = await rest.request('GET', '/history/batch', { query: { completed: 'true' } });
    expect(done.body).toHaveLength(1);
    expect(done.body[0].endTime).not.toBeNull();
    expect(done.body[0].executionStartTime).not.toBeNull();
    // Ended with a batch time to live of one day: removed one day after its end.
    expect(Date.parse(done.body[0].removalTime.replace(/(\d\d)(\d\d)$/, '$1:$2')) - Date.parse(done.body[0].endTime.replace(/(\d\d)(\d\d)$/, '$1:$2'))).toBe(24 * 60 * 60 * 1000);

    const unknown = await rest.request('GET', '/history/batch/nope');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ type: 'InvalidRequestException', message: "Historic batch with id 'nope' does not exist", code: null });
  });

  it('sorts and pages, and refuses parameters it cannot convert', async () => {
    const first = await suspendAsync();
    rest.engine.clock.advance(1000);
    const second = await suspendAsync();
    const sorted = await rest.request('GET', '/history/batch', { query: { sortBy: 'startTime', sortOrder: 'desc', maxResults: 1 } });
    expect(sorted.body.map((each: { id: string }) => each.id)).toEqual([second.id]);
    const paged = await rest.request('GET', '/history/batch', { query: { sortBy: 'startTime', sortOrder: 'desc', firstResult: 1 } });
    expect(paged.body.map((each: { id: string }) => each.id)).toEqual([first.id]);
    expect((await rest.request('GET', '/history/batch/count', { query: { tenantIdIn: 't1,t2' } })).body).toEqual({ count: 0 });

    const badSort = await rest.request('GET', '/history/batch', { query: { sortBy: 'type', sortOrder: 'asc' } });
    expect(badSort.status).toBe(400);
    expect(badSort.body).toMatchObject({ type: 'InvalidRequestException', message: "Cannot set query parameter 'sortBy' to value 'type'" });
    const badFlag = await rest.request('GET', '/history/batch/count', { query: { completed: 'maybe' } });
    expect(badFlag.status).toBe(400);
    expect(badFlag.body.message).toBe("Cannot set query parameter 'completed' to value 'maybe': Cannot convert value maybe to java type java.lang.Boolean");
  });

  it('deletes a historic batch (400 for an unknown one) and cascades DELETE /batch/{id}', async () => {
    const kept = await suspendAsync();
    const cascaded = await suspendAsync();
    expect((await rest.request('DELETE', `/batch/${kept.id}`)).status).toBe(204);
    expect((await rest.request('DELETE', `/batch/${cascaded.id}`, { query: { cascade: 'true' } })).status).toBe(204);
    const left = await rest.request('GET', '/history/batch');
    expect(left.body.map((each: { id: string }) => each.id)).toEqual([kept.id]);
    expect(left.body[0].endTime).not.toBeNull();

    // Camunda's DeleteHistoricBatchCmd logs DeleteHistory on the batch for an authenticated caller.
    await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.historicBatches.delete(kept.id));
    expect(await rest.engine.history.userOperations.find({ operationType: 'DeleteHistory' })).toMatchObject([{ entityType: 'Batch', batchId: kept.id, category: 'Operator', property: null, userId: 'demo' }]);
    expect((await rest.request('GET', '/history/batch/count')).body).toEqual({ count: 0 });
    const again = await rest.request('DELETE', `/history/batch/${kept.id}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ type: 'InvalidRequestException', message: `Unable to delete historic batch with id '${kept.id}'`, code: 0 });
  });

  it('reports cleanable batches per type', async () => {
    await suspendAsync();
    await runBatches();
    const running = await suspendAsync();
    await rest.request('PUT', `/batch/${running.id}/suspended`, { json: { suspended: true } });
    expect((await rest.request('GET', '/history/batch/cleanable-batch-report')).body).toEqual([
      { batchType: 'instance-update-suspension-state', historyTimeToLive: 1, finishedBatchesCount: 1, cleanableBatchesCount: 0 },
    ]);
    rest.engine.clock.advance(24 * 60 * 60 * 1000);
    const report = await rest.request('GET', '/history/batch/cleanable-batch-report', { query: { sortBy: 'finished', sortOrder: 'desc', maxResults: 5 } });
    expect(report.body).toEqual([{ batchType: 'instance-update-suspension-state', historyTimeToLive: 1, finishedBatchesCount: 1, cleanableBatchesCount: 1 }]);
    expect((await rest.request('GET', '/history/batch/cleanable-batch-report/count')).body).toEqual({ count: 1 });
    const countBadSort = await rest.request('GET', '/history/batch/cleanable-batch-report/count', { query: { sortBy: 'nope' } });
    expect([countBadSort.status, countBadSort.body.message]).toEqual([400, "Cannot set query parameter 'sortBy' to value 'nope'"]);
    const badSort = await rest.request('GET', '/history/batch/cleanable-batch-report', { query: { sortBy: 'type', sortOrder: 'asc' } });
    expect(badSort.status).toBe(400);
  });

  it('sets removal times through a batch-set-removal-time batch', async () => {
    const target = await suspendAsync();
    await rest.request('DELETE', `/batch/${target.id}`);
    const created = await rest.request('POST', '/history/batch/set-removal-time', {
      json: { absoluteRemovalTime: '2030-01-01T00:00:00.000+0000', historicBatchIds: [target.id] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ type: 'batch-set-removal-time', totalJobs: 1, jobsCreated: 0, suspended: false });
    await runBatches();
    const withRemoval = (await rest.request('GET', `/history/batch/${target.id}`)).body;
    expect(Date.parse(withRemoval.removalTime.replace(/(\d\d)(\d\d)$/, '$1:$2'))).toBe(Date.UTC(2030, 0, 1));

    const cleared = await rest.request('POST', '/history/batch/set-removal-time', {
      json: { clearedRemovalTime: true, historicBatchQuery: { type: 'instance-update-suspension-state', sorting: [{ sortBy: 'startTime', sortOrder: 'asc' }] } },
    });
    expect(cleared.status).toBe(200);
    await runBatches();
    expect((await rest.request('GET', `/history/batch/${target.id}`)).body.removalTime).toBeNull();

    const none = await rest.request('POST', '/history/batch/set-removal-time', { json: { clearedRemovalTime: true } });
    expect(none.status).toBe(400);
    expect(none.body).toEqual({ type: 'BadUserRequestException', message: 'Neither query nor ids provided.', code: 0 });
    const two = await rest.request('POST', '/history/batch/set-removal-time', { json: { clearedRemovalTime: true, calculatedRemovalTime: true, historicBatchIds: [target.id] } });
    expect(two.status).toBe(400);
    expect(two.body.message).toBe('The removal time modes are mutually exclusive: mode is not null');
    // Ids bind as Jackson binds a List<String>: not a list cannot bind (400, no message).
    const notAList = await rest.request('POST', '/history/batch/set-removal-time', { json: { clearedRemovalTime: true, historicBatchIds: target.id } });
    expect([notAList.status, notAList.body.message]).toEqual([400, '']);
    const empty = await rest.request('POST', '/history/batch/set-removal-time', { json: { calculatedRemovalTime: true, historicBatchIds: ['nope'] } });
    expect(empty.body).toMatchObject({ type: 'BadUserRequestException', message: 'historicBatches is empty' });
  });
});
