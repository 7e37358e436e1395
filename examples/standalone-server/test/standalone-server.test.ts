import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { serverConfigFromEnv } from '../src/server-config.js';
import { startServer, type RunningServer } from '../src/server.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(dataDir: string): Promise<RunningServer> {
  const running = await startServer(serverConfigFromEnv({ PORT: '0', HOST: '127.0.0.1', TRELLIS_DATA_DIR: dataDir, TRELLIS_LOG_LEVEL: 'warn' }));
  cleanups.push(() => running.close());
  return running;
}

function deployForm(): FormData {
  const form = new FormData();
  form.append('deployment-name', 'smoke');
  form.append('data', new Blob([simpleProcessXml('smoke')]), 'smoke.bpmn');
  return form;
}

describe('standalone server', () => {
  it('serves the REST API from a data folder and reads it back after a restart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trellis-server-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const first = await start(dataDir);

    const created = await fetch(`${first.url}/deployment/create`, { method: 'POST', body: deployForm() });
    const deployment = (await created.json()) as { id: string };
    await first.close();
    cleanups.pop();
    const second = await start(dataDir);
    const read = await fetch(`${second.url}/process-definition/key/smoke`);

    expect(created.status).toBe(200);
    expect(read.status).toBe(200);
    expect(await read.json()).toMatchObject({ key: 'smoke', version: 1, deploymentId: deployment.id });
  });

  it('creates the administrator on first start and protects the API with Basic auth and authorization', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trellis-server-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const running = await startServer(
      serverConfigFromEnv({
        PORT: '0', HOST: '127.0.0.1', TRELLIS_DATA_DIR: dataDir, TRELLIS_LOG_LEVEL: 'warn',
        TRELLIS_AUTH: 'basic', TRELLIS_AUTHORIZATION: 'true', TRELLIS_ADMIN_USER: 'admin', TRELLIS_ADMIN_PASSWORD: 'change-me',
      }),
    );
    cleanups.push(() => running.close());
    const admin = { Authorization: `Basic ${Buffer.from('admin:change-me').toString('base64')}` };

    const anonymous = await fetch(`${running.url}/deployment`);
    const asAdmin = await fetch(`${running.url}/deployment/create`, { method: 'POST', body: deployForm(), headers: admin });
    const groups = await fetch(`${running.url}/identity/groups?userId=admin`, { headers: admin });

    const refused = await new Promise<number>((resolve) => {
      new WebSocket(`${running.url.replace('http', 'ws')}/batch-progress`).on('unexpected-response', (_request, response) => resolve(response.statusCode ?? 0));
    });
    const hello = await new Promise<string>((resolve) => {
      const socket = new WebSocket(`${running.url.replace('http', 'ws')}/batch-progress`, { headers: admin });
      socket.on('message', (data) => {
        resolve(String(data));
        socket.close();
      });
    });

    expect(anonymous.status).toBe(401);
    expect(refused).toBe(401);
    expect(JSON.parse(hello)).toEqual({ type: 'hello', protocol: 1 });
    expect(asAdmin.status).toBe(200);
    expect(((await groups.json()) as { groups: Array<{ id: string }> }).groups.map((g) => g.id)).toEqual(['camunda-admin']);
  });

  it('reads PostgreSQL from TRELLIS_DATABASE_URL, which wins over the data folder', () => {
    const config = serverConfigFromEnv({ TRELLIS_DATABASE_URL: 'postgres://u@h/db', TRELLIS_DATA_DIR: '/tmp/x' });

    expect(config.engine.store).toEqual({ type: 'postgres', connectionString: 'postgres://u@h/db', schema: undefined });
    expect(config.port).toBe(8080);
    expect(config.basePath).toBe('/engine-rest');
  });

  it('sizes the PostgreSQL pool from TRELLIS_DATABASE_POOL_SIZE and refuses a size below one', () => {
    const config = serverConfigFromEnv({ TRELLIS_DATABASE_URL: 'postgres://u@h/db', TRELLIS_DATABASE_POOL_SIZE: '4' });

    expect(config.engine.store).toEqual({ type: 'postgres', connectionString: 'postgres://u@h/db', schema: undefined, poolSize: 4 });
    expect(() => serverConfigFromEnv({ TRELLIS_DATABASE_URL: 'postgres://u@h/db', TRELLIS_DATABASE_POOL_SIZE: '0' })).toThrow(/TRELLIS_DATABASE_POOL_SIZE/);
    expect(() => serverConfigFromEnv({ TRELLIS_DATABASE_POOL_SIZE: 'many' })).toThrow(/TRELLIS_DATABASE_POOL_SIZE/);
  });

  it('turns on unique worker requests for long polls with TRELLIS_FETCH_AND_LOCK_UNIQUE_WORKER_REQUEST', () => {
    expect(serverConfigFromEnv({}).fetchAndLockUniqueWorkerRequest).toBe(false);
    expect(serverConfigFromEnv({ TRELLIS_FETCH_AND_LOCK_UNIQUE_WORKER_REQUEST: 'true' }).fetchAndLockUniqueWorkerRequest).toBe(true);
    expect(() => serverConfigFromEnv({ TRELLIS_FETCH_AND_LOCK_UNIQUE_WORKER_REQUEST: 'yes' })).toThrow(/TRELLIS_FETCH_AND_LOCK_UNIQUE_WORKER_REQUEST/);
  });

  it('keeps the SQLite file in ./data of the folder npm was started from', () => {
    const config = serverConfigFromEnv({ INIT_CWD: '/srv/app' });

    expect(config.engine.store).toEqual({ type: 'sqlite', filename: '/srv/app/data/trellis.db' });
  });

  it('refuses a bad port or log level', () => {
    expect(() => serverConfigFromEnv({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => serverConfigFromEnv({ TRELLIS_LOG_LEVEL: 'loud' })).toThrow(/TRELLIS_LOG_LEVEL/);
    expect(() => serverConfigFromEnv({ TRELLIS_SCRIPTING: 'yes' })).toThrow(/TRELLIS_SCRIPTING/);
  });

  it('reads the history cleanup window from TRELLIS_HISTORY_CLEANUP_WINDOW and refuses a malformed one', () => {
    const config = serverConfigFromEnv({ TRELLIS_HISTORY_CLEANUP_WINDOW: '22:00-06:00' });
    expect(config.engine.historyCleanup).toEqual({ batchWindowStartTime: '22:00', batchWindowEndTime: '06:00' });
    expect(serverConfigFromEnv({}).engine.historyCleanup).toBeUndefined();
    expect(() => serverConfigFromEnv({ TRELLIS_HISTORY_CLEANUP_WINDOW: '22h' })).toThrow(/TRELLIS_HISTORY_CLEANUP_WINDOW/);
  });

  it('reads TRELLIS_HISTORIC_INSTANCE_PERMISSIONS (off unless true) and refuses anything but a flag', () => {
    expect(serverConfigFromEnv({ TRELLIS_HISTORIC_INSTANCE_PERMISSIONS: 'true' }).engine.authorization?.enableHistoricInstancePermissions).toBe(true);
    expect(serverConfigFromEnv({}).engine.authorization?.enableHistoricInstancePermissions).toBe(false);
    expect(() => serverConfigFromEnv({ TRELLIS_HISTORIC_INSTANCE_PERMISSIONS: 'on' })).toThrow(/TRELLIS_HISTORIC_INSTANCE_PERMISSIONS/);
  });

  it('reads TRELLIS_ENFORCE_SPECIFIC_VARIABLE_PERMISSION (off unless true) and refuses anything but a flag', () => {
    expect(serverConfigFromEnv({ TRELLIS_ENFORCE_SPECIFIC_VARIABLE_PERMISSION: 'true' }).engine.authorization?.enforceSpecificVariablePermission).toBe(true);
    expect(serverConfigFromEnv({}).engine.authorization?.enforceSpecificVariablePermission).toBe(false);
    expect(() => serverConfigFromEnv({ TRELLIS_ENFORCE_SPECIFIC_VARIABLE_PERMISSION: 'yes' })).toThrow(/TRELLIS_ENFORCE_SPECIFIC_VARIABLE_PERMISSION/);
  });

  it('reads the resource id patterns of users, groups and tenants', () => {
    const engine = serverConfigFromEnv({ TRELLIS_GENERAL_RESOURCE_WHITELIST_PATTERN: '[a-z]+', TRELLIS_USER_RESOURCE_WHITELIST_PATTERN: '[a-z.@]+' }).engine;
    expect([engine.generalResourceWhitelistPattern, engine.userResourceWhitelistPattern, engine.groupResourceWhitelistPattern]).toEqual(['[a-z]+', '[a-z.@]+', undefined]);
  });

  it('reads TRELLIS_DISABLE_STRICT_CAMUNDA_FORM_PARSING (off unless true)', () => {
    expect(serverConfigFromEnv({ TRELLIS_DISABLE_STRICT_CAMUNDA_FORM_PARSING: 'true' }).engine.disableStrictCamundaFormParsing).toBe(true);
    expect(serverConfigFromEnv({}).engine.disableStrictCamundaFormParsing).toBe(false);
    expect(() => serverConfigFromEnv({ TRELLIS_DISABLE_STRICT_CAMUNDA_FORM_PARSING: 'yes' })).toThrow(/TRELLIS_DISABLE_STRICT_CAMUNDA_FORM_PARSING/);
  });

  it('reads TRELLIS_SKIP_OUTPUT_MAPPING_ON_CANCELED_ACTIVITIES (off unless true) and refuses anything but a flag', () => {
    expect(serverConfigFromEnv({ TRELLIS_SKIP_OUTPUT_MAPPING_ON_CANCELED_ACTIVITIES: 'true' }).engine.skipOutputMappingOnCanceledActivities).toBe(true);
    expect(serverConfigFromEnv({}).engine.skipOutputMappingOnCanceledActivities).toBe(false);
    expect(() => serverConfigFromEnv({ TRELLIS_SKIP_OUTPUT_MAPPING_ON_CANCELED_ACTIVITIES: '1' })).toThrow(/TRELLIS_SKIP_OUTPUT_MAPPING_ON_CANCELED_ACTIVITIES/);
  });

  it('passes TRELLIS_TASK_METRICS_TIME_TO_LIVE on as taskMetricsTimeToLive (unset: none)', () => {
    expect(serverConfigFromEnv({ TRELLIS_TASK_METRICS_TIME_TO_LIVE: 'P30D' }).engine.taskMetricsTimeToLive).toBe('P30D');
    expect(serverConfigFromEnv({}).engine.taskMetricsTimeToLive).toBeUndefined();
  });

  it('exposes Prometheus metrics at /prometheus, counting what the engine did', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'trellis-server-'));
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
    const running = await start(dataDir);
    await fetch(`${running.url}/deployment/create`, { method: 'POST', body: deployForm() });
    await fetch(`${running.url}/process-definition/key/smoke/start`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });

    const response = await fetch(running.url.replace('/engine-rest', '/prometheus'));
    const text = await response.text();

    expect(response.status).toBe(200);
    expect(text).toContain('trellis_process_instances_started_total 1');
    expect(text).toContain('trellis_flow_node_instances_started_total 2');
    expect(text).toMatch(/trellis_commands_total\{command="StartProcessInstanceCmd"\} 1/);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('writes history at the level TRELLIS_HISTORY_LEVEL names, full by default, and refuses an unknown level at start', async () => {
    const run = async (env: Record<string, string>) => {
      const dataDir = mkdtempSync(join(tmpdir(), 'trellis-server-'));
      cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
      const running = await startServer(serverConfigFromEnv({ PORT: '0', HOST: '127.0.0.1', TRELLIS_DATA_DIR: dataDir, TRELLIS_LOG_LEVEL: 'warn', ...env }));
      cleanups.push(() => running.close());
      await fetch(`${running.url}/deployment/create`, { method: 'POST', body: deployForm() });
      await fetch(`${running.url}/process-definition/key/smoke/start`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' });
      return ((await (await fetch(`${running.url}/history/process-instance/count`)).json()) as { count: number }).count;
    };
    expect(await run({})).toBe(1);
    expect(await run({ TRELLIS_HISTORY_LEVEL: 'none' })).toBe(0);
    await expect(run({ TRELLIS_HISTORY_LEVEL: 'everything' })).rejects.toThrow(/historyLevel/);
  });

  it('runs model scripts only when TRELLIS_SCRIPTING is true', () => {
    expect(serverConfigFromEnv({}).engine.scripting).toEqual({ enabled: false });
    expect(serverConfigFromEnv({ TRELLIS_SCRIPTING: 'true' }).engine.scripting).toEqual({ enabled: true });
  });

  it('checks tenants unless TRELLIS_TENANT_CHECK is false', () => {
    expect(serverConfigFromEnv({}).engine.tenantCheckEnabled).toBe(true);
    expect(serverConfigFromEnv({ TRELLIS_TENANT_CHECK: 'false' }).engine.tenantCheckEnabled).toBe(false);
    expect(serverConfigFromEnv({ TRELLIS_TENANT_CHECK: 'true' }).engine.tenantCheckEnabled).toBe(true);
    expect(() => serverConfigFromEnv({ TRELLIS_TENANT_CHECK: 'no' })).toThrow(/TRELLIS_TENANT_CHECK/);
  });

  it("holds new passwords to Camunda's default policy only when TRELLIS_PASSWORD_POLICY is true", () => {
    expect(serverConfigFromEnv({}).engine.enablePasswordPolicy).toBe(false);
    expect(serverConfigFromEnv({ TRELLIS_PASSWORD_POLICY: 'true' }).engine.enablePasswordPolicy).toBe(true);
    expect(() => serverConfigFromEnv({ TRELLIS_PASSWORD_POLICY: 'on' })).toThrow(/TRELLIS_PASSWORD_POLICY/);
  });
});
