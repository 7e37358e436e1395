import { request } from 'node:http';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { externalTaskProcessXml } from '@trellis/core/testing';
import { basic } from './support/basic-auth.js';
import { INVOICE } from './support/invoice-model.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
let definitionId: string;

const SHIPPING = externalTaskProcessXml('shipping', { activityId: 'ship', historyTimeToLive: 5 });

async function setUp(restOptions: Parameters<typeof startRestHarness>[1] = {}, engineOptions: Parameters<typeof startRestHarness>[0] = {}) {
  rest = await startRestHarness(engineOptions, restOptions);
  const { processDefinitions } = await rest.engine.deployment.deploy({
    resources: [
      { name: 'invoice.bpmn', bytes: Buffer.from(INVOICE) },
      { name: 'shipping.bpmn', bytes: Buffer.from(SHIPPING) },
    ],
  });
  definitionId = processDefinitions!.find((definition) => definition.key === 'invoice')!.id;
}

beforeEach(async () => setUp());
afterEach(async () => rest.close());

const startInvoice = async (businessKey = 'b1', amount = 42) => {
  const instance = await rest.engine.runtime.startProcessInstanceById(definitionId, {
    businessKey,
    variables: { amount: { type: 'integer', value: amount, valueInfo: {} }, customer: { type: 'string', value: 'Kermit', valueInfo: {} } },
  });
  return instance.id;
};
const startShipping = async () => (await rest.request('POST', '/process-definition/key/shipping/start', { json: {} })).body.id as string;

const fetchAndLock = (json: Record<string, unknown>) => rest.request('POST', '/external-task/fetchAndLock', { json });
const fetchInvoice = (workerId = 'w1', extra: Record<string, unknown> = {}, topic: Record<string, unknown> = {}) =>
  fetchAndLock({ workerId, maxTasks: 10, topics: [{ topicName: 'invoice', lockDuration: 60_000, ...topic }], ...extra });
const lockedTaskId = async (workerId = 'w1') => {
  const response = await fetchInvoice(workerId);
  expect(response.body).toHaveLength(1);
  return response.body[0].id as string;
};
const activities = async (processInstanceId: string) => (await rest.engine.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey);
const expectError = (response: { status: number; body: any }, status: number, type: string, message: string) => {
  expect({ status: response.status, type: response.body.type, message: response.body.message }).toEqual({ status, type, message });
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 3000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > end) return value;
    await sleep(20);
  }
}

