import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { FixedClock } from '../../src/clock.js';
import { BpmnError } from '../../src/runtime/bpmn-error.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

// One model with every element the runtime executes, run from start to end.
const boundaryTimer = (id: string, attachedTo: string, text: string, kind: 'timeDuration' | 'timeCycle', interrupting = true) =>
  `<bpmn:boundaryEvent id="${id}" attachedToRef="${attachedTo}" cancelActivity="${interrupting}"><bpmn:timerEventDefinition><bpmn:${kind}>${text}</bpmn:${kind}></bpmn:timerEventDefinition></bpmn:boundaryEvent>`;

const EVERYTHING = wrap(
  'everything',
  `<bpmn:startEvent id="start">
     <bpmn:extensionElements><camunda:executionListener event="start" expression="\${execution.setVariable('listened', 1)}" /></bpmn:extensionElements>
   </bpmn:startEvent>
   ${flow('f1', 'start', 'prep')}
   <bpmn:task id="prep" camunda:asyncBefore="true" camunda:asyncAfter="true" />${flow('f2', 'prep', 'score')}
   <bpmn:scriptTask id="score" scriptFormat="javascript" camunda:resultVariable="score"><bpmn:script>base * 2</bpmn:script></bpmn:scriptTask>
   ${flow('f3', 'score', 'route')}
   <bpmn:exclusiveGateway id="route" default="toEnd" />
   ${flow('toFork', 'route', 'fork', '${score &gt; 5}')}${flow('toEnd', 'route', 'skipped')}
   <bpmn:endEvent id="skipped"><bpmn:terminateEventDefinition /></bpmn:endEvent>
   <bpmn:parallelGateway id="fork" />${flow('fa', 'fork', 'sub')}${flow('fb', 'fork', 'incl')}

   <bpmn:subProcess id="sub">
     <bpmn:extensionElements><camunda:inputOutput>
       <camunda:inputParameter name="limit">\${score * 10}</camunda:inputParameter>
       <camunda:outputParameter name="approvedLimit">\${limit}</camunda:outputParameter>
     </camunda:inputOutput></bpmn:extensionElements>
     <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'approve')}
     <bpmn:userTask id="approve" camunda:assignee="\${owner}" />${flow('s2', 'approve', 'subEnd')}
     ${boundaryTimer('remind', 'approve', 'R2/PT1H', 'timeCycle', false)}${flow('s3', 'remind', 'reminded')}
     <bpmn:manualTask id="reminded" />${flow('s4', 'reminded', 'remindEnd')}<bpmn:endEvent id="remindEnd" />
     <bpmn:endEvent id="subEnd" />
   </bpmn:subProcess>
   ${flow('fa2', 'sub', 'join')}
   <bpmn:boundaryEvent id="subFailed" attachedToRef="sub"><bpmn:errorEventDefinition errorRef="e_fatal" /></bpmn:boundaryEvent>
   ${flow('fa3', 'subFailed', 'failedEnd')}<bpmn:endEvent id="failedEnd" />

   <bpmn:inclusiveGateway id="incl" />
   ${flow('i1', 'incl', 'ext', '${true}')}${flow('i2', 'incl', 'never', '${false}')}
   <bpmn:serviceTask id="ext" camunda:type="external" camunda:topic="work" />${flow('i3', 'ext', 'inclJoin')}
   <bpmn:task id="never" />${flow('i4', 'never', 'inclJoin')}
   <bpmn:inclusiveGateway id="inclJoin" />${flow('i5', 'inclJoin', 'race')}
   <bpmn:eventBasedGateway id="race" />${flow('r1', 'race', 'reply')}${flow('r2', 'race', 'timeout')}
   <bpmn:intermediateCatchEvent id="reply"><bpmn:messageEventDefinition messageRef="m_reply" /></bpmn:intermediateCatchEvent>
   <bpmn:intermediateCatchEvent id="timeout"><bpmn:timerEventDefinition><bpmn:timeDuration>P1D</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
   ${flow('r3', 'reply', 'go')}${flow('r4', 'timeout', 'go')}
   <bpmn:intermediateCatchEvent id="go"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:intermediateCatchEvent>
   ${flow('g1', 'go', 'ready')}
   <bpmn:intermediateCatchEvent id="ready"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">\${ready == true}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:intermediateCatchEvent>
   ${flow('g2', 'ready', 'call')}
   <bpmn:callActivity id="call" calledElement="child">
     <bpmn:extensionElements><camunda:in variables="all" /><camunda:out source="total" target="total" /></bpmn:extensionElements>
   </bpmn:callActivity>
   ${flow('g3', 'call', 'vote')}
   <bpmn:boundaryEvent id="childFailed" attachedToRef="call"><bpmn:errorEventDefinition errorRef="e_child" camunda:errorCodeVariable="childError" /></bpmn:boundaryEvent>
   ${flow('g4', 'childFailed', 'vote')}
   <bpmn:userTask id="vote" camunda:assignee="\${voter}">
     <bpmn:multiInstanceLoopCharacteristics camunda:collection="voters" camunda:elementVariable="voter" />
   </bpmn:userTask>
   ${flow('g5', 'vote', 'tally')}
   <bpmn:serviceTask id="tally" camunda:class="com.example.Tally">
     <bpmn:multiInstanceLoopCharacteristics isSequential="true"><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>
   </bpmn:serviceTask>
   ${flow('g6', 'tally', 'notify')}
   <bpmn:sendTask id="notify" camunda:expression="\${mailer.send(owner)}" camunda:resultVariable="mailed" />${flow('g7', 'notify', 'check')}
   <bpmn:businessRuleTask id="check" camunda:delegateExpression="\${checker}" />${flow('g8', 'check', 'ack')}
   <bpmn:boundaryEvent id="checkRejected" attachedToRef="check"><bpmn:errorEventDefinition errorRef="e_reject" /></bpmn:boundaryEvent>
   ${flow('g9', 'checkRejected', 'ack')}
   <bpmn:receiveTask id="ack" messageRef="m_ack" />${flow('g10', 'ack', 'join')}

   <bpmn:parallelGateway id="join" />${flow('j1', 'join', 'announce')}
   <bpmn:intermediateThrowEvent id="announce"><bpmn:signalEventDefinition signalRef="s_done" /></bpmn:intermediateThrowEvent>
   ${flow('j2', 'announce', 'mark')}<bpmn:intermediateThrowEvent id="mark" />
   <bpmn:sequenceFlow id="j3" sourceRef="mark" targetRef="done">
     <bpmn:extensionElements><camunda:executionListener event="take" expression="\${execution.setVariable('took', true)}" /></bpmn:extensionElements>
   </bpmn:sequenceFlow>
   <bpmn:endEvent id="done"><bpmn:messageEventDefinition messageRef="m_done" camunda:expression="\${mailer.send('done')}" /></bpmn:endEvent>

   <bpmn:subProcess id="onFatal" triggeredByEvent="true">
     <bpmn:startEvent id="fatalStart"><bpmn:errorEventDefinition errorRef="e_fatal" /></bpmn:startEvent>
     ${flow('x1', 'fatalStart', 'fatalEnd')}<bpmn:endEvent id="fatalEnd" />
   </bpmn:subProcess>
   <bpmn:subProcess id="onPing" triggeredByEvent="true">
     <bpmn:startEvent id="pingStart" isInterrupting="false"><bpmn:messageEventDefinition messageRef="m_ping" /></bpmn:startEvent>
     ${flow('p1', 'pingStart', 'pinged')}<bpmn:task id="pinged" />${flow('p2', 'pinged', 'pingEnd')}<bpmn:endEvent id="pingEnd" />
   </bpmn:subProcess>`,
  `<bpmn:message id="m_reply" name="reply" /><bpmn:message id="m_ack" name="ack" /><bpmn:message id="m_done" name="done" /><bpmn:message id="m_ping" name="ping" />
   <bpmn:signal id="s_go" name="go" /><bpmn:signal id="s_done" name="everythingDone" />
   <bpmn:error id="e_fatal" errorCode="FATAL" /><bpmn:error id="e_child" errorCode="CHILD" /><bpmn:error id="e_reject" errorCode="REJECT" />`,
);

