import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { AuthorizationException, BadUserRequestException, ProcessEngineException } from '../../src/errors/index.js';
import { FixedClock, createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import type { EngineConfig } from '../../src/config.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → charge (async, a Java-class delegate) → review (user task) → end. */
const MODEL = wrap(
  'order',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'charge')}
   <bpmn:serviceTask id="charge" camunda:class="com.example.Charge" camunda:asyncBefore="true" />
   ${flow('f2', 'charge', 'review')}<bpmn:userTask id="review" />${flow('f3', 'review', 'end')}<bpmn:endEvent id="end" />`,
);
const T0 = new Date('2026-01-15T10:00:00.000Z');
const MINUTE = 60_000;
const ADMIN = { userId: 'admin', groupIds: ['camunda-admin'], tenantIds: [] };

describe.each(testStoreConfigs())('engine metrics on $name', (testStore) => {
  async function setup(options: Partial<EngineConfig> & { clock?: FixedClock } = {}) {
    const engine = await createTestEngine({ hostname: 'node-a', store: testStore.config(expect.getState().currentTestName!), ...options });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'order.bpmn', bytes: Buffer.from(MODEL) }] });
    definitions.set(engine, processDefinitions![0].id);
    return engine;
  }
  const definitions = new Map<ProcessEngine, string>();
  const start = (engine: ProcessEngine) => engine.runtime.startProcessInstanceById(definitions.get(engine)!);
  const reviewOf = async (engine: ProcessEngine, processInstanceId: string) => (await engine.task.findTasks({ processInstanceId }))[0];

  it('counts flow nodes, root instances and jobs as the work is done, and reports them to the meter log', async () => {
    const engine = await setup();
    let failures = 1;
    engine.delegates.registerClass('com.example.Charge', () => {
      if (failures-- > 0) throw new Error('card declined');
    });
    const [a] = [await start(engine), await start(engine), await start(engine)];
    await engine.jobExecutor.runDueJobs();
    await engine.task.complete((await reviewOf(engine, a.id)).id);
    const unreported = await engine.metrics.sum('activity-instance-start');

    await engine.metrics.flush();

    // 3 × (start, charge, review) + end of the completed one; ends: 3 × (start, charge) + review and end of one
    expect(unreported).toBe(10);
    expect(await engine.metrics.sum('activity-instance-start')).toBe(10);
    expect(await engine.metrics.sum('flow-node-instances')).toBe(10);
    expect(await engine.metrics.sum('activity-instance-end')).toBe(8);
    expect(await engine.metrics.sum('root-process-instance-start')).toBe(3);
    expect(await engine.metrics.sum('process-instances')).toBe(3);
    expect(await engine.metrics.sum('job-successful')).toBe(3);
    expect(await engine.metrics.sum('job-failed')).toBe(1);
    expect(await engine.metrics.sum('job-acquired-success')).toBe(4);
    expect(await engine.metrics.sum('job-acquisition-attempt')).toBe(3);
    expect(await engine.metrics.sum('executed-decision-instances')).toBe(0);
    expect(await engine.metrics.sum('decision-instances')).toBe(0);
    expect(await engine.metrics.sum('no-such-metric')).toBe(0);
    expect(engine.metrics.metricCounts()).toEqual({
      'process-instances': 3,
      'flow-node-instances': 10,
      'decision-instances': 0,
      'executed-decision-elements': 0,
    });
  });

  it('counts a multi-instance body as a flow node, and a standalone task as a started one', async () => {
    const engine = await setup();
    const { processDefinitions } = await engine.deployment.deploy({
      resources: [{
        name: 'mi.bpmn',
        bytes: Buffer.from(wrap('mi', `<bpmn:startEvent id="s" />${flow('m1', 's', 'each')}
          <bpmn:manualTask id="each"><bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>3</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:manualTask>
          ${flow('m2', 'each', 'e')}<bpmn:endEvent id="e" />`)),
      }],
    });
    await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    await engine.task.createTask({ name: 'note' });

    // Camunda's metrics listeners sit on the body too: start, body, 3 instances, end; and the task's start.
    expect(await engine.metrics.sum('activity-instance-start')).toBe(7);
    expect(await engine.metrics.sum('activity-instance-end')).toBe(6);
  });

  it('counts nothing of a command that rolled back', async () => {
    const engine = await setup();
    engine.delegates.registerClass('com.example.Charge', () => {
      throw new Error('card declined');
    });
    await start(engine);
    const job = (await engine.management.findJobs({}))[0];

    await expect(engine.management.executeJob(job.id)).rejects.toThrow('card declined');

    expect(await engine.metrics.sum('activity-instance-start')).toBe(1);
    expect(await engine.metrics.sum('job-successful')).toBe(0);
    expect(await engine.metrics.sum('job-failed')).toBe(1);
  });

  it('sums per interval, newest first, per reporter or over all reporters', async () => {
    const store = testStore.config(expect.getState().currentTestName!, { shared: true });
    const clock = new FixedClock(T0);
    const nodeA = await setup({ store, clock, hostname: 'node-a' });
    await start(nodeA);
    await start(nodeA);
    await nodeA.metrics.flush(); // 10:00, node-a: 2 root instances
    clock.advance(20 * MINUTE);
    await start(nodeA);
    await nodeA.close(); // 10:20, node-a: 1 (reported on close)
    const nodeB = await setup({ store, clock, hostname: 'node-b' });
    await start(nodeB);
    await nodeB.metrics.flush(); // 10:20, node-b: 1
    await start(nodeB); // not reported yet: joins the newest interval

    const perReporter = await nodeB.metrics.interval({ name: 'process-instances' });
    const aggregated = await nodeB.metrics.interval({ name: 'root-process-instance-start', aggregateByReporter: true });
    const hourly = await nodeB.metrics.interval({ name: 'process-instances', interval: 3600, aggregateByReporter: true });
    const onlyA = await nodeB.metrics.interval({ name: 'process-instances', reporter: 'node-a' });
    const paged = await nodeB.metrics.interval({ name: 'process-instances', firstResult: 1, maxResults: 1 });
    const early = await nodeB.metrics.interval({ name: 'process-instances', endDate: new Date(T0.getTime() + 5 * MINUTE) });

    const at = (minutes: number) => new Date(T0.getTime() + minutes * MINUTE);
    expect(perReporter).toEqual([
      { timestamp: at(15), name: 'process-instances', reporter: 'node-a', value: 1 },
      { timestamp: at(15), name: 'process-instances', reporter: 'node-b', value: 2 },
      { timestamp: at(0), name: 'process-instances', reporter: 'node-a', value: 2 },
    ]);
    expect(aggregated).toEqual([
      { timestamp: at(15), name: 'process-instances', reporter: null, value: 3 },
      { timestamp: at(0), name: 'process-instances', reporter: null, value: 2 },
    ]);
    expect(hourly).toEqual([{ timestamp: at(0), name: 'process-instances', reporter: null, value: 5 }]);
    expect(onlyA.map((row) => row.value)).toEqual([1, 2]);
    expect(paged).toEqual([{ timestamp: at(15), name: 'process-instances', reporter: 'node-b', value: 2 }]);
    expect(early).toEqual([{ timestamp: at(0), name: 'process-instances', reporter: 'node-a', value: 2 }]);
    // the end is exclusive; a range reaching into the last reporting period includes the unreported count
    expect(await nodeB.metrics.sum('process-instances', { startDate: at(10) })).toBe(3);
    expect(await nodeB.metrics.sum('process-instances', { startDate: at(0), endDate: at(20) })).toBe(3);
    expect(await nodeB.metrics.sum('process-instances', { endDate: at(1) })).toBe(2);
  });

  it('reports every meter (zeros too) under public names when no name is asked for', async () => {
    const engine = await setup();
    await start(engine);
    await engine.metrics.flush();

    const rows = await engine.metrics.interval();

    expect(rows.map((row) => row.name).sort()).toEqual(
      [
        'flow-node-instances',
        'activity-instance-end',
        'process-instances',
        'job-acquisition-attempt',
        'job-acquired-success',
        'job-acquired-failure',
        'job-successful',
        'job-failed',
        'job-locked-exclusive',
        'job-execution-rejected',
        'decision-instances',
        'executed-decision-elements',
      ].sort(),
    );
    expect(rows.find((row) => row.name === 'flow-node-instances')).toMatchObject({ reporter: 'node-a', value: 1, timestamp: T0 });
  });

  it('refuses an interval that is not a positive number of seconds and more than 200 rows', async () => {
    const engine = await setup();

    await expect(engine.metrics.interval({ interval: 0 })).rejects.toThrow(BadUserRequestException);
    await expect(engine.metrics.interval({ maxResults: 201 })).rejects.toThrow(
      new ProcessEngineException("Metrics interval query row limit can't be set larger than 200."),
    );
  });

  it('counts each user once as a task worker, by the assignments in the range', async () => {
    const engine = await setup();
    engine.delegates.registerClass('com.example.Charge', () => {});
    const instances = [await start(engine), await start(engine), await start(engine)];
    await engine.jobExecutor.runDueJobs();
    const [first, second, third] = await Promise.all(instances.map((instance) => reviewOf(engine, instance.id)));

    await engine.task.claim(first.id, 'alice');
    engine.clock.advance(10 * MINUTE);
    await engine.task.setAssignee(second.id, 'bob');
    await engine.task.setAssignee(second.id, 'bob'); // no new assignment
    await engine.task.delegateTask(third.id, 'alice');
    engine.clock.advance(10 * MINUTE);
    await engine.task.setAssignee(first.id, 'carol');

    expect(await engine.metrics.sum('unique-task-workers')).toBe(3);
    expect(await engine.metrics.sum('task-users', { startDate: new Date(T0.getTime() + 5 * MINUTE) })).toBe(3);
    expect(await engine.metrics.uniqueTaskWorkerCount({ startDate: new Date(T0.getTime() + 5 * MINUTE), endDate: new Date(T0.getTime() + 20 * MINUTE) })).toBe(2);
    expect(await engine.metrics.uniqueTaskWorkerCount({ endDate: new Date(T0.getTime() + 5 * MINUTE) })).toBe(1);
  });

  it('deletes task worker metrics up to a date, or all of them', async () => {
    const engine = await setup();
    engine.delegates.registerClass('com.example.Charge', () => {});
    const instances = [await start(engine), await start(engine)];
    await engine.jobExecutor.runDueJobs();
    const [first, second] = await Promise.all(instances.map((instance) => reviewOf(engine, instance.id)));
    await engine.task.claim(first.id, 'alice');
    engine.clock.advance(10 * MINUTE);
    await engine.task.claim(second.id, 'bob');

    await engine.metrics.deleteTaskMetrics(new Date(T0.getTime() + 10 * MINUTE - 1));
    const afterDate = await engine.metrics.sum('task-users');
    await engine.metrics.deleteTaskMetrics();
    const afterAll = await engine.metrics.sum('task-users');

    expect(afterDate).toBe(1);
    expect(afterAll).toBe(0);
  });

  it('lets only administrators and users with DELETE on System delete task worker metrics', async () => {
    const engine = await setup({ authorization: { enabled: true } });
    await engine.identity.setUpAdministrator('admin', 'admin-secret');
    await engine.identity.createUser({ id: 'ops', firstName: 'O', lastName: 'Ps', email: null }, 'ops-secret');
    const ops = { userId: 'ops', groupIds: [], tenantIds: [] };

    const denied = await engine.runAs(ops, () => engine.metrics.deleteTaskMetrics()).catch((error) => error);
    await engine.runAs(ADMIN, () => engine.metrics.deleteTaskMetrics());
    await engine.runAs(ADMIN, () =>
      engine.authorization.createAuthorization({ type: 1, userId: 'ops', resourceType: 21, resourceId: '*', permissions: ['DELETE'] }),
    );
    await engine.runAs(ops, () => engine.metrics.deleteTaskMetrics());
    const read = await engine.runAs(ops, () => engine.metrics.sum('process-instances'));

    expect(denied).toBeInstanceOf(AuthorizationException);
    expect(denied.message).toBe(
      "ENGINE-03110 Required admin authenticated group or user or any of the following permissions: 'DELETE' permission on resource 'System'.",
    );
    expect(read).toBe(0);
  });

  it('reports on close what was not reported yet', async () => {
    const store = testStore.config(expect.getState().currentTestName!, { shared: true });
    const first = await setup({ store, metricsReportingInterval: 0 });
    await start(first);
    await first.close();

    const second = await setup({ store });

    expect(await second.metrics.sum('process-instances')).toBe(1);
    expect(second.metrics.metricCounts()['process-instances']).toBe(0);
  });
});
