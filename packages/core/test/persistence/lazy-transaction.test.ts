import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { Store } from '../../src/persistence/store.js';
import { testStoreConfigs } from '../../src/testing/test-stores.js';
import { createTestEngine } from '../../src/testing/test-engine.js';
import { OptimisticLockingException } from '../../src/errors/index.js';
import { translateDatabaseError } from '../../src/command/database-errors.js';
import { deleteEndedInstance } from '../../src/persistence/repositories/instance-cleanup.js';
import type { ProcessEngine } from '../../src/engine.js';
import type { Write } from '../../src/persistence/combined-writes.js';

// The PostgreSQL connection sends BEGIN only when a transaction first writes, and runs a marked
// self-checking write at commit (alone: without BEGIN / COMMIT). These tests hold it to the
// guarantees of a plain transaction: all or nothing, and reads that see the transaction's writes.
const postgres = testStoreConfigs().find((store) => store.name === 'postgres');

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="wait" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="task" />
    <bpmn:userTask id="task" /><bpmn:sequenceFlow id="f2" sourceRef="task" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

describe.skipIf(!postgres)('lazy transactions on PostgreSQL', () => {
  const opened: Array<{ close(): Promise<void> }> = [];
  afterEach(async () => {
    for (const resource of opened.splice(0).reverse()) await resource.close();
  });

  async function setup(): Promise<{ engine: ProcessEngine; store: Store; instanceId: string }> {
    const config = postgres!.config('lazy-transaction');
    const engine = await createTestEngine({ store: config });
    opened.push(engine);
    const store = Store.open(config);
    opened.push(store);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'wait.bpmn', bytes: Buffer.from(MODEL) }] });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    return { engine, store, instanceId: instance.id };
  }

  const deployments = (store: Store) => store.db.selectFrom('trellis_deployment').select('id').where('id', 'like', 'lazy-%').execute();
  const addDeployment = (id: string): Write => (db) =>
    db.insertInto('trellis_deployment').values({ id, name: null, source: null, deploy_time: 1, tenant_id: null });

  it('a self-checking delete at stale revisions fails as a whole: OptimisticLockingException, nothing written', async () => {
    const { store, instanceId } = await setup();
    const { rev } = await store.db.selectFrom('trellis_execution').select('rev').where('id', '=', instanceId).executeTakeFirstOrThrow();

    const attempt = store.db.transaction().execute((trx) => deleteEndedInstance(trx, instanceId, [{ id: instanceId, rev: Number(rev) + 1 }], [addDeployment('lazy-1')]));

    const error = await attempt.then(() => null, (failure: unknown) => translateDatabaseError(failure));
    expect(error).toBeInstanceOf(OptimisticLockingException);
    expect((error as Error).message).toBe(`ExecutionEntity[${instanceId}] was updated by another transaction concurrently`);
    expect(await deployments(store)).toEqual([]);
    expect(await store.db.selectFrom('trellis_execution').select('id').where('proc_inst_id', '=', instanceId).execute()).not.toEqual([]);
    expect(await store.db.selectFrom('trellis_task').select('id').where('proc_inst_id', '=', instanceId).execute()).toHaveLength(1);
  });

  it('the same delete at the revisions read removes the instance and applies its writes', async () => {
    const { store, instanceId } = await setup();
    const executions = await store.db.selectFrom('trellis_execution').select(['id', 'rev']).where('proc_inst_id', '=', instanceId).execute();

    await store.db.transaction().execute((trx) => deleteEndedInstance(trx, instanceId, executions.map((row) => ({ id: row.id, rev: Number(row.rev) })), [addDeployment('lazy-2')]));

    expect(await deployments(store)).toEqual([{ id: 'lazy-2' }]);
    expect(await store.db.selectFrom('trellis_execution').select('id').where('proc_inst_id', '=', instanceId).execute()).toEqual([]);
    expect(await store.db.selectFrom('trellis_task').select('id').where('proc_inst_id', '=', instanceId).execute()).toEqual([]);
  });

  it('a deferred delete is applied before a later statement of its transaction, which sees it, and rolls back with it', async () => {
    const { store, instanceId } = await setup();
    const executions = await store.db.selectFrom('trellis_execution').select(['id', 'rev']).where('proc_inst_id', '=', instanceId).execute();

    const attempt = store.db.transaction().execute(async (trx) => {
      await deleteEndedInstance(trx, instanceId, executions.map((row) => ({ id: row.id, rev: Number(row.rev) })));
      const left = await trx.selectFrom('trellis_execution').select('id').where('proc_inst_id', '=', instanceId).execute();
      expect(left).toEqual([]);
      throw new Error('abandon');
    });

    await expect(attempt).rejects.toThrow('abandon');
    expect(await store.db.selectFrom('trellis_execution').select('id').where('proc_inst_id', '=', instanceId).execute()).not.toEqual([]);
  });

  it('reads before the first write, then a failing write: the earlier writes of the transaction are rolled back', async () => {
    const { store } = await setup();

    const attempt = store.db.transaction().execute(async (trx) => {
      await trx.selectFrom('trellis_deployment').select('id').execute();
      await trx.insertInto('trellis_deployment').values({ id: 'lazy-3', name: null, source: null, deploy_time: 1, tenant_id: null }).execute();
      await sql`insert into trellis_deployment (id, deploy_time) values ('lazy-3', 1)`.execute(trx);
    });

    await expect(attempt).rejects.toThrow();
    expect(await deployments(store)).toEqual([]);
  });

  it('a completed external task of an ended instance leaves neither runtime rows nor a second history end', async () => {
    const { engine, store } = await setup();
    const { processDefinitions } = await engine.deployment.deploy({
      resources: [{ name: 'ext.bpmn', bytes: Buffer.from(MODEL.replace('<bpmn:userTask id="task" />', '<bpmn:serviceTask id="task" camunda:type="external" camunda:topic="lazy" />').replace('id="wait"', 'id="ext"')) }],
    });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);

    const [task] = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'lazy', lockDuration: 60_000 }] });
    await engine.externalTask.complete(task.id, 'w');
    const second = await engine.externalTask.complete(task.id, 'w').then(() => null, (error: unknown) => error);

    expect(second).not.toBeNull();
    expect(await store.db.selectFrom('trellis_execution').select('id').where('proc_inst_id', '=', instance.id).execute()).toEqual([]);
    const history = await store.db.selectFrom('trellis_hi_procinst').select(['state', 'end_time']).where('id', '=', instance.id).execute();
    expect(history).toEqual([{ state: 'COMPLETED', end_time: expect.any(Number) }]);
  });
});
