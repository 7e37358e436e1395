import { afterEach, describe, expect, it } from 'vitest';
import { CommandExecutor } from '../../src/command/command-executor.js';
import type { EngineConfig } from '../../src/config.js';
import type { ProcessEngine } from '../../src/engine.js';
import type { FixedClock } from '../../src/clock.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const DAY = 86_400_000;
const HOUR = 3_600_000;

/** A process `key` with a user task `review` (or none), with the given time to live (omitted: none). */
const model = (key: string, ttl: number | null, withTask = true) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" name="${key} process" isExecutable="true"${ttl === null ? '' : ` camunda:historyTimeToLive="${ttl}"`}>
    <bpmn:startEvent id="start" />
    ${withTask ? `${flow('f1', 'start', 'review')}<bpmn:userTask id="review" />${flow('f2', 'review', 'end')}` : flow('f1', 'start', 'end')}
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const failing = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d_failing" targetNamespace="http://trellis.test">
  <bpmn:process id="failing" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}
    <bpmn:serviceTask id="work" camunda:asyncBefore="true" camunda:expression="\${missing}" />${flow('f2', 'work', 'end')}
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

describe.each(testStoreConfigs())('history reports on $name', (testStore) => {
  async function engineWith(config: Omit<Partial<EngineConfig>, 'clock'> = {}) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), historyTimeToLive: null, enforceHistoryTimeToLive: false, ...config });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0];
    const finishTask = async (instanceId: string) => {
      const [task] = await engine.task.findTasks({ processInstanceId: instanceId });
      await engine.task.complete(task.id);
    };
    /** Test-only: writes a removal time straight into history, as the cleanup's removal-time strategies would. */
    const setRemovalTime = (instanceId: string, at: Date) =>
      (engine as unknown as { container: { get: (key: unknown) => CommandExecutor } }).container.get(CommandExecutor).run('SetRemovalTimeForTest', async (ctx) => {
        await ctx.trx.updateTable('trellis_hi_procinst').set({ removal_time: at.getTime() }).where('id', '=', instanceId).execute();
      });
    return { engine: engine as ProcessEngine & { clock: FixedClock }, deploy, finishTask, setRemovalTime };
  }
  const row = <R extends { processDefinitionKey: string }>(rows: R[], key: string) => rows.find((each) => each.processDefinitionKey === key);

  describe('the cleanable process instance report', () => {
    it('counts finished instances and, end-time based, those past their time to live', async () => {
      const { engine, deploy, finishTask } = await engineWith({ historyCleanup: { strategy: 'endTimeBased' } });
      const five = await deploy(model('five', 5));
      const zero = await deploy(model('zero', 0, false));
      const none = await deploy(model('none', null, false));
      const first = await engine.runtime.startProcessInstanceById(five.id);
      await engine.runtime.startProcessInstanceById(five.id);
      await finishTask(first.id);
      await engine.runtime.startProcessInstanceById(zero.id);
      await engine.runtime.startProcessInstanceById(none.id);

      const report = await engine.history.reports.cleanableProcessInstances();
      expect(report.map((each) => each.processDefinitionId)).toEqual([five.id, none.id, zero.id].sort());
      expect(row(report, 'five')).toEqual({
        processDefinitionId: five.id, processDefinitionKey: 'five', processDefinitionName: 'five process', processDefinitionVersion: 1,
        historyTimeToLive: 5, finishedProcessInstanceCount: 1, cleanableProcessInstanceCount: 0, tenantId: null,
      });
      expect(row(report, 'zero')).toMatchObject({ historyTimeToLive: 0, finishedProcessInstanceCount: 1, cleanableProcessInstanceCount: 1 });
      expect(row(report, 'none')).toMatchObject({ historyTimeToLive: null, finishedProcessInstanceCount: 1, cleanableProcessInstanceCount: 0 });

      engine.clock.advance(5 * DAY - 1);
      expect(row(await engine.history.reports.cleanableProcessInstances(), 'five')!.cleanableProcessInstanceCount).toBe(0);
      engine.clock.advance(1);
      expect(row(await engine.history.reports.cleanableProcessInstances(), 'five')!.cleanableProcessInstanceCount).toBe(1);
    });

    it('counts, removal-time based, the instances whose removal time has come', async () => {
      const { engine, deploy, finishTask, setRemovalTime } = await engineWith();
      const five = await deploy(model('five', 5));
      const [a, b] = [await engine.runtime.startProcessInstanceById(five.id), await engine.runtime.startProcessInstanceById(five.id)];
      await finishTask(a.id);
      await finishTask(b.id);
      await setRemovalTime(a.id, new Date(engine.clock.now().getTime() - 1));
      await setRemovalTime(b.id, new Date(engine.clock.now().getTime() + DAY));

      expect(row(await engine.history.reports.cleanableProcessInstances(), 'five')).toMatchObject({ finishedProcessInstanceCount: 2, cleanableProcessInstanceCount: 1 });
      engine.clock.advance(DAY);
      expect(row(await engine.history.reports.cleanableProcessInstances(), 'five')).toMatchObject({ finishedProcessInstanceCount: 2, cleanableProcessInstanceCount: 2 });
    });

    it('filters by definition and tenant, leaves out idle definitions when compact and sorts by finished count', async () => {
      const { engine, deploy } = await engineWith();
      const quick = await deploy(model('quick', 5, false));
      const idle = await deploy(model('idle', 5));
      for (let i = 0; i < 2; i++) await engine.runtime.startProcessInstanceById(quick.id);
      const reports = engine.history.reports;

      expect((await reports.cleanableProcessInstances({ processDefinitionKeyIn: ['idle'] })).map((each) => each.processDefinitionId)).toEqual([idle.id]);
      expect((await reports.cleanableProcessInstances({ processDefinitionIdIn: [quick.id] })).map((each) => each.processDefinitionId)).toEqual([quick.id]);
      expect(await reports.countCleanableProcessInstances({ compact: true })).toBe(1);
      expect(await reports.countCleanableProcessInstances({ withoutTenantId: true })).toBe(2);
      expect(await reports.countCleanableProcessInstances({ tenantIdIn: ['acme'] })).toBe(0);
      const sorted = await reports.cleanableProcessInstances({ sorting: [{ sortBy: 'finished', sortOrder: 'desc' }] });
      expect(sorted.map((each) => each.finishedProcessInstanceCount)).toEqual([2, 0]);
      expect(await reports.cleanableProcessInstances({ sorting: [{ sortBy: 'finished', sortOrder: 'asc' }], firstResult: 1, maxResults: 1 })).toMatchObject([{ processDefinitionKey: 'quick' }]);
    });

    it('shows only definitions with both READ and READ_HISTORY', async () => {
      const { engine, deploy } = await engineWith({ authorization: { enabled: true } });
      await deploy(model('one', 5));
      await deploy(model('two', 5));
      const grant = (resourceId: string, permissions: string[]) =>
        engine.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType: 6, resourceId, permissions });
      const asMia = () => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, () => engine.history.reports.cleanableProcessInstances());
      await grant('one', ['READ_HISTORY']);
      await grant('two', ['READ']);
      expect(await asMia()).toEqual([]);
      await grant('*', ['READ']);
      expect((await asMia()).map((each) => each.processDefinitionKey)).toEqual(['one']);
    });
  });

  describe('historic activity statistics', () => {
    it('counts running instances per activity and, when asked, finished, canceled and scope-completing ones', async () => {
      const { engine, deploy, finishTask } = await engineWith();
      const definition = await deploy(model('approval', 5));
      const [done, cancelled, running] = [
        await engine.runtime.startProcessInstanceById(definition.id),
        await engine.runtime.startProcessInstanceById(definition.id),
        await engine.runtime.startProcessInstanceById(definition.id),
      ];
      await finishTask(done.id);
      await engine.runtime.deleteProcessInstance(cancelled.id);
      const statistics = (query: object = {}) => engine.history.reports.activityStatistics({ processDefinitionId: definition.id, ...query });

      expect(await statistics()).toEqual([
        { id: 'review', instances: 1, finished: 0, canceled: 0, completeScope: 0, openIncidents: 0, resolvedIncidents: 0, deletedIncidents: 0 },
      ]);
      const all = await statistics({ finished: true, canceled: true, completeScope: true });
      expect(all.map((each) => each.id)).toEqual(['end', 'review', 'start']);
      expect(all.find((each) => each.id === 'review')).toMatchObject({ instances: 1, finished: 2, canceled: 1 });
      expect(all.find((each) => each.id === 'start')).toMatchObject({ instances: 0, finished: 3, canceled: 0 });
      for (const stats of all) {
        const scopeCompleting = await engine.history.countHistoricActivityInstances({ processDefinitionId: definition.id, activityId: stats.id, completeScope: true });
        expect(stats.completeScope).toBe(scopeCompleting);
      }
      expect((await statistics({ canceled: true })).map((each) => [each.id, each.instances, each.canceled])).toEqual([['review', 1, 1]]);
      expect((await statistics({ finished: true, sorting: [{ sortBy: 'activityId', sortOrder: 'desc' }] })).map((each) => each.id)).toEqual(['start', 'review', 'end']);
      expect((await statistics({ finished: true, processInstanceIdIn: [running.id] })).map((each) => [each.id, each.instances, each.finished])).toEqual([
        ['review', 1, 0], ['start', 0, 1],
      ]);
      expect(await statistics({ finished: true, finishedAfter: new Date(0) })).toHaveLength(3);
      expect(await statistics({ startedAfter: new Date(engine.clock.now().getTime() + 1) })).toEqual([]);
    });

    it('counts incidents per activity by state', async () => {
      const { engine, deploy } = await engineWith();
      const definition = await deploy(failing);
      await engine.runtime.startProcessInstanceById(definition.id);
      await engine.jobExecutor.runDueJobs();
      expect(await engine.history.incidents.count({ processDefinitionId: definition.id })).toBe(1);

      const [work] = await engine.history.reports.activityStatistics({ processDefinitionId: definition.id, incidents: true });
      expect(work).toMatchObject({ id: 'work', openIncidents: 1, resolvedIncidents: 0, deletedIncidents: 0 });
      const withoutIncidents = await engine.history.reports.activityStatistics({ processDefinitionId: definition.id });
      expect(withoutIncidents.every((each) => each.openIncidents === 0)).toBe(true);
    });

    it('is empty without READ_HISTORY on the definition', async () => {
      const { engine, deploy } = await engineWith({ authorization: { enabled: true } });
      const definition = await deploy(model('approval', 5));
      await engine.runtime.startProcessInstanceById(definition.id);
      const asMia = () => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, () => engine.history.reports.activityStatistics({ processDefinitionId: definition.id }));
      expect(await asMia()).toEqual([]);
      await engine.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType: 6, resourceId: 'approval', permissions: ['READ_HISTORY'] });
      expect((await asMia()).map((each) => each.id)).toEqual(['review']);
    });
  });

  describe('the duration report', () => {
    it('gives minimum, maximum and average durations per month and quarter of the start', async () => {
      const { engine, deploy, finishTask } = await engineWith();
      const definition = await deploy(model('approval', 5));
      const run = async (start: string, hours: number) => {
        engine.clock.set(new Date(start));
        const instance = await engine.runtime.startProcessInstanceById(definition.id);
        engine.clock.advance(hours * HOUR);
        await finishTask(instance.id);
      };
      await run('2026-01-10T12:00:00', 1);
      await run('2026-01-20T12:00:00', 2);
      await run('2026-02-10T12:00:00', 4);
      await run('2025-04-10T12:00:00', 8);
      engine.clock.set(new Date('2026-06-10T12:00:00'));
      await engine.runtime.startProcessInstanceById(definition.id); // unfinished: not in the report

      expect(await engine.history.reports.durationReport('MONTH')).toEqual([
        { period: 1, periodUnit: 'MONTH', minimum: HOUR, maximum: 2 * HOUR, average: 1.5 * HOUR },
        { period: 2, periodUnit: 'MONTH', minimum: 4 * HOUR, maximum: 4 * HOUR, average: 4 * HOUR },
        { period: 4, periodUnit: 'MONTH', minimum: 8 * HOUR, maximum: 8 * HOUR, average: 8 * HOUR },
      ]);
      expect(await engine.history.reports.durationReport('QUARTER')).toEqual([
        { period: 1, periodUnit: 'QUARTER', minimum: HOUR, maximum: 4 * HOUR, average: Math.trunc((7 * HOUR) / 3) },
        { period: 2, periodUnit: 'QUARTER', minimum: 8 * HOUR, maximum: 8 * HOUR, average: 8 * HOUR },
      ]);
      expect(await engine.history.reports.durationReport('QUARTER', { startedAfter: new Date('2026-01-01T00:00:00') })).toMatchObject([{ period: 1, maximum: 4 * HOUR }]);
      expect(await engine.history.reports.durationReport('MONTH', { processDefinitionKeyIn: ['other'] })).toEqual([]);
      expect(await engine.history.reports.durationReport('MONTH', { startedAfter: new Date('2026-02-01'), startedBefore: new Date('2026-01-01') })).toEqual([]);
      await expect(engine.history.reports.durationReport(null)).rejects.toMatchObject({ name: 'NotValidException', message: 'periodUnit is null' });
    });

    it('needs READ_HISTORY on the named definitions, or on all of them', async () => {
      const { engine, deploy } = await engineWith({ authorization: { enabled: true } });
      const definition = await deploy(model('approval', 5));
      const asMia = (query: object) => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, () => engine.history.reports.durationReport('MONTH', query));
      await engine.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType: 6, resourceId: 'approval', permissions: ['READ_HISTORY'] });
      expect(await asMia({ processDefinitionIdIn: [definition.id] })).toEqual([]);
      await expect(asMia({})).rejects.toMatchObject({ name: 'AuthorizationException' });
      await expect(asMia({ processDefinitionKeyIn: ['other'] })).rejects.toMatchObject({ name: 'AuthorizationException' });
    });
  });
});