const CHILD = wrap(
  'child',
  `<bpmn:startEvent id="start" />${flow('c1', 'start', 'decide')}
   <bpmn:exclusiveGateway id="decide" default="ok" />
   ${flow('bad', 'decide', 'fail', '${failChild}')}${flow('ok', 'decide', 'compute')}
   <bpmn:endEvent id="fail"><bpmn:errorEventDefinition errorRef="e_child" /></bpmn:endEvent>
   <bpmn:task id="compute">
     <bpmn:extensionElements><camunda:executionListener event="end" expression="\${execution.setVariable('total', score + 1)}" /></bpmn:extensionElements>
   </bpmn:task>
   ${flow('c2', 'compute', 'end')}<bpmn:endEvent id="end" />`,
  '<bpmn:error id="e_child" errorCode="CHILD" />',
);

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });
const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const boolean = (value: boolean) => ({ type: 'boolean' as const, value, valueInfo: {} });
const HOUR = 3_600_000;

describe.each(testStoreConfigs())('one model with every element on $name', (testStore) => {
  it.each([false, true])('runs from start to end (the called process fails: %s)', async (failChild) => {
    const engine = (await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), scripting: { enabled: true } })) as ProcessEngine & {
      clock: FixedClock;
    };
    engines.push(engine);
    const mails: string[] = [];
    let tallies = 0;
    engine.delegates
      .registerClass('com.example.Tally', () => void tallies++)
      .registerBean('mailer', { send: (to: string) => mails.push(to) && 'sent' })
      .registerBean('checker', { execute: () => { throw new BpmnError('REJECT'); } });
    const { processDefinitions } = await engine.deployment.deploy({
      resources: [{ name: 'everything.bpmn', bytes: Buffer.from(EVERYTHING) }, { name: 'child.bpmn', bytes: Buffer.from(CHILD) }],
    });
    const definitionId = processDefinitions!.find((definition) => definition.key === 'everything')!.id;
    const keys = async () => (await engine.task.findTasks({ processInstanceId: instance.id })).map((task) => task.taskDefinitionKey).sort();

    const instance = await engine.runtime.startProcessInstanceById(definitionId, {
      variables: { base: integer(4), owner: string('mary'), voters: { type: 'json', value: '["ann","bob"]', valueInfo: {} }, failChild: boolean(failChild) },
    });
    await engine.jobExecutor.runDueJobs(); // async before, then async after 'prep'
    expect(await keys()).toEqual(['approve']);
    expect((await engine.task.findTasks({ processInstanceId: instance.id }))[0].assignee).toBe('mary');

    engine.clock.advance(HOUR + 1); // the reminder cycle fires once, the approval stays
    await engine.jobExecutor.runDueJobs();
    await engine.message.correlate({ messageName: 'ping', processInstanceId: instance.id }); // non-interrupting event sub-process
    const [work] = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 1, topics: [{ topicName: 'work', lockDuration: 1000 }] });
    await engine.externalTask.complete(work.id, 'w');
    await engine.message.correlate({ messageName: 'reply', processInstanceId: instance.id });
    await engine.message.signal({ name: 'go' });
    await engine.runtime.modifyVariables(instance.id, { ready: boolean(true) });
    expect(await keys()).toEqual(['approve', 'vote', 'vote']);
    const midway = await engine.runtime.getVariables(instance.id);
    expect(midway).toMatchObject({ listened: { value: 1 }, score: { value: 8 } });
    if (failChild) expect(midway.childError).toMatchObject({ value: 'CHILD' });
    else expect(midway.total).toMatchObject({ value: 9 });
    const reminders = await engine.management.findJobs({ processInstanceId: instance.id, timers: true });
    expect(reminders).toHaveLength(1); // R2: one firing left

    for (const task of await engine.task.findTasks({ processInstanceId: instance.id })) await engine.task.complete(task.id);
    await engine.message.correlate({ messageName: 'ack', processInstanceId: instance.id });

    const variables = await engine.runtime.getVariables(instance.id).catch(() => null);
    expect(variables).toBeNull(); // the instance ended
    expect(await engine.runtime.countProcessInstances()).toBe(0);
    expect(tallies).toBe(2);
    expect(mails).toEqual(['mary', 'done']);
    expect(await engine.management.findJobs()).toEqual([]);
    expect(await engine.management.findEventSubscriptions({ startEvents: false })).toEqual([]);
  });
});
