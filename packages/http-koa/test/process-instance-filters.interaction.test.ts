import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testStoreConfigs } from '@trellis/core/testing';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" /><bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="caller" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="cStart" /><bpmn:sequenceFlow id="c1" sourceRef="cStart" targetRef="call" />
    <bpmn:callActivity id="call" calledElement="approval" /><bpmn:sequenceFlow id="c2" sourceRef="call" targetRef="cEnd" /><bpmn:endEvent id="cEnd" />
  </bpmn:process>
</bpmn:definitions>`;

type Query = Record<string, string | number | boolean>;
const ids = (body: unknown) => (body as Array<{ id: string }>).map((each) => each.id).sort();
const list = async (query: Query) => ids((await rest.request('GET', '/process-instance', { query })).body);
const listByBody = async (json: unknown) => ids((await rest.request('POST', '/process-instance', { json })).body);
const start = async (key: string, variables: Record<string, { value: unknown; type: string }> = {}) =>
  (await rest.request('POST', `/process-definition/key/${key}/start`, { json: { variables } })).body.id as string;

describe.each(testStoreConfigs())('the process instance query’s variable, incident and call hierarchy criteria on $name', (testStore) => {
  let first: string;
  let second: string;
  let calling: string;
  let called: string;

  beforeEach(async () => {
    rest = await startRestHarness({ store: testStore.config(expect.getState().currentTestName!) });
    await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
    first = await start('approval', { amount: { value: 100, type: 'Integer' }, customer: { value: 'Acme', type: 'String' } });
    second = await start('approval', { amount: { value: 5, type: 'Integer' }, customer: { value: 'Bolt', type: 'String' } });
    calling = await start('caller');
    [called] = await list({ superProcessInstance: calling });
  });
  afterEach(async () => rest.close());

  it("filters by the instance's own variables, in the query string and in a body", async () => {
    // A query string's values are text, as in Camunda: they match text variables only.
    expect(await list({ variables: 'customer_eq_Acme' })).toEqual([first]);
    expect(await list({ variables: 'customer_like_%o%,customer_neq_Acme' })).toEqual([second]);
    expect(await list({ variables: 'amount_gt_50' })).toEqual([]);
    expect(await listByBody({ variables: [{ name: 'amount', operator: 'gt', value: 50 }] })).toEqual([first]);
    expect(await listByBody({ variables: [{ name: 'CUSTOMER', operator: 'eq', value: 'bolt' }], variableNamesIgnoreCase: true, variableValuesIgnoreCase: true })).toEqual([second]);
    expect((await rest.request('GET', '/process-instance/count', { query: { variables: 'customer_neq_Acme' } })).body).toEqual({ count: 1 });
    expect((await rest.request('POST', '/process-instance/count', { json: { variables: [{ name: 'amount', operator: 'gteq', value: 5 }] } })).body).toEqual({ count: 2 });
  });

  it('filters by open incidents of the instance', async () => {
    const created = await rest.request('POST', `/execution/${second}/create-incident`, { json: { incidentType: 'custom', configuration: 'c', message: 'broken pipe' } });
    expect(created.status).toBe(200);

    expect(await list({ withIncident: true })).toEqual([second]);
    expect(await list({ incidentType: 'custom' })).toEqual([second]);
    expect(await list({ incidentType: 'failedJob' })).toEqual([]);
    expect(await list({ incidentId: created.body.id })).toEqual([second]);
    expect(await list({ incidentMessage: 'broken pipe' })).toEqual([second]);
    expect(await listByBody({ incidentMessageLike: '%pipe' })).toEqual([second]);
  });

  it('follows the call hierarchy, filters by definition key and tenant, and takes or-queries', async () => {
    expect(called).toBeDefined();
    expect(await list({ subProcessInstance: called })).toEqual([calling]);
    expect(await list({ rootProcessInstances: true })).toEqual([first, second, calling].sort());
    expect(await list({ leafProcessInstances: true })).toEqual([first, second, called].sort());
    expect(await list({ processDefinitionKeyNotIn: 'approval' })).toEqual([calling]);
    expect(await list({ processDefinitionWithoutTenantId: true })).toEqual([first, second, calling, called].sort());

    const both = await rest.request('GET', '/process-instance', { query: { rootProcessInstances: true, superProcessInstance: calling } });
    expect([both.status, both.body.message]).toEqual([500, 'Invalid query usage: cannot set both rootProcessInstances and superProcessInstanceId']);
    // or-queries: any of an or-query's criteria, and the rest of the query too.
    expect(await listByBody({ orQueries: [{ processInstanceIds: [first], superProcessInstance: calling }] })).toEqual([first, called].sort());
    expect(await listByBody({ processDefinitionKey: 'approval', orQueries: [{ rootProcessInstances: false, variables: [{ name: 'customer', operator: 'eq', value: 'Bolt' }], processInstanceIds: [called] }] })).toEqual([second, called].sort());
    const nested = await rest.request('POST', '/process-instance', { json: { orQueries: [{ orQueries: [{ businessKey: 'x' }] }] } });
    // Camunda's DTO attaches or-queries inside an or-query to it, where its mapping never reads them: ignored.
    expect(nested.body.length).toBe((await rest.request('POST', '/process-instance', { json: {} })).body.length);
  });

  it("takes Camunda's precedences and leaf activities", async () => {
    expect(await list({ activityIdIn: 'call' })).toEqual([calling]);
    expect(await list({ activityIdIn: 'review' })).toEqual([first, second, called].sort());
    // An empty list filters nothing; withoutTenantId wins over a tenant list; suspended over active.
    expect((await list({ tenantIdIn: '' })).length).toBe(4);
    expect((await list({ tenantIdIn: 'acme', withoutTenantId: true })).length).toBe(4);
    await rest.request('PUT', `/process-instance/${first}/suspended`, { json: { suspended: true } });
    expect(await list({ active: true, suspended: true })).toEqual([first]);
    const emptyIds = await rest.request('POST', '/process-instance', { json: { processInstanceIds: [] } });
    expect([emptyIds.status, emptyIds.body.message]).toEqual([500, 'Set of process instance ids is empty']);
    expect(await list({ processInstanceIds: '' })).toEqual([]);

    // A sub-process waits in its inner activity: only that one is a leaf, as Camunda's execution tree has it.
    await rest.engine.deployment.deploy({
      resources: [{
        name: 'nested.bpmn',
        bytes: Buffer.from(`<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="n" targetNamespace="http://trellis.test">
  <bpmn:process id="nested" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="s" /><bpmn:sequenceFlow id="n1" sourceRef="s" targetRef="sub" />
    <bpmn:subProcess id="sub"><bpmn:startEvent id="subStart" /><bpmn:sequenceFlow id="n2" sourceRef="subStart" targetRef="inner" /><bpmn:userTask id="inner" /></bpmn:subProcess>
  </bpmn:process>
