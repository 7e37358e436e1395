import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException } from '../../src/errors/index.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { subProcessModel } from './scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });

describe.each(testStoreConfigs())('process instance modification on $name', (testStore) => {
  async function started(variables = { amount: integer(1) }) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'sub.bpmn', bytes: Buffer.from(subProcessModel) }] });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id, { variables });
    return { engine, instance, definitionId: processDefinitions![0].id };
  }
  const keys = async (engine: ProcessEngine, id: string) => (await engine.task.findTasks({ processInstanceId: id })).map((task) => task.taskDefinitionKey).sort();

  it('starts an activity beside the running one, then cancels one; an emptied sub-process goes with it', async () => {
    const { engine, instance } = await started();

    // As Camunda's setVariable / setVariableLocal: `variables` on the instance (none holds them yet), `variablesLocal` on the new path.
    await engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startBeforeActivity', activityId: 'after', variables: { shared: integer(7) }, variablesLocal: { note: integer(5) } }]);
    const both = await keys(engine, instance.id);
    const concurrentPath = (await engine.task.findTasks({ processInstanceId: instance.id, taskDefinitionKey: 'after' }))[0].executionId!;
    expect(Object.keys(await engine.execution.getLocalVariables(concurrentPath))).toEqual(['note']);
    expect(await engine.runtime.getVariables(instance.id)).toMatchObject({ shared: { value: 7 } });
    await engine.runtime.modifyProcessInstance(instance.id, [{ type: 'cancel', activityId: 'work' }]);
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    const afterTask = (await engine.task.findTasks({ processInstanceId: instance.id }))[0];

    expect(both).toEqual(['after', 'work']);
    expect(tree!.childActivityInstances.map((child) => child.activityId)).toEqual(['after']);
    expect(await engine.execution.getLocalVariables(afterTask.executionId!)).toMatchObject({ note: { value: 5 } });
  });

  it('creates the missing sub-process scope for an activity inside it', async () => {
    const { engine, instance } = await started();
    await engine.task.complete((await engine.task.findTasks({ processInstanceId: instance.id }))[0].id);

    await engine.runtime.modifyProcessInstance(instance.id, [
      { type: 'cancel', activityId: 'after' },
      { type: 'startBeforeActivity', activityId: 'work' },
    ]);
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);

    expect(tree!.childActivityInstances.map((child) => child.activityId)).toEqual(['sub']);
    expect(tree!.childActivityInstances[0].childActivityInstances.map((child) => child.activityId)).toEqual(['work']);
    expect(await keys(engine, instance.id)).toEqual(['work']);
  });

  it('ends the instance when a modification cancels everything, and starts after an activity along its flow', async () => {
    const { engine, instance } = await started();
    const second = await started();

    await engine.runtime.modifyProcessInstance(instance.id, [{ type: 'cancel', activityId: 'sub' }]);
    await second.engine.runtime.modifyProcessInstance(second.instance.id, [
      { type: 'startAfterActivity', activityId: 'start' },
      { type: 'cancel', activityInstanceId: (await second.engine.runtime.getActivityInstanceTree(second.instance.id))!.childActivityInstances[0].id },
    ]);

    expect(await engine.runtime.countProcessInstances()).toBe(0);
    expect(await keys(second.engine, second.instance.id)).toEqual(['work']);
  });

  it('starts a new instance at the given activities instead of the start event', async () => {
    const { engine, definitionId } = await started();

    const instance = await engine.runtime.startProcessInstanceById(definitionId, { startInstructions: [{ type: 'startBeforeActivity', activityId: 'after' }] });

    expect(await keys(engine, instance.id)).toEqual(['after']);
  });

  it('refuses an unknown activity and an unknown activity instance', async () => {
    const { engine, instance, definitionId } = await started();

    await expect(engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startBeforeActivity', activityId: 'nope' }])).rejects.toThrow(BadUserRequestException);
    // Camunda's NotValidException texts (AbstractInstantiationCmd, ActivityInstanceCancellationCmd, ActivityAfterInstantiationCmd).
    await expect(engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startBeforeActivity', activityId: 'nope', ancestorActivityInstanceId: 'x' }])).rejects.toThrow(
      `Cannot perform instruction: Start before activity 'nope' with ancestor activity instance 'x'; Element 'nope' does not exist in process '${definitionId}': element is null`,
    );
    await expect(engine.runtime.modifyProcessInstance(instance.id, [{ type: 'cancel', activityInstanceId: 'nope:1' }])).rejects.toMatchObject({
      name: 'NotValidException',
      message: "Cannot perform instruction: Cancel activity instance 'nope:1'; Activity instance 'nope:1' does not exist: activityInstance is null",
    });
    await expect(engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startAfterActivity', activityId: 'nope' }])).rejects.toThrow(
      "Cannot perform instruction: Start after activity 'nope'; Activity 'nope' does not exist: activity is null",
    );
    await expect(engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startBeforeActivity', activityId: 'work', ancestorActivityInstanceId: 'gone' }])).rejects.toThrow(
      "Cannot perform instruction: Start before activity 'work' with ancestor activity instance 'gone'; Ancestor activity instance 'gone' does not exist: ancestorInstance is null",
    );
    // An ancestor that is no flow scope of the target; two instances of the target's scope and no ancestor named.
    const sub = (await engine.runtime.getActivityInstanceTree(instance.id))!.childActivityInstances.find((child) => child.activityId === 'sub')!;
    await expect(engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startBeforeActivity', activityId: 'after', ancestorActivityInstanceId: sub.id }])).rejects.toThrow(
      `Cannot perform instruction: Start before activity 'after' with ancestor activity instance '${sub.id}'; Scope execution for '${sub.id}' cannot be found in parent hierarchy of flow element 'after'`,
    );
    await engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startBeforeActivity', activityId: 'sub' }]);
    await expect(engine.runtime.modifyProcessInstance(instance.id, [{ type: 'startBeforeActivity', activityId: 'work' }])).rejects.toThrow('Ancestor activity execution is ambiguous for activity Activity(sub)');
    await engine.runtime.modifyProcessInstance(instance.id, [{ type: 'cancel', activityInstanceId: sub.id }]);
    expect(await keys(engine, instance.id)).toEqual(['work']);
  });
});