describe('POST /external-task/fetchAndLock', () => {
  it('locks tasks for the worker and returns them with their variables, as bare application/json', async () => {
    const processInstanceId = await startInvoice('b1');
    const now = rest.engine.clock.now().getTime();

    const response = await fetchInvoice('w1', { usePriority: true }, { variables: ['amount'] });
    const again = await fetchInvoice('w2');

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toHaveLength(1);
    expect(response.body[0]).toMatchObject({
      activityId: 'work',
      processInstanceId,
      processDefinitionId: definitionId,
      processDefinitionKey: 'invoice',
      topicName: 'invoice',
      workerId: 'w1',
      businessKey: 'b1',
      retries: null,
      errorMessage: null,
      errorDetails: null,
      suspended: false,
      priority: 0,
      variables: { amount: { type: 'Integer', value: 42, valueInfo: {} } },
      // Camunda's LockedExternalTaskDto: the create time, and extension properties even when not asked for.
      createTime: expect.any(String),
      extensionProperties: {},
    });
    expect(new Date(response.body[0].lockExpirationTime).getTime()).toBe(now + 60_000);
    expect(new Date(response.body[0].createTime).getTime()).toBe(now);
    expect(again.body).toEqual([]);
  });

  it('returns all variables by default, none for [], and only the topics asked for', async () => {
    await startInvoice();
    await startShipping();

    const all = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'invoice', lockDuration: 1000 }] });
    const none = await fetchAndLock({ workerId: 'w', maxTasks: 5, topics: [{ topicName: 'shipping', lockDuration: 1000, variables: [] }] });
    const noTopics = await fetchAndLock({ workerId: 'w', maxTasks: 5 });

    expect(Object.keys(all.body[0].variables).sort()).toEqual(['amount', 'customer']);
    expect(none.body.map((task: any) => [task.topicName, task.variables])).toEqual([['shipping', {}]]);
    expect(noTopics.body).toEqual([]);
  });

  it('answers engine validation failures with 500 and bad sorting or a too long timeout with 400', async () => {
    const noWorker = await fetchAndLock({ maxTasks: 1, topics: [{ topicName: 'invoice', lockDuration: 1000 }] });
    const noLock = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'invoice' }] });
    const noTopicName = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ lockDuration: 1000 }] });
    // '' is a topic name (Camunda checks for null only): no task has it.
    const emptyTopicName = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: '', lockDuration: 1000 }] });
    const badSort = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [], sorting: [{ sortBy: 'priority', sortOrder: 'asc' }] });
    const badOrder = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [], sorting: [{ sortBy: 'createTime', sortOrder: 'up' }] });
    // Camunda's FetchAndLockBuilderImpl.checkQueryOk, after every entry is applied (so a bad one still answers first).
    const noOrder = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [], sorting: [{ sortBy: 'createTime' }] });
    const noOrderThenBad = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [], sorting: [{ sortBy: 'createTime' }, { sortBy: 'priority', sortOrder: 'asc' }] });
    const tooLong = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [], asyncResponseTimeout: 1_800_001 });

    expectError(noWorker, 500, 'NullValueException', 'workerId is null');
    expectError(noLock, 500, 'ProcessEngineException', 'lockTime is not greater than 0');
    expectError(noTopicName, 500, 'NullValueException', 'topicName is null');
    expect([emptyTopicName.status, emptyTopicName.body]).toEqual([200, []]);
    expectError(badSort, 400, 'InvalidRequestException', 'Cannot set query sortBy parameter to value priority');
    expectError(badOrder, 400, 'InvalidRequestException', 'Cannot set query sortOrder parameter to value up');
    expectError(noOrder, 400, 'NotValidException', 'Invalid query: call asc() or desc() after using orderByXX(): direction is null');
    expectError(noOrderThenBad, 400, 'InvalidRequestException', 'Cannot set query sortBy parameter to value priority');
    expectError(tooLong, 400, 'InvalidRequestException', 'The asynchronous response timeout cannot be set to a value greater than 1800000 milliseconds');
  });

  it('takes numbers and flags as Jackson coerces them: integral text, "true", cut fractions', async () => {
    for (let i = 0; i < 3; i++) await startInvoice(`b${i}`);
    const tooLong = await fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [], asyncResponseTimeout: '1800001' });
    const locked = await fetchAndLock({ workerId: 'w', maxTasks: '2', usePriority: 'true', topics: [{ topicName: 'invoice', lockDuration: 60000.9, deserializeValues: 'TRUE' }] });

    expectError(tooLong, 400, 'InvalidRequestException', 'The asynchronous response timeout cannot be set to a value greater than 1800000 milliseconds');
    expect(locked.status).toBe(200);
    expect(locked.body).toHaveLength(2);
    expect(Date.parse(locked.body[0].lockExpirationTime) - rest.engine.clock.now().getTime()).toBe(60_000);
  });

  it('binds failure, priority and retries bodies as Jackson does (integral text, a number as the worker id); an unbindable value is a 400 with an empty message', async () => {
    await startInvoice();
    const locked = await fetchAndLock({ workerId: 7, maxTasks: 1, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] });
    const id = locked.body[0].id as string;
    const failure = await rest.request('POST', `/external-task/${id}/failure`, { json: { workerId: 7, errorMessage: 'down', retries: '2', retryTimeout: '0' } });
    const priority = await rest.request('PUT', `/external-task/${id}/priority`, { json: { priority: '12' } });
    const badRetries = await rest.request('PUT', `/external-task/${id}/retries`, { json: { retries: 'many' } });
    const badFlag = await fetchAndLock({ workerId: 'w', maxTasks: 1, usePriority: 'yes', topics: [] });
    const badWorker = await rest.request('POST', `/external-task/${id}/extendLock`, { json: { workerId: ['7'], newDuration: 1000 } });
    const task = (await rest.request('GET', `/external-task/${id}`)).body;

    expect([failure.status, priority.status]).toEqual([204, 204]);
    expect(task).toMatchObject({ workerId: '7', retries: 2, priority: 12, errorMessage: 'down' });
    expectError(badRetries, 400, 'InvalidRequestException', '');
    expectError(badFlag, 400, 'InvalidRequestException', '');
    expectError(badWorker, 400, 'InvalidRequestException', '');
  });
});