</bpmn:definitions>`),
      }],
    });
    const nested = await start('nested');
    expect(await list({ activityIdIn: 'inner' })).toEqual([nested]);
    expect(await list({ activityIdIn: 'sub' })).toEqual([]);
    const executions = async (query: Query) => ((await rest.request('GET', '/execution', { query })).body as unknown[]).length;
    expect(await executions({ activityId: 'sub' })).toBe(0);
    expect(await executions({ activityId: 'inner' })).toBe(1);
    // Camunda's `active` is the suspension state only: the sub-process's inactive scope parent counts too.
    expect(await executions({ processInstanceId: nested, active: true })).toBeGreaterThan(1);
  });

  it('filters executions by their own variables and by their process instance’s', async () => {
    const executions = async (query: Query) => ids((await rest.request('GET', '/execution', { query })).body);
    const byBody = async (json: unknown) => ids((await rest.request('POST', '/execution', { json })).body);

    expect(await executions({ variables: 'customer_eq_Acme' })).toEqual([first]);
    expect(await executions({ processVariables: 'customer_eq_Bolt' })).toEqual([second]);
    expect(await byBody({ processVariables: [{ name: 'customer', operator: 'neq', value: 'Acme' }] })).toEqual([second]);
    // Camunda's ExecutionQueryDto compares process variables only by (in)equality.
    const lessThan = await rest.request('POST', '/execution', { json: { processVariables: [{ name: 'amount', operator: 'lt', value: 50 }] } });
    expect([lessThan.status, lessThan.body.message]).toEqual([400, 'Invalid process variable comparator specified: lt']);
    expect(await byBody({ variables: [{ name: 'Customer', operator: 'eq', value: 'ACME' }], variableNamesIgnoreCase: true, variableValuesIgnoreCase: true })).toEqual([first]);
    expect((await rest.request('GET', '/execution/count', { query: { variables: 'customer_like_%' } })).body).toEqual({ count: 2 });
  });
});
