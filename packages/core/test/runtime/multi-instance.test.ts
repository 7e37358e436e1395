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

/** A user task `mi` with the given loop characteristics (content and attributes), then `after`. */
const loopModel = (loop: string, loopAttributes = '', taskContent = '') =>
  wrap(
    'loop',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'mi')}
     <bpmn:userTask id="mi" name="Review">${taskContent}<bpmn:multiInstanceLoopCharacteristics ${loopAttributes}>${loop}</bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>
     ${flow('f2', 'mi', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
  );
/** beforeTask, then `mi` (three instances: a user task, or a sub-process around `subTask`), then afterTask (Camunda's ProcessInstanceModificationMultiInstanceTest models). */
const modificationModel = (sequential: boolean, subProcess: boolean, condition = '') => {
  const loop = `<bpmn:multiInstanceLoopCharacteristics isSequential="${sequential}"><bpmn:loopCardinality>3</bpmn:loopCardinality>${condition}</bpmn:multiInstanceLoopCharacteristics>`;
  const mi = subProcess
    ? `<bpmn:subProcess id="mi">${loop}<bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'subTask')}<bpmn:userTask id="subTask" />${flow('s2', 'subTask', 'subEnd')}<bpmn:endEvent id="subEnd" /></bpmn:subProcess>`
    : `<bpmn:userTask id="mi">${loop}</bpmn:userTask>`;
  return wrap(
    'modified',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'beforeTask')}<bpmn:userTask id="beforeTask" />${flow('f2', 'beforeTask', 'mi')}
     ${mi}${flow('f3', 'mi', 'afterTask')}<bpmn:userTask id="afterTask" />${flow('f4', 'afterTask', 'end')}<bpmn:endEvent id="end" />`,
  );
};
const json = (value: unknown) => ({ type: 'json' as const, value: JSON.stringify(value), valueInfo: {} });
const integer = (value: number | null) => ({ type: 'integer' as const, value, valueInfo: {} });

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
    for (const task of await engine!.task.findTasks({ taskDefinitionKey: 'childTask' })) await engine!.task.complete(task.id);
  };

  it.each([false, true])('completes a multi-instance call activity whose called instances wait (sequential: %s)', async (sequential) => {
    await deploy(CHILD, callingModel(sequential));
    const { id } = await start('caller');
    await completeChildren();
    if (sequential) await completeChildren();
    expect(await tasksOf(id)).toEqual(['after']);
    expect(await engine!.runtime.findProcessInstances({ processDefinitionKey: 'child' })).toEqual([]);
  });

  it('takes the collection from loopDataInputRef and the element variable from inputDataItem', async () => {
    await deploy(loopModel('<bpmn:loopDataInputRef>assignees</bpmn:loopDataInputRef><bpmn:inputDataItem name="assignee" />'));
    const definition = await engine!.processDefinition.findLatestByKey('loop');
    const { id } = await engine!.runtime.startProcessInstanceById(definition!.id, { variables: { assignees: json(['ann', 'bob']) } });
    expect(await tasksOf(id)).toEqual(['mi', 'mi']);
    const variables = await engine!.variableInstance.findVariableInstances({ processInstanceIdIn: [id], variableName: 'assignee' });
    expect(variables.map((variable) => (variable.value as { value: unknown }).value).sort()).toEqual(['ann', 'bob']);
  });

  it('refuses loop characteristics without a cardinality or collection, or with an element variable but no collection', async () => {
    engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    const refusal = async (xml: string) => {
      const error = await engine!.deployment.deploy({ resources: [{ name: 'loop.bpmn', bytes: Buffer.from(xml) }] }).catch((caught: Error) => caught);
      return (error as Error).message;
    };
    expect(await refusal(loopModel(''))).toContain('Either loopCardinality or loopDataInputRef/activiti:collection must be set');
    expect(await refusal(loopModel('<bpmn:loopCardinality>2</bpmn:loopCardinality>', 'camunda:elementVariable="item"'))).toContain(
      'LoopDataInputRef/activiti:collection must be set when using inputDataItem or activiti:elementVariable',
    );
    expect(await refusal(loopModel('<bpmn:loopCardinality></bpmn:loopCardinality>'))).toContain('loopCardinality must be defined for a multiInstanceLoopCharacteristics definition');
  });

  it('resolves the number of instances as Camunda: a number truncated, a number text, else its engine errors', async () => {
    await deploy(loopModel('<bpmn:loopCardinality>${n}</bpmn:loopCardinality>'));
    const definition = await engine!.processDefinition.findLatestByKey('loop');
    const startWith = (n: unknown) => engine!.runtime.startProcessInstanceById(definition!.id, { variables: { n: n as never } });
    const { id } = await startWith({ type: 'double', value: 2.7, valueInfo: {} });
    expect(await tasksOf(id)).toEqual(['mi', 'mi']);
    const { id: fromText } = await startWith({ type: 'string', value: '3', valueInfo: {} });
    expect(await tasksOf(fromText)).toEqual(['mi', 'mi', 'mi']);
    await expect(startWith(integer(-1))).rejects.toThrow("ENGINE-02023 Invalid number of 'instances': must be positive integer value or zero, but was '-1'.");
    await expect(startWith(integer(null))).rejects.toThrow("ENGINE-02027 Could not resolve expression of type 'loopCardinality'. Expression '${n}' needs to be a number or number String.");
  });

  it('needs a Collection in the collection variable or expression', async () => {
    await deploy(loopModel('', 'camunda:collection="items" camunda:elementVariable="item"'));
    const definition = await engine!.processDefinition.findLatestByKey('loop');
    await expect(engine!.runtime.startProcessInstanceById(definition!.id)).rejects.toThrow("ENGINE-02025 Variable 'items' is not of the expected type 'Collection'.");
    await deploy(loopModel('', 'camunda:collection="${items}" camunda:elementVariable="item"'));
    const latest = await engine!.processDefinition.findLatestByKey('loop');
    const started = engine!.runtime.startProcessInstanceById(latest!.id, { variables: { items: integer(3) } });
    await expect(started).rejects.toThrow("ENGINE-02024 Expression '${items}' didn't resolve to type 'Collection'.");
  });

  it('leaves an empty collection without counters; the body has no name', async () => {
    await deploy(loopModel('', 'camunda:collection="items" camunda:elementVariable="item"'));
    const definition = await engine!.processDefinition.findLatestByKey('loop');
    const { id } = await engine!.runtime.startProcessInstanceById(definition!.id, { variables: { items: json([]) } });
    expect(await tasksOf(id)).toEqual(['after']);
    expect((await engine!.history.variables.find({ processInstanceId: id })).map((variable) => variable.name)).toEqual(['items']);
    const [body] = await engine!.history.findHistoricActivityInstances({ processInstanceId: id, activityId: 'mi#multiInstanceBody' });
    expect([body?.activityType, body?.activityName]).toEqual(['multiInstanceBody', null]);
  });

  it('fires the end listeners of the instances a completion condition cancels, and evaluates the condition on the last one too', async () => {
    const listeners = `<bpmn:extensionElements><camunda:executionListener event="end" expression="\${log.add(execution.activityInstanceId)}" /></bpmn:extensionElements>`;
    await deploy(loopModel('<bpmn:loopCardinality>3</bpmn:loopCardinality><bpmn:completionCondition>${nrOfCompletedInstances >= 1}</bpmn:completionCondition>', '', listeners));
    const ended: string[] = [];
    engine!.delegates.registerBean('log', { add: (id: string) => ended.push(id) });
    const { id } = await start('loop');
    const [first] = await engine!.task.findTasks({ processInstanceId: id });
    await engine!.task.complete(first!.id);
    expect(ended).toHaveLength(3);
    expect(await tasksOf(id)).toEqual(['after']);

    await deploy(loopModel('<bpmn:loopCardinality>1</bpmn:loopCardinality><bpmn:completionCondition>${"yes"}</bpmn:completionCondition>'));
    const { id: last } = await start('loop');
    const [only] = await engine!.task.findTasks({ processInstanceId: last });
    await expect(engine!.task.complete(only!.id)).rejects.toThrow("ENGINE-02028 Could not resolve expression of type 'completionCondition'.");
  });

  it('keeps the counters of a multi-instance call activity when the called instance passes all its variables out', async () => {
    const child = wrap('child', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'set')}<bpmn:task id="set"><bpmn:extensionElements><camunda:executionListener event="start" expression="\${execution.setVariable('nrOfInstances', 7)}" /></bpmn:extensionElements></bpmn:task>${flow('f2', 'set', 'end')}<bpmn:endEvent id="end" />`);
    const caller = callingModel(false).replace('<bpmn:multiInstanceLoopCharacteristics', '<bpmn:extensionElements><camunda:in variables="all" /><camunda:out variables="all" /></bpmn:extensionElements><bpmn:multiInstanceLoopCharacteristics');
    await deploy(child, caller);
    const { id } = await start('caller');
    expect(await tasksOf(id)).toEqual(['after']);
  });

  it("puts the activity's own async continuations on its body and its loop's on each instance, as Camunda", async () => {
    const model = (attributes: string, loopAttributes: string) =>
      wrap(
        'asyncLoop',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'mi')}
         <bpmn:task id="mi" ${attributes}><bpmn:multiInstanceLoopCharacteristics ${loopAttributes}><bpmn:loopCardinality>3</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:task>
         ${flow('f2', 'mi', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
      );
    await deploy(model('camunda:asyncBefore="true" camunda:asyncAfter="true"', 'camunda:asyncBefore="true" camunda:asyncAfter="true"'));
    const definitions = await engine!.jobDefinition.findJobDefinitions({});
    expect(definitions.map((each) => `${each.activityId} ${each.jobConfiguration}`).sort()).toEqual([
      'mi async-after',
      'mi async-before',
      'mi#multiInstanceBody async-after',
      'mi#multiInstanceBody async-before',
    ]);
    const { id } = await start('asyncLoop');
    const jobs = async () => (await engine!.management.findJobs({ processInstanceId: id })).map((job) => job.activityId);
    const runAll = async () => {
      for (const job of await engine!.management.findJobs({ processInstanceId: id })) await engine!.management.executeJob(job.id);
    };
    expect(await jobs()).toEqual(['mi#multiInstanceBody']);
    const waiting = await engine!.runtime.getActivityInstanceTree(id);
    expect(waiting!.childTransitionInstances.map((each) => [each.activityId, each.activityType])).toEqual([['mi#multiInstanceBody', 'multiInstanceBody']]);
    await runAll();
    expect(await jobs()).toEqual(['mi', 'mi', 'mi']);
    const tree = await engine!.runtime.getActivityInstanceTree(id);
    expect(tree!.childActivityInstances.map((each) => [each.activityId, each.childTransitionInstances.length])).toEqual([['mi#multiInstanceBody', 3]]);
    await runAll();
    expect(await jobs()).toEqual(['mi', 'mi', 'mi']);
    await runAll();
    expect(await jobs()).toEqual(['mi#multiInstanceBody']);
    await runAll();
    expect(await tasksOf(id)).toEqual(['after']);
  });

  it('completes a parallel body once its other instances complete after a modification cancelled one', async () => {
    await deploy(loopModel('<bpmn:loopCardinality>3</bpmn:loopCardinality>'));
    const { id } = await start('loop');
    const tree = await engine!.runtime.getActivityInstanceTree(id);
    const [inner] = tree!.childActivityInstances[0]!.childActivityInstances;
    await engine!.runtime.modifyProcessInstance(id, [{ type: 'cancel', activityInstanceId: inner!.id }]);
    for (const task of await engine!.task.findTasks({ processInstanceId: id })) await engine!.task.complete(task.id);
    expect(await tasksOf(id)).toEqual(['after']);
  });

  it('keeps an ended parallel instance, inactive with its loopCounter, until the body completes (Camunda CAM-5609 shows it as a transition)', async () => {
    await deploy(loopModel('<bpmn:loopCardinality>3</bpmn:loopCardinality>'));
    const { id, processDefinitionId } = await start('loop');
    const [first] = await engine!.task.findTasks({ processInstanceId: id });
    await engine!.task.complete(first!.id);
    expect(await engine!.execution.findExecutions({ processInstanceId: id })).toHaveLength(5);
    const loopCounters = (await engine!.variableInstance.findVariableInstances({ processInstanceIdIn: [id], variableName: 'loopCounter' })).map((each) => each.value.value);
    expect(loopCounters.sort()).toEqual([0, 1, 2]);
    const [body] = (await engine!.runtime.getActivityInstanceTree(id))!.childActivityInstances;
    expect(body!.childActivityInstances.map((each) => each.activityId)).toEqual(['mi', 'mi']);
    expect(body!.childTransitionInstances.map((each) => [each.activityId, each.executionId])).toEqual([['mi', first!.executionId]]);
    const statistics = await engine!.statistics.getActivityStatistics(processDefinitionId);
    expect(statistics.find((each) => each.id === 'mi')?.instances).toBe(2);
    for (const task of await engine!.task.findTasks({ processInstanceId: id })) await engine!.task.complete(task.id);
    expect(await tasksOf(id)).toEqual(['after']);
    expect(await engine!.execution.findExecutions({ processInstanceId: id })).toHaveLength(1);
  });

  it('completes a parallel body only when every instance ended, also after its kept ended instance was cancelled', async () => {
    await deploy(loopModel('<bpmn:loopCardinality>3</bpmn:loopCardinality>'));
    const { id } = await start('loop');
    const [first] = await engine!.task.findTasks({ processInstanceId: id });
    await engine!.task.complete(first!.id);
    const [body] = (await engine!.runtime.getActivityInstanceTree(id))!.childActivityInstances;
    await engine!.runtime.modifyProcessInstance(id, [{ type: 'cancel', transitionInstanceId: body!.childTransitionInstances[0]!.id }]);
    const [second] = await engine!.task.findTasks({ processInstanceId: id });
    await engine!.task.complete(second!.id);
    expect(await tasksOf(id)).toEqual(['mi']);
    // Cancelling the activity leaves no stale transition behind: the kept instances go with their body.
    await engine!.runtime.modifyProcessInstance(id, [{ type: 'cancel', activityId: 'mi' }, { type: 'startBeforeActivity', activityId: 'after' }]);
    expect(await tasksOf(id)).toEqual(['after']);
  });

  describe('process instance modification', () => {
    type Node = { activityId: string; id: string; childActivityInstances: Node[] };
    const shape = (node: Node): unknown => (node.childActivityInstances.length ? { [node.activityId]: node.childActivityInstances.map(shape) } : node.activityId);
    const treeOf = async (id: string) => ((await engine!.runtime.getActivityInstanceTree(id)) as Node).childActivityInstances;
    const completeAll = async (id: string, taskKey: string) => {
      for (const task of await engine!.task.findTasks({ processInstanceId: id, taskDefinitionKey: taskKey })) await engine!.task.complete(task.id);
    };
    const counters = async (id: string, taskKey: string) => {
      const values = [];
      for (const task of await engine!.task.findTasks({ processInstanceId: id, taskDefinitionKey: taskKey })) {
        const variables = await engine!.task.getVariables(task.id);
        values.push(['loopCounter', 'nrOfInstances', 'nrOfActiveInstances', 'nrOfCompletedInstances'].map((name) => variables[name]?.value));
      }
      return values;
    };
    const startedAfterBeforeTask = async (sequential: boolean, subProcess: boolean, condition?: string) => {
      await deploy(modificationModel(sequential, subProcess, condition));
      const { id } = await start('modified');
      await completeAll(id, 'beforeTask');
      return id;
    };

    it.each([false, true])('starts a whole second body before X#multiInstanceBody (sequential: %s)', async (sequential) => {
      const id = await startedAfterBeforeTask(sequential, false);
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'startBeforeActivity', activityId: 'mi#multiInstanceBody' }]);
      const body = { 'mi#multiInstanceBody': sequential ? ['mi'] : ['mi', 'mi', 'mi'] };
      expect((await treeOf(id)).map(shape)).toEqual([body, body]);
      for (let round = 0; round < (sequential ? 3 : 1); round++) await completeAll(id, 'mi');
      expect(await tasksOf(id)).toEqual(['afterTask', 'afterTask']);
    });

    it('starts after X#multiInstanceBody along its flow, but not after the inner activity, which has none', async () => {
      const id = await startedAfterBeforeTask(false, false);
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'startAfterActivity', activityId: 'mi#multiInstanceBody' }]);
      expect((await tasksOf(id)).sort()).toEqual(['afterTask', 'mi', 'mi', 'mi']);
      await expect(engine!.runtime.modifyProcessInstance(id, [{ type: 'startAfterActivity', activityId: 'mi' }])).rejects.toThrow(
        'Cannot start after activity mi; activity has no outgoing sequence flow to take',
      );
    });

    it.each([false, true])('adds one instance to a running parallel body (sub-process: %s)', async (subProcess) => {
      const id = await startedAfterBeforeTask(false, subProcess);
      const [body] = await treeOf(id);
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'startBeforeActivity', activityId: 'mi', ancestorActivityInstanceId: body!.id }]);
      const leaf = subProcess ? 'subTask' : 'mi';
      expect((await counters(id, leaf)).sort()).toEqual([0, 1, 2, 3].map((loopCounter) => [loopCounter, 4, 4, 0]));
      expect((await treeOf(id)).map(shape)).toEqual([{ 'mi#multiInstanceBody': Array(4).fill(subProcess ? { mi: ['subTask'] } : 'mi') }]);
      await completeAll(id, leaf);
      expect(await tasksOf(id)).toEqual(['afterTask']);
    });

    it('adds instances to the running body without an ancestor, the completion condition counting them', async () => {
      const id = await startedAfterBeforeTask(false, false, '<bpmn:completionCondition>${nrOfCompletedInstances == 4}</bpmn:completionCondition>');
      await engine!.runtime.modifyProcessInstance(id, [
        { type: 'startBeforeActivity', activityId: 'mi' },
        { type: 'startBeforeActivity', activityId: 'mi' },
      ]);
      const tasks = await engine!.task.findTasks({ processInstanceId: id, taskDefinitionKey: 'mi' });
      expect(tasks).toHaveLength(5);
      for (const task of tasks.slice(0, 4)) await engine!.task.complete(task.id);
      expect(await tasksOf(id)).toEqual(['afterTask']);
    });

    it.each([false, true])('refuses a second instance in a sequential body (sub-process: %s)', async (subProcess) => {
      const id = await startedAfterBeforeTask(true, subProcess);
      const [body] = await treeOf(id);
      await expect(
        engine!.runtime.modifyProcessInstance(id, [{ type: 'startBeforeActivity', activityId: 'mi', ancestorActivityInstanceId: body!.id }]),
      ).rejects.toThrow('Concurrent instantiation not possible for activities in scope mi#multiInstanceBody');
    });

    it.each([false, true])('starts a body of one instance before an inner activity when none runs (sequential: %s)', async (sequential) => {
      await deploy(modificationModel(sequential, true));
      const { id } = await start('modified');
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'startBeforeActivity', activityId: 'subTask' }]);
      expect((await treeOf(id)).map(shape)).toEqual(['beforeTask', { 'mi#multiInstanceBody': [{ mi: ['subTask'] }] }]);
      expect(await counters(id, 'subTask')).toEqual([[0, 1, 1, 0]]);
      await completeAll(id, 'subTask');
      expect((await tasksOf(id)).sort()).toEqual(['afterTask', 'beforeTask']);
    });

    it("sets a start's variables once the body exists: nrOfInstances set to 2 runs two sequential instances", async () => {
      await deploy(modificationModel(true, true));
      const { id } = await start('modified');
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'startBeforeActivity', activityId: 'subTask', variables: { nrOfInstances: integer(2) } }]);
      expect(await counters(id, 'subTask')).toEqual([[0, 2, 1, 0]]);
      await completeAll(id, 'subTask');
      expect(await counters(id, 'subTask')).toEqual([[1, 2, 1, 1]]);
      await completeAll(id, 'subTask');
      expect((await tasksOf(id)).sort()).toEqual(['afterTask', 'beforeTask']);
    });
  });

  it('ends the path of a call activity whose called instance ends, beside a waiting branch', async () => {
    await deploy(CHILD, FORKED_CALL);
    const { id } = await start('forked');
    await completeChildren();
    expect(await tasksOf(id)).toEqual(['wait']);
  });
});