describe('long polling', () => {
  /** Starts one invoice per waiting request; each must be answered with one task. */
  async function expectEachGetsATask(waiting: Array<Promise<{ status: number; body: any }>>) {
    for (const [i] of waiting.entries()) await startInvoice(`b${i + 1}`);
    const answered = await Promise.all(waiting);
    expect(answered.map((response) => [response.status, response.body.length])).toEqual(waiting.map(() => [200, 1]));
  }

  it('answers a waiting request as soon as a task is created', async () => {
    const waiting = fetchInvoice('w1', { asyncResponseTimeout: 20_000 });
    await sleep(50);
    const processInstanceId = await startInvoice();

    const response = await waiting;

    expect(response.status).toBe(200);
    expect(response.body.map((task: any) => task.processInstanceId)).toEqual([processInstanceId]);
  });

  it('answers a waiting request when a task is unlocked', async () => {
    await startInvoice();
    const id = await lockedTaskId('w1');
    const waiting = fetchInvoice('w2', { asyncResponseTimeout: 20_000 });
    await sleep(50);

    expect((await rest.request('POST', `/external-task/${id}/unlock`)).status).toBe(204);

    expect((await waiting).body.map((task: any) => [task.id, task.workerId])).toEqual([[id, 'w2']]);
  });

  it('answers at once when tasks are there, and with [] at the deadline', async () => {
    await startInvoice();
    const immediate = await fetchInvoice('w1', { asyncResponseTimeout: 20_000 });
    const empty = await fetchInvoice('w1', { asyncResponseTimeout: 150 });
    const zero = await fetchInvoice('w1', { asyncResponseTimeout: 0 });

    expect(immediate.body).toHaveLength(1);
    expect(empty.status).toBe(200);
    expect(empty.body).toEqual([]);
    expect(zero.body).toEqual([]);
  });

  it('answers 500 when the queue is full, and a client that leaves frees its place', async () => {
    await rest.close();
    await setUp({ fetchAndLockQueueCapacity: 1 });
    // node:http rather than fetch: an aborted fetch leaves a spare idle socket that delays closing the server.
    const leaving = request(`${rest.url}/external-task/fetchAndLock`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    leaving.on('error', () => {});
    leaving.end(JSON.stringify({ workerId: 'w1', maxTasks: 1, asyncResponseTimeout: 20_000, topics: [{ topicName: 'invoice', lockDuration: 1000 }] }));
    await sleep(50);

    const full = await fetchInvoice('w2', { asyncResponseTimeout: 20_000 });
    expectError(full, 500, 'InvalidRequestException', 'At the moment the server has to handle too many requests at the same time. Please try again later.');

    leaving.destroy();
    const afterLeaving = await eventually(
      () => fetchInvoice('w3', { asyncResponseTimeout: 100 }),
      (response) => response.status === 200,
    );
    expect(afterLeaving.status).toBe(200);
    expect(afterLeaving.body).toEqual([]);
  });

  /**
   * The engine's next fetchAndLock locks its tasks and then holds its answer until `release`:
   * `locked` settles once the tasks are locked.
   */
  function holdNextFetch() {
    const service = rest.engine.externalTask;
    const fetchAndLockOfEngine = service.fetchAndLock;
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let lockedNow!: () => void;
    const locked = new Promise<void>((resolve) => (lockedNow = resolve));
    service.fetchAndLock = async (request) => {
      service.fetchAndLock = fetchAndLockOfEngine;
      const tasks = await fetchAndLockOfEngine.call(service, request);
      lockedNow();
      await held;
      return tasks;
    };
    return { locked, release };
  }

  /** A waiting request of worker w1 that a newer one will cancel: its bodiless 503 is Camunda's (JAX-RS AsyncResponse.cancel), not in the 7.22 contract. */
  const replaceableRequest = () =>
    rest.request('POST', '/external-task/fetchAndLock', {
      json: { workerId: 'w1', maxTasks: 10, asyncResponseTimeout: 20_000, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] },
      outsideContract: true,
    });

  it('lets a newer waiting request of a worker cancel its older one with 503 when unique worker requests are on', async () => {
    await rest.close();
    await setUp({ fetchAndLockUniqueWorkerRequest: true });
    const older = replaceableRequest();
    const otherWorker = fetchInvoice('w2', { asyncResponseTimeout: 20_000 });
    await sleep(50);

    const newer = fetchInvoice('w1', { asyncResponseTimeout: 20_000 });
    const cancelled = await older;
    expect({ status: cancelled.status, bytes: cancelled.body.length, type: cancelled.headers.get('content-type') }).toEqual({ status: 503, bytes: 0, type: null });

    // The newer request of w1 and the one of w2 still wait: both are answered by tasks that come.
    await expectEachGetsATask([newer, otherWorker]);
  });

  it('gives the tasks a replaced request locked while it was being cancelled to the worker\'s newer request', async () => {
    await rest.close();
    await setUp({ fetchAndLockUniqueWorkerRequest: true });
    const older = replaceableRequest();
    await sleep(50);
    // The queue's retry for the older request locks the new task, and is held there until the newer request has replaced it.
    const { locked, release } = holdNextFetch();
    const processInstanceId = await startInvoice();
    await locked;

    const newer = fetchInvoice('w1', { asyncResponseTimeout: 5_000 });
    expect((await older).status).toBe(503);
    release();

    const answer = await newer;
    expect(answer.body.map((task: any) => [task.processInstanceId, task.workerId])).toEqual([[processInstanceId, 'w1']]);
  });

  it('unlocks the tasks of a fetch whose client left before the answer', async () => {
    const processInstanceId = await startInvoice();
    const { locked, release } = holdNextFetch();
    const leaving = request(`${rest.url}/external-task/fetchAndLock`, { method: 'POST', headers: { 'Content-Type': 'application/json' } });
    leaving.on('error', () => {});
    leaving.end(JSON.stringify({ workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] }));
    await locked;
    leaving.destroy();
    await sleep(50);
    release();

    const next = await eventually(
      () => fetchInvoice('w2'),
      (response) => response.body.length > 0,
    );
    expect(next.body.map((task: any) => [task.processInstanceId, task.workerId])).toEqual([[processInstanceId, 'w2']]);
  });

  it('keeps waiting requests of the same worker side by side by default', async () => {
    const first = fetchInvoice('w1', { asyncResponseTimeout: 20_000 });
    const second = fetchInvoice('w1', { asyncResponseTimeout: 20_000 });
    await sleep(50);

    await expectEachGetsATask([first, second]);
  });

  it('fetches in the waiting requester\'s authentication', async () => {
    await rest.close();
    await setUp({ authentication: 'basic' }, { authorization: { enabled: true } });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.engine.identity.createUser({ id: 'jonny', firstName: 'Jonny', lastName: 'Walker', email: null }, 'jonny-secret');
    const jonny = basic('jonny', 'jonny-secret');
    const body = { workerId: 'w1', maxTasks: 1, asyncResponseTimeout: 300, topics: [{ topicName: 'invoice', lockDuration: 1000 }] };

    const denied = rest.request('POST', '/external-task/fetchAndLock', { json: body, headers: jonny });
    await sleep(50);
    await startInvoice();
    expect((await denied).body).toEqual([]);

    // Topic names come from readable tasks only (Camunda's GetTopicNamesCmd runs the task query).
    expect((await rest.request('GET', '/external-task/topic-names', { headers: jonny })).body).toEqual([]);

    // A worker that does not hold the lock hears so before any permission is checked (Camunda's HandleExternalTaskCmd).
    await startInvoice('b2');
    const [heldByOther] = await rest.engine.externalTask.fetchAndLock({ workerId: 'other', maxTasks: 1, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] });
    const wrongWorker = await rest.request('POST', `/external-task/${heldByOther.id}/complete`, { json: { workerId: 'w1' }, headers: jonny });
    expect(wrongWorker.status).toBe(400);
    expect(wrongWorker.body.message).toBe(`External Task ${heldByOther.id} cannot be completed by worker 'w1'. It is locked by worker 'other'.`);

    // Reading is not enough: fetchAndLock needs (READ or READ_INSTANCE) and (UPDATE or UPDATE_INSTANCE), in any mix.
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 8, resourceId: '*', permissions: ['READ'] });
    expect((await rest.request('GET', '/external-task/topic-names', { headers: jonny })).body).toEqual(['invoice']);
    expect((await rest.request('POST', '/external-task/fetchAndLock', { json: { ...body, asyncResponseTimeout: undefined }, headers: jonny })).body).toEqual([]);
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['UPDATE_INSTANCE'] });
    const allowed = await rest.request('POST', '/external-task/fetchAndLock', { json: body, headers: jonny });
    expect(allowed.body).toHaveLength(1);
  });

  it('answers waiting requests with 500 when the application shuts down', async () => {
    const waiting = fetchInvoice('w1', { asyncResponseTimeout: 20_000 });
    await sleep(50);
    const closing = rest.close();

    const response = await waiting;
    await closing;
    rest = await startRestHarness();

    expectError(response, 500, 'RestException', 'Request rejected due to shutdown of application server.');
  });
});

