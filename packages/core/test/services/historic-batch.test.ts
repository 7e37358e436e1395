import { afterEach, describe, expect, it } from 'vitest';
import type { EngineConfig } from '../../src/config.js';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, grantMore, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

type TestEngine = Awaited<ReturnType<typeof createTestEngine>>;
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const MODEL = wrap('waiting', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />`);
const DAY = 24 * 60 * 60 * 1000;

describe.each(testStoreConfigs())('historic batches on $name', (testStore) => {
  async function setup(config: Omit<EngineConfig, 'clock'> = {}) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), ...config });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'waiting.bpmn', bytes: Buffer.from(MODEL) }] });
    const ids = [(await engine.runtime.startProcessInstanceById(processDefinitions![0].id)).id, (await engine.runtime.startProcessInstanceById(processDefinitions![0].id)).id];
    const suspendAsync = () => engine.asyncRetries.updateSuspensionStateAsync({ processInstanceIds: ids }, true);
    return { engine, ids, suspendAsync };
  }

  /** Seed, execution and monitor jobs: the batch completes. */
  async function runBatches(engine: TestEngine) {
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
  }

  it('writes the historic batch at creation, its execution start, and its end time on completion; history stays', async () => {
    const { engine, suspendAsync } = await setup();
    const created = engine.clock.now();
    const batch = await suspendAsync();
    const { jobsCreated: _jobs, suspended: _suspended, ...runtimeFields } = batch;
    expect(await engine.historicBatches.get(batch.id)).toEqual({ ...runtimeFields, startTime: created, endTime: null, removalTime: null, executionStartTime: null });
    expect(await engine.historicBatches.count({ completed: false })).toBe(1);
    expect(await engine.historicBatches.count({ completed: true })).toBe(0);

    engine.clock.advance(1000);
    await engine.jobExecutor.runDueJobs();
    const started = engine.clock.now();
    expect((await engine.historicBatches.get(batch.id)).executionStartTime).toEqual(started);
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();

    expect(await engine.batch.count()).toBe(0);
    // The monitor job may already have run in the first round (job order differs between databases).
    const ended = await engine.historicBatches.get(batch.id);
    expect(ended).toMatchObject({ executionStartTime: started, removalTime: null });
    expect(ended.endTime!.getTime()).toBeGreaterThanOrEqual(started.getTime());
    expect((await engine.historicBatches.find({ completed: true })).map((each) => each.id)).toEqual([batch.id]);
    await expect(engine.historicBatches.get('nope')).rejects.toMatchObject({ name: 'NotFoundException', message: "Historic batch with id 'nope' does not exist" });
  });

  it('ends the historic batch when the runtime batch is deleted, and deletes it with cascade', async () => {
    const { engine, suspendAsync } = await setup();
    const kept = await suspendAsync();
    engine.clock.advance(1000);
    const cascaded = await suspendAsync();
    await engine.batch.delete(kept.id);
    await engine.batch.delete(cascaded.id, true);
    expect((await engine.historicBatches.find()).map((each) => [each.id, each.endTime])).toEqual([[kept.id, engine.clock.now()]]);
  });

  it('filters by type, tenant and completion, sorts and pages; deletes a historic batch', async () => {
    const { engine, ids, suspendAsync } = await setup();
    const first = await suspendAsync();
    engine.clock.advance(1000);
    const second = await engine.asyncRetries.updateSuspensionStateAsync({ processInstanceIds: ids }, false);
    await engine.batch.delete(first.id);
    expect(await engine.historicBatches.count({ type: 'instance-update-suspension-state' })).toBe(2);
    expect(await engine.historicBatches.count({ type: 'instance-migration' })).toBe(0);
    expect(await engine.historicBatches.count({ withoutTenantId: true })).toBe(2);
    expect(await engine.historicBatches.count({ tenantIdIn: ['t1'] })).toBe(0);
    expect(await engine.historicBatches.count({ batchId: second.id })).toBe(1);
    const byStart = await engine.historicBatches.find({ sorting: [{ sortBy: 'startTime', sortOrder: 'desc' }] });
    expect(byStart.map((each) => each.id)).toEqual([second.id, first.id]);
    // endTime ascending: the running batch (null) first.
    const byEnd = await engine.historicBatches.find({ sorting: [{ sortBy: 'endTime', sortOrder: 'asc' }], firstResult: 1, maxResults: 5 });
    expect(byEnd.map((each) => each.id)).toEqual([first.id]);

    await engine.historicBatches.delete(first.id);
    expect(await engine.historicBatches.count()).toBe(1);
    await expect(engine.historicBatches.delete(first.id)).rejects.toMatchObject({
      name: 'NotFoundException',
      message: `Historic batch for id '${first.id}' cannot be found: historic batch is null`,
    });
  });

  it('reports finished and cleanable batches per type from the configured time to live', async () => {
    const { engine, suspendAsync } = await setup({ batchOperationHistoryTimeToLive: 'P5D', batchOperationsForHistoryCleanup: { 'instance-update-suspension-state': 2 } });
    const batch = await suspendAsync();
    const running = await suspendAsync();
    await engine.batch.setSuspended(running.id, true);
    await runBatches(engine);
    await engine.batch.delete(running.id, false);
    const ended = (await engine.historicBatches.get(batch.id)).endTime!;
    expect((await engine.historicBatches.get(batch.id)).removalTime).toEqual(new Date(ended.getTime() + 2 * DAY));
    expect(await engine.historicBatches.cleanableReport()).toEqual([
      { batchType: 'instance-update-suspension-state', historyTimeToLive: 2, finishedBatchesCount: 2, cleanableBatchesCount: 0 },
    ]);
    engine.clock.advance(2 * DAY);
    expect((await engine.historicBatches.cleanableReport())[0]!.cleanableBatchesCount).toBe(2);

    // A set-removal-time batch shows as its own type, with the default time to live.
    await engine.historicBatches.setRemovalTimeAsync({ clearedRemovalTime: true, historicBatchIds: [batch.id] });
    const report = await engine.historicBatches.cleanableReport({ sorting: [{ sortBy: 'finished', sortOrder: 'asc' }] });
    expect(report.map((row) => [row.batchType, row.historyTimeToLive, row.finishedBatchesCount])).toEqual([
      ['batch-set-removal-time', 5, 0],
      ['instance-update-suspension-state', 2, 2],
    ]);
    expect(await engine.historicBatches.cleanableReportCount()).toBe(2);
  });

  it('without a batch time to live lists every type in history, cleanable by a removal time set on them', async () => {
    const { engine, suspendAsync } = await setup();
    const batch = await suspendAsync();
    expect(await engine.historicBatches.cleanableReport()).toEqual([
      { batchType: 'instance-update-suspension-state', historyTimeToLive: null, finishedBatchesCount: 0, cleanableBatchesCount: 0 },
    ]);
    await runBatches(engine);
    await engine.historicBatches.setRemovalTimeAsync({ absoluteRemovalTime: engine.clock.now(), historicBatchIds: [batch.id] });
    await runBatches(engine);
    expect(await engine.historicBatches.cleanableReport()).toEqual([
      { batchType: 'batch-set-removal-time', historyTimeToLive: null, finishedBatchesCount: 1, cleanableBatchesCount: 0 },
      { batchType: 'instance-update-suspension-state', historyTimeToLive: null, finishedBatchesCount: 1, cleanableBatchesCount: 1 },
    ]);
    expect(await engine.historicBatches.cleanableReportCount()).toBe(2);
  });

  it('with end-time-based cleanup counts the finished batches older than their time to live; without one lists only types with finished batches', async () => {
    const unconfigured = await setup({ historyCleanup: { strategy: 'endTimeBased' } });
    await unconfigured.suspendAsync();
    expect(await unconfigured.engine.historicBatches.cleanableReport()).toEqual([]);
    await runBatches(unconfigured.engine);
    unconfigured.engine.clock.advance(10 * DAY);
    expect(await unconfigured.engine.historicBatches.cleanableReport()).toEqual([
      { batchType: 'instance-update-suspension-state', historyTimeToLive: null, finishedBatchesCount: 1, cleanableBatchesCount: 0 },
    ]);

    const { engine, suspendAsync } = await setup({ historyCleanup: { strategy: 'endTimeBased' }, batchOperationHistoryTimeToLive: 2 });
    await suspendAsync();
    await runBatches(engine);
    engine.clock.advance(DAY);
    expect((await engine.historicBatches.cleanableReport())[0]).toMatchObject({ historyTimeToLive: 2, finishedBatchesCount: 1, cleanableBatchesCount: 0 });
    engine.clock.advance(DAY);
    expect((await engine.historicBatches.cleanableReport())[0]).toMatchObject({ historyTimeToLive: 2, finishedBatchesCount: 1, cleanableBatchesCount: 1 });

    // A type's own time to live wins over the default one.
    const byType = await setup({ historyCleanup: { strategy: 'endTimeBased' }, batchOperationHistoryTimeToLive: 5, batchOperationsForHistoryCleanup: { 'instance-update-suspension-state': 1 } });
    await byType.suspendAsync();
    await runBatches(byType.engine);
    byType.engine.clock.advance(DAY);
    expect((await byType.engine.historicBatches.cleanableReport())[0]).toMatchObject({ historyTimeToLive: 1, finishedBatchesCount: 1, cleanableBatchesCount: 1 });
  });

  /** A batch whose first execution job ran out of retries (a failedJob incident), deleted a day after its start. */
  async function failAndDelete(engine: TestEngine, suspendAsync: () => ReturnType<TestEngine['batch']['get']>) {
    const batch = await suspendAsync();
    const [seed] = await engine.management.findJobs({ processDefinitionId: undefined });
    await engine.management.executeJob(seed!.id);
    const [execution] = (await engine.management.findJobs()).filter((job) => job.jobDefinitionId === batch.batchJobDefinitionId);
    await engine.management.setJobRetries(execution!.id, 0);
    engine.clock.advance(DAY);
    await engine.batch.delete(batch.id);
    const logs = (await engine.history.logs.findJobLogs({ jobDefinitionConfiguration: batch.id })).map((entry) => entry.removalTime?.getTime() ?? null);
    const incidents = (await engine.history.incidents.find({ jobDefinitionIdIn: [batch.batchJobDefinitionId!] })).map((each) => each.removalTime?.getTime() ?? null);
    return { batch, removalTime: (await engine.historicBatches.get(batch.id)).removalTime?.getTime() ?? null, logs, incidents };
  }

  it("takes its removal time by historyRemovalTimeStrategy, given to the batch's job logs and incidents too (Camunda's batch start and end events)", async () => {
    // end (the default): end time + time to live, at the end, for the batch's job logs and incidents too.
    const end = await setup({ batchOperationHistoryTimeToLive: 2 });
    const start = end.engine.clock.now().getTime();
    const ended = await failAndDelete(end.engine, end.suspendAsync);
    expect(ended.removalTime).toBe(start + 3 * DAY);
    expect(ended.logs.length).toBeGreaterThan(3);
    expect(ended.logs.every((time) => time === start + 3 * DAY)).toBe(true);
    expect(ended.incidents).toEqual([start + 3 * DAY]);

    // start: start time + time to live from the start on; job logs and incidents take the batch's when written.
    const started = await setup({ batchOperationHistoryTimeToLive: 2, historyCleanup: { removalTimeStrategy: 'start' } });
    const startedAt = started.engine.clock.now().getTime();
    const batch = await started.suspendAsync();
    expect((await started.engine.historicBatches.get(batch.id)).removalTime?.getTime()).toBe(startedAt + 2 * DAY);
    await started.engine.batch.delete(batch.id);
    const second = await failAndDelete(started.engine, started.suspendAsync);
    expect(second.removalTime).toBe(startedAt + 2 * DAY);
    expect(second.logs.every((time) => time === startedAt + 2 * DAY)).toBe(true);
    expect(second.incidents).toEqual([startedAt + 2 * DAY]);

    // none: never.
    const none = await setup({ batchOperationHistoryTimeToLive: 2, historyCleanup: { removalTimeStrategy: 'none', strategy: 'endTimeBased' } });
    const never = await failAndDelete(none.engine, none.suspendAsync);
    expect([never.removalTime, ...never.logs, ...never.incidents].every((time) => time === null)).toBe(true);
  });

  it('end-time-based cleanup removes historic batches past end time + time to live, whatever their removal time', async () => {
    const { engine, suspendAsync } = await setup({ batchOperationHistoryTimeToLive: 2, historyCleanup: { removalTimeStrategy: 'start', strategy: 'endTimeBased' } });
    const batch = await suspendAsync();
    engine.clock.advance(DAY);
    await engine.batch.delete(batch.id);
    engine.clock.advance(DAY + 1);
    // Its removal time (start + 2 days) passed, its end + 2 days not.
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.historicBatches.count()).toBe(1);
    engine.clock.advance(DAY);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.historicBatches.count()).toBe(0);
  });

  it('sets absolute, cleared and calculated removal times through a batch-set-removal-time batch', async () => {
    const { engine, suspendAsync } = await setup({ batchOperationHistoryTimeToLive: 3 });
    const target = await suspendAsync();
    const running = await suspendAsync();
    await engine.batch.setSuspended(running.id, true);
    await engine.batch.delete(target.id);
    const absolute = new Date('2030-01-01T00:00:00.000Z');

    const removal = await engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () =>
      engine.historicBatches.setRemovalTimeAsync({ absoluteRemovalTime: absolute, historicBatchIds: [target.id, 'unknown'] }),
    );
    expect(removal).toMatchObject({ type: 'batch-set-removal-time', totalJobs: 1 });
    // Camunda's SetRemovalTimeToHistoricBatchesCmd logs the creation as a batch operation without a batch id.
    const entries = await engine.history.userOperations.find({ operationType: 'SetRemovalTime' });
    expect(Object.fromEntries(entries.map((entry) => [entry.property, entry.newValue]))).toEqual({
      mode: 'ABSOLUTE_REMOVAL_TIME',
      removalTime: String(absolute.getTime()),
      nrOfInstances: '1',
      async: 'true',
    });
    expect(entries[0]).toMatchObject({ entityType: 'Batch', category: 'Operator', batchId: null, userId: 'demo' });
    await runBatches(engine);
    expect((await engine.historicBatches.get(target.id)).removalTime).toEqual(absolute);

    await engine.historicBatches.setRemovalTimeAsync({ clearedRemovalTime: true, historicBatchQuery: { batchId: target.id } });
    await runBatches(engine);
    expect((await engine.historicBatches.get(target.id)).removalTime).toBeNull();

    // Calculated: end time + 3 days for the ended batch; the running one (no end time) gets none.
    await engine.historicBatches.setRemovalTimeAsync({ calculatedRemovalTime: true, historicBatchIds: [target.id, running.id] });
    await runBatches(engine);
    const ended = await engine.historicBatches.get(target.id);
    expect(ended.removalTime).toEqual(new Date(ended.endTime!.getTime() + 3 * DAY));
    expect((await engine.historicBatches.get(running.id)).removalTime).toBeNull();
  });

  it('rejects set-removal-time requests as Camunda does', async () => {
    const { engine, suspendAsync } = await setup();
    const batch = await suspendAsync();
    const reject = (request: Parameters<typeof engine.historicBatches.setRemovalTimeAsync>[0], message: string) =>
      expect(engine.historicBatches.setRemovalTimeAsync(request)).rejects.toMatchObject({ name: 'BadUserRequestException', message });
    await reject({ clearedRemovalTime: true }, 'Neither query nor ids provided.');
    await reject({ historicBatchIds: [batch.id] }, 'removalTime is null');
    await reject({ clearedRemovalTime: true, historicBatchIds: ['unknown'] }, 'historicBatches is empty');
    await reject({ calculatedRemovalTime: true, clearedRemovalTime: true, historicBatchIds: [batch.id] }, 'The removal time modes are mutually exclusive: mode is not null');
  });

  it('lists only batches with READ_HISTORY and deletes only with DELETE_HISTORY', async () => {
    const { engine, suspendAsync } = await setup({ authorization: { enabled: true } });
    const visible = await suspendAsync();
    await suspendAsync();
    const asMia = <T>(work: () => Promise<T>) => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, work);
    const grant = (resourceId: string, permissions: string[]) =>
      grantMore(engine, { userId: 'mia' }, 13, resourceId, permissions);
    expect(await asMia(() => engine.historicBatches.count())).toBe(0);
    await grant(visible.id, ['READ_HISTORY']);
    expect((await asMia(() => engine.historicBatches.find())).map((each) => each.id)).toEqual([visible.id]);
    await expect(asMia(() => engine.historicBatches.cleanableReport())).rejects.toMatchObject({ name: 'AuthorizationException' });
    await expect(asMia(() => engine.historicBatches.setRemovalTimeAsync({ clearedRemovalTime: true, historicBatchIds: [visible.id] }))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [
        { permissionName: 'CREATE_BATCH_SET_REMOVAL_TIME', resourceName: 'Batch' },
        { permissionName: 'CREATE', resourceName: 'Batch' },
      ],
    });
    await grant('*', ['CREATE_BATCH_SET_REMOVAL_TIME']);
    expect((await asMia(() => engine.historicBatches.setRemovalTimeAsync({ clearedRemovalTime: true, historicBatchIds: [visible.id] }))).type).toBe('batch-set-removal-time');

    await expect(asMia(() => engine.historicBatches.delete(visible.id))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [{ permissionName: 'DELETE_HISTORY', resourceName: 'Batch', resourceId: visible.id }],
    });
    await grant('*', ['DELETE_HISTORY']);
    await asMia(() => engine.historicBatches.delete(visible.id));
    expect(await engine.historicBatches.count()).toBe(2);
  });

  it('writes no historic batch below history level full', async () => {
    const { engine, suspendAsync } = await setup({ historyLevel: 'audit' });
    await suspendAsync();
    await runBatches(engine);
    expect(await engine.historicBatches.count()).toBe(0);
  });
});

describe('batch history time to live settings', () => {
  it('takes days as a number, "5" or "P5D", and refuses anything else when the engine starts', async () => {
    const engine = await createTestEngine({ batchOperationHistoryTimeToLive: '7', batchOperationsForHistoryCleanup: { 'set-job-retries': 'P2D', 'instance-deletion': 0 } });
    engines.push(engine);
    expect(engine.config.batchOperationHistoryTimeToLive).toBe(7);
    expect(engine.config.batchOperationsForHistoryCleanup).toEqual({ 'set-job-retries': 2, 'instance-deletion': 0 });
    await expect(createTestEngine({ batchOperationHistoryTimeToLive: 'five' })).rejects.toThrow(
      'batchOperationHistoryTimeToLive must be a whole number of days >= 0 or an ISO period like P5D, got "five"',
    );
    await expect(createTestEngine({ batchOperationsForHistoryCleanup: { 'set-job-retries': -1 } })).rejects.toThrow('batchOperationsForHistoryCleanup.set-job-retries');
  });
});
