import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

type TestEngine = Awaited<ReturnType<typeof createTestEngine>>;
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → review → approve → end (user tasks). */
const MODEL = wrap(
  'modified',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}<bpmn:userTask id="review" />${flow('f2', 'review', 'approve')}
   <bpmn:userTask id="approve" />${flow('f3', 'approve', 'end')}<bpmn:endEvent id="end" />`,
);
const OTHER = wrap('other', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}<bpmn:userTask id="review" />${flow('f2', 'review', 'end')}<bpmn:endEvent id="end" />`);

const TO_APPROVE = [
  { type: 'startBeforeActivity' as const, activityId: 'approve' },
  { type: 'cancel' as const, activityId: 'review' },
];

describe.each(testStoreConfigs())('instance modification of many instances on $name', (testStore) => {
  async function setup(instances: number, authorization = false) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), authorization: { enabled: authorization } });
    engines.push(engine);
    const deployed = await engine.deployment.deploy({
      resources: [
        { name: 'modified.bpmn', bytes: Buffer.from(MODEL) },
        { name: 'other.bpmn', bytes: Buffer.from(OTHER) },
      ],
    });
    const definitionId = deployed.processDefinitions!.find((each) => each.key === 'modified')!.id;
    const otherId = deployed.processDefinitions!.find((each) => each.key === 'other')!.id;
    const ids: string[] = [];
    for (let i = 0; i < instances; i++) ids.push((await engine.runtime.startProcessInstanceById(definitionId, { businessKey: `bk${i}` })).id);
    return { engine, ids, definitionId, otherId };
  }

  /** The activities each instance waits in, in instance order. */
  async function positions(engine: ProcessEngine, ids: string[]) {
    const trees = await Promise.all(ids.map((id) => engine.runtime.getActivityInstanceTree(id)));
    return trees.map((tree) => tree?.childActivityInstances.map((child) => child.activityId).sort() ?? null);
  }

  /** Runs the batch's seed, execution and monitor jobs; the monitor removes it on its next look. */
  async function runBatch(engine: TestEngine) {
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
  }

  it('execute moves every selected instance (ids and query) by the instructions', async () => {
    const { engine, ids, definitionId } = await setup(3);
    await engine.modification.execute({ processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: [ids[0]!], processInstanceQuery: { businessKey: 'bk1' } });
    expect(await positions(engine, ids)).toEqual([['approve'], ['approve'], ['review']]);
  });

  it('execute is one transaction: an instance of another definition leaves every instance unchanged', async () => {
    const { engine, ids, definitionId, otherId } = await setup(2);
    const stranger = (await engine.runtime.startProcessInstanceById(otherId)).id;
    await expect(engine.modification.execute({ processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: [...ids, stranger] })).rejects.toThrow(
      `ENGINE-13037 Process instance '${stranger}' cannot be modified. Its process definition '${otherId}' does not match given process definition '${definitionId}'`,
    );
    await expect(engine.modification.execute({ processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: [ids[0]!, 'nope'] })).rejects.toThrow(
      "ENGINE-13036 Process instance 'nope' cannot be modified. The process instance does not exist",
    );
    expect(await positions(engine, [...ids, stranger])).toEqual([['review'], ['review'], ['review']]);
  });

  it('answers missing parts with Camunda messages, in Camunda order', async () => {
    const { engine, ids, definitionId } = await setup(1);
    const run = (modification: Parameters<ProcessEngine['modification']['execute']>[0]) => engine.modification.execute(modification);
    await expect(run({ processDefinitionId: null, instructions: TO_APPROVE, processInstanceIds: ids })).rejects.toMatchObject({
      name: 'NotValidException',
      message: 'processDefinitionId is null',
    });
    await expect(run({ processDefinitionId: definitionId, instructions: [], processInstanceIds: ids })).rejects.toMatchObject({
      name: 'BadUserRequestException',
      message: 'Modification instructions cannot be empty is empty',
    });
    await expect(run({ processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceQuery: { businessKey: 'none' } })).rejects.toThrow(
      'Process instance ids cannot be empty: Process instance ids is empty',
    );
    await expect(engine.modification.executeAsync({ processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: [ids[0]!, null] })).rejects.toThrow(
      'Process instance ids cannot be null: Process instance ids contains null value',
    );
    await expect(run({ processDefinitionId: 'unknown', instructions: TO_APPROVE, processInstanceIds: ids })).rejects.toMatchObject({
      name: 'NotFoundException',
      message: "no deployed process definition found with id 'unknown': processDefinition is null",
    });
    expect(await engine.batch.count()).toBe(0);
  });

  it('a cancel with cancelCurrentActiveActivityInstances spares the instances started before it', async () => {
    const { engine, ids, definitionId } = await setup(2);
    const before = (await engine.runtime.getActivityInstanceTree(ids[0]!))!.childActivityInstances[0]!.id;
    await engine.modification.execute({
      processDefinitionId: definitionId,
      instructions: [{ type: 'startBeforeActivity', activityId: 'review' }, { type: 'cancel', activityId: 'review', cancelCurrentActiveActivityInstances: true }],
      processInstanceIds: [ids[0]!],
    });
    const after = (await engine.runtime.getActivityInstanceTree(ids[0]!))!.childActivityInstances;
    expect(after.map((child) => child.activityId)).toEqual(['review']);
    expect(after[0]!.id).not.toBe(before);
    // Without the flag the cancel takes the new instance too, and the instance ends.
    await engine.modification.execute({
      processDefinitionId: definitionId,
      instructions: [{ type: 'startBeforeActivity', activityId: 'review' }, { type: 'cancel', activityId: 'review' }],
      processInstanceIds: [ids[1]!],
    });
    expect(await positions(engine, ids)).toEqual([['review'], null]);
  });

  it('executeAsync validates now and modifies in the batch jobs', async () => {
    const { engine, ids, definitionId } = await setup(3);
    const batch = await engine.modification.executeAsync({ processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: ids }, { invocationsPerBatchJob: 2 });
    expect(batch).toMatchObject({ type: 'instance-modification', totalJobs: 2, invocationsPerBatchJob: 2, tenantId: null });
    expect(await positions(engine, ids)).toEqual([['review'], ['review'], ['review']]);
    const definitions = await engine.jobDefinition.findJobDefinitions({});
    expect(definitions.filter((each) => each.jobConfiguration === batch.id && each.processDefinitionId === null).map((each) => each.jobType).sort()).toEqual([
      'batch-monitor-job',
      'batch-seed-job',
      'instance-modification',
    ]);

    await runBatch(engine);
    expect(await positions(engine, ids)).toEqual([['approve'], ['approve'], ['approve']]);
    expect(await engine.batch.count()).toBe(0);
  });

  it('execution jobs carry the definition deployment (deployment-aware executors)', async () => {
    const { engine, ids, definitionId } = await setup(1);
    const definition = (await engine.processDefinition.getProcessDefinition(definitionId))!;
    await engine.modification.executeAsync({ processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: ids });
    const batch = (await engine.batch.find())[0]!;
    const seed = (await engine.management.findJobs({})).find((job) => job.jobDefinitionId === batch.seedJobDefinitionId)!;
    await engine.management.executeJob(seed.id);
    const execution = (await engine.management.findJobs({})).filter((job) => job.jobDefinitionId === batch.batchJobDefinitionId);
    expect(execution.map((job) => job.deploymentId)).toEqual([definition.deploymentId]);
  });

  it('modifyProcessInstanceAsync runs single-instance instructions in a batch', async () => {
    const { engine, ids } = await setup(2);
    const review = (await engine.runtime.getActivityInstanceTree(ids[0]!))!.childActivityInstances[0]!.id;
    const due = new Date('2026-01-02T03:04:05.000Z');
    const variables = {
      due: { type: 'date' as const, value: due, valueInfo: {} },
      blob: { type: 'bytes' as const, value: Buffer.from([1, 2, 3]), valueInfo: {} },
      note: { type: 'string' as const, value: 'hi', valueInfo: {} },
    };
    const batch = await engine.modification.modifyProcessInstanceAsync(ids[0]!, [
      { type: 'startBeforeActivity', activityId: 'approve', variables },
      { type: 'cancel', activityInstanceId: review },
    ]);
    expect(batch).toMatchObject({ type: 'instance-modification', totalJobs: 1 });
    await runBatch(engine);
    expect(await positions(engine, ids)).toEqual([['approve'], ['review']]);
    // The instruction's variables survive the batch's JSON configuration with their types.
    const stored = await engine.variableInstance.findVariableInstances({ processInstanceIdIn: [ids[0]!] });
    const byName = Object.fromEntries(stored.map((each) => [each.name, each]));
    expect(byName.due!.value).toMatchObject({ type: 'date', value: due });
    expect(byName.note!.value).toMatchObject({ type: 'string', value: 'hi' });
    const blob = await engine.variableInstance.getVariableInstance(byName.blob!.id, true);
    expect(blob!.value).toMatchObject({ type: 'bytes', value: Buffer.from([1, 2, 3]) });
    await expect(engine.modification.modifyProcessInstanceAsync('nope', TO_APPROVE)).rejects.toThrow(
      "ENGINE-13036 Process instance 'nope' cannot be modified. The process instance does not exist",
    );
  });

  it('needs BATCH CREATE (or CREATE_BATCH_MODIFY_PROCESS_INSTANCES) for a batch, UPDATE per instance at once', async () => {
    const { engine, ids, definitionId } = await setup(2, true);
    const asMia = <T>(work: () => Promise<T>) => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, work);
    const grant = (resourceType: number, permissions: string[], resourceId = '*') =>
      engine.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType, resourceId, permissions });
    const modification = { processDefinitionId: definitionId, instructions: TO_APPROVE, processInstanceIds: ids };

    await expect(asMia(() => engine.modification.executeAsync(modification))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [
        { permissionName: 'CREATE_BATCH_MODIFY_PROCESS_INSTANCES', resourceName: 'Batch' },
        { permissionName: 'CREATE', resourceName: 'Batch' },
      ],
    });
    await grant(13, ['CREATE_BATCH_MODIFY_PROCESS_INSTANCES']);
    expect((await asMia(() => engine.modification.executeAsync(modification))).type).toBe('instance-modification');

    // At once: UPDATE on each instance; allowed on the first only, so nothing changes.
    await grant(8, ['UPDATE'], ids[0]!);
    await expect(asMia(() => engine.modification.execute(modification))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [
        { permissionName: 'UPDATE', resourceName: 'ProcessInstance', resourceId: ids[1] },
        { permissionName: 'UPDATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'modified' },
      ],
    });
    expect(await positions(engine, ids)).toEqual([['review'], ['review']]);
    await grant(6, ['UPDATE_INSTANCE'], 'modified');
    await asMia(() => engine.modification.execute(modification));
    expect(await positions(engine, ids)).toEqual([['approve'], ['approve']]);
  });
});
