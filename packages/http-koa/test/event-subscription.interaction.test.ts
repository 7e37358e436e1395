import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatRestDate } from '../src/dto/dates.js';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:message id="m_paid" name="paid" /><bpmn:message id="m_order" name="order" /><bpmn:signal id="s_go" name="go" />
  <bpmn:process id="shop" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="payment" />
    <bpmn:intermediateCatchEvent id="payment"><bpmn:messageEventDefinition messageRef="m_paid" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="payment" targetRef="go" />
    <bpmn:intermediateCatchEvent id="go"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="go" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="orders" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="orderStart"><bpmn:messageEventDefinition messageRef="m_order" /></bpmn:startEvent>
    <bpmn:sequenceFlow id="o1" sourceRef="orderStart" targetRef="handle" />
    <bpmn:userTask id="handle" />
    <bpmn:sequenceFlow id="o2" sourceRef="handle" targetRef="orderEnd" />
    <bpmn:endEvent id="orderEnd" />
  </bpmn:process>
</bpmn:definitions>`;

const T0 = new Date('2024-05-01T10:00:00.000Z');

async function setUp(harness: RestHarness, headers?: Record<string, string>) {
  harness.engine.clock.set(T0);
  await harness.engine.deployment.deploy({ resources: [{ name: 'shop.bpmn', bytes: Buffer.from(MODEL) }] });
  harness.engine.clock.set(T0.getTime() + 60_000);
  await harness.engine.deployment.deploy({ resources: [{ name: 'shop.bpmn', bytes: Buffer.from(MODEL) }], tenantId: 'acme' });
  harness.engine.clock.set(T0.getTime() + 120_000);
  const first = (await harness.request('POST', '/process-definition/key/shop/start', { json: {}, headers })).body.id as string;
  harness.engine.clock.set(T0.getTime() + 180_000);
  const second = (await harness.request('POST', '/process-definition/key/shop/tenant-id/acme/start', { json: {}, headers })).body.id as string;
  return { first, second };
}

const list = (query: Record<string, string | number | boolean> = {}, headers?: Record<string, string>) =>
  rest.request('GET', '/event-subscription', { query, headers });
const count = async (query: Record<string, string | number | boolean> = {}) => (await rest.request('GET', '/event-subscription/count', { query })).body.count;

describe('GET /event-subscription', () => {
  let first: string;
  let second: string;

  beforeEach(async () => {
    rest = await startRestHarness();
    ({ first, second } = await setUp(rest));
  });
  afterEach(async () => rest.close());

  it('lists start-event and instance subscriptions as EventSubscriptionDto', async () => {
    const response = await list({ sortBy: 'created', sortOrder: 'asc' });

    expect(response.status).toBe(200);
    expect(response.body.map((s: { eventName: string; tenantId: string | null }) => [s.eventName, s.tenantId])).toEqual([
      ['order', null],
      ['order', 'acme'],
      ['paid', null],
      ['paid', 'acme'],
    ]);
    const startEvent = response.body[0];
    expect(startEvent).toEqual({
      id: expect.any(String), eventType: 'message', eventName: 'order', executionId: null, processInstanceId: null,
      activityId: 'orderStart', createdDate: formatRestDate(T0), tenantId: null,
    });
    const waiting = response.body[2];
    expect(waiting).toEqual({
      id: expect.any(String), eventType: 'message', eventName: 'paid', executionId: expect.any(String), processInstanceId: first,
      activityId: 'payment', createdDate: formatRestDate(new Date(T0.getTime() + 120_000)), tenantId: null,
    });
  });

  it('filters by id, name, type, execution, instance and activity', async () => {
    const [waiting] = (await list({ processInstanceId: first })).body;

    expect((await list({ eventSubscriptionId: waiting.id })).body).toEqual([waiting]);
    expect((await list({ executionId: waiting.executionId })).body).toEqual([waiting]);
    expect(await count({ eventName: 'paid' })).toBe(2);
    expect(await count({ eventName: 'order' })).toBe(2);
    expect(await count({ eventName: 'nope' })).toBe(0);
    expect(await count({ eventType: 'message' })).toBe(4);
    expect(await count({ eventType: 'signal' })).toBe(0);
    expect(await count({ activityId: 'orderStart' })).toBe(2);
    expect(await count({ processInstanceId: second, activityId: 'payment' })).toBe(1);

    await rest.request('POST', '/message', { json: { messageName: 'paid', processInstanceId: first } });
    const signals = (await list({ eventType: 'signal' })).body;
    expect(signals).toMatchObject([{ eventType: 'signal', eventName: 'go', processInstanceId: first, activityId: 'go' }]);
    expect(await count({ processInstanceId: first })).toBe(1);
  });

  it('filters by tenant', async () => {
    expect(await count({ tenantIdIn: 'acme' })).toBe(2);
    expect(await count({ tenantIdIn: 'acme,other' })).toBe(2);
    expect(await count({ tenantIdIn: 'other' })).toBe(0);
    // An empty list filters nothing; withoutTenantId replaces the list (Camunda's EventSubscriptionQueryDto).
    expect(await count({ tenantIdIn: '' })).toBe(4);
    expect(await count({ tenantIdIn: 'acme', withoutTenantId: true })).toBe(2);
    expect(await count({ tenantIdIn: 'acme', includeEventSubscriptionsWithoutTenantId: true })).toBe(4);
    expect(await count({ withoutTenantId: true })).toBe(2);
    expect((await list({ withoutTenantId: true })).body.every((s: { tenantId: string | null }) => s.tenantId === null)).toBe(true);
  });

  it('sorts and pages; count ignores paging', async () => {
    const byCreatedDesc = (await list({ sortBy: 'created', sortOrder: 'desc' })).body.map((s: { createdDate: string }) => s.createdDate);
    expect(byCreatedDesc).toEqual([...byCreatedDesc].sort().reverse());
    const byTenant = (await list({ sortBy: 'tenantId', sortOrder: 'desc' })).body.map((s: { tenantId: string | null }) => s.tenantId);
    expect(byTenant).toEqual(['acme', 'acme', null, null]);

    const page = (await list({ sortBy: 'created', sortOrder: 'asc', firstResult: 1, maxResults: 2 })).body;
    expect(page.map((s: { eventName: string; tenantId: string | null }) => [s.eventName, s.tenantId])).toEqual([['order', 'acme'], ['paid', null]]);
    expect((await rest.request('GET', '/event-subscription/count', { query: { firstResult: 1, maxResults: 1 } })).body).toEqual({ count: 4 });
  });

  it('answers 400 for bad parameters; an event type of no subscription finds none', async () => {
    const badSort = await list({ sortBy: 'eventName', sortOrder: 'asc' });
    const lonelySort = await list({ sortBy: 'created' });
    const badBoolean = await list({ withoutTenantId: 'yes' });

    for (const response of [badSort, lonelySort, badBoolean]) {
      expect(response.status).toBe(400);
      expect(response.body.type).toBe('InvalidRequestException');
    }
    expect(badSort.body.message).toBe("Cannot set query parameter 'sortBy' to value 'eventName'");
    // Camunda takes any text as the event type.
    const otherType = await list({ eventType: 'timer' });
    expect([otherType.status, otherType.body]).toEqual([200, []]);
  });

  it('is served under the named engine too', async () => {
    const response = await rest.request('GET', '/engine/default/event-subscription/count');
    expect(response.body).toEqual({ count: 4 });
  });
});

describe('GET /event-subscription with authorization on', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');
  let first: string;

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
    // A member of the tenant the data belongs to, so that only the grants decide (the tenant check hides other tenants' data).
    await rest.engine.identity.createTenant({ id: 'acme', name: 'Acme' });
    await rest.engine.identity.createTenantMembership('acme', { userId: 'jonny' });
    ({ first } = await setUp(rest, admin));
  });
  afterEach(async () => rest.close());

  const grant = (resourceType: number, resourceId: string, permissions: string[]) =>
    rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType, resourceId, permissions }, headers: admin });

  it('shows only subscriptions of readable instances, or of instances of readable definitions', async () => {
    expect((await list({}, admin)).body).toHaveLength(4);
    expect((await list({}, jonny)).body).toEqual([]);
    expect((await rest.request('GET', '/event-subscription/count', { headers: jonny })).body).toEqual({ count: 0 });

    await grant(8, first, ['READ']);
    expect((await list({}, jonny)).body).toMatchObject([{ processInstanceId: first, eventName: 'paid' }]);
    // The engine API's own subscription search shows the caller the same subscriptions.
    const found = await rest.engine.runAs({ userId: 'jonny', groupIds: [], tenantIds: [] }, () => rest.engine.management.findEventSubscriptions());
    expect(found.map((each) => [each.processInstanceId, each.eventName])).toEqual([[first, 'paid']]);

    // A start event's subscription belongs to no instance: Camunda checks it against no key, so only a `*` grant shows it.
    await grant(6, 'orders', ['READ_INSTANCE']);
    expect((await list({}, jonny)).body.map((s: { eventName: string }) => s.eventName)).toEqual(['paid']);
    await grant(6, '*', ['READ_INSTANCE']);
    const visible = (await list({ sortBy: 'created', sortOrder: 'asc' }, jonny)).body;
    expect(visible.map((s: { eventName: string }) => s.eventName)).toEqual(['order', 'order', 'paid', 'paid']);
    expect((await rest.request('GET', '/event-subscription/count', { headers: jonny })).body).toEqual({ count: 4 });
  });
});
