import { createTestEngine } from '@trellis/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { embeddedDemo } from '../src/embedded-demo.js';

describe('embedded example', () => {
  const engines: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => Promise.all(engines.splice(0).map((engine) => engine.close())));

  it('deploys once and keeps version 1 when run again unchanged', async () => {
    const engine = await createTestEngine();
    engines.push(engine);

    await embeddedDemo(engine);
    const summary = await embeddedDemo(engine);

    expect(summary).toMatch(/^Order v1 \(order:1:/);
    expect(await engine.deployment.countDeployments()).toBe(1);
  });
});
