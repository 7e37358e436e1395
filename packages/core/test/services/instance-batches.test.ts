import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException, NullValueException, ProcessEngineException } from '../../src/errors/index.js';
import type { TypedValue } from '../../src/runtime/variables/index.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

type TestEngine = Awaited<ReturnType<typeof createTestEngine>>;
const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → message "go" → user task → end. */
const WAITING = wrap(
  'waiting',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'catch')}
   <bpmn:intermediateCatchEvent id="catch"><bpmn:messageEventDefinition messageRef="m_go" /></bpmn:intermediateCatchEvent>
   ${flow('f2', 'catch', 'review')}<bpmn:userTask id="review" />${flow('f3', 'review', 'end')}<bpmn:endEvent id="end" />`,
  '<bpmn:message id="m_go" name="go" />',
);

/** start → message "other" → user task → end. */
const OTHER = wrap(
  'other',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'catch')}
   <bpmn:intermediateCatchEvent id="catch"><bpmn:messageEventDefinition messageRef="m_other" /></bpmn:intermediateCatchEvent>
   ${flow('f2', 'catch', 'review')}<bpmn:userTask id="review" />${flow('f3', 'review', 'end')}<bpmn:endEvent id="end" />`,
  '<bpmn:message id="m_other" name="other" />',
);

