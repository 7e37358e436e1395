import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** review → approve; approve has a start and an end listener and an input mapping. */
const MODEL = wrap(
  'skipping',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}<bpmn:userTask id="review" />${flow('f2', 'review', 'approve')}
   <bpmn:userTask id="approve">
     <bpmn:extensionElements>
       <camunda:executionListener event="start" expression="\${execution.setVariable('started', true)}" />
       <camunda:executionListener event="end" expression="\${execution.setVariable('ended', true)}" />
       <camunda:inputOutput><camunda:inputParameter name="mapped">yes</camunda:inputParameter></camunda:inputOutput>
     </bpmn:extensionElements>
   </bpmn:userTask>${flow('f3', 'approve', 'end')}<bpmn:endEvent id="end" />`,
);
const AT_APPROVE = [{ type: 'startBeforeActivity' as const, activityId: 'approve' }];
const SKIP = { skipCustomListeners: true, skipIoMappings: true };

describe.each(testStoreConfigs())('skipCustomListeners and skipIoMappings on $name', (testStore) => {
  async function setup() {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deployed = await engine.deployment.deploy({ resources: [{ name: 'skipping.bpmn', bytes: Buffer.from(MODEL) }] });
    return { engine, definitionId: deployed.processDefinitions![0].id };
  }

  /** Names of the variables the instance ever had (history), sorted. */
  async function variableNames(engine: ProcessEngine, processInstanceId: string) {
    return (await engine.history.variables.find({ processInstanceId })).map((variable) => variable.name).sort();
  }

  it('a restart with both flags starts the activity without its listener and its input mapping; without them, both run', async () => {
    const { engine, definitionId } = await setup();
    const finished = [];
    for (let i = 0; i < 2; i++) {
      const id = (await engine.runtime.startProcessInstanceById(definitionId)).id;
      await engine.runtime.deleteProcessInstance(id);
      finished.push(id);
    }

    await engine.restart.restart({ processDefinitionId: definitionId, instructions: AT_APPROVE, processInstanceIds: [finished[0]!], ...SKIP });
    await engine.restart.restart({ processDefinitionId: definitionId, instructions: AT_APPROVE, processInstanceIds: [finished[1]!] });

    const restarted = await engine.history.findHistoricProcessInstances({ processDefinitionId: definitionId, unfinished: true });
    const byOrigin = new Map(restarted.map((instance) => [instance.restartedProcessInstanceId, instance.id]));
    expect(await variableNames(engine, byOrigin.get(finished[0]!)!)).toEqual([]);
    expect(await variableNames(engine, byOrigin.get(finished[1]!)!)).toEqual(['mapped', 'started']);
  });

  it('a modification with the flags starts and cancels without listeners and mappings; later commands run them again', async () => {
    const { engine, definitionId } = await setup();
    const skipped = (await engine.runtime.startProcessInstanceById(definitionId)).id;
    const plain = (await engine.runtime.startProcessInstanceById(definitionId)).id;

    await engine.runtime.modifyProcessInstance(skipped, AT_APPROVE, SKIP);
    await engine.runtime.modifyProcessInstance(plain, AT_APPROVE);
    expect(await variableNames(engine, skipped)).toEqual([]);
    expect(await variableNames(engine, plain)).toEqual(['mapped', 'started']);

    // The flags belong to the command: completing the task afterwards runs the end listener.
    const [task] = await engine.task.findTasks({ processInstanceId: skipped, taskDefinitionKey: 'approve' });
    await engine.task.complete(task!.id);
    expect(await variableNames(engine, skipped)).toEqual(['ended']);
  });

  it('a deletion with skipCustomListeners ends the activity without its end listener', async () => {
    const { engine, definitionId } = await setup();
    const skipped = (await engine.runtime.startProcessInstanceById(definitionId)).id;
    const plain = (await engine.runtime.startProcessInstanceById(definitionId)).id;
    for (const id of [skipped, plain]) await engine.runtime.modifyProcessInstance(id, [{ type: 'startBeforeActivity', activityId: 'approve' }], SKIP);

    await engine.runtime.deleteProcessInstance(skipped, { skipCustomListeners: true });
    await engine.runtime.deleteProcessInstance(plain);

    expect(await variableNames(engine, skipped)).toEqual([]);
    expect(await variableNames(engine, plain)).toEqual(['ended']);
  });

  it('cancelling by modification fires the end listener once; completing the activity fires it once', async () => {
    const { engine, definitionId } = await setup();
    const cancelled = (await engine.runtime.startProcessInstanceById(definitionId)).id;
    const completed = (await engine.runtime.startProcessInstanceById(definitionId)).id;
    for (const id of [cancelled, completed]) await engine.runtime.modifyProcessInstance(id, AT_APPROVE);
    const ended = async (id: string) => (await engine.history.variables.findDetails({ processInstanceId: id })).filter((detail) => detail.type === 'variableUpdate' && detail.variableName === 'ended').length;

    await engine.runtime.modifyProcessInstance(cancelled, [{ type: 'cancel', activityId: 'approve' }]);
    const [task] = await engine.task.findTasks({ processInstanceId: completed, taskDefinitionKey: 'approve' });
    await engine.task.complete(task!.id);

    expect(await ended(cancelled)).toBe(1);
    expect(await ended(completed)).toBe(1);
  });
});
