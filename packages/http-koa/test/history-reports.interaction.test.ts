import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testStoreConfigs } from '@trellis/core/testing';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const HOUR = 3_600_000;
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" name="Approval" isExecutable="true" camunda:historyTimeToLive="0">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="idle" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="idleStart" />
    <bpmn:sequenceFlow id="i1" sourceRef="idleStart" targetRef="idleEnd" />
    <bpmn:endEvent id="idleEnd" />
  </bpmn:process>
</bpmn:definitions>`;

const get = (path: string, query: Record<string, string | number | boolean> = {}, headers?: Record<string, string>) => rest.request('GET', path, { query, headers });

async function deploy(headers?: Record<string, string>) {
  await rest.request('POST', '/deployment/create', { form: deploymentForm(), headers });
  const definitions = (await get('/process-definition', { sortBy: 'key', sortOrder: 'asc' }, headers)).body as Array<{ id: string; key: string }>;
  return Object.fromEntries(definitions.map((each) => [each.key, each.id])) as Record<'approval' | 'idle', string>;
}

function deploymentForm(): FormData {
  const form = new FormData();
  form.append('deployment-name', 'reports');
  form.append('model.bpmn', new Blob([MODEL]), 'model.bpmn');
  return form;
}

/** Starts an approval at `start` and completes its task `hours` later. */
async function runApproval(start: string, hours: number) {
  rest.engine.clock.set(new Date(start));
  const instance = (await rest.request('POST', '/process-definition/key/approval/start', { json: {} })).body.id as string;
  rest.engine.clock.advance(hours * HOUR);
  const [task] = (await get('/task', { processInstanceId: instance })).body;
  await rest.request('POST', `/task/${task.id}/complete`, { json: {} });
  return instance;
}

describe.each(testStoreConfigs())('the history reports on $name', (testStore) => {
  let ids: Record<'approval' | 'idle', string>;

  beforeEach(async () => {
    rest = await startRestHarness({ store: testStore.config(expect.getState().currentTestName!), historyCleanup: { strategy: 'endTimeBased' } });
    ids = await deploy();
  });
  afterEach(async () => rest.close());

  it('answers the cleanable process instance report and its count', async () => {
    await runApproval('2026-01-10T12:00:00Z', 1);
    await rest.request('POST', '/process-definition/key/approval/start', { json: {} });

    const report = await get('/history/process-definition/cleanable-process-instance-report');
    expect(report.status).toBe(200);
    expect(report.body).toContainEqual({
      processDefinitionId: ids.approval, processDefinitionKey: 'approval', processDefinitionName: 'Approval', processDefinitionVersion: 1,
      historyTimeToLive: 0, finishedProcessInstanceCount: 1, cleanableProcessInstanceCount: 1, tenantId: null,
    });
    expect((await get('/history/process-definition/cleanable-process-instance-report/count')).body).toEqual({ count: 2 });
    expect((await get('/history/process-definition/cleanable-process-instance-report/count', { compact: true })).body).toEqual({ count: 1 });
    const sorted = await get('/history/process-definition/cleanable-process-instance-report', { sortBy: 'finished', sortOrder: 'asc', maxResults: 1 });
    expect(sorted.body.map((each: { processDefinitionKey: string }) => each.processDefinitionKey)).toEqual(['idle']);
    const keyed = await get('/history/process-definition/cleanable-process-instance-report', { processDefinitionKeyIn: 'idle,other' });
    expect(keyed.body).toMatchObject([{ processDefinitionId: ids.idle, finishedProcessInstanceCount: 0, cleanableProcessInstanceCount: 0 }]);

    const badSort = await get('/history/process-definition/cleanable-process-instance-report', { sortBy: 'name', sortOrder: 'asc' });
    expect(badSort.status).toBe(400);
    expect(badSort.body.message).toBe("Cannot set query parameter 'sortBy' to value 'name'");
  });

  it('answers the activity statistics of a definition', async () => {
    const done = await runApproval('2026-01-10T12:00:00Z', 1);
    const running = (await rest.request('POST', '/process-definition/key/approval/start', { json: {} })).body.id as string;

    const plain = await get(`/history/process-definition/${ids.approval}/statistics`);
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual([
      { id: 'review', instances: 1, canceled: 0, finished: 0, completeScope: 0, openIncidents: 0, resolvedIncidents: 0, deletedIncidents: 0 },
    ]);
    const finished = await get(`/history/process-definition/${ids.approval}/statistics`, { finished: true, incidents: true, sortBy: 'activityId', sortOrder: 'desc' });
    expect(finished.body.map((each: { id: string; finished: number }) => [each.id, each.finished])).toEqual([['start', 2], ['review', 1], ['end', 1]]);
    const onlyDone = await get(`/history/process-definition/${ids.approval}/statistics`, { finished: true, processInstanceIdIn: done });
    expect(onlyDone.body.map((each: { id: string; instances: number }) => each.instances)).toEqual([0, 0, 0]);
    expect((await get(`/history/process-definition/${ids.approval}/statistics`, { processInstanceIdIn: running })).body).toHaveLength(1);
    expect((await get('/history/process-definition/unknown/statistics')).body).toEqual([]);
    expect((await get(`/history/process-definition/${ids.approval}/statistics`, { finished: 'yes' })).status).toBe(400);
  });

  it('answers the duration report as JSON and as CSV', async () => {
    await runApproval('2026-01-10T12:00:00', 1);
    await runApproval('2026-02-10T12:00:00', 3);
    await runApproval('2026-05-10T12:00:00', 2);

    const monthly = await get('/history/process-instance/report', { reportType: 'duration', periodUnit: 'month' });
    expect(monthly.status).toBe(200);
    expect(monthly.body).toEqual([
      { period: 1, periodUnit: 'MONTH', minimum: HOUR, maximum: HOUR, average: HOUR },
      { period: 2, periodUnit: 'MONTH', minimum: 3 * HOUR, maximum: 3 * HOUR, average: 3 * HOUR },
      { period: 5, periodUnit: 'MONTH', minimum: 2 * HOUR, maximum: 2 * HOUR, average: 2 * HOUR },
    ]);
    const quarterly = await get('/history/process-instance/report', { reportType: 'duration', periodUnit: 'QUARTER', processDefinitionIdIn: ids.approval });
    expect(quarterly.body).toEqual([
      { period: 1, periodUnit: 'QUARTER', minimum: HOUR, maximum: 3 * HOUR, average: 2 * HOUR },
      { period: 2, periodUnit: 'QUARTER', minimum: 2 * HOUR, maximum: 2 * HOUR, average: 2 * HOUR },
    ]);

    for (const accept of ['text/csv', 'application/csv']) {
      // The harness checks JSON bodies against the contract; a CSV body is checked here.
      const csv = await rest.request('GET', '/history/process-instance/report', {
        query: { reportType: 'duration', periodUnit: 'quarter' }, headers: { Accept: accept }, outsideContract: true,
      });
      expect(csv.status).toBe(200);
      expect(csv.headers.get('content-type')).toContain(accept);
      expect(csv.headers.get('content-disposition')).toBe(`attachment; filename="process-instance-report.csv"; filename*=UTF-8''process-instance-report.csv`);
      expect(csv.body.toString('utf8')).toBe(`PERIOD,PERIOD_UNIT,MINIMUM,MAXIMUM,AVERAGE\n1,QUARTER,${HOUR},${3 * HOUR},${2 * HOUR}\n2,QUARTER,${2 * HOUR},${2 * HOUR},${2 * HOUR}`);
    }
  });

  it('refuses duration reports with a missing or unknown report type or period unit, as Camunda words it', async () => {
    const refused = async (query: Record<string, string>, message: string) => {
      const response = await get('/history/process-instance/report', query);
      expect(response.status).toBe(400);
      expect(response.body).toMatchObject({ type: 'InvalidRequestException', message });
    };
    await refused({ periodUnit: 'month' }, 'Unknown report type null');
    await refused({ reportType: 'count', periodUnit: 'month' }, 'Unknown report type count');
    await refused({ reportType: 'speed', periodUnit: 'month' }, "Cannot set query parameter 'reportType' to value 'speed'");
    await refused(
      { reportType: 'duration', periodUnit: 'week' },
      "Cannot set query parameter 'periodUnit' to value 'week': Cannot convert value week to java enum type org.camunda.bpm.engine.query.PeriodUnit",
    );
    await refused({ reportType: 'duration' }, 'periodUnit is null');
  });
});

describe('the history reports with authorization on', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');
  let ids: Record<'approval' | 'idle', string>;

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
    ids = await deploy(admin);
  });
  afterEach(async () => rest.close());

  const grant = (resourceId: string, permissions: string[]) =>
    rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 6, resourceId, permissions }, headers: admin });

  it('needs READ_HISTORY on the definitions', async () => {
    const report = (query: Record<string, string>) => get('/history/process-instance/report', { reportType: 'duration', periodUnit: 'month', ...query }, jonny);
    const denied = await report({});
    expect(denied.status).toBe(403);
    expect(denied.body.type).toBe('AuthorizationException');
    // Without a definition filter Camunda checks READ_HISTORY on any definition: resource '*'.
    expect(denied.body.message).toBe("The user with id 'jonny' does not have 'READ_HISTORY' permission on resource '*' of type 'ProcessDefinition'.");
    expect((await get(`/history/process-definition/${ids.approval}/statistics`, {}, jonny)).body).toEqual([]);
    expect((await get('/history/process-definition/cleanable-process-instance-report/count', {}, jonny)).body).toEqual({ count: 0 });

    await grant('approval', ['READ', 'READ_HISTORY']);

    expect((await report({ processDefinitionKeyIn: 'approval' })).status).toBe(200);
    expect((await report({})).status).toBe(403);
    expect((await get('/history/process-definition/cleanable-process-instance-report', {}, jonny)).body).toMatchObject([{ processDefinitionKey: 'approval' }]);
  });
});