describe('querying external tasks', () => {
  it('lists, filters, sorts, pages and counts by GET and POST, and gets one by id', async () => {
    const first = await startInvoice('a');
    const second = await startInvoice('b');
    await startShipping();
    const locked = await fetchAndLock({ workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'shipping', lockDuration: 60_000 }] });
    const [task] = (await rest.request('GET', '/external-task', { query: { processInstanceId: first } })).body;
    await rest.request('PUT', `/external-task/${task.id}/priority`, { json: { priority: 7 } });

    const all = await rest.request('GET', '/external-task');
    const invoices = await rest.request('GET', '/external-task', { query: { topicName: 'invoice', sortBy: 'taskPriority', sortOrder: 'desc' } });
    const paged = await rest.request('GET', '/external-task', { query: { topicName: 'invoice', sortBy: 'taskPriority', sortOrder: 'asc', firstResult: 0, maxResults: 1 } });
    const byWorker = await rest.request('POST', '/external-task', { json: { workerId: 'w1', locked: true } });
    const byPriority = await rest.request('POST', '/external-task', { json: { priorityHigherThanOrEquals: 5, processInstanceIdIn: [first, second] } });
    const notLocked = await rest.request('GET', '/external-task/count', { query: { notLocked: true } });
    const postCount = await rest.request('POST', '/external-task/count', { json: { activityIdIn: ['work', 'ship'], withRetriesLeft: true } });
    const one = await rest.request('GET', `/external-task/${task.id}`);
    const missing = await rest.request('GET', '/external-task/nope');
    const badSort = await rest.request('GET', '/external-task', { query: { sortBy: 'name', sortOrder: 'asc' } });

    expect(all.body).toHaveLength(3);
    expect(invoices.body.map((each: any) => [each.processInstanceId, each.priority])).toEqual([[first, 7], [second, 0]]);
    expect(paged.body.map((each: any) => each.processInstanceId)).toEqual([second]);
    expect(byWorker.body.map((each: any) => each.id)).toEqual([locked.body[0].id]);
    expect(byPriority.body.map((each: any) => each.id)).toEqual([task.id]);
    expect(notLocked.body).toEqual({ count: 2 });
    expect(postCount.body).toEqual({ count: 3 });
    expect(one.body).toMatchObject({ id: task.id, activityId: 'work', businessKey: 'a', priority: 7, lockExpirationTime: null, workerId: null });
    expectError(missing, 404, 'RestException', 'External task with id nope does not exist');
    expect(badSort.status).toBe(400);
  });

  it('sorts by create time, and keeps noRetriesLeft when both retries flags are given (Camunda\'s DTO sets it last)', async () => {
    const first = await startInvoice('a');
    rest.engine.clock.advance(1000);
    const second = await startInvoice('b');
    const [task] = (await rest.request('GET', '/external-task', { query: { processInstanceId: second } })).body;
    await rest.request('PUT', `/external-task/${task.id}/retries`, { json: { retries: 0 } });

    const newestFirst = await rest.request('GET', '/external-task', { query: { sortBy: 'createTime', sortOrder: 'desc' } });
    const oldestFirst = await rest.request('POST', '/external-task', { json: { sorting: [{ sortBy: 'createTime', sortOrder: 'asc' }] } });
    const bothFlags = await rest.request('GET', '/external-task', { query: { withRetriesLeft: true, noRetriesLeft: true } });

    expect(newestFirst.body.map((each: any) => each.processInstanceId)).toEqual([second, first]);
    expect(oldestFirst.body.map((each: any) => each.processInstanceId)).toEqual([first, second]);
    expect(bothFlags.body.map((each: any) => each.id)).toEqual([task.id]);
  });

  it('lists topic names with the AND-ed filters', async () => {
    await startInvoice();
    await startShipping();
    await fetchAndLock({ workerId: 'w1', maxTasks: 1, topics: [{ topicName: 'shipping', lockDuration: 60_000 }] });

    const all = await rest.request('GET', '/external-task/topic-names');
    const locked = await rest.request('GET', '/external-task/topic-names', { query: { withLockedTasks: true } });
    const unlocked = await rest.request('GET', '/external-task/topic-names', { query: { withUnlockedTasks: true, withRetriesLeft: true } });

    expect(all.body.sort()).toEqual(['invoice', 'shipping']);
    expect(locked.body).toEqual(['shipping']);
    expect(unlocked.body).toEqual(['invoice']);
  });
});

