import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestEngine, simpleProcessXml } from '@trellis/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { attachEventStream, type ServerMessage } from '../src/index.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const engine = await createTestEngine();
  const server: Server = createServer();
  const stream = attachEventStream(server, engine, { path: '/events' });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(() => engine.close(), () => new Promise((resolve) => server.close(() => resolve())), () => stream.close());
  const socket = new WebSocket(`ws://127.0.0.1:${(server.address() as AddressInfo).port}/events`);
  const messages: ServerMessage[] = [];
  const waiters: Array<() => void> = [];
  socket.on('message', (data) => {
    messages.push(JSON.parse(data.toString()));
    waiters.splice(0).forEach((wake) => wake());
  });
  const next = async (count: number) => {
    while (messages.length < count) await new Promise<void>((resolve) => waiters.push(resolve));
    return messages[count - 1];
  };
  await new Promise((resolve) => socket.once('open', resolve));
  return { engine, socket, next };
}

describe('attachEventStream', () => {
  it('greets with the protocol version and streams the events a client subscribed to', async () => {
    const { engine, socket, next } = await setup();
    expect(await next(1)).toEqual({ type: 'hello', protocol: 1, events: ['deployment.created', 'deployment.deleted'] });

    socket.send(JSON.stringify({ type: 'subscribe', events: ['deployment.created'] }));
    await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await engine.deployment.deploy({ resources: [{ name: 'p.bpmn', bytes: Buffer.from(simpleProcessXml('p')) }] });

    expect(await next(2)).toEqual({
      type: 'event',
      event: 'deployment.created',
      payload: { deploymentId: result.deployment.id, processDefinitionIds: [result.processDefinitions![0].id] },
    });
    socket.close();
  });

  it('answers an invalid subscription with an error message', async () => {
    const { socket, next } = await setup();

    socket.send('{"type":"subscribe","events":["everything"]}');

    expect((await next(2)).type).toBe('error');
    socket.close();
  });
});
