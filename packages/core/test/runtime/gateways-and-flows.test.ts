import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });

describe.each(testStoreConfigs())('gateways and sequence flows on $name', (testStore) => {
  let engine: ProcessEngine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });
  const deploy = async (xml: string, options: { skipOutputMappingOnCanceledActivities?: boolean } = {}) => {
    engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), ...options });
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(xml) }] });
    return processDefinitions![0]!.id;
  };
  const keys = async (processInstanceId: string) => (await engine!.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey).sort();

  it('waits at an inclusive join for a path forked straight towards it', async () => {
    const definitionId = await deploy(
      wrap(
        'optional',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:inclusiveGateway id="fork" />
         ${flow('f1', 'fork', 'join', '${true}')}${flow('f2', 'fork', 'review', '${true}')}<bpmn:userTask id="review" />${flow('f3', 'review', 'join')}
         <bpmn:inclusiveGateway id="join" />${flow('f4', 'join', 'after')}<bpmn:userTask id="after" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    expect(await keys(id)).toEqual(['review']);
    const [review] = await engine!.task.findTasks({ processInstanceId: id });
    await engine!.task.complete(review!.id);
    expect(await keys(id)).toEqual(['after']);
  });

  it('activates an inclusive join once as many tokens as incoming flows arrived, whatever may still come (Camunda)', async () => {
    const definitionId = await deploy(
      wrap(
        'counted',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
         ${flow('f1', 'fork', 'x')}${flow('f2', 'fork', 'join')}${flow('f3', 'fork', 'slow')}<bpmn:userTask id="slow" />${flow('f4', 'slow', 'x')}
         <bpmn:task id="x" />${flow('f5', 'x', 'join')}<bpmn:inclusiveGateway id="join" />${flow('f6', 'join', 'after')}<bpmn:userTask id="after" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    // Two tokens for two incoming flows: the join fires although 'slow' can still reach it.
    expect(await keys(id)).toEqual(['after', 'slow']);
    const [slow] = await engine!.task.findTasks({ processInstanceId: id, taskDefinitionKey: 'slow' });
    await engine!.task.complete(slow!.id);
    expect(await keys(id)).toEqual(['after', 'after']);
  });

  it('does not wait at an inclusive join for a path that reaches it only through a boundary event (Camunda)', async () => {
    const definitionId = await deploy(
      wrap(
        'boundaryPath',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
         ${flow('f1', 'fork', 'join')}${flow('f2', 'fork', 'work')}<bpmn:userTask id="work" />${flow('f3', 'work', 'done')}<bpmn:endEvent id="done" />
         <bpmn:boundaryEvent id="late" attachedToRef="work"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
         ${flow('f4', 'late', 'join')}<bpmn:inclusiveGateway id="join" />${flow('f5', 'join', 'after')}<bpmn:userTask id="after" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    expect(await keys(id)).toEqual(['after', 'work']);
  });

  it("drops the joined paths' local variables at a parallel join, the last one's too (Camunda)", async () => {
    const local = (id: string) =>
      `<bpmn:task id="${id}"><bpmn:extensionElements><camunda:executionListener event="start" expression="\${execution.setVariableLocal('mine', '${id}')}" /></bpmn:extensionElements></bpmn:task>`;
    const definitionId = await deploy(
      wrap(
        'joinedLocals',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
         ${flow('f1', 'fork', 'a')}${local('a')}${flow('f2', 'a', 'join')}${flow('f3', 'fork', 'b')}${local('b')}${flow('f4', 'b', 'join')}
         <bpmn:parallelGateway id="join" />${flow('f5', 'join', 'after')}<bpmn:userTask id="after" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    expect(await keys(id)).toEqual(['after']);
    expect(await engine!.runtime.getVariables(id)).toEqual({});
    const [after] = await engine!.execution.findExecutions({ processInstanceId: id, activityId: 'after' });
    expect(await engine!.execution.getLocalVariables(after!.id)).toEqual({});
  });

  it('runs the paths of a fork one after the other, each as far as it goes, in the order of the flows (Camunda)', async () => {
    const logged = (id: string) =>
      `<bpmn:task id="${id}"><bpmn:extensionElements><camunda:executionListener event="start" expression="\${log.add('${id}')}" /></bpmn:extensionElements></bpmn:task>`;
    const definitionId = await deploy(
      wrap(
        'depthFirst',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
         ${flow('f1', 'fork', 'a1')}${logged('a1')}${flow('f2', 'a1', 'a2')}${logged('a2')}${flow('f3', 'a2', 'waitA')}<bpmn:userTask id="waitA" />
         ${flow('f4', 'fork', 'b1')}${logged('b1')}${flow('f5', 'b1', 'b2')}${logged('b2')}${flow('f6', 'b2', 'waitB')}<bpmn:userTask id="waitB" />`,
      ),
    );
    const log: string[] = [];
    engine!.delegates.registerBean('log', { add: (entry: string) => log.push(entry) });
    await engine!.runtime.startProcessInstanceById(definitionId);
    expect(log).toEqual(['a1', 'a2', 'b1', 'b2']);
  });

  it("refuses to leave an activity none of whose conditional flows holds (Camunda's ENGINE-02006)", async () => {
    const definitionId = await deploy(
      wrap(
        'conditional',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 't')}<bpmn:task id="t" />
         ${flow('f1', 't', 'one', '${x == 1}')}<bpmn:userTask id="one" />${flow('f2', 't', 'two', '${x == 2}')}<bpmn:userTask id="two" />`,
      ),
    );
    await expect(engine!.runtime.startProcessInstanceById(definitionId, { variables: { x: integer(3) } })).rejects.toThrow(
      "ENGINE-02006 No conditional sequence flow leaving the Flow Node 't' could be selected for continuing the process.",
    );
    expect(await engine!.runtime.findProcessInstances()).toEqual([]);
  });

  it('evaluates camunda:map keys and sorts them; runs a flow listener whatever its event', async () => {
    const taken: string[] = [];
    const definitionId = await deploy(
      wrap(
        'mapped',
        `<bpmn:startEvent id="start" />
         <bpmn:sequenceFlow id="f0" sourceRef="start" targetRef="t"><bpmn:extensionElements><camunda:executionListener event="start" expression="\${log.add('f0')}" /></bpmn:extensionElements></bpmn:sequenceFlow>
         <bpmn:task id="t"><bpmn:extensionElements><camunda:inputOutput><camunda:outputParameter name="m"><camunda:map>
           <camunda:entry key="zeta">1</camunda:entry><camunda:entry key="\${k}">2</camunda:entry><camunda:entry key="alpha">3</camunda:entry>
         </camunda:map></camunda:outputParameter></camunda:inputOutput></bpmn:extensionElements></bpmn:task>${flow('f1', 't', 'wait')}<bpmn:userTask id="wait" />`,
      ),
    );
    engine!.delegates.registerBean('log', { add: (id: string) => taken.push(id) });
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { k: { type: 'string', value: 'dyn', valueInfo: {} } } });
    expect(taken).toEqual(['f0']);
    const [m] = await engine!.variableInstance.findVariableInstances({ processInstanceIdIn: [id], variableName: 'm' });
    const value = (m!.value as { value: { serializedValue?: string } | string }).value;
    const text = typeof value === 'string' ? value : (value.serializedValue ?? '');
    expect(Object.keys(JSON.parse(text))).toEqual(['alpha', 'dyn', 'zeta']);
  });

  it("fails a condition that is no Boolean, or names an unknown variable, with Camunda's texts", async () => {
    const definitionId = await deploy(
      wrap(
        'conditions',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'g')}<bpmn:exclusiveGateway id="g" default="f2" />
         ${flow('f1', 'g', 'one', '${flag}')}<bpmn:userTask id="one" />${flow('f2', 'g', 'two')}<bpmn:userTask id="two" />`,
      ),
    );
    const startWith = (variables: Record<string, unknown>) => engine!.runtime.startProcessInstanceById(definitionId, { variables: variables as never });
    await expect(startWith({ flag: { type: 'string', value: 'yes', valueInfo: {} } })).rejects.toThrow(
      /^condition expression returns non-Boolean: result has class java.lang.String and not java.lang.Boolean$/,
    );
    await expect(startWith({ flag: { type: 'null', value: null, valueInfo: {} } })).rejects.toThrow(/^condition expression returns null: result is null$/);
    await expect(startWith({})).rejects.toThrow(/^Unknown property used in expression: \$\{flag\}. Cause: Cannot resolve identifier 'flag'$/);
  });

  it('refuses input/output mappings where Camunda does not support them', async () => {
    const io = (parameter: string) => `<bpmn:extensionElements><camunda:inputOutput>${parameter}</camunda:inputOutput></bpmn:extensionElements>`;
    const input = io('<camunda:inputParameter name="x">1</camunda:inputParameter>');
    const output = io('<camunda:outputParameter name="x">1</camunda:outputParameter>');
    engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    const refusal = async (body: string) => {
      const xml = wrap('io', body);
      const error = await engine!.deployment.deploy({ resources: [{ name: 'io.bpmn', bytes: Buffer.from(xml) }] }).catch((caught: Error) => caught);
      return error instanceof Error ? error.message : 'deployed';
    };
    const line = (start: string, middle: string, end = '<bpmn:endEvent id="end" />') => `${start}${flow('f1', 'start', 'm')}${middle}${flow('f2', 'm', 'end')}${end}`;
    expect(await refusal(line(`<bpmn:startEvent id="start">${input}</bpmn:startEvent>`, '<bpmn:task id="m" />'))).toContain("camunda:inputOutput mapping unsupported for element type 'startEvent'.");
    expect(await refusal(line('<bpmn:startEvent id="start" />', `<bpmn:exclusiveGateway id="m">${input}</bpmn:exclusiveGateway>`))).toContain(
      "camunda:inputOutput mapping unsupported for element type 'exclusiveGateway'.",
    );
    expect(await refusal(line('<bpmn:startEvent id="start" />', '<bpmn:task id="m" />', `<bpmn:endEvent id="end">${output}</bpmn:endEvent>`))).toContain(
      "camunda:outputParameter not allowed for element type 'endEvent'.",
    );
    expect(await refusal(line('<bpmn:startEvent id="start" />', `<bpmn:task id="m">${output}<bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:task>`))).toContain(
      'camunda:outputParameter not allowed for multi-instance constructs',
    );
    expect(await refusal(line('<bpmn:startEvent id="start" />', `<bpmn:task id="m">${output}</bpmn:task>`, `<bpmn:endEvent id="end">${input}</bpmn:endEvent>`))).toBe('deployed');
  });

  it('fires the end listeners of an end event, and sets each output parameter before the next is evaluated', async () => {
    const events: string[] = [];
    const definitionId = await deploy(
      wrap(
        'ending',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 't')}
         <bpmn:task id="t"><bpmn:extensionElements><camunda:inputOutput>
           <camunda:outputParameter name="a">\${1}</camunda:outputParameter><camunda:outputParameter name="b">\${a + 1}</camunda:outputParameter>
         </camunda:inputOutput></bpmn:extensionElements></bpmn:task>${flow('f1', 't', 'end')}
         <bpmn:endEvent id="end"><bpmn:extensionElements>
           <camunda:executionListener event="start" expression="\${log.add('start')}" /><camunda:executionListener event="end" expression="\${log.add('end')}" />
         </bpmn:extensionElements></bpmn:endEvent>`,
      ),
    );
    engine!.delegates.registerBean('log', { add: (event: string) => events.push(event) });
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    expect(events).toEqual(['start', 'end']);
    const variables = await engine!.history.variables.find({ processInstanceId: id });
    expect(Object.fromEntries(variables.map((each) => [each.name, (each.value as { value: unknown }).value]))).toEqual({ a: 1, b: 2 });
  });

  it("chooses an activity's outgoing flows before its end listeners and output mappings run (Camunda's performOutgoingBehavior)", async () => {
    const definitionId = await deploy(
      wrap(
        'choosing',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 't')}
         <bpmn:task id="t"><bpmn:extensionElements>
           <camunda:executionListener event="end" expression="\${execution.setVariable('y', 2)}" />
           <camunda:inputOutput><camunda:outputParameter name="x">\${2}</camunda:outputParameter></camunda:inputOutput>
         </bpmn:extensionElements></bpmn:task>
         ${flow('f1', 't', 'before', '${x == 1 && y == 1}')}<bpmn:userTask id="before" />${flow('f2', 't', 'after', '${x == 2 || y == 2}')}<bpmn:userTask id="after" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { x: integer(1), y: integer(1) } });
    expect(await keys(id)).toEqual(['before']);
    expect(await engine!.runtime.getVariables(id)).toMatchObject({ x: { value: 2 }, y: { value: 2 } });
  });

  it('runs the end listeners of a completing scope before its output mappings, which see what they set', async () => {
    const logged: unknown[] = [];
    const ending = (out: string) => `<bpmn:extensionElements>
         <camunda:executionListener event="end" expression="\${log.add(execution.getVariable('${out}'))}" />
         <camunda:executionListener event="end" expression="\${execution.setVariableLocal('late', 1)}" />
         <camunda:inputOutput><camunda:outputParameter name="${out}">\${late + 1}</camunda:outputParameter></camunda:inputOutput>
       </bpmn:extensionElements>`;
    const definitionId = await deploy(
      wrap(
        'destroying',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'sub')}
         <bpmn:subProcess id="sub">${ending('subOut')}<bpmn:startEvent id="inner" /></bpmn:subProcess>${flow('f1', 'sub', 't')}
         <bpmn:userTask id="t">${ending('taskOut')}</bpmn:userTask>
         <bpmn:boundaryEvent id="timer" attachedToRef="t"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>`,
      ),
    );
    engine!.delegates.registerBean('log', { add: (value: unknown) => logged.push(value) });
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    const [task] = await engine!.task.findTasks({ processInstanceId: id });
    await engine!.task.complete(task!.id);

    expect(logged).toEqual([null, null]);
    const variables = await engine!.history.variables.find({ processInstanceId: id });
    expect(Object.fromEntries(variables.filter((each) => each.name.endsWith('Out')).map((each) => [each.name, (each.value as { value: unknown }).value]))).toEqual({ subOut: 2, taskOut: 2 });
  });

  it("evaluates an activity's outgoing conditions on its scope, where its input mappings are visible", async () => {
    const definitionId = await deploy(
      wrap(
        'scoped',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 't')}
         <bpmn:task id="t" default="f2"><bpmn:extensionElements><camunda:inputOutput>
           <camunda:inputParameter name="local">\${5}</camunda:inputParameter>
         </camunda:inputOutput></bpmn:extensionElements></bpmn:task>
         ${flow('f1', 't', 'seen', '${local == 5}')}<bpmn:userTask id="seen" />${flow('f2', 't', 'unseen')}<bpmn:userTask id="unseen" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    expect(await keys(id)).toEqual(['seen']);
    expect(await engine!.runtime.getVariables(id)).not.toHaveProperty('local');
  });

  it('chooses the flows of an async-after activity before its job, and of a multi-instance body on the body', async () => {
    const definitionId = await deploy(
      wrap(
        'later',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 't')}
         <bpmn:task id="t" camunda:asyncAfter="true"><bpmn:extensionElements><camunda:inputOutput>
           <camunda:outputParameter name="x">\${2}</camunda:outputParameter>
         </camunda:inputOutput></bpmn:extensionElements></bpmn:task>
         ${flow('f1', 't', 'mi', '${x == 1}')}${flow('f2', 't', 'wrong', '${x == 2}')}<bpmn:userTask id="wrong" />
         <bpmn:task id="mi"><bpmn:multiInstanceLoopCharacteristics isSequential="true"><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:task>
         ${flow('f3', 'mi', 'counted', '${nrOfInstances == 2}')}<bpmn:userTask id="counted" />${flow('f4', 'mi', 'uncounted', '${execution.hasVariable("nrOfInstances") == false}')}<bpmn:userTask id="uncounted" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { x: integer(1) } });
    for (const job of await engine!.management.findJobs({ processInstanceId: id })) await engine!.management.executeJob(job.id);
    expect(await keys(id)).toEqual(['counted']);
  });

  describe('output mappings of a cancelled activity', () => {
    const waiting = (key: string, beside: string) =>
      wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />${flow('f1', 'fork', 'wait')}${flow('f2', 'fork', 'beside')}
         <bpmn:userTask id="wait"><bpmn:extensionElements>
           <camunda:executionListener event="end" expression="\${log.add(execution.getVariable('mapped'))}" />
           <camunda:inputOutput><camunda:outputParameter name="mapped">\${42}</camunda:outputParameter></camunda:inputOutput>
         </bpmn:extensionElements></bpmn:userTask>
         <bpmn:boundaryEvent id="catch" attachedToRef="wait"><bpmn:messageEventDefinition messageRef="m" /></bpmn:boundaryEvent>${flow('f3', 'catch', 'caught')}<bpmn:userTask id="caught" />
         ${beside}`,
        '<bpmn:message id="m" name="cancel" />',
      );
    const mappedOf = async (processInstanceId: string) =>
      (await engine!.history.variables.find({ processInstanceId })).filter((each) => each.name === 'mapped').map((each) => (each.value as { value: unknown }).value);
    const start = async (beside: string, options: { skipOutputMappingOnCanceledActivities?: boolean } = {}) => {
      const logged: unknown[] = [];
      const definitionId = await deploy(waiting('cancelling', beside), options);
      engine!.delegates.registerBean('log', { add: (value: unknown) => logged.push(value) });
      const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
      return { id, logged, definitionId };
    };

    it('run after its end listeners when an interrupting boundary event fires', async () => {
      const { id, logged } = await start('<bpmn:userTask id="beside" />');
      await engine!.message.correlate({ messageName: 'cancel', processInstanceId: id });
      expect(await keys(id)).toEqual(['beside', 'caught']);
      expect(logged).toEqual([null]);
      expect(await engine!.runtime.getVariables(id)).toMatchObject({ mapped: { value: 42 } });
    });

    it('run when a terminate end event ends the instance', async () => {
      const { id, logged } = await start('<bpmn:endEvent id="beside"><bpmn:terminateEventDefinition /></bpmn:endEvent>');
      expect(await engine!.runtime.findProcessInstances()).toEqual([]);
      expect(logged).toEqual([null]);
      expect(await mappedOf(id)).toEqual([42]);
    });

    it('run when a modification cancels the activity, unless it skips io mappings', async () => {
      const { id } = await start('<bpmn:userTask id="beside" />');
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'startBeforeActivity', activityId: 'wait' }]);
      const [first, second] = (await engine!.runtime.getActivityInstanceTree(id))!.childActivityInstances.filter((each) => each.activityId === 'wait');
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'cancel', activityInstanceId: first!.id }], { skipIoMappings: true });
      expect(await engine!.runtime.getVariables(id)).not.toHaveProperty('mapped');
      await engine!.runtime.modifyProcessInstance(id, [{ type: 'cancel', activityInstanceId: second!.id }]);
      expect(await engine!.runtime.getVariables(id)).toMatchObject({ mapped: { value: 42 } });
    });

    it('run when the instance is deleted, unless the deletion skips io mappings', async () => {
      const { id: kept, definitionId } = await start('<bpmn:userTask id="beside" />');
      await engine!.runtime.deleteProcessInstance(kept);
      expect(await mappedOf(kept)).toEqual([42]);
      const { id: skipped } = await engine!.runtime.startProcessInstanceById(definitionId);
      await engine!.runtime.deleteProcessInstance(skipped, { skipIoMappings: true });
      expect(await mappedOf(skipped)).toEqual([]);
    });

    it("are left out with the engine's skipOutputMappingOnCanceledActivities, but not when the activity completes", async () => {
      const { id: cancelled, logged, definitionId } = await start('<bpmn:userTask id="beside" />', { skipOutputMappingOnCanceledActivities: true });
      await engine!.message.correlate({ messageName: 'cancel', processInstanceId: cancelled });
      expect(logged).toEqual([null]);
      expect(await mappedOf(cancelled)).toEqual([]);

      const { id: completed } = await engine!.runtime.startProcessInstanceById(definitionId);
      const [wait] = await engine!.task.findTasks({ processInstanceId: completed, taskDefinitionKey: 'wait' });
      await engine!.task.complete(wait!.id);
      expect(await mappedOf(completed)).toEqual([42]);
    });
  });
});
