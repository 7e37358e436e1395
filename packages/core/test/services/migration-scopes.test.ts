import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { ActivityInstanceNode } from '../../src/services/runtime/process-instance.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → task → after → end, all at process level. */
const flat = wrap(
  'scopes',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'after')}
   <bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

/**
 * start → sub (input `inner`, output `result`, start/end listeners, boundary timer, a message event
 * sub-process; inside: start → task → end) → after → end.
 */
const nested = wrap(
  'scopes',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
   <bpmn:subProcess id="sub">
     <bpmn:extensionElements>
       <camunda:executionListener event="start" expression="\${execution.setVariable('subStarted', true)}" />
       <camunda:executionListener event="end" expression="\${execution.setVariable('subEnded', true)}" />
       <camunda:inputOutput>
         <camunda:inputParameter name="inner">\${amount * 2}</camunda:inputParameter>
         <camunda:outputParameter name="result">\${inner + 1}</camunda:outputParameter>
       </camunda:inputOutput>
     </bpmn:extensionElements>
     <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'task')}<bpmn:userTask id="task" />${flow('s2', 'task', 'subEnd')}<bpmn:endEvent id="subEnd" />
     <bpmn:subProcess id="esp" triggeredByEvent="true">
       <bpmn:startEvent id="espStart" isInterrupting="false"><bpmn:messageEventDefinition messageRef="poke" /></bpmn:startEvent>
       ${flow('e1', 'espStart', 'espEnd')}<bpmn:endEvent id="espEnd" />
     </bpmn:subProcess>
   </bpmn:subProcess>
   <bpmn:boundaryEvent id="subTimer" attachedToRef="sub"><bpmn:timerEventDefinition><bpmn:timeDuration>PT2H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
   ${flow('f4', 'subTimer', 'timedOut')}<bpmn:endEvent id="timedOut" />
   ${flow('f2', 'sub', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
  `<bpmn:message id="poke" name="poke" />`,
);

/** The flat model with a boundary timer on `task` (→ escalated). */
const guarded = wrap(
  'scopes',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'after')}
   <bpmn:boundaryEvent id="late" attachedToRef="task"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
   ${flow('f4', 'late', 'escalated')}<bpmn:userTask id="escalated" />${flow('f5', 'escalated', 'end')}
   <bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