/** start → call activity (calls "waiting") → end. */
const CALLER = wrap(
  'caller',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}<bpmn:callActivity id="call" calledElement="waiting" />${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`,
);

const string = (value: string): TypedValue => ({ type: 'string', valueInfo: {}, value });

describe.each(testStoreConfigs())('instance batches on $name', (testStore) => {
  async function setup(instances: number, authorization = false) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), authorization: { enabled: authorization } });
    engines.push(engine);
    await engine.deployment.deploy({
      resources: [
        { name: 'waiting.bpmn', bytes: Buffer.from(WAITING) },
        { name: 'other.bpmn', bytes: Buffer.from(OTHER) },
        { name: 'caller.bpmn', bytes: Buffer.from(CALLER) },
      ],
    });
    const [waiting] = await engine.processDefinition.findProcessDefinitions({ key: 'waiting' });
    const ids: string[] = [];
    for (let i = 0; i < instances; i++) ids.push((await engine.runtime.startProcessInstanceById(waiting!.id, { businessKey: `bk${i}` })).id);
    return { engine, ids };
  }

  /** Runs the batch's seed, execution and monitor jobs; the monitor removes it on its next look. */
  async function runBatch(engine: TestEngine) {
    await engine.jobExecutor.runDueJobs();
    engine.clock.advance(30_000);
    await engine.jobExecutor.runDueJobs();
  }

  const running = async (engine: ProcessEngine) => (await engine.runtime.findProcessInstances({})).map((each) => each.id).sort();

  it('instance-deletion deletes the given and queried instances when its jobs run', async () => {
    const { engine, ids } = await setup(4);
    const batch = await engine.instanceBatches.deleteProcessInstancesAsync(
      { processInstanceIds: [ids[0]!, 'unknown'], processInstanceQuery: { businessKey: 'bk1' } },
      { deleteReason: 'cleanup', skipCustomListeners: true },
    );
    expect(batch).toMatchObject({ type: 'instance-deletion', totalJobs: 3, jobsCreated: 0, invocationsPerBatchJob: 1, batchJobsPerSeed: 100 });
    expect(await running(engine)).toEqual([...ids].sort());

    await runBatch(engine);
    // The unknown id's job is skipped without failing, so the batch completes.
    expect(await running(engine)).toEqual([ids[2]!, ids[3]!].sort());
    expect(await engine.batch.count()).toBe(0);
  });

  it('instance-deletion deletes called instances unless skipSubprocesses', async () => {
    const { engine } = await setup(0);
    const [caller] = await engine.processDefinition.findProcessDefinitions({ key: 'caller' });
    const withChild = await engine.runtime.startProcessInstanceById(caller!.id);
    const keepsChild = await engine.runtime.startProcessInstanceById(caller!.id);
    expect(await engine.runtime.countProcessInstances({})).toBe(4);
    await engine.instanceBatches.deleteProcessInstancesAsync({ processInstanceIds: [withChild.id] });
    await engine.instanceBatches.deleteProcessInstancesAsync({ processInstanceIds: [keepsChild.id] }, { skipSubprocesses: true });
    await runBatch(engine);
    const left = await engine.runtime.findProcessInstances({});
    expect(left.map((each) => each.processDefinitionKey)).toEqual(['waiting']);
  });

  it('instance-deletion answers an empty selection with Camunda message', async () => {
    const { engine } = await setup(1);
    await expect(engine.instanceBatches.deleteProcessInstancesAsync({})).rejects.toThrow(new BadUserRequestException('processInstanceIds is empty'));
    await expect(engine.instanceBatches.deleteProcessInstancesAsync({ processInstanceQuery: { businessKey: 'none' } })).rejects.toThrow(
      'processInstanceIds is empty',
    );
    expect(await engine.batch.count()).toBe(0);
  });

  it('set-variables sets typed batch variables on each running instance and drops them with the batch', async () => {
    const { engine, ids } = await setup(3);
    const due = new Date('2030-05-01T08:00:00.000Z');
    const variables: Record<string, TypedValue> = {
      note: string('checked'),
      due: { type: 'date', valueInfo: {}, value: due },
      blob: { type: 'bytes', valueInfo: {}, value: Buffer.from([1, 2, 3]) },
    };
    // An unknown id is not taken: only running instances are selected.
    const batch = await engine.instanceBatches.setVariablesAsync({ processInstanceIds: [ids[0]!, 'unknown'], processInstanceQuery: { businessKey: 'bk1' } }, variables);
    expect(batch).toMatchObject({ type: 'set-variables', totalJobs: 2 });
    // Until then the batch keeps them as variables of its own, typed as given.
    const kept = await engine.variableInstance.findVariableInstances({ batchIdIn: [batch.id], sorting: [{ sortBy: 'variableName', sortOrder: 'asc' }] });
    expect(kept.map(({ name, value, batchId, processInstanceId, executionId }) => ({ name, value, batchId, processInstanceId, executionId }))).toEqual(
      ['blob', 'due', 'note'].map((name) => ({ name, value: name === 'blob' ? expect.objectContaining({ type: 'bytes' }) : variables[name], batchId: batch.id, processInstanceId: null, executionId: null })),
    );
    expect(await engine.variableInstance.countVariableInstances({ variableScopeIdIn: [batch.id] })).toBe(3);

    await runBatch(engine);
    for (const id of [ids[0]!, ids[1]!]) {
      expect(await engine.runtime.getVariables(id)).toEqual({
        note: { type: 'string', valueInfo: {}, value: 'checked' },
        due: { type: 'date', valueInfo: {}, value: due },
        blob: { type: 'bytes', valueInfo: {}, value: Buffer.from([1, 2, 3]) },
      });
    }
    expect(await engine.runtime.getVariables(ids[2]!)).toEqual({});
    // Only the instances' own variables exist: the batch's copy went with the completed batch.
    expect(await engine.batch.count()).toBe(0);
    expect(await engine.variableInstance.countVariableInstances({})).toBe(6);
  });

  it('set-variables: a deleted batch sets nothing and leaves no variables behind', async () => {
    const { engine, ids } = await setup(1);
    const batch = await engine.instanceBatches.setVariablesAsync({ processInstanceIds: ids }, { note: string('x') });
    await engine.batch.delete(batch.id);
    await runBatch(engine);
    expect(await engine.variableInstance.countVariableInstances({})).toBe(0);
  });

  it('set-variables answers missing variables and selections with Camunda exceptions, in Camunda order', async () => {
    const { engine, ids } = await setup(1);
    const nullVariables = await engine.instanceBatches.setVariablesAsync({ processInstanceIds: ids }, null).catch((error: unknown) => error);
    expect(nullVariables).toBeInstanceOf(NullValueException);
    expect(nullVariables).toMatchObject({ message: 'variables is null' });
    await expect(engine.instanceBatches.setVariablesAsync({}, {})).rejects.toThrow(new BadUserRequestException('variables is empty'));
    const noSelection = await engine.instanceBatches.setVariablesAsync({}, { a: string('a') }).catch((error: unknown) => error);
    expect(noSelection).toBeInstanceOf(NullValueException);
    expect(noSelection).toMatchObject({ message: 'No process instances found.' });
    await expect(engine.instanceBatches.setVariablesAsync({ processInstanceIds: ['unknown'] }, { a: string('a') })).rejects.toThrow(
      new BadUserRequestException('processInstanceIds is empty'),
    );
    const java = { type: 'object', valueInfo: {}, value: { serializedValue: 'rO0AB', objectTypeName: 'com.Foo', serializationDataFormat: 'application/x-java-serialized-object' } };
    const prohibited = await engine.instanceBatches.setVariablesAsync({ processInstanceIds: ids }, { foo: java as TypedValue }).catch((error: unknown) => error);
    expect(prohibited).toBeInstanceOf(ProcessEngineException);
    expect(prohibited).not.toBeInstanceOf(BadUserRequestException);
    expect(prohibited).toMatchObject({ message: 'ENGINE-17007 Cannot set variable with name foo. Java serialization format is prohibited' });
    expect(await engine.batch.count()).toBe(0);
  });

  it('correlate-message moves the waiting executions of each selected instance and sets the variables', async () => {
    const { engine, ids } = await setup(3);
    const batch = await engine.instanceBatches.correlateMessageAsync('go', { processInstanceIds: [ids[0]!, 'unknown'], processInstanceQuery: { businessKey: 'bk1' } }, {
      reply: string('yes'),
    });
    expect(batch).toMatchObject({ type: 'correlate-message', totalJobs: 3 });
    await runBatch(engine);
    const reviewing = (await engine.task.findTasks({})).map((task) => task.processInstanceId).sort();
    expect(reviewing).toEqual([ids[0]!, ids[1]!].sort());
    expect(await engine.runtime.getVariables(ids[0]!)).toEqual({ reply: { type: 'string', valueInfo: {}, value: 'yes' } });
    expect(await engine.runtime.getVariables(ids[2]!)).toEqual({});
    expect(await engine.batch.count()).toBe(0);
  });

  it('correlate-message without a name correlates any message; a non-matching name changes nothing', async () => {
    const { engine, ids } = await setup(1);
    const [other] = await engine.processDefinition.findProcessDefinitions({ key: 'other' });
    const waitsForOther = await engine.runtime.startProcessInstanceById(other!.id);
    await engine.instanceBatches.correlateMessageAsync('nothing', { processInstanceIds: [ids[0]!, waitsForOther.id] });
    await runBatch(engine);
    expect(await engine.task.findTasks({})).toHaveLength(0);
    expect(await engine.batch.count()).toBe(0);

    await engine.instanceBatches.correlateMessageAsync(null, { processInstanceIds: [ids[0]!, waitsForOther.id] });
    await runBatch(engine);
    expect((await engine.task.findTasks({})).map((task) => task.processInstanceId).sort()).toEqual([ids[0]!, waitsForOther.id].sort());
  });

  it('correlate-message answers missing selections with Camunda exceptions', async () => {
    const { engine } = await setup(1);
    const noSelection = await engine.instanceBatches.correlateMessageAsync('go', {}).catch((error: unknown) => error);
    expect(noSelection).toBeInstanceOf(NullValueException);
    expect(noSelection).toMatchObject({ message: 'No process instances found.' });
    await expect(engine.instanceBatches.correlateMessageAsync('go', { processInstanceIds: [] })).rejects.toThrow(
      new BadUserRequestException('Process instance ids cannot be empty: process instance ids is empty'),
    );
    await expect(engine.instanceBatches.correlateMessageAsync('go', { processInstanceQuery: { businessKey: 'none' } })).rejects.toThrow(
      'Process instance ids cannot be empty: process instance ids is empty',
    );
  });

  it('creating needs BATCH CREATE or the type CREATE_BATCH_* permission', async () => {
    const { engine, ids } = await setup(1, true);
    // One user per type, so that each grant is the only one that user has.
    const as = <T>(userId: string, work: () => Promise<T>) => engine.runAs({ userId, groupIds: [], tenantIds: [] }, work);
    const grant = (userId: string, permissions: string[]) =>
      engine.authorization.createAuthorization({ type: 1, userId, groupId: null, resourceType: 13, resourceId: '*', permissions });
    const attempts = {
      'instance-deletion': (user: string) => as(user, () => engine.instanceBatches.deleteProcessInstancesAsync({ processInstanceIds: ids })),
      'set-variables': (user: string) => as(user, () => engine.instanceBatches.setVariablesAsync({ processInstanceIds: ids }, { a: string('a') })),
      'correlate-message': (user: string) => as(user, () => engine.instanceBatches.correlateMessageAsync('go', { processInstanceIds: ids })),
    };
    const permissions = {
      'instance-deletion': 'CREATE_BATCH_DELETE_RUNNING_PROCESS_INSTANCES',
      'set-variables': 'CREATE_BATCH_SET_VARIABLES',
      'correlate-message': 'CREATE_BATCH_CORRELATE_MESSAGE',
    };
    for (const [type, attempt] of Object.entries(attempts)) {
      const permission = permissions[type as keyof typeof permissions];
      await expect(attempt(`mia-${type}`)).rejects.toMatchObject({
        name: 'AuthorizationException',
        missingAuthorizations: [
          { permissionName: permission, resourceName: 'Batch' },
          { permissionName: 'CREATE', resourceName: 'Batch' },
        ],
      });
      await grant(`mia-${type}`, [permission]);
      expect((await attempt(`mia-${type}`)).type).toBe(type);
    }
    await grant('max', ['CREATE']);
    for (const attempt of Object.values(attempts)) expect((await attempt('max')).totalJobs).toBe(1);
  });
});
