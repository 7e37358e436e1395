import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testStoreConfigs } from '@trellis/core/testing';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="failing" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="failStart" />
    <bpmn:sequenceFlow id="g1" sourceRef="failStart" targetRef="work" />
    <bpmn:serviceTask id="work" camunda:asyncBefore="true" camunda:expression="\${missing}" />
    <bpmn:sequenceFlow id="g2" sourceRef="work" targetRef="failEnd" />
    <bpmn:endEvent id="failEnd" />
  </bpmn:process>
</bpmn:definitions>`;

type Query = Record<string, string | number | boolean>;
const list = async (query: Query) => ((await rest.request('GET', '/history/process-instance', { query })).body as Array<{ id: string }>).map((each) => each.id).sort();
const listByBody = async (json: unknown) => ((await rest.request('POST', '/history/process-instance', { json })).body as Array<{ id: string }>).map((each) => each.id).sort();
const count = async (query: Query) => (await rest.request('GET', '/history/process-instance/count', { query })).body.count as number;
const start = async (key: string, variables: Record<string, { value: unknown; type: string }> = {}) =>
  (await rest.request('POST', `/process-definition/key/${key}/start`, { json: { variables } })).body.id as string;
const at = (millis: number) => new Date(millis).toISOString().replace('Z', '+0000');

describe.each(testStoreConfigs())('the historic process instance query’s incident, activity, job and variable criteria on $name', (testStore) => {
  let approval: string;
  let failing: string;
  let started: number;

  beforeEach(async () => {
    rest = await startRestHarness({ store: testStore.config(expect.getState().currentTestName!) });
    await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
    started = rest.engine.clock.now().getTime();
    approval = await start('approval', { amount: { value: 100, type: 'Integer' }, customer: { value: 'Acme', type: 'String' } });
    rest.engine.clock.advance(60_000);
    failing = await start('failing', { amount: { value: 10, type: 'Integer' } });
    await rest.engine.jobExecutor.runDueJobs();
  });
  afterEach(async () => rest.close());

  it('filters by the instance’s historic incidents', async () => {
    const [incident] = (await rest.request('GET', '/history/incident', { query: { processInstanceId: failing } })).body;
    expect(incident).toBeDefined();

    expect(await list({ withIncidents: true })).toEqual([failing]);
    expect(await list({ withRootIncidents: true })).toEqual([failing]);
    expect(await list({ incidentType: 'failedJob' })).toEqual([failing]);
    expect(await list({ incidentType: 'other' })).toEqual([]);
    expect(await list({ incidentIdIn: `${incident.id},unknown` })).toEqual([failing]);
    expect(await list({ incidentMessage: incident.incidentMessage })).toEqual([failing]);
    expect(await list({ incidentMessageLike: '%missing%' })).toEqual([failing]);
    expect(await list({ incidentStatus: 'open' })).toEqual([failing]);
    expect(await list({ incidentStatus: 'resolved' })).toEqual([]);
    expect(await listByBody({ withIncidents: true, incidentStatus: 'open' })).toEqual([failing]);

    const [job] = (await rest.request('GET', '/job', { query: { processInstanceId: failing } })).body;
    await rest.request('PUT', `/process-instance/${failing}/variables/missing`, { json: { value: 'ok', type: 'String' } });
    await rest.request('PUT', `/job/${job.id}/retries`, { json: { retries: 1 } });

    expect(await list({ incidentStatus: 'resolved' })).toEqual([failing]);
    expect(await list({ incidentStatus: 'open' })).toEqual([]);
    // activityIdIn also finds an instance by a historic incident at the activity, after the instance ended.
    await rest.engine.jobExecutor.runDueJobs();
    expect(await list({ activityIdIn: 'work', finished: true })).toEqual([failing]);
  });

  it('filters by current activities and by when activities and jobs ran', async () => {
    expect(await list({ activityIdIn: 'review' })).toEqual([approval]);
    expect(await list({ activityIdIn: 'work,review' })).toEqual([approval, failing].sort());
    expect(await list({ activityIdIn: 'end' })).toEqual([]);

    expect(await list({ executedActivityAfter: at(started + 30_000) })).toEqual([failing]);
    expect(await list({ executedActivityBefore: at(started + 30_000) })).toEqual([approval]);
    expect(await count({ executedActivityAfter: at(started), executedActivityBefore: at(started + 60_000) })).toBe(2);

    expect(await list({ executedJobAfter: at(started) })).toEqual([failing]);
    expect(await list({ executedJobBefore: at(started - 1) })).toEqual([]);
    expect(await listByBody({ executedJobAfter: at(started), executedJobBefore: at(started + 120_000) })).toEqual([failing]);
  });

  it('filters by historic variables, in the query string and in a body', async () => {
    expect(await list({ variables: 'customer_eq_Acme' })).toEqual([approval]);
    expect(await list({ variables: 'customer_neq_Acme' })).toEqual([]);
    expect(await list({ variables: 'customer_like_Ac%' })).toEqual([approval]);
    expect(await list({ variables: 'customer_eq_acme' })).toEqual([]);
    expect(await list({ variables: 'customer_eq_acme', variableValuesIgnoreCase: true })).toEqual([approval]);
    expect(await list({ variables: 'CUSTOMER_eq_Acme', variableNamesIgnoreCase: true })).toEqual([approval]);

    expect(await listByBody({ variables: [{ name: 'amount', operator: 'gt', value: 50 }] })).toEqual([approval]);
    expect(await listByBody({ variables: [{ name: 'amount', operator: 'lteq', value: 100 }] })).toEqual([approval, failing].sort());
    expect(await listByBody({ variables: [{ name: 'amount', operator: 'lt', value: 100 }, { name: 'customer', operator: 'eq', value: 'Acme' }] })).toEqual([]);

    const invalid = await rest.request('GET', '/history/process-instance', { query: { variables: 'amount_between_1' } });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toBe('Invalid variable comparator specified: between');
  });

  it('matches or-queries when any of their criteria does', async () => {
    expect(await listByBody({ orQueries: [{ processDefinitionKey: 'failing', variables: [{ name: 'customer', operator: 'eq', value: 'Acme' }] }] })).toEqual(
      [approval, failing].sort(),
    );
    expect(await listByBody({ processDefinitionKey: 'approval', orQueries: [{ withIncidents: true, activityIdIn: ['review'] }] })).toEqual([approval]);
    expect(await listByBody({ orQueries: [{ processDefinitionKey: 'failing' }, { activityIdIn: ['review'] }] })).toEqual([]);
    expect(await listByBody({ orQueries: [{ active: true, processDefinitionKey: 'failing' }] })).toEqual([approval, failing].sort());
    // An or-query holds one state as the main query does (Camunda's ensureNull names the first by its value).
    const twoStates = await rest.request('POST', '/history/process-instance', { json: { orQueries: [{ active: true, completed: true }] } });
    expect([twoStates.status, twoStates.body.type, twoStates.body.message]).toEqual([400, 'BadUserRequestException', 'Already querying for historic process instance with another state: ACTIVE is not null']);
    const rootAndSuper = await rest.request('GET', '/history/process-instance', { query: { rootProcessInstances: 'true', superProcessInstanceId: approval } });
    expect([rootAndSuper.status, rootAndSuper.body.message]).toEqual([400, 'Invalid query usage: cannot set both rootProcessInstances and superProcessInstanceId']);
    expect(await listByBody({ orQueries: [{}] })).toEqual([approval, failing].sort());
    // processDefinitionKeyNotIn compares with NOT LIKE, as Camunda's mapping does.
    expect(await list({ processDefinitionKeyNotIn: 'appr%' })).toEqual([failing]);
    const counted = await rest.request('POST', '/history/process-instance/count', { json: { orQueries: [{ incidentStatus: 'open', processInstanceBusinessKey: 'none' }] } });
    expect(counted.body).toEqual({ count: 1 });
    const invalid = await rest.request('POST', '/history/process-instance', { json: { orQueries: 'all' } });
    expect(invalid.status).toBe(400);
  });

  it('still refuses the case instance criteria: Trellis runs no CMMN', async () => {
    const refused = await rest.request('GET', '/history/process-instance', { query: { caseInstanceId: 'case-1' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe("Query parameter 'caseInstanceId' is not supported by Trellis yet");
  });
});
