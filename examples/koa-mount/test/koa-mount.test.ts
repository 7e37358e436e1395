import { createTestEngine } from '@trellis/core/testing';
import type { AddressInfo } from 'node:net';
import type { Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostApp } from '../src/app.js';

describe('koa-mount example', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  async function start() {
    const engine = await createTestEngine();
    const server: Server = createHostApp(engine).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    cleanups.push(async () => {
      await new Promise((resolve) => server.close(resolve));
      await engine.close();
    });
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it('serves the host routes and the REST API side by side', async () => {
    const url = await start();

    const health = await fetch(`${url}/health`);
    const version = await fetch(`${url}/camunda/engine-rest/version`);
    const count = await fetch(`${url}/camunda/engine-rest/deployment/count`);

    expect(await health.json()).toEqual({ status: 'up' });
    expect(await version.json()).toEqual({ version: '7.22.0' });
    expect(await count.json()).toEqual({ count: 0 });
  });

  it('leaves paths outside the mount to the host', async () => {
    const url = await start();

    const response = await fetch(`${url}/engine-rest/version`);

    expect(response.status).toBe(404);
  });
});