/** Two parallel tasks a and b, at process level or inside `sub`. */
const parallel = (inSub: boolean) => {
  const inner = `<bpmn:startEvent id="${inSub ? 'subStart' : 'start'}" />${flow('p0', inSub ? 'subStart' : 'start', 'fork')}
     <bpmn:parallelGateway id="fork" />${flow('p1', 'fork', 'a')}${flow('p2', 'fork', 'b')}
     <bpmn:userTask id="a" />${flow('p3', 'a', 'join')}<bpmn:userTask id="b" />${flow('p4', 'b', 'join')}
     <bpmn:parallelGateway id="join" />${flow('p5', 'join', inSub ? 'subEnd' : 'end')}<bpmn:endEvent id="${inSub ? 'subEnd' : 'end'}" />`;
  if (!inSub) return wrap('pair', inner);
  return wrap(
    'pair',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
     <bpmn:subProcess id="sub"><bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter name="inner">in</camunda:inputParameter></camunda:inputOutput></bpmn:extensionElements>
     ${inner}</bpmn:subProcess>${flow('f2', 'sub', 'end')}<bpmn:endEvent id="end" />`,
  );
};

const instruction = (sourceActivityId: string, targetActivityId = sourceActivityId) => ({ sourceActivityId, targetActivityId, updateEventTrigger: false });
const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });

const variablesOf = async (engine: ProcessEngine, processInstanceId: string) =>
  Object.fromEntries((await engine.variableInstance.findVariableInstances({ processInstanceIdIn: [processInstanceId] })).map((each) => [each.name, each]));

/** The activity-instance tree as nested [activityId, children] pairs. */
const shape = (node: ActivityInstanceNode): unknown[] => [node.activityId, node.childActivityInstances.map(shape)];

describe.each(testStoreConfigs())('migrating a changed scope hierarchy on $name', (testStore) => {
  async function engineWith(...xmls: string[]) {
    return engineWithOptions({}, ...xmls);
  }
  async function engineWithOptions(options: { skipOutputMappingOnCanceledActivities?: boolean }, ...xmls: string[]) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), ...options });
    engines.push(engine);
    const ids: string[] = [];
    for (const xml of xmls) ids.push((await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id);
    return { engine, ids };
  }
  const plan = (source: string, target: string, ...activities: string[]) => ({
    sourceProcessDefinitionId: source,
    targetProcessDefinitionId: target,
    instructions: activities.map((id) => instruction(id)),
    variables: null,
  });

  it('moves a task into a new embedded sub-process: scope, mappings, listeners and triggers are created', async () => {
    const { engine, ids: [v1, v2] } = await engineWith(flat, nested);
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { amount: integer(5) } });
    const taskInstance = (await engine.runtime.getActivityInstanceTree(started.id))!.childActivityInstances[0];

    await engine.migration.execute(plan(v1, v2, 'task', 'after'), { processInstanceIds: [started.id] });

    const tree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(shape(tree)).toEqual([v2, [['sub', [['task', []]]]]]);
    const sub = tree.childActivityInstances[0];
    expect(sub.childActivityInstances[0].id).toBe(taskInstance.id);
    expect(sub.childActivityInstances[0].parentActivityInstanceId).toBe(sub.id);
    const variables = await variablesOf(engine, started.id);
    expect(variables['inner']).toMatchObject({ value: { value: 10 }, activityInstanceId: sub.id });
    expect(variables['subStarted']).toMatchObject({ value: { value: true } });
    expect(variables['amount']).toMatchObject({ activityInstanceId: started.id });
    const [timer] = await engine.management.findJobs({ processInstanceId: started.id });
    expect(timer).toMatchObject({ activityId: 'subTimer', processDefinitionId: v2 });
    expect(timer.dueDate!.getTime() - engine.clock.now().getTime()).toBe(2 * 3600_000);
    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    expect(task).toMatchObject({ taskDefinitionKey: 'task', processDefinitionId: v2, activityInstanceId: taskInstance.id });

    await engine.message.correlate({ messageName: 'poke', processInstanceId: started.id });
    await engine.task.complete(task.id);
    const afterSub = await variablesOf(engine, started.id);
    expect(afterSub['result']).toMatchObject({ value: { value: 11 } });
    expect(afterSub['subEnded']).toMatchObject({ value: { value: true } });
    expect(afterSub['inner']).toBeUndefined();
    expect(await engine.management.findJobs({ processInstanceId: started.id })).toEqual([]);
    const [after] = await engine.task.findTasks({ processInstanceId: started.id });
    expect(after.taskDefinitionKey).toBe('after');
    await engine.task.complete(after.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('skips input mappings and start listeners of created scopes when asked', async () => {
    const { engine, ids: [v1, v2] } = await engineWith(flat, nested);
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { amount: integer(5) } });

    await engine.migration.execute(plan(v1, v2, 'task', 'after'), { processInstanceIds: [started.id], skipCustomListeners: true, skipIoMappings: true });

    expect(shape((await engine.runtime.getActivityInstanceTree(started.id))!)).toEqual([v2, [['sub', [['task', []]]]]]);
    expect(Object.keys(await variablesOf(engine, started.id))).toEqual(['amount']);
    expect(await engine.management.findJobs({ processInstanceId: started.id })).toHaveLength(1);
  });

  it('removes a sub-process around a waiting task: its variables and triggers go, output mapping and end listener run', async () => {
    const { engine, ids: [v1, v2] } = await engineWith(nested, flat);
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { amount: integer(5) } });
    const before = (await engine.runtime.getActivityInstanceTree(started.id))!;
    const taskInstanceId = before.childActivityInstances[0].childActivityInstances[0].id;

    await engine.migration.execute(plan(v1, v2, 'task', 'after'), { processInstanceIds: [started.id] });

    const tree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(shape(tree)).toEqual([v2, [['task', []]]]);
    expect(tree.childActivityInstances[0]).toMatchObject({ id: taskInstanceId, parentActivityInstanceId: started.id });
    const variables = await variablesOf(engine, started.id);
    expect(Object.keys(variables).sort()).toEqual(['amount', 'result', 'subEnded', 'subStarted']);
    expect(variables['result']).toMatchObject({ value: { value: 11 } });
    expect(await engine.management.findJobs({ processInstanceId: started.id })).toEqual([]);
    await expect(engine.message.correlate({ messageName: 'poke', processInstanceId: started.id })).rejects.toThrow();
    const executions = await engine.execution.findExecutions({ processInstanceId: started.id });
    expect(executions.map((each) => each.id)).toEqual([started.id]);

    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    expect(task).toMatchObject({ executionId: started.id, processDefinitionId: v2 });
    await engine.task.complete(task.id);
    const [after] = await engine.task.findTasks({ processInstanceId: started.id });
    await engine.task.complete(after.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('skips output mappings and end listeners of cancelled scopes when asked', async () => {
    const { engine, ids: [v1, v2] } = await engineWith(nested, flat);
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { amount: integer(5) } });

    await engine.migration.execute(plan(v1, v2, 'task', 'after'), { processInstanceIds: [started.id], skipCustomListeners: true, skipIoMappings: true });

    expect(Object.keys(await variablesOf(engine, started.id)).sort()).toEqual(['amount', 'subStarted']);
    expect(shape((await engine.runtime.getActivityInstanceTree(started.id))!)).toEqual([v2, [['task', []]]]);
  });

  it("runs end listeners but no output mappings of removed scopes with the engine's skipOutputMappingOnCanceledActivities", async () => {
    const { engine, ids: [v1, v2] } = await engineWithOptions({ skipOutputMappingOnCanceledActivities: true }, nested, flat);
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { amount: integer(5) } });

    await engine.migration.execute(plan(v1, v2, 'task', 'after'), { processInstanceIds: [started.id] });

    expect(Object.keys(await variablesOf(engine, started.id)).sort()).toEqual(['amount', 'subEnded', 'subStarted']);
  });

  it('adds a boundary timer to a waiting task: the task becomes a scope, and the timer fires', async () => {
    const { engine, ids: [v1, v2] } = await engineWith(flat, guarded);
    const started = await engine.runtime.startProcessInstanceById(v1);
    const taskInstanceId = (await engine.runtime.getActivityInstanceTree(started.id))!.childActivityInstances[0].id;

    await engine.migration.execute(plan(v1, v2, 'task'), { processInstanceIds: [started.id] });

    const tree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(shape(tree)).toEqual([v2, [['task', []]]]);
    expect(tree.childActivityInstances[0].id).toBe(taskInstanceId);
    const [job] = await engine.management.findJobs({ processInstanceId: started.id });
    expect(job).toMatchObject({ activityId: 'late', processDefinitionId: v2 });
    await engine.management.executeJob(job.id);
    const [escalated] = await engine.task.findTasks({ processInstanceId: started.id });
    expect(escalated.taskDefinitionKey).toBe('escalated');
    await engine.task.complete(escalated.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('moves a task into a new sub-process where it gains a boundary event, and back out where it loses it', async () => {
    const innerGuarded = wrap(
      'scopes',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
       <bpmn:subProcess id="sub">
         <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'task')}<bpmn:userTask id="task" />${flow('s2', 'task', 'subEnd')}<bpmn:endEvent id="subEnd" />
         <bpmn:boundaryEvent id="late" attachedToRef="task"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
         ${flow('s3', 'late', 'escalated')}<bpmn:userTask id="escalated" />${flow('s4', 'escalated', 'subEnd')}
       </bpmn:subProcess>
       ${flow('f2', 'sub', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
    );
    const { engine, ids: [v1, v2, v3] } = await engineWith(flat, innerGuarded, flat);
    const timedOut = await engine.runtime.startProcessInstanceById(v1);
    const movedBack = await engine.runtime.startProcessInstanceById(v1);

    await engine.migration.execute(plan(v1, v2, 'task', 'after'), { processInstanceIds: [timedOut.id, movedBack.id] });

    expect(shape((await engine.runtime.getActivityInstanceTree(timedOut.id))!)).toEqual([v2, [['sub', [['task', []]]]]]);
    const [job] = await engine.management.findJobs({ processInstanceId: timedOut.id });
    expect(job).toMatchObject({ activityId: 'late', processDefinitionId: v2 });
    await engine.management.executeJob(job.id);
    expect(shape((await engine.runtime.getActivityInstanceTree(timedOut.id))!)).toEqual([v2, [['sub', [['escalated', []]]]]]);

    await engine.migration.execute(plan(v2, v3, 'task', 'after'), { processInstanceIds: [movedBack.id] });

    expect(shape((await engine.runtime.getActivityInstanceTree(movedBack.id))!)).toEqual([v3, [['task', []]]]);
    expect(await engine.management.findJobs({ processInstanceId: movedBack.id })).toEqual([]);
    expect((await engine.execution.findExecutions({ processInstanceId: movedBack.id })).map((each) => each.id)).toEqual([movedBack.id]);
    for (const key of ['task', 'after']) {
      const [task] = await engine.task.findTasks({ processInstanceId: movedBack.id });
      expect(task.taskDefinitionKey).toBe(key);
      await engine.task.complete(task.id);
    }
    expect(await engine.runtime.getProcessInstance(movedBack.id)).toBeNull();
  });

  it('creates and cancels two nested scopes at once, bottom-up and top-down', async () => {
    const listener = (event: string, name: string) => `<camunda:executionListener event="${event}" expression="\${execution.setVariable('order', order.concat('${name} '))}" />`;
    const deep = wrap(
      'scopes',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'outer')}
       <bpmn:subProcess id="outer"><bpmn:extensionElements>${listener('start', 'outerStart')}${listener('end', 'outerEnd')}</bpmn:extensionElements>
         <bpmn:startEvent id="os" />${flow('o1', 'os', 'inner')}
         <bpmn:subProcess id="inner"><bpmn:extensionElements>${listener('start', 'innerStart')}${listener('end', 'innerEnd')}</bpmn:extensionElements>
           <bpmn:startEvent id="is" />${flow('i1', 'is', 'task')}<bpmn:userTask id="task" />${flow('i2', 'task', 'ie')}<bpmn:endEvent id="ie" />
         </bpmn:subProcess>${flow('o2', 'inner', 'oe')}<bpmn:endEvent id="oe" />
       </bpmn:subProcess>
       ${flow('f2', 'outer', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
    );
    const { engine, ids: [v1, v2, v3] } = await engineWith(flat, deep, flat);
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { order: { type: 'string', value: '', valueInfo: {} } } });
    const taskId = (await engine.runtime.getActivityInstanceTree(started.id))!.childActivityInstances[0].id;

    await engine.migration.execute(plan(v1, v2, 'task', 'after'), { processInstanceIds: [started.id] });

    expect(shape((await engine.runtime.getActivityInstanceTree(started.id))!)).toEqual([v2, [['outer', [['inner', [['task', []]]]]]]]);
    expect((await engine.runtime.getVariables(started.id))['order'].value).toBe('outerStart innerStart ');

    await engine.migration.execute(plan(v2, v3, 'task', 'after'), { processInstanceIds: [started.id] });

    const tree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(shape(tree)).toEqual([v3, [['task', []]]]);
    expect(tree.childActivityInstances[0].id).toBe(taskId);
    expect((await engine.runtime.getVariables(started.id))['order'].value).toBe('outerStart innerStart innerEnd outerEnd ');
  });

  it('moves two concurrent tasks into one new sub-process instance, and back out again', async () => {
    const { engine, ids: [flatPair, nestedPair, flatAgain] } = await engineWith(parallel(false), parallel(true), parallel(false));
    const started = await engine.runtime.startProcessInstanceById(flatPair);
    const staying = await engine.runtime.startProcessInstanceById(flatPair);
    const before = (await engine.runtime.getActivityInstanceTree(started.id))!;
    const leafIds = before.childActivityInstances.map((each) => each.id).sort();

    await engine.migration.execute(plan(flatPair, nestedPair, 'a', 'b'), { processInstanceIds: [started.id, staying.id] });

    const nestedTree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(nestedTree.childActivityInstances.map((each) => each.activityId)).toEqual(['sub']);
    const sub = nestedTree.childActivityInstances[0];
    expect(sub.childActivityInstances.map((each) => each.id).sort()).toEqual(leafIds);
    expect((await variablesOf(engine, started.id))['inner']).toMatchObject({ activityInstanceId: sub.id });

    await engine.migration.execute(plan(nestedPair, flatAgain, 'a', 'b'), { processInstanceIds: [started.id] });

    const flatTree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(flatTree.childActivityInstances.map((each) => each.id).sort()).toEqual(leafIds);
    expect(await variablesOf(engine, started.id)).toEqual({});
    for (const task of await engine.task.findTasks({ processInstanceId: started.id })) await engine.task.complete(task.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
    const [first, second] = await engine.task.findTasks({ processInstanceId: staying.id });
    await engine.task.complete(first.id);
    const waiting = (await engine.runtime.getActivityInstanceTree(staying.id))!.childActivityInstances;
    expect(waiting.map((each) => each.activityId)).toEqual(['sub']);
    expect(waiting[0].childActivityInstances.map((each) => each.activityId).sort()).toEqual([second.taskDefinitionKey, 'join'].sort());
    await engine.task.complete(second.id);
    expect(await engine.runtime.getProcessInstance(staying.id)).toBeNull();
  });
});

/** An async-before task, at process level or inside a sub-process with an input mapping. */
const asyncTask = (inSub: boolean) => {
  const task = `<bpmn:userTask id="task" camunda:asyncBefore="true" />`;
  if (!inSub) return wrap('async', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}${task}${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />`);
  return wrap(
    'async',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
     <bpmn:subProcess id="sub"><bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter name="inner">in</camunda:inputParameter></camunda:inputOutput></bpmn:extensionElements>
       <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'task')}${task}${flow('s2', 'task', 'subEnd')}<bpmn:endEvent id="subEnd" />
     </bpmn:subProcess>${flow('f2', 'sub', 'end')}<bpmn:endEvent id="end" />`,
  );
};

/** Three parallel tasks a, b, c; with `nested`, a and b run in a sub-process beside c. */
const triple = (nested: boolean) =>
  wrap(
    'triple',
    nested
      ? `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />${flow('f1', 'fork', 'sub')}${flow('f2', 'fork', 'c')}
         <bpmn:subProcess id="sub"><bpmn:startEvent id="ss" />${flow('s0', 'ss', 'split')}<bpmn:parallelGateway id="split" />${flow('s1', 'split', 'a')}${flow('s2', 'split', 'b')}
           <bpmn:userTask id="a" />${flow('s3', 'a', 'merge')}<bpmn:userTask id="b" />${flow('s4', 'b', 'merge')}<bpmn:parallelGateway id="merge" />${flow('s5', 'merge', 'se')}<bpmn:endEvent id="se" />
         </bpmn:subProcess>${flow('f3', 'sub', 'join')}<bpmn:userTask id="c" />${flow('f4', 'c', 'join')}<bpmn:parallelGateway id="join" />${flow('f5', 'join', 'end')}<bpmn:endEvent id="end" />`
      : `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />${flow('f1', 'fork', 'a')}${flow('f2', 'fork', 'b')}${flow('f6', 'fork', 'c')}
         <bpmn:userTask id="a" />${flow('f3', 'a', 'join')}<bpmn:userTask id="b" />${flow('f7', 'b', 'join')}<bpmn:userTask id="c" />${flow('f4', 'c', 'join')}
         <bpmn:parallelGateway id="join" />${flow('f5', 'join', 'end')}<bpmn:endEvent id="end" />`,
  );

describe.each(testStoreConfigs())('migrating concurrent paths across scopes on $name', (testStore) => {
  it('wraps two of three concurrent tasks into a new sub-process, and unwraps them again', async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const [flatV, nestedV, flatAgain] = [await deploy(triple(false)), await deploy(triple(true)), await deploy(triple(false))];
    const started = await engine.runtime.startProcessInstanceById(flatV);
    const staying = await engine.runtime.startProcessInstanceById(flatV);
    const migrate = (source: string, target: string, ids: string[]) =>
      engine.migration.execute({ sourceProcessDefinitionId: source, targetProcessDefinitionId: target, instructions: ['a', 'b', 'c'].map((id) => instruction(id)), variables: null }, { processInstanceIds: ids });
    const children = async (id: string) => {
      const tree = (await engine.runtime.getActivityInstanceTree(id))!;
      return tree.childActivityInstances.map((each) => [each.activityId, each.childActivityInstances.map((child) => child.activityId).sort()]).sort();
    };

    await migrate(flatV, nestedV, [started.id, staying.id]);

    expect(await children(started.id)).toEqual([['c', []], ['sub', ['a', 'b']]]);

    await migrate(nestedV, flatAgain, [started.id]);

    expect(await children(started.id)).toEqual([['a', []], ['b', []], ['c', []]]);
    for (const id of [started.id, staying.id]) {
      for (const task of await engine.task.findTasks({ processInstanceId: id })) await engine.task.complete(task.id);
      expect(await engine.runtime.getProcessInstance(id)).toBeNull();
    }
  });
});

describe.each(testStoreConfigs())('removing a multi-instance marker on $name', (testStore) => {
  it('cancels the unmapped parallel body: its counters go, the instances keep loopCounter and run on', async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const review = (loop: string) =>
      wrap('mi', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}<bpmn:userTask id="review">${loop}</bpmn:userTask>${flow('f2', 'review', 'end')}<bpmn:endEvent id="end" />`);
    const v1 = await deploy(review('<bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>'));
    const v2 = await deploy(review(''));
    const started = await engine.runtime.startProcessInstanceById(v1);
    const innerIds = (await engine.runtime.getActivityInstanceTree(started.id))!.childActivityInstances[0].childActivityInstances.map((each) => each.id).sort();

    await engine.migration.execute(
      { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('review')], variables: null },
      { processInstanceIds: [started.id] },
    );

    const tree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(tree.childActivityInstances.map((each) => each.activityId)).toEqual(['review', 'review']);
    expect(tree.childActivityInstances.map((each) => each.id).sort()).toEqual(innerIds);
    const variables = await engine.variableInstance.findVariableInstances({ processInstanceIdIn: [started.id] });
    expect(variables.map((each) => [each.name, each.value.value]).sort()).toEqual([
      ['loopCounter', 0],
      ['loopCounter', 1],
    ]);
    const tasks = await engine.task.findTasks({ processInstanceId: started.id });
    expect(tasks.map((task) => task.processDefinitionId)).toEqual([v2, v2]);
    await engine.task.complete(tasks[0].id);
    expect(await engine.runtime.getProcessInstance(started.id)).not.toBeNull();
    await engine.task.complete(tasks[1].id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('cancels the unmapped sequential body: the running instance keeps loopCounter and its element', async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const review = (loop: string) =>
      wrap('mi', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}<bpmn:userTask id="review">${loop}</bpmn:userTask>${flow('f2', 'review', 'end')}<bpmn:endEvent id="end" />`);
    const v1 = await deploy(
      review('<bpmn:multiInstanceLoopCharacteristics isSequential="true" camunda:collection="${people}" camunda:elementVariable="person" />'),
    );
    const v2 = await deploy(review(''));
    const people = { type: 'json' as const, value: '["ann","bob"]', valueInfo: {} };
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { people } });
    const innerId = (await engine.runtime.getActivityInstanceTree(started.id))!.childActivityInstances[0].childActivityInstances[0].id;

    await engine.migration.execute(
      { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('review')], variables: null },
      { processInstanceIds: [started.id] },
    );

    const tree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(tree.childActivityInstances.map((each) => [each.activityId, each.id])).toEqual([['review', innerId]]);
    const variables = await variablesOf(engine, started.id);
    expect(Object.keys(variables).sort()).toEqual(['loopCounter', 'people', 'person']);
    expect(variables['person'].value.value).toBe('ann');
    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    await engine.task.complete(task.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });
});

describe.each(testStoreConfigs())('migrating waiting async continuations across scopes on $name', (testStore) => {
  it('moves a transition instance into a new sub-process and out again; its job follows', async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const [flatV, nestedV, flatAgain] = [await deploy(asyncTask(false)), await deploy(asyncTask(true)), await deploy(asyncTask(false))];
    const started = await engine.runtime.startProcessInstanceById(flatV);
    const migrateTask = (source: string, target: string) =>
      engine.migration.execute({ sourceProcessDefinitionId: source, targetProcessDefinitionId: target, instructions: [instruction('task')], variables: null }, { processInstanceIds: [started.id] });

    await migrateTask(flatV, nestedV);

    const nestedTree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(shape(nestedTree)).toEqual([nestedV, [['sub', []]]]);
    expect(nestedTree.childActivityInstances[0].childTransitionInstances.map((each) => each.activityId)).toEqual(['task']);
    expect((await variablesOf(engine, started.id))['inner']).toMatchObject({ activityInstanceId: nestedTree.childActivityInstances[0].id });

    await migrateTask(nestedV, flatAgain);

    const flatTree = (await engine.runtime.getActivityInstanceTree(started.id))!;
    expect(shape(flatTree)).toEqual([flatAgain, []]);
    expect(flatTree.childTransitionInstances.map((each) => each.activityId)).toEqual(['task']);
    expect(await variablesOf(engine, started.id)).toEqual({});
    const [job] = await engine.management.findJobs({ processInstanceId: started.id });
    expect(job.processDefinitionId).toBe(flatAgain);
    await engine.management.executeJob(job.id);
    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    await engine.task.complete(task.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });
});

describe.each(testStoreConfigs())('migration and tenants on $name', (testStore) => {
  async function setup() {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (tenantId: string | null) =>
      (await engine.deployment.deploy({ tenantId, resources: [{ name: 'm.bpmn', bytes: Buffer.from(flat) }] })).processDefinitions![0].id;
    return { engine, one: await deploy('one'), otherOne: await deploy('one'), two: await deploy('two'), shared: await deploy(null), sharedToo: await deploy(null) };
  }
  const planOf = (source: string, target: string) => ({
    sourceProcessDefinitionId: source,
    targetProcessDefinitionId: target,
    instructions: [instruction('task'), instruction('after')],
    variables: null,
  });

  it('refuses a plan between definitions of different tenants', async () => {
    const { engine, one, two, shared } = await setup();

    await expect(engine.migration.createPlan(planOf(one, two))).rejects.toThrow(
      "ENGINE-2309 Cannot migrate process instances between processes of different tenants ('one' != 'two')",
    );
    await expect(engine.migration.generate({ sourceProcessDefinitionId: one, targetProcessDefinitionId: two })).rejects.toMatchObject({ name: 'ProcessEngineException' });
    expect((await engine.migration.createPlan(planOf(one, shared))).targetProcessDefinitionId).toBe(shared);
    expect((await engine.migration.createPlan(planOf(shared, one))).sourceProcessDefinitionId).toBe(shared);
  });

  it('refuses an instance without tenant for a target of a tenant, and definitions of tenants the caller is not in', async () => {
    const { engine, one, otherOne, shared, sharedToo } = await setup();
    const untenanted = await engine.runtime.startProcessInstanceById(shared);
    const tenanted = await engine.runtime.startProcessInstanceById(one);

    await expect(engine.migration.execute(planOf(shared, one), { processInstanceIds: [untenanted.id] })).rejects.toThrow(
      `ENGINE-23010 Cannot migrate process instance '${untenanted.id}' without tenant to a process definition with a tenant ('one')`,
    );
    const asStranger = <T>(work: () => Promise<T>) => engine.runAs({ userId: 'kim', groupIds: [], tenantIds: ['two'] }, work);
    await expect(asStranger(() => engine.migration.execute(planOf(one, otherOne), { processInstanceIds: [tenanted.id] }))).rejects.toThrow(
      `ENGINE-13034 Cannot get process definition '${one}' because it belongs to no authenticated tenant.`,
    );
    const asMember = <T>(work: () => Promise<T>) => engine.runAs({ userId: 'kim', groupIds: [], tenantIds: ['one'] }, work);
    await asMember(() => engine.migration.execute(planOf(one, otherOne), { processInstanceIds: [tenanted.id] }));
    expect((await engine.runtime.getProcessInstance(tenanted.id))!.processDefinitionId).toBe(otherOne);
    await engine.migration.execute(planOf(shared, sharedToo), { processInstanceIds: [untenanted.id] });
    expect((await engine.runtime.getProcessInstance(untenanted.id))!.processDefinitionId).toBe(sharedToo);
  });
});
