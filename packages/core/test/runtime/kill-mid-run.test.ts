import { spawn } from 'node:child_process';
import { mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/index.js';
import type { ProcessEngine } from '../../src/engine.js';
import type { StoreConfig } from '../../src/persistence/store.js';
import { testStoreConfigs } from '../../src/testing/index.js';

const WORKER = fileURLToPath(new URL('./support/kill-worker.ts', import.meta.url));
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** Runs the workload in a child process and SIGKILLs it once it has committed `commands` commands. */
function runAndKill(store: StoreConfig, commands: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', WORKER, JSON.stringify(store)], { stdio: ['ignore', 'pipe', 'pipe'] });
    let committed = 0;
    let errors = '';
    child.stderr.on('data', (chunk) => (errors += chunk));
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      committed += (chunk.match(/started|completed/g) ?? []).length;
      if (committed >= commands && !child.killed) child.kill('SIGKILL');
    });
    child.on('exit', (code, signal) => (signal === 'SIGKILL' ? resolve(committed) : reject(new Error(`worker exited with ${code}: ${errors}`))));
  });
}

describe.each(testStoreConfigs())('killing an engine mid-run on $name', (testStore) => {
  it('leaves every instance before or after a command, never half-moved', async () => {
    let store = testStore.config(expect.getState().currentTestName!, { shared: true });
    if (store.type === 'sqlite') {
      const directory = join(tmpdir(), 'trellis-kill');
      mkdirSync(directory, { recursive: true });
      store = { type: 'sqlite', filename: join(directory, `kill-${process.pid}-${Date.now()}.db`) };
    }
    const committed = await runAndKill(store, 60);
    const engine = await createEngine({ store, logLevel: 'error', jobExecutor: { activate: false } });
    engines.push(engine);

    const instances = await engine.runtime.findProcessInstances();
    const tasks = await engine.task.findTasks();
    expect(instances.length).toBeGreaterThanOrEqual(Math.floor(committed / 2) - 1);
    for (const instance of instances) {
      const keys = tasks.filter((task) => task.processInstanceId === instance.id).map((task) => task.taskDefinitionKey).sort();
      const tree = await engine.runtime.getActivityInstanceTree(instance.id);
      // A path that reached the join waits there (its activity instance stays until the join fires).
      const active = tree!.childActivityInstances.map((child) => child.activityId).filter((id) => id !== 'join').sort();
      const waitingAtJoin = tree!.childActivityInstances.filter((child) => child.activityId === 'join').length;
      // Each instance is where a whole command left it: both fork tasks, one of them, or the task after the join.
      expect([['a', 'b'], ['a'], ['b'], ['after']]).toContainEqual(keys);
      expect(active).toEqual(keys);
      expect(waitingAtJoin).toBe(keys.length === 1 && keys[0] !== 'after' ? 1 : 0);
      expect((await engine.runtime.getVariables(instance.id)).n).toBeDefined();
    }
    expect(tasks.every((task) => instances.some((instance) => instance.id === task.processInstanceId))).toBe(true);
    if (store.type === 'sqlite') rmSync(store.filename, { force: true });
  }, 60_000);
});
