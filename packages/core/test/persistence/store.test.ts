import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/persistence/store.js';
import { testStoreConfigs } from '../../src/testing/test-stores.js';
import { OptimisticLockingException } from '../../src/errors/index.js';
import { ProcessDefinitionRepository } from '../../src/persistence/repositories/process-definition-repository.js';
import type { ProcessDefinition } from '../../src/services/process-definition/process-definition.js';
import { migrations } from '../../src/persistence/migrations/index.js';
import { migrateToLatest } from '../../src/persistence/migrator.js';
import { FixedClock, createTestEngine } from '../../src/testing/index.js';

const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

async function openStore(config: ReturnType<ReturnType<typeof testStoreConfigs>[number]['config']>): Promise<Store> {
  const store = Store.open(config);
  stores.push(store);
  await store.migrate(() => Date.now());
  return store;
}

async function insertDeployment(store: Store, id: string, name: string | null, time: number) {
  await store.db.insertInto('trellis_deployment').values({ id, name, source: null, deploy_time: time, tenant_id: null }).execute();
}

function definition(id: string, deploymentId: string): ProcessDefinition {
  return {
    id, key: 'k', name: null, description: null, category: null, version: 1, versionTag: null, resourceName: 'r.bpmn',
    diagramResourceName: null, deploymentId, deploymentTime: new Date(0), tenantId: null, suspended: false,
    historyTimeToLive: 5, startableInTasklist: true, hasStartFormKey: false,
  };
}

/** The versions of the migrations from this one on, as a store migrated up to before it applies them. */
const versionsFrom = (version: number) => migrations.filter((migration) => migration.version >= version).map((migration) => migration.version);