describe('POST /external-task/{id}/complete', () => {
  it('completes with variables and moves the instance on', async () => {
    const processInstanceId = await startInvoice();
    const id = await lockedTaskId();

    const response = await rest.request('POST', `/external-task/${id}/complete`, {
      json: { workerId: 'w1', variables: { approved: { value: true, type: 'Boolean' } }, localVariables: { note: { value: 'x', type: 'String' } } },
    });

    expect(response.status).toBe(204);
    expect(await activities(processInstanceId)).toEqual(['review']);
    const variables = await rest.engine.runtime.getVariables(processInstanceId);
    expect(variables.approved).toMatchObject({ value: true });
    expect(variables.note).toBeUndefined();
    expect((await rest.request('GET', `/external-task/${id}`)).status).toBe(404);
  });

  it('refuses another worker, an unlocked task, a missing worker and an unknown task', async () => {
    await startInvoice();
    const { body: [unlocked] } = await rest.request('GET', '/external-task');
    const byNobody = await rest.request('POST', `/external-task/${unlocked.id}/complete`, { json: { workerId: 'w1' } });
    const id = await lockedTaskId('w1');

    const wrong = await rest.request('POST', `/external-task/${id}/complete`, { json: { workerId: 'w2' } });
    const noWorker = await rest.request('POST', `/external-task/${id}/complete`, { json: {} });
    const unknown = await rest.request('POST', '/external-task/nope/complete', { json: { workerId: 'w1' } });

    expectError(byNobody, 400, 'RestException', `External Task ${unlocked.id} cannot be completed by worker 'w1'. It is locked by worker 'null'.`);
    expectError(wrong, 400, 'RestException', `External Task ${id} cannot be completed by worker 'w2'. It is locked by worker 'w1'.`);
    expectError(noWorker, 500, 'NullValueException', 'workerId is null');
    expectError(unknown, 404, 'RestException', 'External task with id nope does not exist');
  });

  it('completes with an expired lock as long as nobody else locked the task', async () => {
    const processInstanceId = await startInvoice();
    const id = await lockedTaskId('w1');
    rest.engine.clock.advance(120_000);

    expect((await rest.request('POST', `/external-task/${id}/complete`, { json: { workerId: 'w1' } })).status).toBe(204);
    expect(await activities(processInstanceId)).toEqual(['review']);
  });
});

