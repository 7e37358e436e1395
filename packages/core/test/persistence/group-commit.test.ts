import pg from 'pg';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/persistence/store.js';
import { schemaName, testStoreConfigs } from '../../src/testing/test-stores.js';
import { createTestEngine } from '../../src/testing/test-engine.js';
import { OptimisticLockingException } from '../../src/errors/index.js';
import { translateDatabaseError } from '../../src/command/database-errors.js';
import { deleteEndedInstance } from '../../src/persistence/repositories/instance-cleanup.js';
import { GroupCommit, type Checkout, type GroupConnection } from '../../src/persistence/dialects/pg-group-commit.js';
import type { Write } from '../../src/persistence/combined-writes.js';
import { externalTaskProcessXml } from '../../src/testing/bpmn-builder.js';

// Statements that are their command's only write are committed together when they are ready at the
// same moment (one round trip, one transaction), and each still gets its own outcome.
const postgres = testStoreConfigs().find((store) => store.name === 'postgres');
const url = process.env.TRELLIS_TEST_DATABASE_URL;

const MODEL = externalTaskProcessXml('ext', { activityId: 'task', topic: 'grouped' });

const INSERT = 'insert into grouped (id) values ($1)';
const parsedOn = (client: pg.ClientBase) => (client as unknown as { connection: { parsedStatements: Record<string, string> } }).connection.parsedStatements;

