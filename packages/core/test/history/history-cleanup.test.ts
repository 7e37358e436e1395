import { afterEach, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import type { EngineConfig } from '../../src/config.js';
import type { ProcessEngine } from '../../src/engine.js';
import type { StoreSchema } from '../../src/persistence/schema.js';
import { createTestEngine, FixedClock, testStoreConfigs } from '../../src/testing/index.js';
import { STORE } from '../../src/tokens.js';
import { inheritedRemovalTime, type INHERITED_THROUGH } from '../../src/history/removal-time.js';
import { flow, wrap } from '../runtime/scope-models.js';

const DAY = 86_400_000;
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** Root (time to live 5 days): calls `child`, then a user task, then an asynchronous end (its job ends the root). */
const parent = wrap(
  'parent',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
   <bpmn:callActivity id="call" calledElement="child" />${flow('f2', 'call', 'review')}
   <bpmn:userTask id="review" camunda:candidateUsers="kermit" />${flow('f3', 'review', 'end')}
   <bpmn:endEvent id="end" camunda:asyncBefore="true" />`,
);
/** Called (time to live 1 day: the root's decides its removal time). */
const child = wrap('child', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />`).replace(
  'camunda:historyTimeToLive="5"',
  'camunda:historyTimeToLive="1"',
);
const waiting = wrap('waiting', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'wait')}<bpmn:userTask id="wait" />${flow('f2', 'wait', 'end')}<bpmn:endEvent id="end" />`);
const externalWork = wrap('external', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'bill')}<bpmn:serviceTask id="bill" camunda:type="external" camunda:topic="invoice" />${flow('f2', 'bill', 'end')}<bpmn:endEvent id="end" />`);
const instant = wrap(
  'instant',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
   <bpmn:callActivity id="call" calledElement="instantChild"><bpmn:extensionElements><camunda:in variables="all" /></bpmn:extensionElements></bpmn:callActivity>
   ${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`,
);
const instantChild = wrap('instantChild', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'end')}<bpmn:endEvent id="end" />`);
const straight = wrap('straight', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'end')}<bpmn:endEvent id="end" />`);
const noTimeToLive = wrap('forever', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'end')}<bpmn:endEvent id="end" />`).replace(' camunda:historyTimeToLive="5"', '');

/** Historic tables keyed by process instance, and the column naming it. */
const TABLES = [
  ['trellis_hi_procinst', 'id'],
  ['trellis_hi_actinst', 'proc_inst_id'],
  ['trellis_hi_varinst', 'proc_inst_id'],
  ['trellis_hi_detail', 'proc_inst_id'],
  ['trellis_hi_taskinst', 'proc_inst_id'],
  ['trellis_hi_identitylink', 'proc_inst_id'],
  ['trellis_hi_job_log', 'process_instance_id'],
] as const;

