import { BasicAuthInterceptor, Client, Variables, type ClientOptions, type Task, type TaskService } from 'camunda-external-task-client-js';
import { afterEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { INVOICE } from './support/invoice-model.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

/**
 * The official Node worker client (camunda-external-task-client-js 3.1) against a real server.
 * File variables reach the worker as the client's File, which downloads its content from
 * GET /execution/{processInstanceId}/localVariables/{name}/data.
 */
let rest: RestHarness | null = null;
let client: Client | null = null;

afterEach(async () => {
  client?.stop();
  client = null;
  await rest?.close();
  rest = null;
});

async function setUp(...options: Parameters<typeof startRestHarness>): Promise<RestHarness> {
  rest = await startRestHarness(...options);
  await rest.engine.deployment.deploy({ resources: [{ name: 'invoice.bpmn', bytes: Buffer.from(INVOICE) }] });
  return rest;
}

function startClient(options: Partial<ClientOptions> = {}): Client {
  client = new Client({ baseUrl: rest!.url, workerId: 'node-worker', interval: 20, lockDuration: 60_000, ...options });
  return client;
}

type Handler = (args: { task: Task; taskService: TaskService }) => Promise<void>;
/** Subscribes to 'invoice' and resolves with what the handler returned the first time it ran. */
function handleOnce<T>(work: (args: { task: Task; taskService: TaskService }) => Promise<T>): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let done = false;
    const handler: Handler = async (args) => {
      if (done) return;
      done = true;
      try {
        resolve(await work(args));
      } catch (error) {
        reject(error);
      }
    };
    client!.subscribe('invoice', handler);
  });
}

const startInvoice = async (variables: Record<string, unknown> = {}) => {
  const response = await rest!.request('POST', '/process-definition/key/invoice/start', { json: { businessKey: 'b1', variables } });
  expect(response.status).toBe(200);
  return response.body.id as string;
};
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 4000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value) || Date.now() > end) return value;
    await sleep(20);
  }
}
const userTasks = (processInstanceId: string) => async () => (await rest!.engine.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey);