describe.skipIf(!postgres)('group commit on PostgreSQL', () => {
  const opened: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const close of opened.splice(0).reverse()) await close();
  });

  /** A pool on a private schema holding table `grouped`, and checkouts of it as the group commit takes them. */
  async function scratchPool(max = 4) {
    const schema = schemaName('group-commit');
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}; create table ${schema}.grouped (id varchar(64) primary key)`);
    const pool = new pg.Pool({ connectionString: url, max, options: `-c search_path=${schema}` });
    opened.push(async () => {
      await pool.end();
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    });
    // `names`: the name each text is (to be) prepared under on the connection; what node-postgres has parsed there tells whether it is.
    const connectionOf = (client: pg.ClientBase, names: Record<string, string> = {}): GroupConnection => ({
      client,
      send: (sql, parameters) => client.query(sql, [...parameters]),
      statementName: (sql) => (names[sql] === undefined ? undefined : { name: names[sql], parsed: parsedOn(client)[names[sql]] === sql }),
    });
    let checkouts = 0;
    const checkout = async (names?: Record<string, string>): Promise<Checkout> => {
      checkouts++;
      const client = await pool.connect();
      return { connection: connectionOf(client, names), release: () => client.release() };
    };
    const rows = async () => (await pool.query('select id, xmin::text as xid from grouped order by id')).rows as Array<{ id: string; xid: string }>;
    return { pool, checkout, connectionOf, rows, checkouts: () => checkouts };
  }

  it('statements ready at the same moment are committed in one transaction, over one connection', async () => {
    const { checkout, rows, checkouts } = await scratchPool();
    const group = new GroupCommit(checkout);

    await Promise.all(['a', 'b', 'c'].map((id) => group.commit(INSERT, [id], null)));

    const stored = await rows();
    expect(stored.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    expect(new Set(stored.map((row) => row.xid)).size).toBe(1);
    expect(checkouts()).toBe(1);
  });

  it('one failing statement fails alone: the others of its group are committed, each in its own transaction', async () => {
    const { pool, checkout, rows } = await scratchPool();
    await pool.query(INSERT, ['b']);
    const group = new GroupCommit(checkout);

    const outcomes = await Promise.all(['a', 'b', 'c'].map((id) => group.commit(INSERT, [id], null).then(() => 'committed', (error: unknown) => error)));

    expect(outcomes[0]).toBe('committed');
    expect(outcomes[1]).toBeInstanceOf(pg.DatabaseError);
    expect((outcomes[1] as pg.DatabaseError).code).toBe('23505');
    expect(outcomes[2]).toBe('committed');
    const stored = await rows();
    expect(stored.map((row) => row.id)).toEqual(['a', 'b', 'c']);
    expect(stored[0].xid).not.toBe(stored[2].xid);
  });

  it('a group goes over a connection one of its commands holds, under the name prepared there', async () => {
    const { pool, checkout, connectionOf, checkouts } = await scratchPool(1);
    const client = await pool.connect();
    opened.push(async () => client.release());
    await client.query({ name: 'insert_grouped', text: INSERT, values: ['prepared'] });
    const group = new GroupCommit(checkout);
    const held = connectionOf(client, { [INSERT]: 'insert_grouped' });

    // The pool's only client is held: the group can only be sent over it.
    await Promise.all([group.commit(INSERT, ['x'], null), group.commit(INSERT, ['y'], held), group.commit(INSERT, ['z'], null)]);

    expect(checkouts()).toBe(0);
    const stored = (await client.query('select id, xmin::text as xid from grouped order by id')).rows as Array<{ id: string; xid: string }>;
    expect(stored.map((row) => row.id)).toEqual(['prepared', 'x', 'y', 'z']);
    expect(new Set(stored.slice(1).map((row) => row.xid)).size).toBe(1);
  });

  it('a text not yet prepared on the connection is prepared in the round trip and only bound in the next', async () => {
    const { pool, checkout, rows } = await scratchPool(1);
    const group = new GroupCommit(() => checkout({ [INSERT]: 'grouped_insert' }));

    await Promise.all(['a', 'b'].map((id) => group.commit(INSERT, [id], null)));
    const prepared = await pool.query('select name, statement from pg_prepared_statements');
    await Promise.all(['c', 'd'].map((id) => group.commit(INSERT, [id], null)));

    expect(prepared.rows).toEqual([{ name: 'grouped_insert', statement: INSERT }]);
    const stored = await rows();
    expect(stored.map((row) => row.id)).toEqual(['a', 'b', 'c', 'd']);
    expect(stored[0].xid).toBe(stored[1].xid);
    expect(stored[2].xid).toBe(stored[3].xid);
    expect(stored[1].xid).not.toBe(stored[2].xid);
  });

  it('when no connection can be had, every statement of the group fails with that error', async () => {
    const group = new GroupCommit(() => Promise.reject(new Error('no connection')));

    const outcomes = await Promise.all([group.commit(INSERT, ['a'], null), group.commit(INSERT, ['b'], null)].map((commit) => commit.catch((error: Error) => error.message)));

    expect(outcomes).toEqual(['no connection', 'no connection']);
  });

  describe('through the engine store', () => {
    async function setup(instances: number) {
      const config = postgres!.config('group-commit');
      const engine = await createTestEngine({ store: config });
      opened.push(() => engine.close());
      const store = Store.open(config);
      opened.push(() => store.close());
      const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'ext.bpmn', bytes: Buffer.from(MODEL) }] });
      const ids: string[] = [];
      for (let i = 0; i < instances; i++) ids.push((await engine.runtime.startProcessInstanceById(processDefinitions![0].id)).id);
      return { engine, store, ids };
    }
    const addDeployment = (id: string): Write => (db) => db.insertInto('trellis_deployment').values({ id, name: null, source: null, deploy_time: 1, tenant_id: null });
    const revisions = async (store: Store, instanceId: string) =>
      (await store.db.selectFrom('trellis_execution').select(['id', 'rev']).where('proc_inst_id', '=', instanceId).execute()).map((row) => ({ id: row.id, rev: Number(row.rev) }));

    it('ended-instance statements of concurrent transactions share one transaction; a stale one fails alone', async () => {
      const { store, ids } = await setup(3);
      const stale = (await revisions(store, ids[1])).map((row) => ({ ...row, rev: row.rev + 1 }));
      const expected = [await revisions(store, ids[0]), stale, await revisions(store, ids[2])];

      const outcomes = await Promise.all(
        ids.map((id, i) =>
          store.db
            .transaction()
            .execute((trx) => deleteEndedInstance(trx, id, expected[i], [addDeployment(`group-${i}`)]))
            .then(() => 'committed', (error: unknown) => translateDatabaseError(error)),
        ),
      );

      expect(outcomes[0]).toBe('committed');
      expect(outcomes[1]).toBeInstanceOf(OptimisticLockingException);
      expect(outcomes[2]).toBe('committed');
      const deployments = await store.db.selectFrom('trellis_deployment').select('id').where('id', 'like', 'group-%').orderBy('id').execute();
      expect(deployments.map((row) => row.id)).toEqual(['group-0', 'group-2']);
      expect(await store.db.selectFrom('trellis_execution').select('proc_inst_id').where('proc_inst_id', 'in', ids).execute()).toEqual([{ proc_inst_id: ids[1] }]);
    });

    it('without a stale one, the statements commit together', async () => {
      const { store, ids } = await setup(3);
      const expected = await Promise.all(ids.map((id) => revisions(store, id)));

      await Promise.all(ids.map((id, i) => store.db.transaction().execute((trx) => deleteEndedInstance(trx, id, expected[i], [addDeployment(`together-${i}`)]))));

      const { rows } = await sql<{ xid: string }>`select xmin::text as xid from trellis_deployment where id like 'together-%'`.execute(store.db);
      expect(rows).toHaveLength(3);
      expect(new Set(rows.map((row) => row.xid)).size).toBe(1);
    });

    it('more concurrent completes than pool connections, one of them on a stale snapshot: every instance ends once', async () => {
      const { engine, store, ids } = await setup(12);
      const tasks = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 12, topics: [{ topicName: 'grouped', lockDuration: 60_000 }] });
      // A variable set after the fetch makes that task's kept rows stale.
      await engine.runtime.modifyVariables(tasks[0].processInstanceId!, { late: { type: 'boolean', value: true, valueInfo: {} } });

      await Promise.all(tasks.map((task) => engine.externalTask.complete(task.id, 'w')));

      expect(tasks).toHaveLength(12);
      expect(await store.db.selectFrom('trellis_execution').select('id').where('proc_inst_id', 'in', ids).execute()).toEqual([]);
      const ended = await store.db.selectFrom('trellis_hi_procinst').select(['id', 'state']).where('id', 'in', ids).where('end_time', 'is not', null).execute();
      expect(ended).toHaveLength(12);
      expect(new Set(ended.map((row) => row.state))).toEqual(new Set(['COMPLETED']));
    });
  });
});