describe.each(testStoreConfigs())('removal time and history cleanup on $name', (testStore) => {
  async function setup(config: Partial<EngineConfig> & { clock?: FixedClock } = {}) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), ...config });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [parent, child, waiting, noTimeToLive, externalWork, instant, instantChild, straight].map((xml, i) => ({ name: `m${i}.bpmn`, bytes: Buffer.from(xml) })) });
    const definitionOf = (key: string) => processDefinitions!.find((each) => each.key === key)!.id;
    const db = (engine as unknown as { container: { get(token: symbol): { db: Kysely<StoreSchema> } } }).container.get(STORE).db;
    /** The removal time rows have, their own or their instance's (inheritedRemovalTime). */
    const effective = (table: string) =>
      db
        .selectFrom(`${table} as r` as 'trellis_hi_actinst as r')
        .select(table === 'trellis_hi_procinst' ? sql<number | null>`r.removal_time`.as('inherited_removal_time') : inheritedRemovalTime(table as keyof typeof INHERITED_THROUGH, 'r'));
    /** Removal times of every history row of these instances, per table. */
    const removalTimes = async (ids: string[]) => {
      const result: Record<string, Array<number | null>> = {};
      for (const [table, column] of TABLES) {
        const rows = await effective(table).where(column as never, 'in', ids as never).execute();
        result[table] = rows.map((row) => (row.inherited_removal_time === null ? null : Number(row.inherited_removal_time)));
      }
      return result;
    };
    const rowCounts = async (ids: string[]) => {
      const counts: Record<string, number> = {};
      for (const [table, column] of TABLES) counts[table] = (await db.selectFrom(table).select('id').where(column as never, 'in', ids as never).execute()).length;
      return counts;
    };
    /** Runs the parent to its end; returns the root and called instance ids. */
    const runParent = async (finish = true) => {
      const root = await engine.runtime.startProcessInstanceById(definitionOf('parent'), { variables: { amount: { type: 'integer', value: 3, valueInfo: {} } } });
      const called = await db.selectFrom('trellis_hi_procinst').select('id').where('super_proc_inst_id', '=', root.id).executeTakeFirst();
      if (!finish) return { root: root.id, called: called!.id };
      engine.clock.advance(1000);
      const [work] = await engine.task.findTasks({ processInstanceId: called!.id });
      await engine.task.complete(work!.id);
      const [review] = await engine.task.findTasks({ processInstanceId: root.id });
      await engine.task.complete(review!.id);
      engine.clock.advance(1000);
      await engine.jobExecutor.runDueJobs();
      return { root: root.id, called: called!.id };
    };
    return { engine, db, effective, removalTimes, rowCounts, runParent, definitionOf };
  }

  const allEqual = (times: Record<string, Array<number | null>>, expected: number | null) => {
    expect(Object.values(times).flat().length).toBeGreaterThan(0);
    for (const [table, values] of Object.entries(times)) {
      expect(values.every((value) => value === expected), `${table}: ${values.join(',')}`).toBe(true);
    }
  };

  it('strategy end: a root ending gives its whole hierarchy end time + the root definition time to live', async () => {
    const { engine, removalTimes, runParent } = await setup();
    const running = await runParent(false);
    allEqual(await removalTimes([running.root, running.called]), null);

    const { root, called } = await runParent();
    expect(await engine.runtime.countProcessInstances({ processInstanceIds: [root] })).toBe(0);
    allEqual(await removalTimes([root, called]), engine.clock.now().getTime() + 5 * DAY);
    // The running hierarchy keeps none.
    allEqual(await removalTimes([running.root, running.called]), null);
  });

  it('strategy end: instances ending in the command that started them, alone or with called instances', async () => {
    const { engine, db, effective, removalTimes, definitionOf } = await setup();
    const variables = { amount: { type: 'integer' as const, value: 3, valueInfo: {} } };
    const alone = await engine.runtime.startProcessInstanceById(definitionOf('straight'), { variables });
    const withCalled = await engine.runtime.startProcessInstanceById(definitionOf('instant'), { variables });
    const called = await db.selectFrom('trellis_hi_procinst').select('id').where('super_proc_inst_id', '=', withCalled.id).executeTakeFirstOrThrow();
    const expected = engine.clock.now().getTime() + 5 * DAY;
    allEqual(await removalTimes([alone.id]), expected);
    allEqual(await removalTimes([withCalled.id, called.id]), expected);
    const childVariables = await effective('trellis_hi_varinst').where('proc_inst_id', '=', called.id).execute();
    expect(childVariables.map((row) => Number(row.inherited_removal_time))).toEqual([expected]);
  });

  it('strategy end: the history queries show rows written before the end with the removal time they inherit from their instance', async () => {
    const { engine, definitionOf } = await setup();
    const instance = await engine.runtime.startProcessInstanceById(definitionOf('external'), { variables: { amount: { type: 'integer', value: 3, valueInfo: {} } } });
    const [task] = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] });
    const query = { processInstanceId: instance.id };
    const removalTimes = async () => ({
      activities: (await engine.history.findHistoricActivityInstances(query)).map((each) => each.removalTime),
      variables: (await engine.history.variables.find(query)).map((each) => each.removalTime),
      details: (await engine.history.variables.findDetails(query)).map((each) => each.removalTime),
      externalTaskLog: (await engine.history.logs.findExternalTaskLogs(query)).map((each) => each.removalTime),
    });
    const running = await removalTimes();
    expect(Object.values(running).every((times) => times.length > 0 && times.every((time) => time === null)), JSON.stringify(running)).toBe(true);
    engine.clock.advance(1000);
    await engine.externalTask.complete(task!.id, 'w');
    const expected = new Date(engine.clock.now().getTime() + 5 * DAY);
    const ended = await removalTimes();
    for (const [kind, times] of Object.entries(ended)) expect(times, kind).toEqual(times.map(() => expected));
    expect(ended.activities).toHaveLength(3);
    expect(ended.externalTaskLog).toHaveLength(2);
  });

  it('strategy end: a time to live changed after the definition was cached applies', async () => {
    const { engine, effective, definitionOf } = await setup();
    const instance = await engine.runtime.startProcessInstanceById(definitionOf('waiting'));
    await engine.processDefinition.updateHistoryTimeToLive(definitionOf('waiting'), 40);
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    await engine.task.complete(task!.id);
    const rows = await effective('trellis_hi_actinst').where('proc_inst_id', '=', instance.id).execute();
    expect(rows.map((row) => Number(row.inherited_removal_time))).toEqual(rows.map(() => engine.clock.now().getTime() + 40 * DAY));
  });

  it('strategy end: the external task log and incidents of the root get it too, the last log entry written with the end', async () => {
    const { engine, effective, definitionOf } = await setup();
    const instance = await engine.runtime.startProcessInstanceById(definitionOf('external'));
    const fetch = () => engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] });
    const [task] = await fetch();
    await engine.externalTask.handleFailure(task!.id, { workerId: 'w', errorMessage: 'down', retries: 0, retryTimeout: 0 });
    await engine.externalTask.setRetries(task!.id, 1);
    await fetch();
    engine.clock.advance(1000);
    await engine.externalTask.complete(task!.id, 'w');
    const expected = engine.clock.now().getTime() + 5 * DAY;
    for (const table of ['trellis_hi_ext_task_log', 'trellis_hi_incident'] as const) {
      const rows = await effective(table).where('proc_inst_id', '=', instance.id).execute();
      expect(rows.length, table).toBeGreaterThan(0);
      expect(rows.map((row) => Number(row.inherited_removal_time)), table).toEqual(rows.map(() => expected));
    }
  });

  it('strategy start: rows get the root start + time to live when written; none: nothing; no time to live: nothing', async () => {
    const start = await setup({ historyCleanup: { removalTimeStrategy: 'start', strategy: 'endTimeBased' } });
    const startTime = start.engine.clock.now().getTime();
    const { root, called } = await start.runParent();
    allEqual(await start.removalTimes([root, called]), startTime + 5 * DAY);
    const instantRoot = await start.engine.runtime.startProcessInstanceById(start.definitionOf('instant'), { variables: { amount: { type: 'integer', value: 1, valueInfo: {} } } });
    const instantCalled = await start.db.selectFrom('trellis_hi_procinst').select('id').where('super_proc_inst_id', '=', instantRoot.id).executeTakeFirstOrThrow();
    allEqual(await start.removalTimes([instantRoot.id, instantCalled.id]), start.engine.clock.now().getTime() + 5 * DAY);

    const none = await setup({ historyCleanup: { removalTimeStrategy: 'none', strategy: 'endTimeBased' } });
    const ids = await none.runParent();
    allEqual(await none.removalTimes([ids.root, ids.called]), null);

    const endless = await setup({ historyTimeToLive: null, enforceHistoryTimeToLive: false });
    const instance = await endless.engine.runtime.startProcessInstanceById(endless.definitionOf('forever'));
    const [row] = await endless.db.selectFrom('trellis_hi_procinst').select(['removal_time', 'end_time']).where('id', '=', instance.id).execute();
    expect(row!.end_time).not.toBeNull();
    expect(row!.removal_time).toBeNull();
  });

  it('disabled history cleanup (Camunda historyCleanupEnabled false): scheduling is refused and an existing cleanup job is left alone', async () => {
    const store = testStore.config(expect.getState().currentTestName!, { shared: true });
    const clock = new FixedClock(new Date('2026-01-20T10:00:00Z'));
    const enabled = await createTestEngine({ store, clock });
    const { processDefinitions } = await enabled.deployment.deploy({ resources: [{ name: 'straight.bpmn', bytes: Buffer.from(straight) }] });
    const done = await enabled.runtime.startProcessInstanceById(processDefinitions![0].id);
    const job = await enabled.historyCleanup.cleanUpHistoryAsync(true);
    await enabled.close();

    clock.advance(6 * DAY);
    const disabled = await createTestEngine({ store, clock, historyCleanup: { enabled: false } });
    engines.push(disabled);
    await expect(disabled.historyCleanup.cleanUpHistoryAsync(true)).rejects.toThrow('History cleanup is disabled for this engine');
    expect(await disabled.historyCleanup.configuration()).toMatchObject({ enabled: false });
    await disabled.jobExecutor.runDueJobs();
    // Due, yet not run: the job is as it was and the finished instance's history is still there.
    expect(await disabled.historyCleanup.findHistoryCleanupJobs()).toMatchObject([{ id: job.id, suspended: false, retries: job.retries }]);
    expect(await disabled.history.countHistoricProcessInstances({ processInstanceId: done.id })).toBe(1);
  });

  it('removalTimeBased cleanup removes exactly the history whose removal time passed, never a running instance', async () => {
    const { engine, rowCounts, runParent } = await setup();
    const done = await runParent();
    const running = await runParent(false);
    const runningCounts = await rowCounts([running.root, running.called]);
    const doneCounts = await rowCounts([done.root, done.called]);
    expect(Object.values(doneCounts).every((count) => count > 0)).toBe(true);

    // Not due yet: the job runs and removes nothing.
    const job = await engine.historyCleanup.cleanUpHistoryAsync(true);
    expect(job).toMatchObject({ handlerType: 'history-cleanup', dueDate: engine.clock.now() });
    await engine.jobExecutor.runDueJobs();
    expect(await rowCounts([done.root, done.called])).toEqual(doneCounts);

    engine.clock.advance(5 * DAY);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(Object.values(await rowCounts([done.root, done.called])).every((count) => count === 0)).toBe(true);
    expect(await rowCounts([running.root, running.called])).toEqual(runningCounts);

    // The job lives on; without a batch window it sleeps until it is scheduled again, its due date kept (HistoryCleanupSchedulerCmd.suspendJob).
    const jobs = await engine.historyCleanup.findHistoryCleanupJobs();
    expect(jobs).toHaveLength(1);
    expect(jobs[0]).toMatchObject({ id: job.id, suspended: true, dueDate: engine.clock.now() });
  });

  it("task attachments and comments are history: they inherit their instance's removal time, take set-removal-time and go with cleanup", async () => {
    const { engine, runParent } = await setup();
    const { root, called } = await runParent(false);
    const [work] = await engine.task.findTasks({ processInstanceId: called });
    const bytes = Buffer.from([0, 1, 2, 255]);
    const attachment = await engine.task.createAttachment(work!.id, { name: 'scan', content: bytes, url: 'ignored when there is content' });
    expect(attachment).toMatchObject({ taskId: work!.id, processInstanceId: called, rootProcessInstanceId: root, url: null, removalTime: null });
    expect(await engine.task.getTaskAttachmentContent(work!.id, attachment.id)).toEqual(bytes);
    const comment = await engine.task.createComment(work!.id, 'looked at it');
    expect(comment.removalTime).toBeNull();
    // As REST creates them: naming no instance, only (through the task) the root.
    const onTaskOnly = await engine.task.createComment(work!.id, 'on the task', null);
    expect(onTaskOnly).toMatchObject({ processInstanceId: null, rootProcessInstanceId: root });

    engine.clock.advance(1000);
    await engine.task.complete(work!.id);
    const [review] = await engine.task.findTasks({ processInstanceId: root });
    await engine.task.complete(review!.id);
    engine.clock.advance(1000);
    await engine.jobExecutor.runDueJobs();
    const [ended] = await engine.history.findHistoricProcessInstances({ processInstanceId: root });
    const removalTime = ended!.endTime!.getTime() + 5 * DAY;
    expect((await engine.task.getTaskAttachment(work!.id, attachment.id))!.removalTime).toEqual(new Date(removalTime));
    expect((await engine.task.getTaskComments(work!.id))!.map((each) => each.removalTime)).toEqual([new Date(removalTime), new Date(removalTime)]);

    const absolute = new Date('2030-01-01T00:00:00.000Z');
    await engine.historyCleanup.setRemovalTimeAsync({ absoluteRemovalTime: absolute, historicProcessInstanceIds: [called] });
    for (let i = 0; i < 2; i++) {
      await engine.jobExecutor.runDueJobs();
      engine.clock.advance(30_000);
    }
    expect((await engine.task.getTaskAttachment(work!.id, attachment.id))!.removalTime).toEqual(absolute);
    expect((await engine.task.getProcessInstanceComments(called)).map((each) => each.removalTime)).toEqual([absolute]);
    expect((await engine.task.getTaskComments(work!.id)).map((each) => each.removalTime)).toEqual([absolute, absolute]);

    engine.clock.advance(absolute.getTime() - engine.clock.now().getTime() + DAY);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.task.getTaskAttachments(work!.id)).toEqual([]);
    expect(await engine.task.getProcessInstanceComments(called)).toEqual([]);
    expect(await engine.task.getTaskComments(work!.id)).toEqual([]);
  });

  it("deleting a historic instance takes the comments of its tasks along, also those naming no instance", async () => {
    const { engine, runParent } = await setup();
    const { root, called } = await runParent(false);
    const [work] = await engine.task.findTasks({ processInstanceId: called });
    await engine.task.createComment(work!.id, 'on the called task', null);
    await engine.runtime.deleteProcessInstance(root);
    expect(await engine.task.getTaskComments(work!.id)).toHaveLength(1);
    await engine.history.deleteHistoricProcessInstance(called);
    expect(await engine.task.getTaskComments(work!.id)).toEqual([]);
  });

  it("endTimeBased cleanup removes each finished instance, a called one too, past its own end time + its own definition's time to live", async () => {
    // Camunda's selectHistoricProcessInstanceIdsForCleanup: sub-instances are picked by their own time to live and deleted alone.
    const { engine, rowCounts, runParent } = await setup({ historyCleanup: { strategy: 'endTimeBased' } });
    const old = await runParent();
    const running = await runParent(false);
    const root = await rowCounts([old.root]);
    const kept = await rowCounts([running.root, running.called]);
    const gone = (counts: Record<string, number>) => Object.values(counts).every((count) => count === 0);

    // The called instance (time to live 1 day) ended a second before its root (5 days).
    engine.clock.advance(DAY);
    await engine.historyCleanup.cleanUpHistoryAsync();
    await engine.jobExecutor.runDueJobs();
    expect(gone(await rowCounts([old.called]))).toBe(true);
    expect(await rowCounts([old.root])).toEqual(root);
    expect(await engine.metrics.sum('history-cleanup-removed-process-instances')).toBe(1);

    engine.clock.advance(4 * DAY);
    await engine.historyCleanup.cleanUpHistoryAsync();
    await engine.jobExecutor.runDueJobs();
    expect(gone(await rowCounts([old.root]))).toBe(true);
    expect(await rowCounts([running.root, running.called])).toEqual(kept);
  });

  it('with a batch window: scheduled at its start on engine start, backs off inside it, reports the window', async () => {
    const clock = new FixedClock(new Date(2026, 0, 15, 10, 0));
    const { engine } = await setup({ clock, historyCleanup: { batchWindowStartTime: '20:00', batchWindowEndTime: '02:00' } });
    const [job] = await engine.historyCleanup.findHistoryCleanupJobs();
    expect(job).toMatchObject({ handlerType: 'history-cleanup', dueDate: new Date(2026, 0, 15, 20, 0) });
    expect(await engine.historyCleanup.configuration()).toEqual({
      batchWindowStartTime: new Date(2026, 0, 15, 20, 0),
      batchWindowEndTime: new Date(2026, 0, 16, 2, 0),
      enabled: true,
    });
    // Not immediately due: a due date in the window stays.
    expect((await engine.historyCleanup.cleanUpHistoryAsync(false)).dueDate).toEqual(new Date(2026, 0, 15, 20, 0));

    clock.set(new Date(2026, 0, 15, 21, 0));
    await engine.jobExecutor.runDueJobs();
    expect((await engine.historyCleanup.findHistoryCleanupJob())!.dueDate).toEqual(new Date(2026, 0, 15, 21, 0, 10));
    clock.set(new Date(2026, 0, 15, 21, 0, 10));
    await engine.jobExecutor.runDueJobs();
    expect((await engine.historyCleanup.findHistoryCleanupJob())!.dueDate).toEqual(new Date(2026, 0, 15, 21, 0, 30));

    // Past the window's end: the next window.
    clock.set(new Date(2026, 0, 16, 1, 59, 59));
    await engine.jobExecutor.runDueJobs();
    expect((await engine.historyCleanup.findHistoryCleanupJob())!.dueDate).toEqual(new Date(2026, 0, 16, 20, 0));
  });

  it("takes a weekday's own window instead of the daily one, and a week's only windows (Camunda's DefaultBatchWindowManager)", async () => {
    // 2026-01-15 is a Thursday.
    const clock = new FixedClock(new Date(2026, 0, 15, 10, 0));
    const { engine } = await setup({
      clock,
      historyCleanup: { batchWindowStartTime: '20:00', batchWindowEndTime: '02:00', batchWindows: { thursday: { startTime: '12:00', endTime: '13:00' } } },
    });
    expect(await engine.historyCleanup.configuration()).toMatchObject({ batchWindowStartTime: new Date(2026, 0, 15, 12, 0), batchWindowEndTime: new Date(2026, 0, 15, 13, 0) });
    clock.set(new Date(2026, 0, 15, 13, 30));
    expect(await engine.historyCleanup.configuration()).toMatchObject({ batchWindowStartTime: new Date(2026, 0, 16, 20, 0), batchWindowEndTime: new Date(2026, 0, 17, 2, 0) });

    const mondays = await setup({ clock, historyCleanup: { batchWindows: { monday: { startTime: '01:00', endTime: '03:00' } } } });
    expect(await mondays.engine.historyCleanup.configuration()).toMatchObject({ batchWindowStartTime: new Date(2026, 0, 19, 1, 0), batchWindowEndTime: new Date(2026, 0, 19, 3, 0) });
    expect((await mondays.engine.historyCleanup.findHistoryCleanupJob())!.dueDate).toEqual(new Date(2026, 0, 19, 1, 0));
  });

  it('removalTimeBased cleanup removes historic batches past their removal time too', async () => {
    const { engine, runParent } = await setup({ batchOperationHistoryTimeToLive: 'P1D' });
    const { root } = await runParent();
    await engine.historyCleanup.setRemovalTimeAsync({ calculatedRemovalTime: true, historicProcessInstanceIds: [root] });
    // Seed, execution and monitor jobs (the monitor polls every 30 s).
    for (let i = 0; i < 3; i++) {
      await engine.jobExecutor.runDueJobs();
      engine.clock.advance(30_000);
    }
    expect(await engine.historicBatches.find({ completed: true })).toHaveLength(1);
    engine.clock.advance(DAY + 1);
    await engine.historyCleanup.cleanUpHistoryAsync();
    await engine.jobExecutor.runDueJobs();
    expect(await engine.historicBatches.find()).toEqual([]);
    // The instance's history (time to live 5 days) stays.
    expect(await engine.history.findHistoricProcessInstances({ processInstanceId: root })).toHaveLength(1);
  });

  it.each(['removalTimeBased', 'endTimeBased'] as const)('%s cleanup removes the task meter log older than taskMetricsTimeToLive, and reports it', async (strategy) => {
    const { engine, runParent } = await setup({ taskMetricsTimeToLive: 'P2D', historyCleanup: { strategy } });
    const assign = async (assignee: string) => {
      const { called } = await runParent(false);
      const [task] = await engine.task.findTasks({ processInstanceId: called });
      await engine.task.setAssignee(task!.id, assignee);
    };
    await assign('kermit');
    engine.clock.advance(DAY);
    await assign('piggy');
    expect(await engine.metrics.uniqueTaskWorkerCount()).toBe(2);

    // kermit's row is two days old (to the millisecond: due), piggy's one.
    engine.clock.advance(DAY);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.metrics.uniqueTaskWorkerCount()).toBe(1);
    expect(await engine.metrics.uniqueTaskWorkerCount({ startDate: new Date(engine.clock.now().getTime() - DAY) })).toBe(1);
    expect(await engine.metrics.sum('history-cleanup-removed-task-metrics')).toBe(1);

    engine.clock.advance(DAY);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.metrics.uniqueTaskWorkerCount()).toBe(0);
    expect(await engine.metrics.sum('history-cleanup-removed-task-metrics')).toBe(2);
  });

  it('without taskMetricsTimeToLive (the default) the cleanup keeps the task meter log', async () => {
    const { engine, runParent } = await setup();
    const { called } = await runParent(false);
    const [task] = await engine.task.findTasks({ processInstanceId: called });
    await engine.task.setAssignee(task!.id, 'kermit');
    engine.clock.advance(1000 * DAY);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.metrics.uniqueTaskWorkerCount()).toBe(1);
  });

  it('taskMetricsTimeToLive in days as a number: a row exactly that old goes, a younger one stays; anything but days or P<n>D is refused', async () => {
    await expect(setup({ taskMetricsTimeToLive: 'five' })).rejects.toThrow('taskMetricsTimeToLive must be a whole number of days >= 0 or an ISO period like P5D, got "five"');
    const { engine, runParent } = await setup({ taskMetricsTimeToLive: 3 });
    const { called } = await runParent(false);
    const [task] = await engine.task.findTasks({ processInstanceId: called });
    await engine.task.setAssignee(task!.id, 'kermit');
    engine.clock.advance(3 * DAY - 1);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.metrics.uniqueTaskWorkerCount()).toBe(1);
    engine.clock.advance(1);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect(await engine.metrics.uniqueTaskWorkerCount()).toBe(0);
  });

  it('several cleanup jobs share the hour by minute of removal time', async () => {
    const { engine, rowCounts, runParent } = await setup({ historyCleanup: { degreeOfParallelism: 3 } });
    const done = await runParent();
    const jobs = await engine.historyCleanup.findHistoryCleanupJobs();
    expect(jobs).toEqual([]);
    await engine.historyCleanup.cleanUpHistoryAsync();
    expect(await engine.historyCleanup.findHistoryCleanupJobs()).toHaveLength(3);
    engine.clock.advance(5 * DAY);
    await engine.historyCleanup.cleanUpHistoryAsync();
    await engine.jobExecutor.runDueJobs();
    expect(Object.values(await rowCounts([done.root, done.called])).every((count) => count === 0)).toBe(true);
  });

  it('enableHistoricInstancePermissions: grants on historic instances and tasks belong to their root, take its removal time and go with cleanup', async () => {
    const { engine, runParent } = await setup({ authorization: { enabled: true, enableHistoricInstancePermissions: true } });
    const { root, called } = await runParent(false);
    const onCalled = await engine.authorization.createAuthorization({ type: 1, userId: 'kermit', resourceType: 20, resourceId: called, permissions: ['READ'] });
    expect(onCalled).toMatchObject({ rootProcessInstanceId: root, removalTime: null });
    const onUser = await engine.authorization.createAuthorization({ type: 1, userId: 'kermit', resourceType: 1, resourceId: 'kermit', permissions: ['READ'] });
    expect(onUser).toMatchObject({ rootProcessInstanceId: null, removalTime: null });
    // The review task's candidate gets READ on its historic task besides the runtime grant.
    const [work] = await engine.task.findTasks({ processInstanceId: called });
    await engine.task.complete(work!.id);
    const [review] = await engine.task.findTasks({ processInstanceId: root });
    const historicTaskGrant = (await engine.authorization.findAuthorizations({ resourceType: 19 }))[0];
    expect(historicTaskGrant).toMatchObject({ userId: 'kermit', resourceId: review!.id, permissions: 2, rootProcessInstanceId: root, removalTime: null });
    await engine.task.complete(review!.id);
    engine.clock.advance(1000);
    await engine.jobExecutor.runDueJobs();
    const removalTime = new Date(engine.clock.now().getTime() + 5 * DAY);
    const historic = await engine.authorization.findAuthorizations({ userIdIn: ['kermit'] });
    expect(historic.map((each) => [each.resourceType, each.removalTime])).toEqual(
      expect.arrayContaining([[20, removalTime], [19, removalTime], [1, null]]),
    );
    expect(historic.filter((each) => each.resourceType === 7)).toEqual([]);

    engine.clock.advance(5 * DAY);
    await engine.historyCleanup.cleanUpHistoryAsync(true);
    await engine.jobExecutor.runDueJobs();
    expect((await engine.authorization.findAuthorizations({ userIdIn: ['kermit'] })).map((each) => each.id)).toEqual([onUser.id]);
  });

  it('strategy start: a grant on a historic instance or task takes the removal time decided at the start, also one made in the starting command', async () => {
    const { engine, runParent } = await setup({ historyCleanup: { removalTimeStrategy: 'start' }, authorization: { enabled: true, enableHistoricInstancePermissions: true } });
    const started = engine.clock.now().getTime();
    const { root } = await runParent(false);
    const grant = await engine.authorization.createAuthorization({ type: 1, userId: 'kermit', resourceType: 20, resourceId: root, permissions: ['READ'] });
    expect(grant).toMatchObject({ rootProcessInstanceId: root, removalTime: new Date(started + 5 * DAY) });
    // A grant on all historic instances, or on an unknown one, has neither.
    expect(await engine.authorization.createAuthorization({ type: 1, userId: 'kermit', resourceType: 20, resourceId: '*', permissions: ['READ'] })).toMatchObject({ rootProcessInstanceId: null, removalTime: null });
    expect(await engine.authorization.createAuthorization({ type: 1, userId: 'kermit', resourceType: 19, resourceId: 'gone', permissions: ['READ'] })).toMatchObject({ rootProcessInstanceId: null, removalTime: null });
    // The candidate of a task the start reaches is granted before the start's history is written.
    const candidate = wrap('candidate', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'ask')}<bpmn:userTask id="ask" camunda:candidateUsers="piggy" />${flow('f2', 'ask', 'end')}<bpmn:endEvent id="end" />`);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'candidate.bpmn', bytes: Buffer.from(candidate) }] });
    const asked = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const [ask] = await engine.task.findTasks({ processInstanceId: asked.id });
    expect(await engine.authorization.findAuthorizations({ userIdIn: ['piggy'], resourceType: 19 })).toEqual([
      expect.objectContaining({ resourceId: ask!.id, rootProcessInstanceId: asked.id, removalTime: new Date(engine.clock.now().getTime() + 5 * DAY) }),
    ]);
  });

  it('scheduling the cleanup needs camunda-admin', async () => {
    const { engine } = await setup({ authorization: { enabled: true } });
    const as = (userId: string, groupIds: string[]) => engine.runAs({ userId, groupIds, tenantIds: [] }, () => engine.historyCleanup.cleanUpHistoryAsync());
    await expect(as('mia', [])).rejects.toMatchObject({ name: 'AuthorizationException' });
    expect(await engine.historyCleanup.findHistoryCleanupJob()).toBeNull();
    expect(await as('admin', ['camunda-admin'])).toMatchObject({ handlerType: 'history-cleanup' });
  });

  it('not immediately due needs a batch window', async () => {
    const { engine } = await setup();
    await expect(engine.historyCleanup.cleanUpHistoryAsync(false)).rejects.toMatchObject({ name: 'BadUserRequestException' });
    expect(await engine.historyCleanup.findHistoryCleanupJob()).toBeNull();
    expect(await engine.historyCleanup.configuration()).toEqual({ batchWindowStartTime: null, batchWindowEndTime: null, enabled: true });
  });

  it('set-removal-time batch: absolute (hierarchical), calculated and cleared', async () => {
    const { engine, removalTimes, runParent } = await setup();
    const { root, called } = await runParent();
    const absolute = new Date('2030-01-01T00:00:00.000Z');
    const runBatch = async () => {
      for (let i = 0; i < 3; i++) {
        await engine.jobExecutor.runDueJobs();
        engine.clock.advance(30_000);
      }
    };

    const batch = await engine.historyCleanup.setRemovalTimeAsync({ absoluteRemovalTime: absolute, historicProcessInstanceIds: [called], hierarchical: true });
    expect(batch).toMatchObject({ type: 'process-set-removal-time', totalJobs: 1 });
    await runBatch();
    allEqual(await removalTimes([root, called]), absolute.getTime());

    await engine.historyCleanup.setRemovalTimeAsync({ clearedRemovalTime: true, historicProcessInstanceQuery: { processDefinitionKey: 'child' } as never });
    await runBatch();
    allEqual(await removalTimes([called]), null);
    allEqual(await removalTimes([root]), absolute.getTime());

    const [ended] = await engine.history.findHistoricProcessInstances({ processInstanceId: root });
    await engine.historyCleanup.setRemovalTimeAsync({ calculatedRemovalTime: true, historicProcessInstanceIds: [root] });
    await runBatch();
    allEqual(await removalTimes([root]), ended!.endTime!.getTime() + 5 * DAY);

    await expect(engine.historyCleanup.setRemovalTimeAsync({ historicProcessInstanceIds: [root] })).rejects.toThrow('removalTime is null');
    await expect(engine.historyCleanup.setRemovalTimeAsync({ clearedRemovalTime: true })).rejects.toThrow('Neither query nor ids provided.');
    await expect(engine.historyCleanup.setRemovalTimeAsync({ clearedRemovalTime: true, historicProcessInstanceIds: ['nope'] })).rejects.toThrow('historicProcessInstances is empty');
  });

  it('set-removal-time in chunks: one job per instance runs again while rows are left, the historic instances in a last run of their own', async () => {
    const { engine, db, removalTimes, runParent } = await setup({ historyCleanup: { removalTimeUpdateChunkSize: 2 } });
    const { root, called } = await runParent();
    const second = await runParent();
    const absolute = new Date('2031-01-01T00:00:00.000Z').getTime();
    /** The removal times rows hold themselves (not inherited). */
    const own = async (table: 'trellis_hi_actinst' | 'trellis_hi_procinst', ids: string[]) =>
      (await db.selectFrom(table).select('removal_time').where(table === 'trellis_hi_procinst' ? 'id' : 'proc_inst_id', 'in', ids).execute()).map((row) => (row.removal_time === null ? null : Number(row.removal_time)));
    const activities = (await own('trellis_hi_actinst', [root, called])).length;
    expect(activities).toBeGreaterThan(6);

    // Chunked, each instance is a job of its own, whatever the batch's sizing says.
    const batch = await engine.historyCleanup.setRemovalTimeAsync(
      { absoluteRemovalTime: new Date(absolute), historicProcessInstanceIds: [called, second.called], hierarchical: true, updateInChunks: true },
      { invocationsPerBatchJob: 10 },
    );
    expect(batch).toMatchObject({ totalJobs: 2, invocationsPerBatchJob: 1 });
    const [seed] = (await engine.management.findJobs()).filter((job) => job.jobDefinitionId === batch.seedJobDefinitionId);
    await engine.management.executeJob(seed!.id);
    const [first] = (await engine.management.findJobs()).filter((job) => job.jobDefinitionId === batch.batchJobDefinitionId && job.handlerConfiguration?.includes(called));
    const before = await own('trellis_hi_procinst', [root, called]);
    let runs = 0;
    for (;;) {
      await engine.management.executeJob(first!.id);
      runs++;
      const updated = (await own('trellis_hi_actinst', [root, called])).filter((time) => time === absolute).length;
      const instances = await own('trellis_hi_procinst', [root, called]);
      const left = await engine.management.findJobs({ jobIds: [first!.id] });
      if (left.length === 0) {
        expect(instances).toEqual([absolute, absolute]);
        break;
      }
      // Two rows per table and run; the historic process instances only once every other row is done.
      expect(updated).toBe(Math.min(2 * runs, activities));
      if (updated < activities) expect(instances).toEqual(before);
      expect(runs).toBeLessThan(activities);
    }
    expect(runs).toBeGreaterThanOrEqual(Math.ceil(activities / 2) + 1);
    allEqual(await removalTimes([root, called]), absolute);
    const untouched = await removalTimes([second.root, second.called]);
    expect(Object.values(untouched).flat().every((time) => time !== absolute)).toBe(true);

    // The other instance's job and the monitor finish the batch.
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(60_000);
    await engine.jobExecutor.runDueJobs();
    allEqual(await removalTimes([second.root, second.called]), absolute);
    expect(await engine.batch.find({ batchId: batch.id } as never)).toEqual([]);

    // Camunda's operation log entry of the batch's creation, and its chunk size check (also without updateInChunks).
    await engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () =>
      engine.historyCleanup.setRemovalTimeAsync({ calculatedRemovalTime: true, historicProcessInstanceIds: [root, second.root], updateInChunks: true, updateChunkSize: 7 }),
    );
    const entries = await engine.history.userOperations.find({ operationType: 'SetRemovalTime' });
    expect(Object.fromEntries(entries.map((entry) => [entry.property, entry.newValue]))).toEqual({
      mode: 'CALCULATED_REMOVAL_TIME',
      removalTime: null,
      hierarchical: 'false',
      nrOfInstances: '2',
      async: 'true',
      updateInChunks: 'true',
      chunkSize: '7',
    });
    expect(entries[0]).toMatchObject({ entityType: 'ProcessInstance', category: 'Operator', processInstanceId: null, userId: 'demo' });
    for (const updateChunkSize of [0, 501, 2.5]) {
      await expect(engine.historyCleanup.setRemovalTimeAsync({ clearedRemovalTime: true, historicProcessInstanceIds: [root], updateChunkSize })).rejects.toThrow(
        'The value for chunk size should be between 1 and 500',
      );
    }
    await expect(setup({ historyCleanup: { removalTimeUpdateChunkSize: 501 } })).rejects.toThrow('historyCleanup.removalTimeUpdateChunkSize must be a whole number from 1 to 500, got 501');
  });
});