describe.each(testStoreConfigs())('store on $name', (testStore) => {
  it('applies every migration once, and a second start finds nothing to do', async () => {
    const config = testStore.config(expect.getState().currentTestName!, { shared: true });
    const first = await openStore(config);
    const second = Store.open(config);
    stores.push(second);

    expect(await second.migrate(() => Date.now())).toEqual([]);
    const rows = await first.db.selectFrom('trellis_schema_migration').select('version').execute();
    expect(rows.map((row) => row.version)).toEqual(migrations.map((_, index) => index + 1));
  });

  it("moves a running batch's variables out of its settings into variable rows of the batch (migration 30)", async () => {
    const config = testStore.config(expect.getState().currentTestName!, { shared: true });
    const store = Store.open(config);
    stores.push(store);
    const schema = config.type === 'postgres' ? (config.schema ?? null) : null;
    await migrateToLatest(store.db, store.dialect, schema, () => Date.now(), migrations.filter((migration) => migration.version < 30));
    const variables = {
      note: { type: 'string', text: 'checked', text2: null, long_value: null, double_value: null, bytes: null },
      blob: { type: 'bytes', text: null, text2: null, long_value: null, double_value: null, bytes: Buffer.from([0, 255]).toString('base64') },
    };
    const batch = { rev: 1, total_jobs: 1, jobs_created: 0, batch_jobs_per_seed: 100, invocations_per_batch_job: 1, seed_job_def_id: null, monitor_job_def_id: null, batch_job_def_id: null, tenant_id: null, create_user_id: null, suspended: 0, start_time: 0, execution_start_time: null };
    const configuration = (settings: unknown) => JSON.stringify({ ids: ['p1'], settings, deploymentId: null });
    await store.db.insertInto('trellis_batch').values([
      { ...batch, id: 'b1', type: 'set-variables', configuration: configuration({ variables }) },
      { ...batch, id: 'b2', type: 'correlate-message', configuration: configuration({ messageName: 'go', variables: null }) },
    ]).execute();

    expect(await store.migrate(() => Date.now())).toEqual(versionsFrom(30));
    const rows = await store.db.selectFrom('trellis_variable').selectAll().orderBy('name').execute();
    expect(rows.map(({ name, type, text, batch_id, execution_id, proc_inst_id }) => ({ name, type, text, batch_id, execution_id, proc_inst_id }))).toEqual([
      { name: 'blob', type: 'bytes', text: null, batch_id: 'b1', execution_id: null, proc_inst_id: null },
      { name: 'note', type: 'string', text: 'checked', batch_id: 'b1', execution_id: null, proc_inst_id: null },
    ]);
    expect(Buffer.from(rows[0]!.bytes!)).toEqual(Buffer.from([0, 255]));
    const configurations = await store.db.selectFrom('trellis_batch').select(['id', 'configuration']).orderBy('id').execute();
    expect(configurations.map((row) => JSON.parse(row.configuration!).settings)).toEqual([{}, { messageName: 'go' }]);
  });

  it('merges repeated authorizations and tenant memberships before making their keys unique (migration 32)', async () => {
    const config = testStore.config(expect.getState().currentTestName!, { shared: true });
    const store = Store.open(config);
    stores.push(store);
    const schema = config.type === 'postgres' ? (config.schema ?? null) : null;
    await migrateToLatest(store.db, store.dialect, schema, () => Date.now(), migrations.filter((migration) => migration.version < 32));
    const authorization = (id: string, type: number, perms: number, userId: string | null = 'jonny', groupId: string | null = null) =>
      ({ id, rev: 1, type, user_id: userId, group_id: groupId, resource_type: 6, resource_id: 'invoice', perms, removal_time: null, root_proc_inst_id: null });
    await store.db.insertInto('trellis_authorization').values([
      authorization('a1', 1, 2), authorization('a2', 1, 4), authorization('a3', 1, 2),
      authorization('r1', 2, 2147483647 - 2), authorization('r2', 2, 2147483647 - 4),
      authorization('g1', 1, 2, null, 'sales'), authorization('other', 1, 8, 'mary'),
    ]).execute();
    await store.db.insertInto('trellis_tenant_member').values([
      { tenant_id: 't1', user_id: 'jonny', group_id: null }, { tenant_id: 't1', user_id: 'jonny', group_id: null }, { tenant_id: 't1', user_id: null, group_id: 'sales' },
    ]).execute();

    await store.migrate(() => Date.now());
    const rows = await store.db.selectFrom('trellis_authorization').select(['id', 'perms']).orderBy('id').execute();
    const members = await store.db.selectFrom('trellis_tenant_member').selectAll().execute();

    // grants join their permissions, revokes keep only what all of them kept
    expect(rows.map((row) => [row.id, Number(row.perms)])).toEqual([['a1', 6], ['g1', 2], ['other', 8], ['r1', 2147483647 - 6]]);
    expect(members).toHaveLength(2);
    await expect(store.db.insertInto('trellis_authorization').values(authorization('a4', 1, 16)).execute()).rejects.toThrow();
    await expect(store.db.insertInto('trellis_tenant_member').values({ tenant_id: 't1', user_id: 'jonny', group_id: null }).execute()).rejects.toThrow();
  });

  it('registers the Camunda Forms deployed before as form definitions, versioned by form id and tenant in deployment order (migration 31)', async () => {
    const config = testStore.config(expect.getState().currentTestName!, { shared: true });
    const store = Store.open(config);
    stores.push(store);
    const schema = config.type === 'postgres' ? (config.schema ?? null) : null;
    await migrateToLatest(store.db, store.dialect, schema, () => Date.now(), migrations.filter((migration) => migration.version < 31));
    const deployments = [
      { id: 'd2', deploy_time: 2_000, tenant_id: null },
      { id: 'd1', deploy_time: 1_000, tenant_id: null },
      { id: 'd3', deploy_time: 3_000, tenant_id: 'acme' },
    ];
    await store.db.insertInto('trellis_deployment').values(deployments.map((deployment) => ({ ...deployment, name: null, source: null }))).execute();
    const resource = (id: string, deploymentId: string, name: string, text: string) => ({ id, deployment_id: deploymentId, name, bytes: Buffer.from(text), position: 0 });
    await store.db.insertInto('trellis_resource').values([
      resource('r1', 'd1', 'invoice.form', '{"id":"invoice"}'),
      resource('r2', 'd2', 'forms/invoice.form', '{"id":"invoice","components":[]}'),
      resource('r3', 'd2', 'broken.form', '{"id":'),
      resource('r4', 'd3', 'invoice.form', '{"id":"invoice"}'),
      resource('r5', 'd3', 'process.bpmn', '<definitions/>'),
    ]).execute();

    expect(await store.migrate(() => Date.now())).toEqual(versionsFrom(31));
    const rows = await store.db.selectFrom('trellis_camunda_form_definition').selectAll().orderBy('deployment_id').execute();
    expect(rows.map(({ key, version, deployment_id, resource_name, tenant_id }) => ({ key, version, deployment_id, resource_name, tenant_id }))).toEqual([
      { key: 'invoice', version: 1, deployment_id: 'd1', resource_name: 'invoice.form', tenant_id: null },
      { key: 'invoice', version: 2, deployment_id: 'd2', resource_name: 'forms/invoice.form', tenant_id: null },
      { key: 'invoice', version: 1, deployment_id: 'd3', resource_name: 'invoice.form', tenant_id: 'acme' },
    ]);
    expect(rows[0]!.id).toMatch(/^invoice:1:/);
  });

  it("shows the schema's creation as one schema log entry and a later migration as its own", async () => {
    const config = testStore.config(expect.getState().currentTestName!, { shared: true });
    const clock = new FixedClock(new Date('2026-01-15T10:00:00.000Z'));
    const engine = await createTestEngine({ store: config, clock });
    try {
      const store = await openStore(config);
      const rows = await store.db.selectFrom('trellis_schema_migration').select('applied_at').execute();
      // One run, one timestamp.
      expect(new Set(rows.map((row) => Number(row.applied_at)))).toEqual(new Set([clock.now().getTime()]));
      const later = clock.now().getTime() + 60_000;
      await store.db.insertInto('trellis_schema_migration').values({ version: 1000, name: 'later', applied_at: later }).execute();

      expect(await engine.management.getSchemaLog()).toEqual([
        { id: '0', timestamp: clock.now(), version: '7.22.0' },
        { id: '1000', timestamp: new Date(later), version: '7.22.0' },
      ]);
    } finally {
      await engine.close();
    }
  });

  it('matches LIKE case-sensitively', async () => {
    const store = await openStore(testStore.config(expect.getState().currentTestName!));
    await insertDeployment(store, 'a', 'Invoice', 1);
    await insertDeployment(store, 'b', 'invoice', 2);

    const rows = await store.db.selectFrom('trellis_deployment').select('id').where('name', 'like', 'Inv%').execute();

    expect(rows.map((row) => row.id)).toEqual(['a']);
  });

  it('keeps timestamps to the millisecond and reads them back as numbers', async () => {
    const store = await openStore(testStore.config(expect.getState().currentTestName!));
    const time = Date.UTC(2026, 10, 22, 13, 59, 43, 123);
    await insertDeployment(store, 'a', null, time);

    const row = await store.db.selectFrom('trellis_deployment').select('deploy_time').executeTakeFirstOrThrow();

    expect(row.deploy_time).toBe(time);
  });

  it('sorts nulls first ascending and last descending', async () => {
    const { applySorting } = await import('../../src/persistence/repositories/query-support.js');
    const store = await openStore(testStore.config(expect.getState().currentTestName!));
    await insertDeployment(store, 'a', 'x', 1);
    await insertDeployment(store, 'b', null, 2);
    const query = (sortOrder: 'asc' | 'desc') =>
      applySorting(store.db.selectFrom('trellis_deployment').select('id'), [{ sortBy: 'name', sortOrder }], { name: 'name' }, 'id');

    expect((await query('asc').execute()).map((row) => row.id)).toEqual(['b', 'a']);
    expect((await query('desc').execute()).map((row) => row.id)).toEqual(['a', 'b']);
  });

  it('stores booleans as 0/1 and binary content byte for byte', async () => {
    const store = await openStore(testStore.config(expect.getState().currentTestName!));
    await insertDeployment(store, 'd', null, 1);
    const bytes = Buffer.from([0, 1, 2, 255, 254]);
    await store.db.insertInto('trellis_resource').values({ id: 'r', deployment_id: 'd', name: 'x.png', bytes, position: 0 }).execute();

    const row = await store.db.selectFrom('trellis_resource').select('bytes').executeTakeFirstOrThrow();

    expect(Buffer.from(row.bytes).equals(bytes)).toBe(true);
  });

  it('rejects an update of a row another transaction changed, and writes nothing of that transaction', async () => {
    const store = await openStore(testStore.config(expect.getState().currentTestName!));
    await insertDeployment(store, 'd', null, 1);
    await store.db.transaction().execute(async (trx) => new ProcessDefinitionRepository(trx).insert(definition('p', 'd'), { users: [], groups: [] }));

    const attempt = store.db.transaction().execute(async (trx) => {
      const repository = new ProcessDefinitionRepository(trx);
      const loaded = (await repository.findById('p'))!;
      await trx.insertInto('trellis_deployment').values({ id: 'e', name: null, source: null, deploy_time: 2, tenant_id: null }).execute();
      await sql`update trellis_process_definition set rev = rev + 1 where id = 'p'`.execute(trx);
      await repository.update(loaded, { suspended: true });
    });

    await expect(attempt).rejects.toBeInstanceOf(OptimisticLockingException);
    const deployments = await store.db.selectFrom('trellis_deployment').select('id').execute();
    expect(deployments.map((row) => row.id)).toEqual(['d']);
  });
});
