import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { FixedClock } from '../../src/clock.js';
import { BpmnError } from '../../src/runtime/bpmn-error.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

const SIGNALS = wrap(
  'signals',
  `<bpmn:startEvent id="start"><bpmn:signalEventDefinition signalRef="s_alarm" /></bpmn:startEvent>
   ${flow('f1', 'start', 'watch')}<bpmn:userTask id="watch" />${flow('f2', 'watch', 'end')}<bpmn:endEvent id="end" />
   <bpmn:boundaryEvent id="stop" attachedToRef="watch"><bpmn:signalEventDefinition signalRef="s_stop" /></bpmn:boundaryEvent>
   ${flow('f3', 'stop', 'stopped')}<bpmn:endEvent id="stopped" />`,
  '<bpmn:signal id="s_alarm" name="alarm" /><bpmn:signal id="s_stop" name="stop" />',
);

const ERROR_EVENT_SUB = wrap(
  'errorSub',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}
   <bpmn:parallelGateway id="fork" />${flow('f2', 'fork', 'wait')}${flow('f3', 'fork', 'fail')}
   <bpmn:userTask id="wait" />${flow('f4', 'wait', 'end')}<bpmn:endEvent id="end" />
   <bpmn:endEvent id="fail"><bpmn:errorEventDefinition errorRef="e" /></bpmn:endEvent>
   <bpmn:subProcess id="handler" triggeredByEvent="true">
     <bpmn:startEvent id="caught"><bpmn:errorEventDefinition errorRef="e" camunda:errorCodeVariable="code" /></bpmn:startEvent>
     ${flow('h1', 'caught', 'repair')}<bpmn:userTask id="repair" />${flow('h2', 'repair', 'handled')}<bpmn:endEvent id="handled" />
   </bpmn:subProcess>`,
  '<bpmn:error id="e" errorCode="BROKEN" />',
);

const CYCLE = wrap(
  'cycle',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />
   <bpmn:boundaryEvent id="nag" attachedToRef="work" cancelActivity="false"><bpmn:timerEventDefinition><bpmn:timeCycle>R3/PT10M</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:boundaryEvent>
   ${flow('f3', 'nag', 'nagged')}<bpmn:userTask id="nagged" />${flow('f4', 'nagged', 'nagEnd')}<bpmn:endEvent id="nagEnd" />
   <bpmn:intermediateCatchEvent id="unused"><bpmn:timerEventDefinition><bpmn:timeDate>2026-01-16T00:00:00Z</bpmn:timeDate></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>`,
);

const VERSIONED_CALLER = wrap(
  'versionedCaller',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
   <bpmn:callActivity id="call" calledElement="callee" camunda:calledElementBinding="version" camunda:calledElementVersion="1">
     <bpmn:extensionElements><camunda:in variables="all" /><camunda:out variables="all" /></bpmn:extensionElements>
   </bpmn:callActivity>
   ${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);
const callee = (label: string) =>
  wrap(
    'callee',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'mark')}
     <bpmn:task id="mark"><bpmn:extensionElements><camunda:executionListener event="start" expression="\${execution.setVariable('version', '${label}')}" /></bpmn:extensionElements></bpmn:task>
     ${flow('f2', 'mark', 'end')}<bpmn:endEvent id="end" />`,
  );

const FAILING_CHILD = wrap(
  'failingChild',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'charge')}
   <bpmn:serviceTask id="charge" camunda:asyncBefore="true" camunda:class="com.example.Missing" />${flow('f2', 'charge', 'end')}<bpmn:endEvent id="end" />`,
);
const WAITING_CHILD = wrap('waitingChild', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'ct')}<bpmn:userTask id="ct" />${flow('f2', 'ct', 'end')}<bpmn:endEvent id="end" />`);
/** Calls `calledElement`, then waits at the user task `after`. */
const callerOf = (key: string, calledElement: string) =>
  wrap(
    key,
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}<bpmn:callActivity id="call" calledElement="${calledElement}" />
     ${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
  );
const CALLER_AFTER = callerOf('callerAfter', 'waitingChild');
const CALLER_PARALLEL = wrap(
  'callerParallel',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
   ${flow('f2', 'fork', 'call')}<bpmn:callActivity id="call" calledElement="waitingChild" />${flow('f3', 'call', 'after')}<bpmn:userTask id="after" />
   ${flow('f4', 'after', 'end1')}<bpmn:endEvent id="end1" />
   ${flow('f5', 'fork', 'other')}<bpmn:userTask id="other" />${flow('f6', 'other', 'end2')}<bpmn:endEvent id="end2" />`,
);
const GRANDPARENT = callerOf('grandparent', 'callerAfter');
/** A timer due at once whose firing fails on the way on (the waiting execution is the instance's own). */
const FAILING_TIMER = wrap(
  'failingTimer',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'tick')}
   <bpmn:intermediateCatchEvent id="tick"><bpmn:timerEventDefinition><bpmn:timeDate>2020-01-01T00:00:00Z</bpmn:timeDate></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
   ${flow('f2', 'tick', 'charge')}<bpmn:serviceTask id="charge" camunda:class="com.example.Missing" />${flow('f3', 'charge', 'end')}<bpmn:endEvent id="end" />
   <bpmn:userTask id="other" />`,
);
/** Timers whose expressions give a Date: a duration, and a non-interrupting (repeating) cycle. */
const DATED_TIMERS = wrap(
  'datedTimers',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'delay')}
   <bpmn:intermediateCatchEvent id="delay"><bpmn:timerEventDefinition><bpmn:timeDuration>\${when}</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
   ${flow('f2', 'delay', 'wait')}<bpmn:userTask id="wait" />${flow('f3', 'wait', 'end')}<bpmn:endEvent id="end" />
   <bpmn:boundaryEvent id="nag" attachedToRef="wait" cancelActivity="false"><bpmn:timerEventDefinition><bpmn:timeCycle>\${when}</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:boundaryEvent>
   ${flow('f4', 'nag', 'nagEnd')}<bpmn:endEvent id="nagEnd" />`,
);
/** An asynchronous task that succeeds, then one that fails in the same job. */
const FAILING_AFTER_ASYNC = wrap(
  'failingAfterAsync',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'prepare')}<bpmn:serviceTask id="prepare" camunda:asyncBefore="true" camunda:expression="\${true}" />
   ${flow('f2', 'prepare', 'charge')}<bpmn:serviceTask id="charge" camunda:class="com.example.Missing" />${flow('f3', 'charge', 'end')}<bpmn:endEvent id="end" />`,
);
const CONDITIONAL_SUB_PROCESS = `<bpmn:subProcess id="esp" triggeredByEvent="true">
  <bpmn:startEvent id="es" isInterrupting="false"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">\${y == 1}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:startEvent>
  ${flow('e1', 'es', 'inEsp')}<bpmn:userTask id="inEsp" /></bpmn:subProcess>`;
const SETS_Y = `<bpmn:serviceTask id="setter" camunda:expression="\${execution.setVariable('y', 1)}" />`;
const CONDITION_AT_START = wrap(
  'conditionAtStart',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'c')}
   <bpmn:intermediateCatchEvent id="c"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">\${x == 1}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:intermediateCatchEvent>
   ${flow('f2', 'c', 'after')}<bpmn:userTask id="after" />${CONDITIONAL_SUB_PROCESS}`,
);
const CONDITION_MID_RUN = wrap(
  'conditionMidRun',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'first')}<bpmn:userTask id="first" />${flow('f2', 'first', 'setter')}${SETS_Y}
   ${flow('f3', 'setter', 'after')}<bpmn:userTask id="after" />${CONDITIONAL_SUB_PROCESS}`,
);
const CONDITION_THEN_TERMINATE = wrap(
  'conditionThenTerminate',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'setter')}${SETS_Y}${flow('f2', 'setter', 'end')}<bpmn:endEvent id="end"><bpmn:terminateEventDefinition /></bpmn:endEvent>${CONDITIONAL_SUB_PROCESS}`,
);
const CONDITION_THEN_END = wrap('conditionThenEnd', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'setter')}${SETS_Y}${flow('f2', 'setter', 'end')}<bpmn:endEvent id="end" />${CONDITIONAL_SUB_PROCESS}`);
const PARENT = wrap(
  'parent',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}<bpmn:callActivity id="call" calledElement="failingChild" />${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`,
);