describe('camunda-external-task-client-js', () => {
  it('receives typed variables and completes with variables, which moves the instance on', async () => {
    await setUp();
    startClient();
    const processInstanceId = await startInvoice({
      amount: { type: 'Integer', value: 42 },
      big: { type: 'Long', value: 12345678901 },
      rate: { type: 'Double', value: 1.5 },
      customer: { type: 'String', value: 'Kermit' },
      vip: { type: 'Boolean', value: true },
      due: { type: 'Date', value: '2026-01-31T10:00:00.000+0000' },
      order: { type: 'Json', value: '{"items":[1,2],"express":true}' },
      nothing: { type: 'Null', value: null },
    });

    const received = await handleOnce(async ({ task, taskService }) => {
      const seen = {
        values: task.variables.getAll(),
        types: Object.fromEntries(Object.entries(task.variables.getAllTyped()).map(([name, typed]) => [name, typed.type])),
        workerId: task.workerId,
        processInstanceId: task.processInstanceId,
      };
      const variables = new Variables()
        .set('approved', true)
        .set('total', 12.5)
        .set('count', 3)
        .set('meta', { reviewer: 'piggy', tags: ['a'] })
        .set('decidedAt', new Date('2026-02-01T08:00:00.000Z'));
      await taskService.complete(task, variables, new Variables().set('localNote', 'only here'));
      return seen;
    });

    expect(received.processInstanceId).toBe(processInstanceId);
    expect(received.workerId).toBe('node-worker');
    expect(received.types).toEqual({
      amount: 'integer', big: 'long', rate: 'double', customer: 'string', vip: 'boolean', due: 'date', order: 'json', nothing: 'null',
    });
    expect(received.values).toMatchObject({ amount: 42, big: 12345678901, rate: 1.5, customer: 'Kermit', vip: true, order: { items: [1, 2], express: true }, nothing: null });
    expect(received.values.due).toBeInstanceOf(Date);
    expect((received.values.due as Date).toISOString()).toBe('2026-01-31T10:00:00.000Z');

    expect(await eventually(userTasks(processInstanceId), (keys) => keys.length > 0)).toEqual(['review']);
    const variables = (await rest!.request('GET', `/process-instance/${processInstanceId}/variables`)).body;
    expect(variables.approved).toMatchObject({ type: 'Boolean', value: true });
    expect(variables.total).toMatchObject({ type: 'Double', value: 12.5 });
    expect(variables.count).toMatchObject({ type: 'Integer', value: 3 });
    expect(variables.meta.type).toBe('Json');
    expect(JSON.parse(variables.meta.value)).toEqual({ reviewer: 'piggy', tags: ['a'] });
    expect(variables.decidedAt.type).toBe('Date');
    expect(new Date(variables.decidedAt.value).toISOString()).toBe('2026-02-01T08:00:00.000Z');
    expect(variables.localNote).toBeUndefined();
  });

  it('reports a failure with retries 0, which creates a failedExternalTask incident', async () => {
    await setUp();
    startClient();
    const processInstanceId = await startInvoice();

    const taskId = await handleOnce(async ({ task, taskService }) => {
      await taskService.handleFailure(task, { errorMessage: 'printer on fire', errorDetails: 'at printer.js:1', retries: 0, retryTimeout: 1000 });
      return task.id;
    });

    const incidents = (await rest!.request('GET', '/incident', { query: { processInstanceId } })).body;
    expect(incidents).toEqual([expect.objectContaining({ incidentType: 'failedExternalTask', configuration: taskId, incidentMessage: 'printer on fire' })]);
    const details = await rest!.request('GET', `/external-task/${taskId}/errorDetails`);
    expect(details.body.toString('utf8')).toBe('at printer.js:1');
  });

  it('reports a failure without options: retries 0 at once', async () => {
    await setUp();
    startClient();
    const processInstanceId = await startInvoice();

    await handleOnce(async ({ task, taskService }) => taskService.handleFailure(task));

    expect((await rest!.request('GET', '/incident/count', { query: { processInstanceId } })).body).toEqual({ count: 1 });
  });

  it('reports a BPMN error, which takes the boundary path', async () => {
    await setUp();
    startClient();
    const processInstanceId = await startInvoice();

    await handleOnce(async ({ task, taskService }) => taskService.handleBpmnError(task, 'REJECTED', 'not payable', new Variables().set('reason', 'duplicate')));

    expect(await eventually(userTasks(processInstanceId), (keys) => keys.length > 0)).toEqual(['fix']);
    expect((await rest!.engine.runtime.getVariables(processInstanceId)).reason).toMatchObject({ value: 'duplicate' });
  });

  it('extends a lock and unlocks a task', async () => {
    const harness = await setUp();
    startClient({ lockDuration: 1000 });
    await startInvoice();
    const now = harness.engine.clock.now().getTime();

    const [extended, unlocked] = await handleOnce(async ({ task, taskService }) => {
      await taskService.extendLock(task, 30_000);
      const afterExtend = (await harness.request('GET', `/external-task/${task.id}`)).body;
      client!.stop();
      await taskService.unlock(task);
      const afterUnlock = (await harness.request('GET', `/external-task/${task.id}`)).body;
      return [afterExtend, afterUnlock];
    });

    expect(extended.workerId).toBe('node-worker');
    expect(new Date(extended.lockExpirationTime).getTime()).toBe(now + 30_000);
    expect(unlocked).toMatchObject({ workerId: null, lockExpirationTime: null });
  });

  it('long-polls with asyncResponseTimeout and gets a task created while it waits', async () => {
    await setUp();
    const polls: number[] = [];
    startClient({ asyncResponseTimeout: 10_000, interval: 10 }).on('poll:start', () => polls.push(Date.now()));
    const handled = handleOnce(async ({ task, taskService }) => {
      await taskService.complete(task);
      return task.processInstanceId;
    });
    await eventually(async () => polls.length, (count) => count > 0);
    await sleep(50);

    const processInstanceId = await startInvoice();

    expect(await handled).toBe(processInstanceId);
    expect(await eventually(userTasks(processInstanceId), (keys) => keys.length > 0)).toEqual(['review']);
  });

  it('authenticates with BasicAuthInterceptor and fetches as that user', async () => {
    const harness = await setUp({ authorization: { enabled: true } }, { authentication: 'basic' });
    await harness.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await harness.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: basic('admin', 'admin-secret'),
    });
    await harness.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 8, resourceId: '*', permissions: ['READ', 'UPDATE'] });
    const response = await harness.request('POST', '/process-definition/key/invoice/start', { json: {}, headers: basic('admin', 'admin-secret') });
    const processInstanceId = response.body.id as string;

    const wrong = new Client({ baseUrl: harness.url, workerId: 'intruder', interval: 20, interceptors: new BasicAuthInterceptor({ username: 'jonny', password: 'nope' }) });
    const statuses: number[] = [];
    wrong.on('poll:error', (error: { httpStatusCode?: number }) => statuses.push(error.httpStatusCode ?? 0));
    wrong.subscribe('invoice', async () => {});
    await eventually(async () => statuses.length, (count) => count > 0);
    wrong.stop();
    expect(statuses[0]).toBe(401);
    // As in Camunda, the failed checks locked jonny out (3 s and more per failure): an administrator
    // unlocks, once a poll still under way has been answered.
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect((await harness.request('POST', '/user/jonny/unlock', { headers: basic('admin', 'admin-secret') })).status).toBe(204);

    startClient({ asyncResponseTimeout: 5_000, interceptors: new BasicAuthInterceptor({ username: 'jonny', password: 'jonny-secret' }) });
    const handled = await handleOnce(async ({ task, taskService }) => {
      await taskService.complete(task, new Variables().set('by', 'jonny'));
      return task.processInstanceId;
    });

    expect(handled).toBe(processInstanceId);
    expect(await eventually(userTasks(processInstanceId), (keys) => keys.length > 0)).toEqual(['review']);
  });

  it('hands a File variable to the worker, whose File loads its content from the execution data endpoint', async () => {
    await setUp();
    startClient();
    await startInvoice({
      doc: { type: 'File', value: Buffer.from('scanned invoice').toString('base64'), valueInfo: { filename: 'invoice.txt', mimeType: 'text/plain', encoding: 'UTF-8' } },
    });

    const received = await handleOnce(async ({ task, taskService }) => {
      const file = await task.variables.get('doc').load();
      await taskService.complete(task);
      return { type: task.variables.getTyped('doc').type, filename: file.filename, mimeType: file.mimeType, encoding: file.encoding, content: Buffer.from(file.content).toString() };
    });

    expect(received).toEqual({ type: 'file', filename: 'invoice.txt', mimeType: 'text/plain', encoding: 'UTF-8', content: 'scanned invoice' });
  });
});
