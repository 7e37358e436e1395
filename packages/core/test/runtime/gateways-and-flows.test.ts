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
  const deploy = async (xml: string) => {
    engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
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
});
