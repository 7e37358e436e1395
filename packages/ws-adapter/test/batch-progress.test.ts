import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestEngine, testStoreConfigs } from '@trellis/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { attachBatchProgress, attachEventStream } from '../src/index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const model = (version: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d${version}" targetNamespace="http://trellis.test">
  <bpmn:process id="moving" name="v${version}" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="wait" />
    <bpmn:userTask id="wait" /><bpmn:sequenceFlow id="f2" sourceRef="wait" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

interface Message {
  type: string;
  event?: string;
  batches?: Array<{ id: string }>;
  batch?: { id: string; completedJobs: number; totalJobs: number };
}

async function connect(url: string) {
  const socket = new WebSocket(url);
  const messages: Message[] = [];
  socket.on('message', (data) => messages.push(JSON.parse(data.toString())));
  await new Promise((resolve) => socket.once('open', resolve));
  cleanups.push(async () => socket.close());
  const until = async (check: () => boolean) => {
    for (const started = Date.now(); !check(); ) {
      if (Date.now() - started > 5_000) throw new Error(`timed out; got ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  };
  return { socket, messages, until };
}

describe('attachBatchProgress', () => {
  it('sends a snapshot, then coalesced progress with growing completedJobs while 1,000 instances migrate, ending in completed', async () => {
    const engine = await createTestEngine();
    const server: Server = createServer();
    const progress = attachBatchProgress(server, engine, { path: '/batch-progress', coalesceMs: 10 });
    const events = attachEventStream(server, engine, { path: '/events' });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => engine.close(), () => new Promise((resolve) => server.close(() => resolve())), () => progress.close(), () => events.close());
    const port = (server.address() as AddressInfo).port;
    const [v1] = (await engine.deployment.deploy({ resources: [{ name: 'v1.bpmn', bytes: Buffer.from(model('1')) }] })).processDefinitions!;
    const ids: string[] = [];
    for (let i = 0; i < 1_000; i++) ids.push((await engine.runtime.startProcessInstanceById(v1.id)).id);
    const [v2] = (await engine.deployment.deploy({ resources: [{ name: 'v2.bpmn', bytes: Buffer.from(model('2')) }] })).processDefinitions!;

    const client = await connect(`ws://127.0.0.1:${port}/batch-progress`);
    const eventClient = await connect(`ws://127.0.0.1:${port}/events`);
    client.socket.send(JSON.stringify({ type: 'subscribe' }));
    await client.until(() => client.messages.some((message) => message.type === 'snapshot'));
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1.id, targetProcessDefinitionId: v2.id });
    const batch = await engine.batch.migrateAsync(plan, { processInstanceIds: ids });
    await client.until(() => client.messages.some((message) => message.event === 'created'));
    for (let round = 0; round < 100 && (await engine.batch.count()) > 0; round++) {
      await engine.jobExecutor.runDueJobs();
      await new Promise((resolve) => setTimeout(resolve, 30));
      engine.clock.advance(30_000);
    }
    await client.until(() => client.messages.some((message) => message.event === 'completed'));

    const batchMessages = client.messages.filter((message) => message.type === 'batch');
    const completed = batchMessages.map((message) => message.batch!.completedJobs);
    expect(client.messages[0]).toEqual({ type: 'hello', protocol: 1 });
    expect(client.messages[1]).toEqual({ type: 'snapshot', batches: [] });
    expect(batchMessages[0]).toMatchObject({ event: 'created', batch: { id: batch.id, totalJobs: 1_000 } });
    expect(batchMessages.filter((message) => message.event === 'progress').length).toBeGreaterThan(1);
    expect(batchMessages.at(-1)!.event).toBe('completed');
    expect(completed).toEqual([...completed].sort((a, b) => a - b));
    expect(eventClient.messages[0]).toMatchObject({ type: 'hello' });
    expect((await engine.runtime.findProcessInstances({ processDefinitionId: v2.id })).length).toBe(1_000);
    expect(await engine.runtime.findProcessInstances({ processDefinitionId: v1.id })).toEqual([]);
  });

  const postgres = testStoreConfigs().find((store) => store.name === 'postgres');
  it.skipIf(!postgres)('shows a client on node A the progress of a batch whose jobs run on node B', async () => {
    const store = postgres!.config('batch-progress-relay');
    const a = await createTestEngine({ store });
    const b = await createTestEngine({ store });
    const server: Server = createServer();
    const progress = attachBatchProgress(server, a, { path: '/batch-progress', coalesceMs: 10 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => a.close(), () => b.close(), () => new Promise((resolve) => server.close(() => resolve())), () => progress.close());
    const [v1] = (await a.deployment.deploy({ resources: [{ name: 'v1.bpmn', bytes: Buffer.from(model('1')) }] })).processDefinitions!;
    const ids = [(await a.runtime.startProcessInstanceById(v1.id)).id, (await a.runtime.startProcessInstanceById(v1.id)).id];
    const [v2] = (await a.deployment.deploy({ resources: [{ name: 'v2.bpmn', bytes: Buffer.from(model('2')) }] })).processDefinitions!;
    const client = await connect(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/batch-progress`);
    client.socket.send(JSON.stringify({ type: 'subscribe' }));
    await client.until(() => client.messages.some((message) => message.type === 'snapshot'));

    const plan = await b.migration.generate({ sourceProcessDefinitionId: v1.id, targetProcessDefinitionId: v2.id });
    await b.batch.migrateAsync(plan, { processInstanceIds: ids });
    for (let round = 0; round < 10 && (await b.batch.count()) > 0; round++) {
      await b.jobExecutor.runDueJobs();
      b.clock.advance(30_000);
    }
    await client.until(() => client.messages.some((message) => message.event === 'completed'));

    const events = client.messages.filter((message) => message.type === 'batch').map((message) => message.event);
    expect(events[0]).toBe('created');
    expect(events.at(-1)).toBe('completed');
  });

  it('waits for word of how a vanished batch ended: completed when it comes, deleted when it does not', async () => {
    // Two engines on one SQLite file: what B does reaches A's clients only through the events A is given
    // (on PostgreSQL the relay brings them, the progress event sometimes before the completion).
    const store = testStoreConfigs().find((each) => each.name === 'sqlite')!.config(expect.getState().currentTestName!, { shared: true });
    const a = await createTestEngine({ store });
    const b = await createTestEngine({ store });
    const server: Server = createServer();
    const progress = attachBatchProgress(server, a, { path: '/batch-progress', coalesceMs: 5, endGraceMs: 300 });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => a.close(), () => b.close(), () => new Promise((resolve) => server.close(() => resolve())), () => progress.close());
    const [v1] = (await a.deployment.deploy({ resources: [{ name: 'v1.bpmn', bytes: Buffer.from(model('1')) }] })).processDefinitions!;
    const ids = [(await a.runtime.startProcessInstanceById(v1.id)).id, (await a.runtime.startProcessInstanceById(v1.id)).id];
    const [v2] = (await a.deployment.deploy({ resources: [{ name: 'v2.bpmn', bytes: Buffer.from(model('2')) }] })).processDefinitions!;
    const client = await connect(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/batch-progress`);
    client.socket.send(JSON.stringify({ type: 'subscribe' }));
    await client.until(() => client.messages.some((message) => message.type === 'snapshot'));
    const plan = await a.migration.generate({ sourceProcessDefinitionId: v1.id, targetProcessDefinitionId: v2.id });
    const completed = await a.batch.migrateAsync(plan, { processInstanceIds: [ids[0]!] });
    const deleted = await a.batch.migrateAsync(plan, { processInstanceIds: [ids[1]!] });
    await client.until(() => client.messages.filter((message) => message.event === 'created').length === 2);

    await b.batch.delete(completed.id);
    await b.batch.delete(deleted.id);
    a.events.emit('batch.changed', { batchId: completed.id });
    a.events.emit('batch.changed', { batchId: deleted.id });
    await new Promise((resolve) => setTimeout(resolve, 50));
    a.events.emit('batch.changed', { batchId: completed.id, ended: 'completed' });
    await client.until(() => client.messages.some((message) => message.event === 'deleted'));

    const ends = client.messages.filter((message) => message.event === 'completed' || message.event === 'deleted');
    expect(ends.map((message) => [message.batch!.id, message.event])).toEqual([
      [completed.id, 'completed'],
      [deleted.id, 'deleted'],
    ]);
  });

  it('shows each client only the batches it may read, and tells of failed jobs', async () => {
    const engine = await createTestEngine({ authorization: { enabled: true } });
    const server: Server = createServer();
    const progress = attachBatchProgress(server, engine, {
      path: '/batch-progress',
      coalesceMs: 10,
      authenticate: async (request) => ({ userId: new URL(request.url!, 'http://x').searchParams.get('user')!, groupIds: [], tenantIds: [] }),
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => engine.close(), () => new Promise((resolve) => server.close(() => resolve())), () => progress.close());
    await engine.authorization.createAuthorization({ type: 1, userId: 'peter', groupId: null, resourceType: 13, resourceId: '*', permissions: ['READ'] });
    const [v1] = (await engine.deployment.deploy({ resources: [{ name: 'v1.bpmn', bytes: Buffer.from(model('1')) }] })).processDefinitions!;
    const id = (await engine.runtime.startProcessInstanceById(v1.id)).id;
    const [v2] = (await engine.deployment.deploy({ resources: [{ name: 'v2.bpmn', bytes: Buffer.from(model('2')) }] })).processDefinitions!;
    const port = (server.address() as AddressInfo).port;
    const peter = await connect(`ws://127.0.0.1:${port}/batch-progress?user=peter`);
    const mary = await connect(`ws://127.0.0.1:${port}/batch-progress?user=mary`);
    for (const client of [peter, mary]) client.socket.send(JSON.stringify({ type: 'subscribe' }));
    await peter.until(() => peter.messages.some((message) => message.type === 'snapshot'));
    await mary.until(() => mary.messages.some((message) => message.type === 'snapshot'));

    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1.id, targetProcessDefinitionId: v2.id });
    const batch = await engine.batch.migrateAsync(plan, { processInstanceIds: [id] });
    await peter.until(() => peter.messages.some((message) => message.event === 'created'));
    await engine.runtime.deleteProcessInstance(id); // the execution job now fails on every attempt
    for (let round = 0; round < 6; round++) await engine.jobExecutor.runDueJobs();
    await peter.until(() => peter.messages.some((message) => message.event === 'failed-job'));
    await engine.batch.delete(batch.id);
    await peter.until(() => peter.messages.some((message) => message.event === 'deleted'));

    expect(peter.messages.find((message) => message.event === 'failed-job')!.batch).toMatchObject({ id: batch.id, failedJobs: 1 });
    expect(mary.messages.map((message) => message.type)).toEqual(['hello', 'snapshot']);
  });
});
