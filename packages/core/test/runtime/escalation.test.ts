import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

const ESCALATIONS = '<bpmn:escalation id="late" escalationCode="LATE" /><bpmn:escalation id="other" escalationCode="OTHER" />';

/** A sub-process that throws LATE and then waits at `inside`; `catcher` is the boundary event on it. */
const subProcessThrowing = (key: string, catcher: string, throwEvent = '<bpmn:intermediateThrowEvent id="raise"><bpmn:escalationEventDefinition escalationRef="late" /></bpmn:intermediateThrowEvent>') =>
  wrap(
    key,
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
     <bpmn:subProcess id="sub">
       <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'raise')}${throwEvent}${flow('s2', 'raise', 'inside')}
       <bpmn:userTask id="inside" />${flow('s3', 'inside', 'subEnd')}<bpmn:endEvent id="subEnd" />
     </bpmn:subProcess>
     ${flow('f2', 'sub', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />
     ${catcher}${flow('f4', 'caught', 'handle')}<bpmn:userTask id="handle" />${flow('f5', 'handle', 'handled')}<bpmn:endEvent id="handled" />`,
    ESCALATIONS,
  );

const boundary = (cancelActivity: boolean, escalationRef = 'late') =>
  `<bpmn:boundaryEvent id="caught" attachedToRef="sub" cancelActivity="${cancelActivity}">
     <bpmn:escalationEventDefinition escalationRef="${escalationRef}" camunda:escalationCodeVariable="code" />
   </bpmn:boundaryEvent>`;

/** The process instance execution itself throws; a non-interrupting event sub-process catches every escalation. */
const EVENT_SUB_PROCESS = wrap(
  'escalationSub',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'raise')}
   <bpmn:intermediateThrowEvent id="raise"><bpmn:escalationEventDefinition escalationRef="late" /></bpmn:intermediateThrowEvent>
   ${flow('f2', 'raise', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />
   <bpmn:subProcess id="onEscalation" triggeredByEvent="true">
     <bpmn:startEvent id="caught" isInterrupting="false"><bpmn:escalationEventDefinition camunda:escalationCodeVariable="code" /></bpmn:startEvent>
     ${flow('e1', 'caught', 'handle')}<bpmn:userTask id="handle" />${flow('e2', 'handle', 'handled')}<bpmn:endEvent id="handled" />
   </bpmn:subProcess>`,
  ESCALATIONS,
);

/** A called process that sets a variable, throws LATE from an end event of a parallel branch, and waits at `working`. */
const CALLED = wrap(
  'escalating',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
   ${flow('f2', 'fork', 'working')}<bpmn:userTask id="working" />${flow('f3', 'working', 'end')}<bpmn:endEvent id="end" />
   ${flow('f4', 'fork', 'note')}
   <bpmn:task id="note"><bpmn:extensionElements><camunda:executionListener event="start" expression="\${execution.setVariable('reason', 'traffic')}" /></bpmn:extensionElements></bpmn:task>
   ${flow('f5', 'note', 'raise')}<bpmn:endEvent id="raise"><bpmn:escalationEventDefinition escalationRef="late" /></bpmn:endEvent>`,
  ESCALATIONS,
);
const caller = (cancelActivity: boolean) =>
  wrap(
    'caller',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
     <bpmn:callActivity id="call" calledElement="escalating"><bpmn:extensionElements><camunda:out source="reason" target="reason" /></bpmn:extensionElements></bpmn:callActivity>
     ${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />
     <bpmn:boundaryEvent id="caught" attachedToRef="call" cancelActivity="${cancelActivity}"><bpmn:escalationEventDefinition escalationRef="late" /></bpmn:boundaryEvent>
     ${flow('f3', 'caught', 'handle')}<bpmn:userTask id="handle" />${flow('f4', 'handle', 'handled')}<bpmn:endEvent id="handled" />`,
    ESCALATIONS,
  );

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

describe.each(testStoreConfigs())('escalation events on $name', (testStore) => {
  async function started(key: string, ...xmls: string[]) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    for (const [i, xml] of xmls.entries()) await engine.deployment.deploy({ resources: [{ name: `m${i}.bpmn`, bytes: Buffer.from(xml) }] });
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    return { engine, instance };
  }
  const tasksOf = async (engine: ProcessEngine, processInstanceId?: string) =>
    (await engine.task.findTasks(processInstanceId ? { processInstanceId } : {})).map((task) => task.taskDefinitionKey).sort();

  it('fires a non-interrupting boundary event and goes on past the throw event', async () => {
    const { engine, instance } = await started('nonInterrupting', subProcessThrowing('nonInterrupting', boundary(false)));

    expect(await tasksOf(engine, instance.id)).toEqual(['handle', 'inside']);
    expect((await engine.runtime.getVariables(instance.id)).code).toMatchObject({ value: 'LATE' });
    const activities = await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'raise' });
    expect(activities).toMatchObject([{ activityType: 'intermediateEscalationThrowEvent', canceled: false }]);
    expect(activities[0].endTime).not.toBeNull();
  });

  it('cancels the sub-process for an interrupting boundary event, the throw event with it', async () => {
    const { engine, instance } = await started('interrupting', subProcessThrowing('interrupting', boundary(true)));

    expect(await tasksOf(engine, instance.id)).toEqual(['handle']);
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'sub' })).toMatchObject([{ canceled: true }]);
  });

  it('goes on as if nothing happened when no event catches the code, ending at an escalation end event', async () => {
    const endEvent = '<bpmn:endEvent id="raise"><bpmn:escalationEventDefinition escalationRef="late" /></bpmn:endEvent>';
    const { engine, instance } = await started('uncaught', subProcessThrowing('uncaught', boundary(true, 'other'), endEvent).replace(flow('s2', 'raise', 'inside'), ''));

    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'raise' })).toMatchObject([
      { activityType: 'escalationEndEvent', canceled: false },
    ]);
  });

  it('starts a non-interrupting event sub-process when the process instance execution itself throws', async () => {
    const { engine, instance } = await started('escalationSub', EVENT_SUB_PROCESS);

    expect(await tasksOf(engine, instance.id)).toEqual(['after', 'handle']);
    expect((await engine.runtime.getVariables(instance.id)).code).toMatchObject({ value: 'LATE' });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    expect(tree!.childActivityInstances.map((child) => child.activityId).sort()).toEqual(['after', 'onEscalation']);
  });

  it('hands an uncaught escalation to the call activity with its out variables; a non-interrupting boundary event leaves the called instance running', async () => {
    const { engine, instance } = await started('caller', CALLED, caller(false));
    const [called] = await engine.runtime.findProcessInstances({ processDefinitionKey: 'escalating' });

    expect(await tasksOf(engine, instance.id)).toEqual(['handle']);
    expect(await tasksOf(engine, called.id)).toEqual(['working']);
    expect((await engine.runtime.getVariables(instance.id)).reason).toMatchObject({ value: 'traffic' });
  });

  it('cancels the called instance when an interrupting boundary event of the call activity catches its escalation', async () => {
    const { engine, instance } = await started('caller', CALLED, caller(true));

    expect(await tasksOf(engine)).toEqual(['handle']);
    expect(await engine.runtime.findProcessInstances({ processDefinitionKey: 'escalating' })).toEqual([]);
    expect(await engine.runtime.countProcessInstances()).toBe(1);
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'call' })).toMatchObject([{ canceled: true }]);
  });
});
