import { afterEach, describe, expect, it } from 'vitest';
import { formatRestDate } from '../src/dto/dates.js';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

// start → work (user task) → end
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="review" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:userTask id="work" /><bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
const T0 = new Date('2026-01-15T10:00:00.000Z');
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

let rest: RestHarness;
afterEach(async () => rest.close());

async function harness(options: Parameters<typeof startRestHarness>[0] = {}, restOptions: Parameters<typeof startRestHarness>[1] = {}) {
  rest = await startRestHarness({ hostname: 'node-a', ...options }, restOptions);
  await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(MODEL) }] });
  return rest;
}
const startInstances = async (count: number) => {
  for (let i = 0; i < count; i++) await rest.request('POST', '/process-definition/key/review/start', { json: {} });
};

describe('GET /metrics', () => {
  it('sums a metric per interval, newest first, under the name it was asked by', async () => {
    await harness();
    await startInstances(2);
    await rest.engine.metrics.flush();
    rest.engine.clock.advance(20 * 60_000);
    await startInstances(1);
    await rest.engine.metrics.flush();

    const byAlias = await rest.request('GET', '/metrics', { query: { name: 'flow-node-instances' } });
    const byInternal = await rest.request('GET', '/metrics', { query: { name: 'activity-instance-start', interval: 3600, aggregateByReporter: false } });
    const paged = await rest.request('GET', '/metrics', { query: { name: 'process-instances', firstResult: 1, maxResults: 5 } });

    expect(byAlias.status).toBe(200);
    expect(byAlias.body).toEqual([
      { timestamp: formatRestDate(at(15)), name: 'flow-node-instances', reporter: 'node-a', value: 2 },
      { timestamp: formatRestDate(at(0)), name: 'flow-node-instances', reporter: 'node-a', value: 4 },
    ]);
    // aggregateByReporter aggregates whenever it is present (Camunda reads no value)
    expect(byInternal.body).toEqual([{ timestamp: formatRestDate(at(0)), name: 'activity-instance-start', reporter: null, value: 6 }]);
    expect(paged.body).toEqual([{ timestamp: formatRestDate(at(0)), name: 'process-instances', reporter: 'node-a', value: 2 }]);
  });

  it('lists every metric under its public name when none is asked for, filtered by reporter and dates', async () => {
    await harness();
    await startInstances(1);
    await rest.engine.metrics.flush();

    const all = await rest.request('GET', '/metrics', { query: { reporter: 'node-a', startDate: formatRestDate(at(0)), endDate: formatRestDate(at(1)) } });
    const otherReporter = await rest.request('GET', '/metrics', { query: { reporter: 'node-b' } });
    const later = await rest.request('GET', '/metrics', { query: { startDate: formatRestDate(at(1)) } });

    expect(all.body).toHaveLength(12);
    expect(all.body).toContainEqual({ timestamp: formatRestDate(at(0)), name: 'process-instances', reporter: 'node-a', value: 1 });
    expect(all.body).toContainEqual({ timestamp: formatRestDate(at(0)), name: 'activity-instance-end', reporter: 'node-a', value: 1 });
    expect(otherReporter.body).toEqual([]);
    expect(later.body).toEqual([]);
    // An empty name or reporter is a filter too (Camunda's query filters on '').
    expect((await rest.request('GET', '/metrics', { query: { reporter: '' } })).body).toEqual([]);
    expect((await rest.request('GET', '/metrics', { query: { name: '' } })).body).toEqual([]);
  });

  it('answers 400 for parameters that do not convert or an interval below one second, 500 above 200 rows', async () => {
    await harness();

    const interval = await rest.request('GET', '/metrics', { query: { interval: 'often' } });
    const zero = await rest.request('GET', '/metrics', { query: { interval: 0 } });
    const date = await rest.request('GET', '/metrics', { query: { startDate: 'yesterday' } });
    const first = await rest.request('GET', '/metrics', { query: { firstResult: 'x' } });
    const tooMany = await rest.request('GET', '/metrics', { query: { maxResults: 201 } });

    expect(interval.status).toBe(400);
    expect(interval.body).toEqual({ type: 'InvalidRequestException', message: 'Cannot convert value often to java type java.lang.Long', code: null });
    expect(zero.status).toBe(400);
    expect(zero.body.type).toBe('BadUserRequestException');
    expect(date.status).toBe(400);
    expect(date.body.message).toBe('Cannot convert value "yesterday" to java type java.util.Date');
    expect(first.body.message).toBe('Cannot convert value x to java type java.lang.Integer');
    expect(tooMany.status).toBe(500);
    expect(tooMany.body).toMatchObject({ type: 'ProcessEngineException', message: "Metrics interval query row limit can't be set larger than 200." });
  });
});