// A loop drawn with link events: review, and back to it through link 'again' until approved.
const LINKS = wrap(
  'links',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'again')}
   <bpmn:intermediateCatchEvent id="again" name="again"><bpmn:linkEventDefinition name="again" /></bpmn:intermediateCatchEvent>
   ${flow('f2', 'again', 'review')}<bpmn:userTask id="review" />${flow('f3', 'review', 'decide')}
   <bpmn:exclusiveGateway id="decide" default="f5" />
   ${flow('f4', 'decide', 'done', '\${approved}')}
   ${flow('f5', 'decide', 'back')}
   <bpmn:intermediateThrowEvent id="back" name="again"><bpmn:linkEventDefinition name="again" /></bpmn:intermediateThrowEvent>
   <bpmn:endEvent id="done" />`,
);

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

describe.each(testStoreConfigs())('more events on $name', (testStore) => {
  async function engineWith(...xmls: string[]) {
    const engine = (await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) })) as ProcessEngine & { clock: FixedClock };
    engines.push(engine);
    for (const [i, xml] of xmls.entries()) await engine.deployment.deploy({ resources: [{ name: `m${i}.bpmn`, bytes: Buffer.from(xml) }] });
    return engine;
  }
  const keys = async (engine: ProcessEngine, id: string) => (await engine.task.findTasks({ processInstanceId: id })).map((task) => task.taskDefinitionKey).sort();

  it('starts instances with a signal start event and stops them with a signal boundary event', async () => {
    const engine = await engineWith(SIGNALS);

    await engine.message.signal({ name: 'alarm', variables: { level: { type: 'integer', value: 3, valueInfo: {} } } });
    await engine.message.signal({ name: 'alarm' });
    const instances = await engine.runtime.findProcessInstances();
    const levels = await Promise.all(instances.map(async (instance) => (await engine.runtime.getVariables(instance.id)).level?.value ?? null));
    const started = instances.length;
    await engine.message.signal({ name: 'stop' });

    expect(started).toBe(2);
    expect(levels.sort()).toEqual([3, null]);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('catches an error end event in an error event sub-process, cancelling the other path', async () => {
    const engine = await engineWith(ERROR_EVENT_SUB);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'errorSub' });

    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);

    expect(await keys(engine, instance.id)).toEqual(['repair']);
    expect(tree!.childActivityInstances.map((child) => child.activityId)).toEqual(['handler']);
    expect((await engine.runtime.getVariables(instance.id)).code).toMatchObject({ value: 'BROKEN' });
  });

  it('repeats a non-interrupting timer cycle three times, then stops', async () => {
    const engine = await engineWith(CYCLE);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'cycle' });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    for (let i = 0; i < 5; i++) {
      engine.clock.advance(10 * 60_000);
      await engine.jobExecutor.runDueJobs();
    }

    expect(await keys(engine, instance.id)).toEqual(['nagged', 'nagged', 'nagged', 'work']);
    expect(await engine.management.findJobs({ processInstanceId: instance.id })).toEqual([]);
  });

  it("takes a Date an expression gives as the timer's due date whatever its kind; a repeating cycle cannot take one", async () => {
    const engine = await engineWith(DATED_TIMERS);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'datedTimers' });
    const when = new Date(engine.clock.now().getTime() + 3_600_000);
    const date = (value: Date) => ({ when: { type: 'date' as const, value, valueInfo: {} } });

    const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: date(when) });
    const [job] = await engine.management.findJobs({ processInstanceId: instance.id });
    const repeating = engine.runtime.startProcessInstanceById(definition.id, {
      variables: date(when),
      startInstructions: [{ type: 'startBeforeActivity', activityId: 'wait' }],
    });

    expect(job).toMatchObject({ activityId: 'delay', dueDate: when });
    await expect(repeating).rejects.toThrow("Cannot schedule timer of element 'nag': a repeating timer needs a cycle, not the date");
  });

  it('computes the next firing of a cycle from the clock, skipping missed instants, as Camunda', async () => {
    const engine = await engineWith(CYCLE);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'cycle' });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const [first] = await engine.management.findJobs({ processInstanceId: instance.id });
    await engine.management.setJobRetries(first!.id, 7);

    // Late by 25 minutes: the cycle fires once, its next instant (20 minutes) already passed.
    engine.clock.advance(15 * 60_000);
    await engine.jobExecutor.runDueJobs();
    const [next] = await engine.management.findJobs({ processInstanceId: instance.id });
    expect(next!.dueDate!.getTime() - first!.createTime.getTime()).toBe(20 * 60_000);
    expect(next!.retries).toBe(7);
    engine.clock.advance(20 * 60_000);
    await engine.jobExecutor.runDueJobs();
    // 35 minutes in: the third and last instant (30 minutes) has passed, so no firing is left.
    expect(await keys(engine, instance.id)).toEqual(['nagged', 'nagged', 'work']);
    expect(await engine.management.findJobs({ processInstanceId: instance.id })).toEqual([]);
  });

  it.each([
    [false, 10],
    [true, 15],
  ])('moves only this firing of a cycle, or with cascade (%s) the later ones too', async (cascade, nextMinutes) => {
    const engine = await engineWith(CYCLE);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'cycle' });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const [first] = await engine.management.findJobs({ processInstanceId: instance.id });
    const start = first!.createTime.getTime();
    await engine.management.setJobDuedate(first!.id, new Date(start + 5 * 60_000), cascade);
    engine.clock.advance(5 * 60_000);
    await engine.jobExecutor.runDueJobs();
    const [next] = await engine.management.findJobs({ processInstanceId: instance.id });
    expect((next!.dueDate!.getTime() - start) / 60_000).toBe(nextMinutes);
  });

  it('arms the start events of the version that becomes the latest when the latest is deleted', async () => {
    const started = (label: string) =>
      wrap(
        'armed',
        `<bpmn:startEvent id="timed"><bpmn:timerEventDefinition><bpmn:timeCycle>R/PT1H</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:startEvent>${flow('f1', 'timed', 'end')}
         <bpmn:startEvent id="${label}"><bpmn:messageEventDefinition messageRef="m" /></bpmn:startEvent>${flow('f2', label, 'end')}<bpmn:endEvent id="end" />`,
        '<bpmn:message id="m" name="arm" />',
      );
    const engine = await engineWith(started('first'));
    const { deployment } = await engine.deployment.deploy({ resources: [{ name: 'second.bpmn', bytes: Buffer.from(started('second')) }] });
    const [first, second] = (await engine.processDefinition.findProcessDefinitions({ key: 'armed' })).sort((a, b) => a.version - b.version);
    const armed = async () => (await engine.management.findJobs()).map((job) => job.processDefinitionId);
    expect(await armed()).toEqual([second!.id]);
    await engine.deployment.deleteDeployment(deployment.id);
    expect(await armed()).toEqual([first!.id]);
    await engine.message.correlate({ messageName: 'arm' });
    expect(await engine.history.countHistoricProcessInstances({ processDefinitionId: first!.id })).toBe(1);
  });

  it("takes a timer job's exclusive flag from the timer event definition's camunda:exclusive, not the activity's", async () => {
    const timers = wrap(
      'exclusiveTimers',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
       ${flow('f2', 'fork', 'plain')}<bpmn:intermediateCatchEvent id="plain" camunda:exclusive="false"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
       ${flow('f3', 'plain', 'end1')}<bpmn:endEvent id="end1" />
       ${flow('f4', 'fork', 'free')}<bpmn:intermediateCatchEvent id="free"><bpmn:timerEventDefinition camunda:exclusive="false"><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
       ${flow('f5', 'free', 'end2')}<bpmn:endEvent id="end2" />`,
    );
    const engine = await engineWith(timers);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'exclusiveTimers' });
    await engine.runtime.startProcessInstanceById(definition!.id);
    const jobs = await engine.management.findJobs({});
    expect(jobs.map((job) => [job.activityId, job.exclusive]).sort()).toEqual([
      ['free', false],
      ['plain', true],
    ]);
  });

  it('schedules the next firing of a timer start cycle when this one fails', async () => {
    const failing = wrap(
      'failingStart',
      `<bpmn:startEvent id="start"><bpmn:timerEventDefinition><bpmn:timeCycle>R/PT1H</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:startEvent>
       ${flow('f1', 'start', 'call')}<bpmn:serviceTask id="call" camunda:expression="\${nobody.call()}" />${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`,
    );
    const engine = await engineWith(failing);
    engine.clock.advance(60 * 60_000);
    await engine.jobExecutor.runDueJobs();
    // The failing job used up its retries at once, scheduling the next firing (in an hour) only once.
    const jobs = await engine.management.findJobs();
    expect(jobs.map((job) => [job.retries, job.exceptionMessage === null, job.dueDate!.getTime() - engine.clock.now().getTime()]).sort()).toEqual([
      [0, false, 0],
      [3, true, 60 * 60_000],
    ]);
  });

  describe('errors and signals as Camunda', () => {
    const THROWING_CHILD = wrap(
      'throwingChild',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'mark')}
       <bpmn:task id="mark"><bpmn:extensionElements><camunda:executionListener event="start" expression="\${execution.setVariable('inner', 'v')}" /></bpmn:extensionElements></bpmn:task>
       ${flow('f2', 'mark', 'fail')}<bpmn:endEvent id="fail"><bpmn:errorEventDefinition errorRef="e1" /></bpmn:endEvent>`,
      '<bpmn:error id="e1" errorCode="E1" camunda:errorMessage="failed with ${inner}" />',
    );
    const caller = (boundary: boolean) =>
      wrap(
        boundary ? 'catchingCaller' : 'plainCaller',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
         <bpmn:callActivity id="call" calledElement="throwingChild"><bpmn:extensionElements><camunda:out source="inner" target="outer" /></bpmn:extensionElements></bpmn:callActivity>
         ${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />
         ${boundary ? `<bpmn:boundaryEvent id="caught" attachedToRef="call"><bpmn:errorEventDefinition errorRef="e1" camunda:errorMessageVariable="message" /></bpmn:boundaryEvent>${flow('f4', 'caught', 'handle')}<bpmn:userTask id="handle" />` : ''}`,
        '<bpmn:error id="e1" errorCode="E1" />',
      );
    const start = async (engine: ProcessEngine, key: string, variables = {}) => {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      return engine.runtime.startProcessInstanceById(definition.id, { variables });
    };

    it('ends the throwing path of a called instance when no caller catches its error; a caller that does gets the out variables and the message', async () => {
      const engine = await engineWith(THROWING_CHILD, caller(false), caller(true));
      const plain = await start(engine, 'plainCaller');
      expect(await keys(engine, plain.id)).toEqual(['after']);
      const [child] = await engine.history.findHistoricProcessInstances({ superProcessInstanceId: plain.id });
      expect(child!.state).toBe('COMPLETED');

      const catching = await start(engine, 'catchingCaller');
      expect(await keys(engine, catching.id)).toEqual(['handle']);
      const variables = await engine.runtime.getVariables(catching.id);
      expect([variables.outer?.value, variables.message?.value]).toEqual(['v', 'failed with v']);
    });

    it('gives a BpmnError without a message to the errorMessageVariable as null', async () => {
      const model = wrap(
        'bpmnErrorNoMessage',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:serviceTask id="work" camunda:class="org.example.Fails" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />
         <bpmn:boundaryEvent id="caught" attachedToRef="work"><bpmn:errorEventDefinition camunda:errorMessageVariable="message" camunda:errorCodeVariable="code" /></bpmn:boundaryEvent>
         ${flow('f3', 'caught', 'handle')}<bpmn:userTask id="handle" />`,
      );
      const engine = await engineWith(model);
      engine.delegates.registerClass('org.example.Fails', () => {
        throw new BpmnError('E1');
      });
      const instance = await start(engine, 'bpmnErrorNoMessage');
      const variables = await engine.runtime.getVariables(instance.id);
      expect([variables.code?.value, variables.message?.value]).toEqual(['E1', null]);
    });

    it.each([
      ['an execution start listener', '<camunda:executionListener event="start" class="org.example.Throws" />'],
      ['a task create listener', '<camunda:taskListener event="create" class="org.example.Throws" />'],
    ])('sends a BpmnError thrown by %s to the event that catches it', async (_, listener) => {
      const model = wrap(
        'listenerError',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
         <bpmn:subProcess id="sub"><bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'work')}
           <bpmn:userTask id="work"><bpmn:extensionElements>${listener}</bpmn:extensionElements></bpmn:userTask>${flow('s2', 'work', 'subEnd')}<bpmn:endEvent id="subEnd" />
         </bpmn:subProcess>${flow('f2', 'sub', 'end')}<bpmn:endEvent id="end" />
         <bpmn:boundaryEvent id="caught" attachedToRef="sub"><bpmn:errorEventDefinition errorRef="e1" /></bpmn:boundaryEvent>${flow('f3', 'caught', 'handle')}<bpmn:userTask id="handle" />`,
        '<bpmn:error id="e1" errorCode="E1" />',
      );
      const engine = await engineWith(model);
      engine.delegates.registerClass('org.example.Throws', () => {
        throw new BpmnError('E1');
      });
      const instance = await start(engine, 'listenerError');
      expect(await keys(engine, instance.id)).toEqual(['handle']);
    });

    it('sends a BpmnError thrown by a complete task listener to its catching event; the task is not completed', async () => {
      const model = wrap(
        'completeError',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}
         <bpmn:userTask id="work"><bpmn:extensionElements><camunda:taskListener event="complete" class="org.example.Throws" /></bpmn:extensionElements></bpmn:userTask>
         ${flow('f2', 'work', 'done')}<bpmn:userTask id="done" />
         <bpmn:boundaryEvent id="caught" attachedToRef="work"><bpmn:errorEventDefinition errorRef="e1" /></bpmn:boundaryEvent>${flow('f3', 'caught', 'handle')}<bpmn:userTask id="handle" />`,
        '<bpmn:error id="e1" errorCode="E1" />',
      );
      const engine = await engineWith(model);
      engine.delegates.registerClass('org.example.Throws', () => {
        throw new BpmnError('E1');
      });
      const instance = await start(engine, 'completeError');
      const [work] = await engine.task.findTasks({ processInstanceId: instance.id });
      await engine.task.complete(work!.id);
      expect(await keys(engine, instance.id)).toEqual(['handle']);
    });

    it('passes a thrown signal its camunda:in payload and business key, within its own tenant', async () => {
      const thrower = wrap(
        'signalThrower',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'shout')}
         <bpmn:intermediateThrowEvent id="shout"><bpmn:signalEventDefinition signalRef="s_go"><bpmn:extensionElements><camunda:in source="a" target="b" /><camunda:in businessKey="BK-\${a}" /></bpmn:extensionElements></bpmn:signalEventDefinition></bpmn:intermediateThrowEvent>
         ${flow('f2', 'shout', 'end')}<bpmn:endEvent id="end" />`,
        '<bpmn:signal id="s_go" name="go" />',
      );
      const receiver = wrap(
        'signalReceiver',
        `<bpmn:startEvent id="start"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:startEvent>${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />`,
        '<bpmn:signal id="s_go" name="go" />',
      );
      const engine = await engineWith(thrower, receiver);
      await engine.deployment.deploy({ resources: [{ name: 'tenant.bpmn', bytes: Buffer.from(receiver) }], tenantId: 'A' });
      await start(engine, 'signalThrower', { a: { type: 'integer', value: 42, valueInfo: {} } });
      const started = await engine.runtime.findProcessInstances({ processDefinitionKey: 'signalReceiver' });
      expect(started.map((instance) => [instance.businessKey, instance.tenantId])).toEqual([['BK-42', null]]);
      expect((await engine.runtime.getVariables(started[0]!.id)).b?.value).toBe(42);
    });

    it('evaluates a conditional event only for its camunda:variableName and camunda:variableEvents, and for variables above it', async () => {
      const waiting = (attributes: string) =>
        wrap(
          'conditions',
          `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
           ${flow('f2', 'fork', 'wait')}<bpmn:intermediateCatchEvent id="wait"><bpmn:conditionalEventDefinition ${attributes}><bpmn:condition xsi:type="bpmn:tFormalExpression">\${x == 1}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:intermediateCatchEvent>
           ${flow('f3', 'wait', 'after')}<bpmn:userTask id="after" />
           ${flow('f4', 'fork', 'side')}<bpmn:userTask id="side" />`,
        );
      const engine = await engineWith(waiting('camunda:variableName="y"'), waiting('camunda:variableEvents="update"').replace(/conditions/g, 'updates'), waiting('').replace(/conditions/g, 'anywhere'));
      const one = { type: 'integer' as const, value: 1, valueInfo: {} };
      const byName = await start(engine, 'conditions');
      await engine.runtime.modifyVariables(byName.id, { x: one });
      expect(await keys(engine, byName.id)).toEqual(['side']);
      await engine.runtime.modifyVariables(byName.id, { y: one });
      expect(await keys(engine, byName.id)).toEqual(['after', 'side']);

      const byEvent = await start(engine, 'updates');
      await engine.runtime.modifyVariables(byEvent.id, { x: one });
      expect(await keys(engine, byEvent.id)).toEqual(['side']);
      await engine.runtime.modifyVariables(byEvent.id, { x: one });
      expect(await keys(engine, byEvent.id)).toEqual(['after', 'side']);

      // A variable local to the other branch's execution does not reach the waiting one.
      const local = await start(engine, 'anywhere');
      const [side] = await engine.execution.findExecutions({ processInstanceId: local.id, activityId: 'side' });
      await engine.execution.modifyLocalVariables(side!.id, { x: one });
      expect(await keys(engine, local.id)).toEqual(['side']);
    });

    it("delivers a camunda:async signal to catch events and start events in jobs without its payload, to boundary events at once (Camunda's event jobs)", async () => {
      const signal = '<bpmn:signal id="s_go" name="go" />';
      const thrower = wrap(
        'asyncThrower',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'shout')}
         <bpmn:intermediateThrowEvent id="shout"><bpmn:signalEventDefinition signalRef="s_go" camunda:async="true"><bpmn:extensionElements><camunda:in source="a" target="b" /></bpmn:extensionElements></bpmn:signalEventDefinition></bpmn:intermediateThrowEvent>
         ${flow('f2', 'shout', 'end')}<bpmn:endEvent id="end" />`,
        signal,
      );
      const catcher = wrap(
        'asyncCatcher',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
         ${flow('f2', 'fork', 'wait')}<bpmn:intermediateCatchEvent id="wait" camunda:jobPriority="\${urgency + 2}"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:intermediateCatchEvent>${flow('f3', 'wait', 'caught')}<bpmn:userTask id="caught" />
         ${flow('f4', 'fork', 'work')}<bpmn:userTask id="work" /><bpmn:boundaryEvent id="stop" attachedToRef="work"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:boundaryEvent>${flow('f5', 'stop', 'stopped')}<bpmn:userTask id="stopped" />`,
        signal,
      );
      const starter = wrap('asyncStarted', `<bpmn:startEvent id="start"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:startEvent>${flow('f1', 'start', 'begun')}<bpmn:userTask id="begun" />`, signal);
      const engine = await engineWith(thrower, catcher, starter);
      // The catch event's priority is an expression on the waiting execution's variables.
      const waiting = await start(engine, 'asyncCatcher', { urgency: { type: 'integer', value: 5, valueInfo: {} } });
      expect(await keys(engine, waiting.id)).toEqual(['work']);
      await start(engine, 'asyncThrower', { a: { type: 'integer', value: 42, valueInfo: {} } });
      // The boundary event took the signal at once; the catch event and the start event wait for their jobs.
      expect(await keys(engine, waiting.id)).toEqual(['stopped']);
      expect(await engine.runtime.findProcessInstances({ processDefinitionKey: 'asyncStarted' })).toEqual([]);
      const jobs = await engine.management.findJobs({});
      expect(jobs.map((job) => [job.activityId, job.handlerType, job.priority, job.executionId === null]).sort()).toEqual([
        ['start', 'event', 0, true],
        ['wait', 'event', 7, false],
      ]);
      for (const job of jobs) await engine.management.executeJob(job.id);
      expect(await keys(engine, waiting.id)).toEqual(['caught', 'stopped']);
      const [started] = await engine.runtime.findProcessInstances({ processDefinitionKey: 'asyncStarted' });
      expect(await keys(engine, started!.id)).toEqual(['begun']);
      expect(await engine.runtime.getVariables(started!.id)).toEqual({});
    });

    it('interrupts an activity whose conditional boundary event already holds before it does its work, as Camunda', async () => {
      const watched = (interrupting: boolean) =>
        wrap(
          interrupting ? 'interrupted' : 'joined',
          `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}
           <bpmn:userTask id="work"><bpmn:extensionElements><camunda:taskListener event="create" expression="\${log.add('created')}" /></bpmn:extensionElements></bpmn:userTask>
           ${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />
           <bpmn:boundaryEvent id="urgent" attachedToRef="work" cancelActivity="${interrupting}"><bpmn:conditionalEventDefinition>
             <bpmn:condition xsi:type="bpmn:tFormalExpression">\${level &gt; 5}</bpmn:condition>
           </bpmn:conditionalEventDefinition></bpmn:boundaryEvent>${flow('f3', 'urgent', 'escalated')}<bpmn:userTask id="escalated" />`,
        );
      const engine = await engineWith(watched(true), watched(false));
      const log: string[] = [];
      engine.delegates.registerBean('log', { add: (entry: string) => log.push(entry) });
      const high = { level: { type: 'integer' as const, value: 9, valueInfo: {} } };
      const interrupted = await start(engine, 'interrupted', high);
      expect(await keys(engine, interrupted.id)).toEqual(['escalated']);
      expect(log).toEqual([]);
      expect(await engine.history.tasks.findTasks({ processInstanceId: interrupted.id, taskDefinitionKey: 'work' })).toEqual([]);
      // Non-interrupting: the event's path runs first, then the activity does its work.
      const joined = await start(engine, 'joined', high);
      expect(await keys(engine, joined.id)).toEqual(['escalated', 'work']);
      expect(log).toEqual(['created']);
    });

    it('refuses an event-based gateway followed by anything but a catch event, or with asyncAfter', async () => {
      const engine = await engineWith();
      const refusal = async (body: string) => {
        const xml = wrap('gateway', body, '<bpmn:message id="m" name="m" />');
        const error = await engine.deployment.deploy({ resources: [{ name: 'gateway.bpmn', bytes: Buffer.from(xml) }] }).catch((caught: Error) => caught);
        return (error as Error).message;
      };
      const gateway = (attributes: string, target: string) =>
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'gw')}<bpmn:eventBasedGateway id="gw" ${attributes} />${flow('f2', 'gw', 'next')}${target}${flow('f3', 'next', 'end')}<bpmn:endEvent id="end" />`;
      expect(await refusal(gateway('', '<bpmn:receiveTask id="next" messageRef="m" />'))).toContain('Event based gateway can only be connected to elements of type intermediateCatchEvent');
      expect(await refusal(gateway('camunda:asyncAfter="true"', '<bpmn:intermediateCatchEvent id="next"><bpmn:messageEventDefinition messageRef="m" /></bpmn:intermediateCatchEvent>'))).toContain(
        "'asyncAfter' not supported for eventBasedGateway elements.",
      );
    });
  });

  it('calls a pinned version of a process and takes all its variables back', async () => {
    const engine = await engineWith(callee('one'), callee('two'), VERSIONED_CALLER);
    const [caller] = await engine.processDefinition.findProcessDefinitions({ key: 'versionedCaller' });

    const instance = await engine.runtime.startProcessInstanceById(caller.id, { variables: { order: { type: 'string', value: 'o-1', valueInfo: {} } } });

    expect(await engine.runtime.getVariables(instance.id)).toMatchObject({ version: { value: 'one' }, order: { value: 'o-1' } });
    expect(await keys(engine, instance.id)).toEqual(['after']);
  });

  it('follows a link throw event to the link catch event of its name, which passes straight on', async () => {
    const engine = await engineWith(LINKS);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'links' });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const approved = (value: boolean) => ({ approved: { type: 'boolean' as const, value, valueInfo: {} } });

    await engine.task.complete((await engine.task.findTasks({ processInstanceId: instance.id }))[0].id, approved(false));
    const looped = await keys(engine, instance.id);
    await engine.task.complete((await engine.task.findTasks({ processInstanceId: instance.id }))[0].id, approved(true));
    const activities = await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id });

    expect(looped).toEqual(['review']);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
    // Twice through the link catch event; the throw event leaves no trace: it is no activity.
    expect(activities.map((activity) => `${activity.activityId}:${activity.activityType}`).sort()).toEqual([
      'again:intermediateLinkCatch',
      'again:intermediateLinkCatch',
      'decide:exclusiveGateway',
      'decide:exclusiveGateway',
      'done:noneEndEvent',
      'review:userTask',
      'review:userTask',
      'start:startEvent',
    ]);
  });

  it('deletes an instance without its called instances when asked, and ignores unknown ids when asked', async () => {
    const engine = await engineWith(callee('one'), VERSIONED_CALLER.replace('calledElement="callee" camunda:calledElementBinding="version" camunda:calledElementVersion="1"', 'calledElement="failingChild"'), FAILING_CHILD);
    const [caller] = await engine.processDefinition.findProcessDefinitions({ key: 'versionedCaller' });
    const parent = await engine.runtime.startProcessInstanceById(caller.id);

    await engine.runtime.deleteProcessInstance(parent.id, { skipSubprocesses: true });
    await engine.runtime.deleteProcessInstance('nope', { failIfNotExists: false });

    expect((await engine.runtime.findProcessInstances()).map((instance) => instance.processDefinitionKey)).toEqual(['failingChild']);
    await expect(engine.runtime.deleteProcessInstance('nope')).rejects.toThrow("No process instance found for id 'nope': processInstance is null");
  });

  it('cancels the call activity when its called instance is deleted or emptied from outside, ending a caller with nothing else left', async () => {
    const engine = await engineWith(WAITING_CHILD, CALLER_AFTER, CALLER_PARALLEL, GRANDPARENT);
    const start = async (key: string) => {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      return (await engine.runtime.startProcessInstanceById(definition.id)).id;
    };
    const childOf = async (superProcessInstanceId: string) => (await engine.runtime.findProcessInstances({ superProcessInstance: superProcessInstanceId }))[0].id;
    const history = async (id: string) => {
      const [instance] = await engine.history.findHistoricProcessInstances({ processInstanceId: id });
      const call = (await engine.history.findHistoricActivityInstances({ processInstanceId: id, activityId: 'call' }))[0];
      return { state: instance.state, deleteReason: instance.deleteReason, callCanceled: call?.canceled ?? null };
    };

    const alone = await start('callerAfter');
    await engine.runtime.deleteProcessInstance(await childOf(alone), { reason: 'gone' });
    const parallel = await start('callerParallel');
    await engine.runtime.deleteProcessInstance(await childOf(parallel));
    const emptied = await start('callerAfter');
    const emptiedChild = await childOf(emptied);
    await engine.runtime.modifyProcessInstance(emptiedChild, [{ type: 'cancel', activityId: 'ct' }], { cancellationSourceExternal: true });
    const grandparent = await start('grandparent');
    const middle = await childOf(grandparent);
    const grandchild = await childOf(middle);
    await engine.runtime.deleteProcessInstance(grandchild, { reason: 'cascade' });

    // Camunda's AbstractDeleteProcessInstanceCmd cancels the caller's call activity; the caller never goes on to `after`.
    expect(await history(alone)).toEqual({ state: 'EXTERNALLY_TERMINATED', deleteReason: 'gone', callCanceled: true });
    expect(await history(parallel)).toEqual({ state: 'ACTIVE', deleteReason: null, callCanceled: true });
    expect(await keys(engine, parallel)).toEqual(['other']);
    expect(await history(emptied)).toEqual({ state: 'EXTERNALLY_TERMINATED', deleteReason: null, callCanceled: true });
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: emptiedChild }))[0].state).toBe('EXTERNALLY_TERMINATED');
    expect([await history(grandparent), await history(middle)]).toEqual([
      { state: 'EXTERNALLY_TERMINATED', deleteReason: 'cascade', callCanceled: true },
      { state: 'EXTERNALLY_TERMINATED', deleteReason: 'cascade', callCanceled: true },
    ]);
    expect(await engine.task.findTasks({ taskDefinitionKey: 'after' })).toEqual([]);
    expect((await engine.runtime.findProcessInstances()).map((instance) => instance.id)).toEqual([parallel]);
  });

  it("runs the caller's cancellation with the deletion's skip flags", async () => {
    const listening = wrap(
      'listeningCaller',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
       ${flow('f2', 'fork', 'call')}<bpmn:callActivity id="call" calledElement="waitingChild"><bpmn:extensionElements>
         <camunda:executionListener event="end" expression="\${execution.setVariable('callEnded', true)}" /></bpmn:extensionElements></bpmn:callActivity>
       ${flow('f3', 'call', 'end1')}<bpmn:endEvent id="end1" />${flow('f4', 'fork', 'other')}<bpmn:userTask id="other" />`,
    );
    const engine = await engineWith(WAITING_CHILD, listening);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'listeningCaller' });
    const [skipping, listened] = [(await engine.runtime.startProcessInstanceById(definition.id)).id, (await engine.runtime.startProcessInstanceById(definition.id)).id];
    const childOf = async (superProcessInstance: string) => (await engine.runtime.findProcessInstances({ superProcessInstance }))[0].id;

    await engine.runtime.deleteProcessInstance(await childOf(skipping), { skipCustomListeners: true });
    await engine.runtime.deleteProcessInstance(await childOf(listened));

    expect((await engine.runtime.getVariables(skipping)).callEnded).toBeUndefined();
    expect((await engine.runtime.getVariables(listened)).callEnded?.value).toBe(true);
  });

  it("cancels everything by the process instance's own activity instance, called instances too", async () => {
    const engine = await engineWith(WAITING_CHILD, CALLER_PARALLEL);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'callerParallel' });
    const parent = (await engine.runtime.startProcessInstanceById(definition.id)).id;
    const child = (await engine.runtime.findProcessInstances({ superProcessInstance: parent }))[0].id;
    const tree = await engine.runtime.getActivityInstanceTree(parent);

    await engine.runtime.modifyProcessInstance(parent, [{ type: 'cancel', activityInstanceId: tree!.id }], { cancellationSourceExternal: true });

    expect(tree!.id).toBe(parent);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
    const ended = await engine.history.findHistoricProcessInstances({ processInstanceIds: [parent, child] });
    expect(ended.map((instance) => instance.state)).toEqual(['EXTERNALLY_TERMINATED', 'EXTERNALLY_TERMINATED']);
  });

  it('lets called instances go on alone after a deletion with skipSubprocesses, their history forgetting the caller', async () => {
    const engine = await engineWith(WAITING_CHILD, CALLER_AFTER);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'callerAfter' });
    const parent = (await engine.runtime.startProcessInstanceById(definition.id)).id;
    const child = (await engine.runtime.findProcessInstances({ superProcessInstance: parent }))[0].id;

    await engine.runtime.deleteProcessInstance(parent, { skipSubprocesses: true });
    await engine.task.complete((await engine.task.findTasks({ processInstanceId: child }))[0].id);

    const [historic] = await engine.history.findHistoricProcessInstances({ processInstanceId: child });
    expect(historic).toMatchObject({ state: 'COMPLETED', superProcessInstanceId: null, rootProcessInstanceId: parent });
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it("deletes a failed job's incident with the job when a modification cancels its activity; its history keeps pointing at the failure that opened it", async () => {
    const engine = await engineWith(FAILING_TIMER);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'failingTimer' });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    for (let i = 0; i < 3; i++) await engine.jobExecutor.runDueJobs();
    const [job] = await engine.management.findJobs();
    await expect(engine.management.executeJob(job.id)).rejects.toThrow();
    const failures = await engine.history.logs.findJobLogs({ jobId: job.id, failureLog: true, sorting: [{ sortBy: 'occurrence', sortOrder: 'asc' }] });
    const [whileOpen] = await engine.history.incidents.find({ processInstanceId: instance.id });

    await engine.runtime.modifyProcessInstance(instance.id, [{ type: 'cancel', activityId: 'tick' }, { type: 'startBeforeActivity', activityId: 'other' }]);

    expect(failures).toHaveLength(4);
    // Camunda's JobEntity.setRetries opens (and points) the incident only when the retries fall to 0, not when a job at 0 fails again.
    expect(whileOpen).toMatchObject({ incidentType: 'failedJob', historyConfiguration: failures[2].id, endTime: null });
    expect(await keys(engine, instance.id)).toEqual(['other']);
    expect(await engine.management.findIncidents()).toEqual([]);
    expect(await engine.history.incidents.find({ processInstanceId: instance.id })).toMatchObject([{ deleted: true, endTime: expect.any(Date) }]);
  });

  it('names the activity a job failed at, past its own, on the job, its log and its incident', async () => {
    const engine = await engineWith(FAILING_AFTER_ASYNC);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'failingAfterAsync' });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    for (let i = 0; i < 3; i++) await engine.jobExecutor.runDueJobs();

    const [job] = await engine.management.findJobs({ processInstanceId: instance.id });
    const [incident] = await engine.management.findIncidents({ processInstanceId: instance.id });
    const logs = await engine.history.logs.findJobLogs({ jobId: job.id, failureLog: true });

    // Camunda's ExecuteJobsCmd: the ProcessDataContext's latest activity, not the job's own.
    expect(job).toMatchObject({ activityId: 'prepare', failedActivityId: 'charge', retries: 0 });
    expect(incident).toMatchObject({ activityId: 'prepare', failedActivityId: 'charge' });
    expect(logs.map((log) => log.failedActivityId)).toEqual(['charge', 'charge', 'charge']);
  });

  it('starts a non-interrupting conditional event sub-process while its scope still moves, once that path waits or ends', async () => {
    const engine = await engineWith(CONDITION_AT_START, CONDITION_MID_RUN, CONDITION_THEN_END, CONDITION_THEN_TERMINATE);
    const start = async (key: string, variables = {}) => {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      return (await engine.runtime.startProcessInstanceById(definition.id, { variables })).id;
    };
    const one = { type: 'integer' as const, value: 1, valueInfo: {} };

    const atStart = await start('conditionAtStart', { y: one });
    const waiting = await keys(engine, atStart);
    await engine.runtime.modifyVariables(atStart, { x: one });
    const midRun = await start('conditionMidRun');
    await engine.task.complete((await engine.task.findTasks({ processInstanceId: midRun }))[0].id);
    const thenEnd = await start('conditionThenEnd');
    const keptBySubProcess = await keys(engine, thenEnd);
    await engine.task.complete((await engine.task.findTasks({ processInstanceId: thenEnd }))[0].id);
    const terminated = await start('conditionThenTerminate');

    expect(waiting).toEqual(['inEsp']);
    // x's change passes the catch event, and (y still 1) starts the event sub-process again, as in Camunda.
    expect(await keys(engine, atStart)).toEqual(['after', 'inEsp', 'inEsp']);
    expect(await keys(engine, midRun)).toEqual(['after', 'inEsp']);
    expect(keptBySubProcess).toEqual(['inEsp']);
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: thenEnd }))[0].state).toBe('COMPLETED');
    // A terminate end event ends the scope, the event sub-process it would have started too.
    expect(await keys(engine, terminated)).toEqual([]);
    expect((await engine.history.findHistoricProcessInstances({ processInstanceId: terminated }))[0].state).toBe('COMPLETED');
  });

  it('copies an incident of a called instance to its caller, and removes both when the job gets retries', async () => {
    const engine = await engineWith(FAILING_CHILD, PARENT);
    const [parentDefinition] = await engine.processDefinition.findProcessDefinitions({ key: 'parent' });
    const parent = await engine.runtime.startProcessInstanceById(parentDefinition.id);
    for (let i = 0; i < 3; i++) await engine.jobExecutor.runDueJobs();

    const incidents = await engine.management.findIncidents();
    const original = incidents.find((incident) => incident.processInstanceId !== parent.id)!;
    const copy = incidents.find((incident) => incident.processInstanceId === parent.id)!;
    const [job] = await engine.management.findJobs();
    const [jobDefinition] = await engine.jobDefinition.findJobDefinitions({ processDefinitionKey: 'failingChild' });
    // By its job definition (Camunda's bulk update) the job gets retries but keeps its incidents; by its own id it resolves them.
    await engine.jobDefinition.setJobRetries(jobDefinition.id, 1);
    const afterDefinitionRetries = await engine.management.findIncidents();
    await engine.management.setJobRetries(job.id, 1);

    expect(afterDefinitionRetries).toHaveLength(2);
    expect(incidents).toHaveLength(2);
    expect(original).toMatchObject({ incidentType: 'failedJob', activityId: 'charge', configuration: job.id });
    expect(copy).toMatchObject({ incidentType: 'failedJob', activityId: 'call', causeIncidentId: original.id, rootCauseIncidentId: original.id });
    expect(await engine.management.findIncidents()).toEqual([]);
  });
});

