import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { TypedValue } from '../../src/runtime/variables/index.js';
import { createTestEngine, grantMore, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

type TestEngine = Awaited<ReturnType<typeof createTestEngine>>;
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → review → approve → end (user tasks). */
const MODEL = wrap(
  'restarted',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}<bpmn:userTask id="review" />${flow('f2', 'review', 'approve')}
   <bpmn:userTask id="approve" />${flow('f3', 'approve', 'end')}<bpmn:endEvent id="end" />`,
);
const OTHER = wrap('other', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}<bpmn:userTask id="review" />${flow('f2', 'review', 'end')}<bpmn:endEvent id="end" />`);

const integer = (value: number): TypedValue => ({ type: 'integer', valueInfo: {}, value }) as TypedValue;
const AT_APPROVE = [{ type: 'startBeforeActivity' as const, activityId: 'approve' }];

describe.each(testStoreConfigs())('restart of finished process instances on $name', (testStore) => {
  /** `instances` instances started with amount 1, then set to amount 2, then deleted (finished). */
  async function setup(instances: number, authorization = false) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), authorization: { enabled: authorization } });
    engines.push(engine);
    const deployed = await engine.deployment.deploy({
      resources: [
        { name: 'restarted.bpmn', bytes: Buffer.from(MODEL) },
        { name: 'other.bpmn', bytes: Buffer.from(OTHER) },
      ],
    });
    const definitionId = deployed.processDefinitions!.find((each) => each.key === 'restarted')!.id;
    const otherId = deployed.processDefinitions!.find((each) => each.key === 'other')!.id;
    const ids: string[] = [];
    for (let i = 0; i < instances; i++) {
      const id = (await engine.runtime.startProcessInstanceById(definitionId, { businessKey: `bk${i}`, variables: { amount: integer(1) } })).id;
      await engine.runtime.modifyVariables(id, { amount: integer(2) });
      await engine.runtime.deleteProcessInstance(id);
      ids.push(id);
    }
    return { engine, ids, definitionId, otherId };
  }

  /** The running instances of the definition, by business key: where each waits and its amount. */
  async function restarted(engine: ProcessEngine, definitionId: string) {
    const instances = await engine.runtime.findProcessInstances({ processDefinitionId: definitionId });
    const states = await Promise.all(
      instances.map(async (instance) => {
        const tree = await engine.runtime.getActivityInstanceTree(instance.id);
        const variables = await engine.runtime.getVariables(instance.id);
        return { businessKey: instance.businessKey, at: tree!.childActivityInstances.map((child) => child.activityId), amount: variables.amount?.value ?? null };
      }),
    );
    return states.sort((a, b) => String(a.businessKey).localeCompare(String(b.businessKey), 'en', { numeric: true }));
  }

  async function runBatch(engine: TestEngine) {
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
  }

  it('restarts 100 finished instances at once, where the instructions say, with their last variables and business keys', async () => {
    const { engine, ids, definitionId } = await setup(100);
    await engine.restart.restart({ processDefinitionId: definitionId, instructions: AT_APPROVE, historicProcessInstanceQuery: { processDefinitionId: definitionId, finished: true } });
    const states = await restarted(engine, definitionId);
    expect(states).toHaveLength(100);
    expect(states).toEqual(ids.map((_, i) => ({ businessKey: `bk${i}`, at: ['approve'], amount: 2 })));
    // The new instances' history names the instance each restarts.
    const fresh = await engine.history.findHistoricProcessInstances({ processDefinitionId: definitionId, unfinished: true });
    expect(fresh.map((each) => each.restartedProcessInstanceId).sort()).toEqual([...ids].sort());
  });

  it('restarts 100 finished instances as an instance-restart batch, with initial variables and without business keys', async () => {
    const { engine, ids, definitionId } = await setup(100);
    const batch = await engine.restart.restartAsync({
      processDefinitionId: definitionId,
      instructions: [{ type: 'startAfterActivity', activityId: 'review' }],
      processInstanceIds: ids,
      initialVariables: true,
      withoutBusinessKey: true,
    });
    expect(batch).toMatchObject({ type: 'instance-restart', totalJobs: 100, invocationsPerBatchJob: 1 });
    expect(await engine.runtime.countProcessInstances({ processDefinitionId: definitionId })).toBe(0);
    await runBatch(engine);
    const states = await restarted(engine, definitionId);
    expect(states).toEqual(ids.map(() => ({ businessKey: null, at: ['approve'], amount: 1 })));
    expect(await engine.batch.find()).toEqual([]);
  });

  it('a transition instruction and a business key carried over; is one transaction', async () => {
    const { engine, ids, definitionId, otherId } = await setup(2);
    const running = (await engine.runtime.startProcessInstanceById(definitionId)).id;
    await expect(engine.restart.restart({ processDefinitionId: definitionId, instructions: AT_APPROVE, processInstanceIds: [ids[0]!, running] })).rejects.toThrow(
      `ENGINE-13040 Historic process instance '${running}' cannot be restarted. It is not completed or terminated.`,
    );
    const stranger = (await engine.runtime.startProcessInstanceById(otherId)).id;
    await engine.runtime.deleteProcessInstance(stranger);
    await expect(engine.restart.restart({ processDefinitionId: definitionId, instructions: AT_APPROVE, processInstanceIds: [ids[0]!, stranger] })).rejects.toThrow(
      `ENGINE-13039 Historic process instance '${stranger}' cannot be restarted. Its process definition '${otherId}' does not match given process definition '${definitionId}'`,
    );
    await expect(engine.restart.restart({ processDefinitionId: definitionId, instructions: AT_APPROVE, processInstanceIds: [ids[0]!, 'nope'] })).rejects.toThrow(
      'Historic process instance cannot be found: historicProcessInstanceId is null',
    );
    expect(await engine.runtime.countProcessInstances({ processDefinitionId: definitionId })).toBe(1);

    await engine.restart.restart({ processDefinitionId: definitionId, instructions: [{ type: 'startTransition', transitionId: 'f2' }], processInstanceIds: [ids[1]!] });
    const states = await restarted(engine, definitionId);
    expect(states.filter((each) => each.businessKey !== null)).toEqual([{ businessKey: 'bk1', at: ['approve'], amount: 2 }]);
  });

  it("rejects empty selections and instructions with Camunda's messages", async () => {
    const { engine, ids, definitionId } = await setup(1);
    const restart = (request: Partial<Parameters<ProcessEngine['restart']['restart']>[0]>) =>
      engine.restart.restart({ processDefinitionId: definitionId, instructions: AT_APPROVE, ...request });
    await expect(restart({ processInstanceIds: [] })).rejects.toMatchObject({ name: 'BadUserRequestException', message: 'processInstanceIds is empty' });
    await expect(restart({ historicProcessInstanceQuery: { processDefinitionKey: 'none' } })).rejects.toThrow('processInstanceIds is empty');
    await expect(restart({ processInstanceIds: ids, instructions: [] })).rejects.toMatchObject({
      name: 'BadUserRequestException',
      message: 'Restart instructions cannot be empty: instructions is empty',
    });
    await expect(restart({ processInstanceIds: [ids[0]!, null] })).rejects.toThrow('Process instance ids cannot be null: Process instance ids contains null value');
    // Wrong in two ways: at once the instructions are checked first, as a batch the selection.
    await expect(restart({ processInstanceIds: [], instructions: [] })).rejects.toThrow('Restart instructions cannot be empty: instructions is empty');
    await expect(engine.restart.restartAsync({ processDefinitionId: definitionId, instructions: [], processInstanceIds: [] })).rejects.toThrow('processInstanceIds is empty');
    // Camunda's deployment cache refuses an unknown definition, both ways.
    const unknown = { name: 'NotFoundException', message: "no deployed process definition found with id 'nope': processDefinition is null" };
    await expect(restart({ processDefinitionId: 'nope', processInstanceIds: ids })).rejects.toMatchObject(unknown);
    await expect(engine.restart.restartAsync({ processDefinitionId: 'nope', instructions: AT_APPROVE, processInstanceIds: ids })).rejects.toMatchObject(unknown);
  });

  it('needs READ_HISTORY on the definition and CREATE rights to start at once, BATCH CREATE or CREATE_BATCH_RESTART_PROCESS_INSTANCES for a batch', async () => {
    const { engine, ids, definitionId } = await setup(1, true);
    const asMia = <T>(work: () => Promise<T>) => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, work);
    const grant = (resourceType: number, permissions: string[], resourceId = '*') =>
      grantMore(engine, { userId: 'mia' }, resourceType, resourceId, permissions);
    const request = { processDefinitionId: definitionId, instructions: AT_APPROVE, processInstanceIds: ids };

    await expect(asMia(() => engine.restart.restartAsync(request))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [
        { permissionName: 'CREATE_BATCH_RESTART_PROCESS_INSTANCES', resourceName: 'Batch' },
        { permissionName: 'CREATE', resourceName: 'Batch' },
      ],
    });
    // The definition is looked up before the batch permissions are checked (Camunda's BatchBuilder comes last).
    await expect(asMia(() => engine.restart.restartAsync({ ...request, processDefinitionId: 'nope' }))).rejects.toMatchObject({ name: 'NotFoundException' });
    await grant(13, ['CREATE_BATCH_RESTART_PROCESS_INSTANCES']);
    expect((await asMia(() => engine.restart.restartAsync(request))).type).toBe('instance-restart');

    await expect(asMia(() => engine.restart.restart(request))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [{ permissionName: 'READ_HISTORY', resourceName: 'ProcessDefinition', resourceId: 'restarted' }],
    });
    await grant(6, ['READ_HISTORY'], 'restarted');
    await expect(asMia(() => engine.restart.restart(request))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [{ permissionName: 'CREATE', resourceName: 'ProcessInstance' }],
    });
    await grant(8, ['CREATE']);
    await grant(6, ['CREATE_INSTANCE'], 'restarted');
    await asMia(() => engine.restart.restart(request));
    expect(await engine.runtime.countProcessInstances({ processDefinitionId: definitionId })).toBe(1);
  });
});