describe('POST /external-task/{id}/failure and retries', () => {
  it('stores the failure, hides the task until retryTimeout, and serves the details as text/plain', async () => {
    await startInvoice();
    const id = await lockedTaskId('w1');
    const before = await rest.request('GET', `/external-task/${id}/errorDetails`);

    const failed = await rest.request('POST', `/external-task/${id}/failure`, {
      json: { workerId: 'w1', errorMessage: 'x'.repeat(700), errorDetails: 'stack\ntrace', retries: 2, retryTimeout: 10_000 },
    });
    const task = (await rest.request('GET', `/external-task/${id}`)).body;
    const hidden = await fetchInvoice('w2');
    rest.engine.clock.advance(10_001);
    const visible = await fetchInvoice('w2');
    const details = await rest.request('GET', `/external-task/${id}/errorDetails`);
    const unknown = await rest.request('GET', '/external-task/nope/errorDetails');

    expect(before.status).toBe(204);
    expect(failed.status).toBe(204);
    expect(task).toMatchObject({ retries: 2, workerId: 'w1', errorMessage: 'x'.repeat(666) });
    expect(hidden.body).toEqual([]);
    expect(visible.body.map((each: any) => [each.id, each.retries, each.errorDetails])).toEqual([[id, 2, 'stack\ntrace']]);
    expect(details.status).toBe(200);
    expect(details.headers.get('content-type')).toBe('text/plain');
    expect(details.body.toString('utf8')).toBe('stack\ntrace');
    expectError(unknown, 500, 'NullValueException', 'No external task found with id nope: externalTask is null');
  });

  it('creates a failedExternalTask incident at 0 retries and resolves it when retries are set again', async () => {
    const processInstanceId = await startInvoice();
    const id = await lockedTaskId('w1');

    const failed = await rest.request('POST', `/external-task/${id}/failure`, { json: { workerId: 'w1', errorMessage: 'boom' } });
    const incidents = await rest.request('GET', '/incident', { query: { processInstanceId } });
    const noRetries = await rest.request('GET', '/external-task/count', { query: { noRetriesLeft: true } });
    const nullRetries = await rest.request('PUT', `/external-task/${id}/retries`, { json: {} });
    const negative = await rest.request('PUT', `/external-task/${id}/retries`, { json: { retries: -1 } });
    const unknown = await rest.request('PUT', '/external-task/nope/retries', { json: { retries: 1 } });
    const retried = await rest.request('PUT', `/external-task/${id}/retries`, { json: { retries: 3 } });
    const after = await rest.request('GET', '/incident/count', { query: { processInstanceId } });

    expect(failed.status).toBe(204);
    expect(incidents.body).toEqual([
      expect.objectContaining({ incidentType: 'failedExternalTask', configuration: id, incidentMessage: 'boom', activityId: 'work', processInstanceId }),
    ]);
    expect(noRetries.body).toEqual({ count: 1 });
    expectError(nullRetries, 400, 'InvalidRequestException', 'The number of retries cannot be null.');
    expectError(negative, 400, 'BadUserRequestException', 'The number of retries cannot be negative: retries is not greater than or equal to 0');
    expectError(unknown, 404, 'RestException', 'External task with id nope does not exist');
    expect(retried.status).toBe(204);
    expect(after.body).toEqual({ count: 0 });
    expect((await rest.request('GET', `/external-task/${id}`)).body.retries).toBe(3);
  });

  it('refuses a failure from another worker and negative retries', async () => {
    await startInvoice();
    const id = await lockedTaskId('w1');

    const wrong = await rest.request('POST', `/external-task/${id}/failure`, { json: { workerId: 'w2', retries: 1 } });
    const negative = await rest.request('POST', `/external-task/${id}/failure`, { json: { workerId: 'w1', retries: -1 } });

    expectError(wrong, 400, 'RestException', `Failure of External Task ${id} cannot be reported by worker 'w2'. It is locked by worker 'w1'.`);
    expectError(negative, 500, 'ProcessEngineException', 'retries is not greater than or equal to 0');
  });

  it('sets retries for many tasks at once by ids, process instances and query (sync only)', async () => {
    const first = await startInvoice('a');
    const second = await startInvoice('b');
    await startShipping();
    const tasks = (await rest.request('GET', '/external-task', { query: { topicName: 'invoice' } })).body;
    const byFirst = tasks.find((task: any) => task.processInstanceId === first);

    const byIds = await rest.request('PUT', '/external-task/retries', { json: { retries: 0, externalTaskIds: [byFirst.id] } });
    const incidents = await rest.request('GET', '/incident/count', { query: { incidentType: 'failedExternalTask' } });
    const byInstances = await rest.request('PUT', '/external-task/retries', { json: { retries: 4, processInstanceIds: [first, second] } });
    const byQuery = await rest.request('PUT', '/external-task/retries', { json: { retries: 5, externalTaskQuery: { topicName: 'shipping' } } });
    const byHistoric = await rest.request('PUT', '/external-task/retries', { json: { retries: 6, historicProcessInstanceQuery: { processInstanceBusinessKey: 'a' } } });
    const empty = await rest.request('PUT', '/external-task/retries', { json: { retries: 5, externalTaskIds: [] } });
    const unknown = await rest.request('PUT', '/external-task/retries', { json: { retries: 5, externalTaskIds: ['nope'] } });
    const async = await rest.request('POST', '/external-task/retries-async', { json: { retries: 5, externalTaskIds: [byFirst.id] } });
    const all = (await rest.request('GET', '/external-task')).body;

    expect(byIds.status).toBe(204);
    expect(incidents.body).toEqual({ count: 1 });
    expect(byInstances.status).toBe(204);
    expect(byQuery.status).toBe(204);
    expect(byHistoric.status).toBe(204);
    expect(all.map((task: any) => [task.topicName, task.retries]).sort()).toEqual([['invoice', 4], ['invoice', 6], ['shipping', 5]]);
    expect((await rest.request('GET', '/incident/count')).body).toEqual({ count: 0 });
    expect(empty.status).toBe(400);
    expect(unknown.status).toBe(404);
    // A batch (batch-operations-retries.interaction.test.ts runs it).
    expect(async.status).toBe(200);
    expect(async.body.type).toBe('set-external-task-retries');
  });
});