describe('models Trellis cannot run', () => {
  it('are refused at deployment with a ParseException naming the element', async () => {
    const engine = await createTestEngine();
    engines.push(engine);
    const compensating = wrap(
      'compensating',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'undo')}
       <bpmn:businessRuleTask id="undo" camunda:decisionRef="approval" />
       ${flow('f2', 'undo', 'end')}<bpmn:endEvent id="end" />`,
    );

    const refused = engine.deployment.deploy({ resources: [{ name: 'compensating.bpmn', bytes: Buffer.from(compensating) }] });

    await expect(refused).rejects.toMatchObject({
      name: 'ParseException',
      message: expect.stringContaining("Trellis cannot execute BusinessRuleTask 'undo'"),
      details: { 'compensating.bpmn': { errors: [expect.objectContaining({ mainElementId: 'undo' })] } },
    });
    expect(await engine.processDefinition.findProcessDefinitions()).toEqual([]);
  });
});

describe('conditional event sub-processes', () => {
  it('start when a variable change makes their condition true', async () => {
    const engine = await createTestEngine();
    engines.push(engine);
    const model = wrap(
      'watched',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />
       <bpmn:subProcess id="onRisk" triggeredByEvent="true">
         <bpmn:startEvent id="risky" isInterrupting="false"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">\${risk &gt; 5}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:startEvent>
         ${flow('r1', 'risky', 'review')}<bpmn:userTask id="review" />${flow('r2', 'review', 'reviewed')}<bpmn:endEvent id="reviewed" />
       </bpmn:subProcess>`,
    );
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'w.bpmn', bytes: Buffer.from(model) }] });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id, { variables: { risk: { type: 'integer', value: 1, valueInfo: {} } } });

    const before = (await engine.task.findTasks({ processInstanceId: instance.id })).map((task) => task.taskDefinitionKey).sort();
    await engine.runtime.modifyVariables(instance.id, { risk: { type: 'integer', value: 9, valueInfo: {} } });
    const after = (await engine.task.findTasks({ processInstanceId: instance.id })).map((task) => task.taskDefinitionKey).sort();

    expect(before).toEqual(['work']);
    expect(after).toEqual(['review', 'work']);
  });
});

