import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

const CHILD = wrap('child', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'childTask')}<bpmn:userTask id="childTask" />${flow('f2', 'childTask', 'end')}<bpmn:endEvent id="end" />`);

const callingModel = (sequential: boolean) =>
  wrap(
    'caller',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
     <bpmn:callActivity id="call" calledElement="child">
       <bpmn:multiInstanceLoopCharacteristics isSequential="${sequential}"><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>
     </bpmn:callActivity>
     ${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
  );

/** A call activity on one branch of a parallel gateway, its path ending right after it. */
const FORKED_CALL = wrap(
  'forked',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
   ${flow('f2', 'fork', 'call')}<bpmn:callActivity id="call" calledElement="child" />${flow('f3', 'call', 'callEnd')}<bpmn:endEvent id="callEnd" />
   ${flow('f4', 'fork', 'wait')}<bpmn:userTask id="wait" />${flow('f5', 'wait', 'waitEnd')}<bpmn:endEvent id="waitEnd" />`,
);

describe.each(testStoreConfigs())('multi-instance activities on $name', (testStore) => {
  let engine: ProcessEngine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });

  const deploy = async (...xmls: string[]) => {
    engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    await engine.deployment.deploy({ resources: xmls.map((xml, index) => ({ name: `m${index}.bpmn`, bytes: Buffer.from(xml) })) });
    return engine;
  };
  const start = async (key: string) => {
    const definition = await engine!.processDefinition.findLatestByKey(key);
    return engine!.runtime.startProcessInstanceById(definition!.id);
  };
  const tasksOf = async (processInstanceId: string) => (await engine!.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey);
  const completeChildren = async () => {
    for (const task of await engine.task.findTasks({ taskDefinitionKey: 'childTask' })) await engine!.task.complete(task.id);
  };

  it.each([false, true])('completes a multi-instance call activity whose called instances wait (sequential: %s)', async (sequential) => {
    await deploy(CHILD, callingModel(sequential));
    const { id } = await start('caller');
    await completeChildren();
    if (sequential) await completeChildren();
    expect(await tasksOf(id)).toEqual(['after']);
    expect(await engine!.runtime.findProcessInstances({ processDefinitionKey: 'child' })).toEqual([]);
  });

  it('ends the path of a call activity whose called instance ends, beside a waiting branch', async () => {
    await deploy(CHILD, FORKED_CALL);
    const { id } = await start('forked');
    await completeChildren();
    expect(await tasksOf(id)).toEqual(['wait']);
  });
});