describe('POST /external-task/{id}/bpmnError', () => {
  it('routes the error to the error boundary event, with variables', async () => {
    const processInstanceId = await startInvoice();
    const id = await lockedTaskId('w1');

    const wrong = await rest.request('POST', `/external-task/${id}/bpmnError`, { json: { workerId: 'w2', errorCode: 'REJECTED' } });
    const noCode = await rest.request('POST', `/external-task/${id}/bpmnError`, { json: { workerId: 'w1' } });
    // Camunda's BpmnError refuses an empty or blank code, and an empty message (ProcessEngineException: 500).
    const blankCode = await rest.request('POST', `/external-task/${id}/bpmnError`, { json: { workerId: 'w1', errorCode: '  ' } });
    const emptyMessage = await rest.request('POST', `/external-task/${id}/bpmnError`, { json: { workerId: 'w1', errorCode: 'REJECTED', errorMessage: '' } });
    const thrown = await rest.request('POST', `/external-task/${id}/bpmnError`, {
      json: { workerId: 'w1', errorCode: 'REJECTED', errorMessage: 'no', variables: { reason: { value: 'bad', type: 'String' } } },
    });

    expectError(wrong, 400, 'RestException', `Bpmn error of External Task ${id} cannot be reported by worker 'w2'. It is locked by worker 'w1'.`);
    expectError(noCode, 500, 'NullValueException', 'errorCode is null');
    expectError(blankCode, 500, 'ProcessEngineException', 'Error Code is empty');
    expectError(emptyMessage, 500, 'ProcessEngineException', 'Error Message is empty');
    expect(thrown.status).toBe(204);
    expect(await activities(processInstanceId)).toEqual(['fix']);
    expect((await rest.engine.runtime.getVariables(processInstanceId)).reason).toMatchObject({ value: 'bad' });
  });
});

describe('locks and priority', () => {
  it('locks, extends and unlocks, with the worker checks', async () => {
    await startInvoice();
    const { body: [task] } = await rest.request('GET', '/external-task');
    const id = task.id as string;
    const now = rest.engine.clock.now().getTime();

    const locked = await rest.request('POST', `/external-task/${id}/lock`, { json: { workerId: 'w1', lockDuration: 1000 } });
    const byOther = await rest.request('POST', `/external-task/${id}/lock`, { json: { workerId: 'w2', lockDuration: 1000 } });
    const zero = await rest.request('POST', `/external-task/${id}/lock`, { json: { workerId: 'w1', lockDuration: 0 } });
    const extended = await rest.request('POST', `/external-task/${id}/extendLock`, { json: { workerId: 'w1', newDuration: 5000 } });
    const afterExtend = (await rest.request('GET', `/external-task/${id}`)).body;
    const extendByOther = await rest.request('POST', `/external-task/${id}/extendLock`, { json: { workerId: 'w2', newDuration: 5000 } });
    const extendZero = await rest.request('POST', `/external-task/${id}/extendLock`, { json: { workerId: 'w1', newDuration: 0 } });
    rest.engine.clock.advance(6000);
    const extendExpired = await rest.request('POST', `/external-task/${id}/extendLock`, { json: { workerId: 'w1', newDuration: 5000 } });
    const takeOver = await rest.request('POST', `/external-task/${id}/lock`, { json: { workerId: 'w2', lockDuration: 1000 } });
    const unlocked = await rest.request('POST', `/external-task/${id}/unlock`);
    const afterUnlock = (await rest.request('GET', `/external-task/${id}`)).body;
    const unknownUnlock = await rest.request('POST', '/external-task/nope/unlock');
    const unknownLock = await rest.request('POST', '/external-task/nope/lock', { json: { workerId: 'w1', lockDuration: 1000 } });

    expect(locked.status).toBe(204);
    expectError(byOther, 400, 'RestException', `External Task ${id} cannot be locked by worker 'w2'. It is locked by worker 'w1'.`);
    expectError(zero, 400, 'RestException', 'lockDuration is not greater than 0');
    expect(extended.status).toBe(204);
    expect(new Date(afterExtend.lockExpirationTime).getTime()).toBe(now + 5000);
    expectError(extendByOther, 400, 'RestException', `The lock of the External Task ${id} cannot be extended by worker 'w2''. It is locked by worker 'w1'.`);
    expectError(extendZero, 400, 'RestException', 'lockTime is not greater than 0');
    expectError(extendExpired, 400, 'RestException', `Cannot extend a lock that expired: lockExpirationTime is not greater than or equal to ${now + 6000}`);
    expect(takeOver.status).toBe(204);
    expect(unlocked.status).toBe(204);
    expect(afterUnlock).toMatchObject({ workerId: null, lockExpirationTime: null });
    expectError(unknownUnlock, 404, 'RestException', 'External task with id nope does not exist');
    expectError(unknownLock, 404, 'RestException', 'External task with id nope does not exist');
  });

  it('sets the priority; fetching by priority takes the highest first', async () => {
    await startInvoice('low');
    await startInvoice('high');
    const tasks = (await rest.request('GET', '/external-task')).body;
    const high = tasks.find((task: any) => task.businessKey === 'high');

    const set = await rest.request('PUT', `/external-task/${high.id}/priority`, { json: { priority: 50 } });
    const unknown = await rest.request('PUT', '/external-task/nope/priority', { json: { priority: 1 } });
    const fetched = await fetchAndLock({ workerId: 'w', maxTasks: 1, usePriority: true, topics: [{ topicName: 'invoice', lockDuration: 1000 }] });

    expect(set.status).toBe(204);
    expectError(unknown, 404, 'RestException', 'External task with id nope does not exist');
    expect(fetched.body.map((task: any) => [task.businessKey, task.priority])).toEqual([['high', 50]]);
  });

  it('is also served under /engine/{name}', async () => {
    await startInvoice();
    const response = await rest.request('GET', '/engine/default/external-task/count');
    expect(response.body).toEqual({ count: 1 });
  });
});