describe('GET /metrics/{metrics-name}/sum', () => {
  it('sums a metric by either name over a range, counting what is not reported yet', async () => {
    await harness();
    await startInstances(3);
    await rest.engine.metrics.flush();
    rest.engine.clock.advance(20 * 60_000);
    await startInstances(1);

    const alias = await rest.request('GET', '/metrics/process-instances/sum');
    const internal = await rest.request('GET', '/metrics/root-process-instance-start/sum', { query: { startDate: formatRestDate(at(10)) } });
    const reported = await rest.request('GET', '/metrics/flow-node-instances/sum', { query: { startDate: formatRestDate(at(0)), endDate: formatRestDate(at(1)) } });
    const unknown = await rest.request('GET', '/metrics/executed-decision-elements/sum');
    const invalid = await rest.request('GET', '/metrics/process-instances/sum', { query: { endDate: 'soon' } });

    expect(alias.body).toEqual({ result: 4 });
    expect(internal.body).toEqual({ result: 1 });
    expect(reported.body).toEqual({ result: 6 });
    expect(unknown.body).toEqual({ result: 0 });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('Cannot convert value "soon" to java type java.util.Date');
  });

  it('counts unique task workers from the assignments, as task-users too', async () => {
    await harness();
    await startInstances(3);
    const tasks = await rest.engine.task.findTasks({});
    await rest.request('POST', `/task/${tasks[0].id}/claim`, { json: { userId: 'alice' } });
    rest.engine.clock.advance(60_000);
    await rest.request('POST', `/task/${tasks[1].id}/claim`, { json: { userId: 'bob' } });
    await rest.request('POST', `/task/${tasks[2].id}/assignee`, { json: { userId: 'alice' } });

    const workers = await rest.request('GET', '/metrics/unique-task-workers/sum');
    const users = await rest.request('GET', '/metrics/task-users/sum', { query: { endDate: formatRestDate(at(1)) } });

    expect(workers.body).toEqual({ result: 2 });
    expect(users.body).toEqual({ result: 1 });
  });
});

describe('DELETE /metrics/task-worker', () => {
  it('deletes the task worker metrics up to the date, then all of them', async () => {
    await harness();
    await startInstances(2);
    const tasks = await rest.engine.task.findTasks({});
    await rest.request('POST', `/task/${tasks[0].id}/claim`, { json: { userId: 'alice' } });
    rest.engine.clock.advance(60_000);
    await rest.request('POST', `/task/${tasks[1].id}/claim`, { json: { userId: 'bob' } });

    const upTo = await rest.request('DELETE', '/metrics/task-worker', { query: { date: formatRestDate(at(0)) } });
    const left = await rest.request('GET', '/metrics/task-users/sum');
    const all = await rest.request('DELETE', '/metrics/task-worker');
    const none = await rest.request('GET', '/metrics/task-users/sum');
    const invalid = await rest.request('DELETE', '/metrics/task-worker', { query: { date: 'now' } });

    expect(upTo.status).toBe(204);
    expect(left.body).toEqual({ result: 1 });
    expect(all.status).toBe(204);
    expect(none.body).toEqual({ result: 0 });
    expect(invalid.status).toBe(400);
  });

  it('answers 403 unless the user is an administrator or may DELETE on System; reading needs no permission', async () => {
    await harness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.engine.identity.createUser({ id: 'ops', firstName: 'O', lastName: 'Ps', email: null }, 'ops-secret');
    const ops = basic('ops', 'ops-secret');

    const denied = await rest.request('DELETE', '/metrics/task-worker', { headers: ops });
    const byAdmin = await rest.request('DELETE', '/metrics/task-worker', { headers: basic('admin', 'admin-secret') });
    const read = await rest.request('GET', '/metrics', { headers: ops });
    const sum = await rest.request('GET', '/metrics/task-users/sum', { headers: ops });

    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      type: 'AuthorizationException',
      message: "ENGINE-03110 Required admin authenticated group or user or any of the following permissions: 'DELETE' permission on resource 'System'.",
      code: 0,
      userId: null,
      resourceName: null,
      resourceId: null,
      permissionName: null,
      missingAuthorizations: [],
    });
    expect(byAdmin.status).toBe(204);
    expect(read.status).toBe(200);
    expect(sum.body).toEqual({ result: 0 });
    // Camunda's DeleteTaskMetricsCmd logs the deletion (with its date when one is given).
    const at0 = formatRestDate(at(0));
    await rest.request('DELETE', '/metrics/task-worker', { query: { date: at0 }, headers: basic('admin', 'admin-secret') });
    const logged = (await rest.request('GET', '/history/user-operation', { query: { entityType: 'TaskMetrics', sortBy: 'timestamp', sortOrder: 'asc' }, headers: basic('admin', 'admin-secret') })).body;
    expect(logged.map((entry: { operationType: string; property: string | null; newValue: string | null }) => [entry.operationType, entry.property, entry.newValue])).toEqual([
      ['Delete', null, null],
      ['Delete', 'timestamp', String(at(0).getTime())],
    ]);
  });
});