describe('pruning', () => {
  const FORK = wrap(
    'forkJoinPrune',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}
     <bpmn:parallelGateway id="fork" />${flow('f2', 'fork', 'a')}${flow('f3', 'fork', 'b')}
     <bpmn:userTask id="a" />${flow('f4', 'a', 'join')}<bpmn:userTask id="b" />${flow('f5', 'b', 'join')}
     <bpmn:parallelGateway id="join" />${flow('f6', 'join', 'after')}<bpmn:userTask id="after" />${flow('f7', 'after', 'end')}<bpmn:endEvent id="end" />`,
  );

  it('runs on the process instance execution again after a join, as Camunda does', async () => {
    const engine = await createTestEngine();
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'f.bpmn', bytes: Buffer.from(FORK) }] });
    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);

    const forked = await engine.task.findTasks({ processInstanceId: instance.id });
    for (const task of forked) await engine.task.complete(task.id);
    const [after] = await engine.task.findTasks({ processInstanceId: instance.id });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);

    expect(forked.every((task) => task.executionId !== instance.id)).toBe(true);
    expect(after.executionId).toBe(instance.id);
    expect(await engine.execution.countExecutions({ processInstanceId: instance.id })).toBe(1);
    expect(tree!.childActivityInstances.map((child) => [child.activityId, child.executionIds])).toEqual([['after', [instance.id]]]);
  });
});

describe('engine-wide job settings', () => {
  const deployed = async (options: { failedJobRetryTimeCycle?: string; reevaluateTimeCycleWhenDue?: boolean }, xml: string) => {
    const engine = await createTestEngine(options);
    engines.push(engine);
    await engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(xml) }] });
    return engine;
  };
  const failing = (key: string, own = '') =>
    wrap(
      key,
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
       <bpmn:serviceTask id="call" camunda:asyncBefore="true" camunda:expression="\${nobody.call()}">${own}</bpmn:serviceTask>${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`,
    );

  it("retries a failing job by the engine's failedJobRetryTimeCycle unless its activity declares its own", async () => {
    const engine = await deployed({ failedJobRetryTimeCycle: 'R2/PT10M' }, failing('byEngine'));
    await engine.deployment.deploy({
      resources: [{ name: 'own.bpmn', bytes: Buffer.from(failing('byActivity', '<bpmn:extensionElements><camunda:failedJobRetryTimeCycle>R5/PT1M</camunda:failedJobRetryTimeCycle></bpmn:extensionElements>')) }],
    });
    for (const key of ['byEngine', 'byActivity']) {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      await engine.runtime.startProcessInstanceById(definition!.id);
    }
    await engine.jobExecutor.runDueJobs();
    const jobs = await engine.management.findJobs({});
    const now = engine.clock.now().getTime();
    expect(jobs.map((job) => [job.processDefinitionKey, job.retries, (job.dueDate!.getTime() - now) / 60_000]).sort()).toEqual([
      ['byActivity', 4, 1],
      ['byEngine', 1, 10],
    ]);
  });

  it("retries a multi-instance activity's body by the element's cycle, its inner activity by the loop characteristics' one", async () => {
    const cycle = (text: string) => `<bpmn:extensionElements><camunda:failedJobRetryTimeCycle>${text}</camunda:failedJobRetryTimeCycle></bpmn:extensionElements>`;
    const multiInstance = (key: string, bodyAsync: boolean) =>
      wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
         <bpmn:serviceTask id="call" camunda:asyncBefore="${bodyAsync}" camunda:expression="\${nobody.call()}">${cycle('R9/PT9M')}
           <bpmn:multiInstanceLoopCharacteristics camunda:asyncBefore="${!bodyAsync}">${cycle('R5/PT5M')}<bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>
         </bpmn:serviceTask>${flow('f2', 'call', 'end')}<bpmn:endEvent id="end" />`,
      );
    const engine = await deployed({}, multiInstance('inner', false));
    await engine.deployment.deploy({ resources: [{ name: 'body.bpmn', bytes: Buffer.from(multiInstance('body', true)) }] });
    for (const key of ['inner', 'body']) {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      await engine.runtime.startProcessInstanceById(definition!.id);
    }
    await engine.jobExecutor.runDueJobs();
    const jobs = await engine.management.findJobs({});
    const now = engine.clock.now().getTime();
    // The body's job goes on to the inner activities, whose failure is the body job's (its cycle); the inner jobs their own.
    expect(jobs.map((job) => [job.processDefinitionKey, job.activityId, job.retries, (job.dueDate!.getTime() - now) / 60_000]).sort()).toEqual([
      ['body', 'call#multiInstanceBody', 8, 9],
      ['inner', 'call', 4, 5],
      ['inner', 'call', 4, 5],
    ]);
  });

  it.each([
    [false, 10],
    [true, 30],
  ])('evaluates a timer cycle expression again when it fires with reevaluateTimeCycleWhenDue (%s)', async (reevaluate, minutes) => {
    const engine = await deployed(
      { reevaluateTimeCycleWhenDue: reevaluate },
      wrap(
        'reminded',
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />
         <bpmn:boundaryEvent id="remind" attachedToRef="work" cancelActivity="false"><bpmn:timerEventDefinition><bpmn:timeCycle>\${cycle}</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:boundaryEvent>
         ${flow('f2', 'remind', 'note')}<bpmn:userTask id="note" />`,
      ),
    );
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'reminded' });
    const instance = await engine.runtime.startProcessInstanceById(definition!.id, { variables: { cycle: { type: 'string', value: 'R/PT10M', valueInfo: {} } } });
    await engine.runtime.modifyVariables(instance.id, { cycle: { type: 'string', value: 'R/PT30M', valueInfo: {} } });
    engine.clock.advance(10 * 60_000);
    await engine.jobExecutor.runDueJobs();
    const [next] = await engine.management.findJobs({ processInstanceId: instance.id });
    expect((next!.dueDate!.getTime() - engine.clock.now().getTime()) / 60_000).toBe(minutes);
  });
});