describe('rest of the group', () => {
  it('checks a request wrong in two ways in Camunda\'s order, and takes an empty worker id for a worker id', async () => {
    await startInvoice();
    const id = await lockedTaskId('w1');

    // ExtendLockOnExternalTaskCmd checks the duration in its constructor, before the worker id.
    const extendNothing = await rest.request('POST', `/external-task/${id}/extendLock`, { json: { newDuration: 0 } });
    // HandleExternalTaskCmd.validateInput: the worker id before the failure's numbers and the error code.
    const failNothing = await rest.request('POST', `/external-task/${id}/failure`, { json: { retries: -1 } });
    const negativeTimeout = await rest.request('POST', `/external-task/${id}/failure`, { json: { workerId: 'w1', retries: 1, retryTimeout: -1 } });
    const errorNothing = await rest.request('POST', `/external-task/${id}/bpmnError`, { json: {} });
    // SetExternalTasksRetriesCmd: an empty selection before the retries.
    const retriesNothing = await rest.request('PUT', '/external-task/retries', { json: { retries: -1, externalTaskIds: [] } });
    // Camunda refuses a null worker id only.
    const emptyWorker = await rest.request('POST', '/external-task/nope/complete', { json: { workerId: '' } });
    const emptyWorkerOfLocked = await rest.request('POST', `/external-task/${id}/complete`, { json: { workerId: '' } });

    expectError(extendNothing, 400, 'RestException', 'lockTime is not greater than 0');
    expectError(failNothing, 500, 'NullValueException', 'workerId is null');
    expectError(negativeTimeout, 500, 'ProcessEngineException', 'retryDuration is not greater than or equal to 0');
    expectError(errorNothing, 500, 'NullValueException', 'workerId is null');
    expectError(retriesNothing, 400, 'InvalidRequestException', 'externalTaskIds is empty');
    expectError(emptyWorker, 404, 'RestException', 'External task with id nope does not exist');
    expectError(emptyWorkerOfLocked, 400, 'RestException', `External Task ${id} cannot be completed by worker ''. It is locked by worker 'w1'.`);
  });

  it('counts a lock that expires this very moment as held against another worker', async () => {
    await startInvoice();
    const id = await lockedTaskId('w1');
    rest.engine.clock.advance(60_000);

    const byOther = await rest.request('POST', `/external-task/${id}/lock`, { json: { workerId: 'w2', lockDuration: 1000 } });
    rest.engine.clock.advance(1);
    const afterIt = await rest.request('POST', `/external-task/${id}/lock`, { json: { workerId: 'w2', lockDuration: 1000 } });

    expectError(byOther, 400, 'RestException', `External Task ${id} cannot be locked by worker 'w2'. It is locked by worker 'w1'.`);
    expect(afterIt.status).toBe(204);
  });

  it('refuses operations on a suspended task', async () => {
    const processInstanceId = await startInvoice();
    const id = await lockedTaskId('w1');
    await rest.engine.runtime.updateSuspensionState({ processInstanceIds: [processInstanceId] }, true);
    const task = (await rest.request('GET', `/external-task/${id}`)).body;
    const suspendedCount = await rest.request('GET', '/external-task/count', { query: { suspended: true } });
    const fetched = await fetchInvoice('w2');
    const failure = await rest.request('POST', `/external-task/${id}/failure`, { json: { workerId: 'w1', retries: 1 } });
    const bpmnError = await rest.request('POST', `/external-task/${id}/bpmnError`, { json: { workerId: 'w1', errorCode: 'REJECTED' } });
    const extendLock = await rest.request('POST', `/external-task/${id}/extendLock`, { json: { workerId: 'w1', newDuration: 5000 } });

    expect(task.suspended).toBe(true);
    expect(suspendedCount.body).toEqual({ count: 1 });
    // Camunda's query keeps one suspension state (suspended wins over active); an empty id list filters nothing.
    expect((await rest.request('GET', '/external-task/count', { query: { suspended: true, active: true } })).body).toEqual({ count: 1 });
    expect((await rest.request('POST', '/external-task/count', { json: { externalTaskIdIn: [] } })).body).toEqual({ count: 1 });
    expect(fetched.body).toEqual([]);
    for (const response of [failure, bpmnError, extendLock]) expectError(response, 400, 'RestException', `ENGINE-03043 ExternalTask with id '${id}' is suspended.`);
    const complete = await rest.request('POST', `/external-task/${id}/complete`, { json: { workerId: 'w1' } });
    expectError(complete, 400, 'RestException', `ENGINE-03043 ExternalTask with id '${id}' is suspended.`);
  });
});
