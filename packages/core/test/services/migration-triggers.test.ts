import { afterEach, describe, expect, it } from 'vitest';
import { CommandExecutor } from '../../src/command/command-executor.js';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const instruction = (sourceActivityId: string, targetActivityId: string, updateEventTrigger = false) => ({ sourceActivityId, targetActivityId, updateEventTrigger });
const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const timer = (kind: string, text: string) => `<bpmn:timerEventDefinition><bpmn:time${kind}>${text}</bpmn:time${kind}></bpmn:timerEventDefinition>`;
const HOUR = 3600_000;

/** start → sub (subStart → task → subEnd) → end, with `outer` (process level) and `inner` (in sub) event sub-processes when given. */
const nested = (outer = '', inner = '') =>
  wrap(
    'triggers',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
     <bpmn:subProcess id="sub">
       <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'task')}<bpmn:userTask id="task" />${flow('s2', 'task', 'subEnd')}<bpmn:endEvent id="subEnd" />
       ${inner}
     </bpmn:subProcess>
     ${flow('f2', 'sub', 'end')}<bpmn:endEvent id="end" />
     ${outer}`,
    `<bpmn:message id="outerMessage" name="outer" />`,
  );
const eventSubProcess = (id: string, start: string) =>
  `<bpmn:subProcess id="${id}" triggeredByEvent="true">
     <bpmn:startEvent id="${id}Start" isInterrupting="false">${start}</bpmn:startEvent>
     ${flow(`${id}1`, `${id}Start`, `${id}Task`)}<bpmn:userTask id="${id}Task" />${flow(`${id}2`, `${id}Task`, `${id}End`)}<bpmn:endEvent id="${id}End" />
   </bpmn:subProcess>`;

/** start → gateway → messageCatch (message `msg`) | timerCatch (PT1H), each to a task and the end; `extra` adds more events after the gateway. */
const gateway = (extra = '') =>
  wrap(
    'waiting',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'gateway')}<bpmn:eventBasedGateway id="gateway" />
     ${flow('g1', 'gateway', 'messageCatch')}<bpmn:intermediateCatchEvent id="messageCatch"><bpmn:messageEventDefinition messageRef="m" /></bpmn:intermediateCatchEvent>
     ${flow('g2', 'messageCatch', 'afterMessage')}<bpmn:userTask id="afterMessage" />${flow('g3', 'afterMessage', 'end')}
     ${flow('g4', 'gateway', 'timerCatch')}<bpmn:intermediateCatchEvent id="timerCatch">${timer('Duration', 'PT1H')}</bpmn:intermediateCatchEvent>
     ${flow('g5', 'timerCatch', 'afterTimer')}<bpmn:userTask id="afterTimer" />${flow('g6', 'afterTimer', 'end')}
     ${extra}<bpmn:endEvent id="end" />`,
    `<bpmn:message id="m" name="msg" /><bpmn:message id="m2" name="newMsg" />`,
  );

/** A user task `taskId` with timeout listeners (id → duration) that note their firing in `fired`. */
const timeouts = (taskId: string, listeners: Record<string, string>) =>
  wrap(
    'timeouts',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', taskId)}
     <bpmn:userTask id="${taskId}"><bpmn:extensionElements>
       ${Object.entries(listeners)
         .map(([id, duration]) => `<camunda:taskListener event="timeout" id="${id}" expression="\${execution.setVariable('fired', '${id}')}">${timer('Duration', duration)}</camunda:taskListener>`)
         .join('')}
     </bpmn:extensionElements></bpmn:userTask>${flow('f2', taskId, 'end')}<bpmn:endEvent id="end" />`,
  );

/** A task with a boundary message (name `message`) and a boundary timer (`timerKind`: `timerText`), both non-interrupting. */
const boundaries = (message: string, timerKind: string, timerText: string) =>
  wrap(
    'boundaries',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />
     <bpmn:boundaryEvent id="onMessage" attachedToRef="task" cancelActivity="false"><bpmn:messageEventDefinition messageRef="msg" /></bpmn:boundaryEvent>
     ${flow('f3', 'onMessage', 'messaged')}<bpmn:endEvent id="messaged" />
     <bpmn:boundaryEvent id="onTimer" attachedToRef="task" cancelActivity="false">${timer(timerKind, timerText)}</bpmn:boundaryEvent>
     ${flow('f4', 'onTimer', 'timedOut')}<bpmn:endEvent id="timedOut" />
     ${eventSubProcess('signalled', `<bpmn:signalEventDefinition signalRef="sig" />`)}`,
    `<bpmn:message id="msg" name="${message}" /><bpmn:signal id="sig" name="${message}-signal" />`,
  );

describe.each(testStoreConfigs())('migrating event triggers on $name', (testStore) => {
  async function deployBoth(v1Xml: string, v2Xml: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    return { engine, v1: await deploy(v1Xml), v2: await deploy(v2Xml) };
  }
  const plan = (v1: string, v2: string, ...instructions: ReturnType<typeof instruction>[]) => ({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions, variables: null });
  const taskOf = async (engine: ProcessEngine, processInstanceId: string, key: string) => (await engine.task.findTasks({ processInstanceId })).find((each) => each.taskDefinitionKey === key);

  // Camunda's MigrationEventSubProcessTest.testMigrateTaskAddEventSubProcess and addEmergingEventSubscriptions / addEmergingTimerJobs.
  it('arms the event sub-processes the target adds to the process and to a migrated sub-process', async () => {
    const target = nested(eventSubProcess('outer', `<bpmn:messageEventDefinition messageRef="outerMessage" />`), eventSubProcess('inner', timer('Duration', 'PT2H')));
    const { engine, v1, v2 } = await deployBoth(nested(), target);
    const started = await engine.runtime.startProcessInstanceById(v1);

    await engine.migration.execute(await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 }), { processInstanceIds: [started.id] });

    const [subscription] = await engine.management.findEventSubscriptions({ processInstanceId: started.id });
    expect(subscription).toMatchObject({ activityId: 'outerStart', eventName: 'outer', executionId: started.id, processDefinitionId: v2 });
    const [job] = await engine.management.findJobs({ processInstanceId: started.id });
    const subScope = (await engine.execution.findExecutions({ processInstanceId: started.id })).find((each) => each.id === job.executionId);
    expect(job).toMatchObject({ activityId: 'innerStart', processDefinitionId: v2 });
    expect(job.dueDate!.getTime() - engine.clock.now().getTime()).toBe(2 * HOUR);
    expect(subScope).toBeDefined();
    await engine.message.correlate({ messageName: 'outer', processInstanceId: started.id });
    await engine.management.executeJob(job.id);
    expect((await engine.task.findTasks({ processInstanceId: started.id })).map((each) => each.taskDefinitionKey).sort()).toEqual(['innerTask', 'outerTask', 'task']);
  });

  it('arms the event sub-process of the process when a task moves into it (testMigrateTaskAddEventSubProcess)', async () => {
    const plain = wrap('triggers', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />`);
    const target = wrap(
      'triggers',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />
       ${eventSubProcess('outer', `<bpmn:messageEventDefinition messageRef="outerMessage" />`)}`,
      `<bpmn:message id="outerMessage" name="outer" />`,
    );
    const { engine, v1, v2 } = await deployBoth(plain, target);
    const started = await engine.runtime.startProcessInstanceById(v1);

    await engine.migration.execute(plan(v1, v2, instruction('task', 'outerTask')), { processInstanceIds: [started.id] });

    const tree = await engine.runtime.getActivityInstanceTree(started.id);
    expect(tree!.childActivityInstances.map((each) => [each.activityId, each.childActivityInstances.map((child) => child.activityId)])).toEqual([['outer', ['outerTask']]]);
    expect(await engine.management.findEventSubscriptions({ processInstanceId: started.id })).toEqual([expect.objectContaining({ activityId: 'outerStart', eventName: 'outer' })]);
    await engine.task.complete((await taskOf(engine, started.id, 'outerTask'))!.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  // Camunda's MigrationEventBasedGatewayTest.testMigrateGatewayWithTimerEvent and testMigrateGatewayAddMessageEvent.
  it('replaces the unmapped triggers of a migrated event-based gateway and arms the events the target adds', async () => {
    const added = `${flow('g7', 'gateway', 'newMessageCatch')}<bpmn:intermediateCatchEvent id="newMessageCatch"><bpmn:messageEventDefinition messageRef="m2" /></bpmn:intermediateCatchEvent>
      ${flow('g8', 'newMessageCatch', 'afterNewMessage')}<bpmn:userTask id="afterNewMessage" />${flow('g9', 'afterNewMessage', 'end')}`;
    const { engine, v1, v2 } = await deployBoth(gateway(), gateway(added));
    const timed = await engine.runtime.startProcessInstanceById(v1);
    const messaged = await engine.runtime.startProcessInstanceById(v1);
    const [oldTimer] = await engine.management.findJobs({ processInstanceId: timed.id });
    const [oldSubscription] = await engine.management.findEventSubscriptions({ processInstanceId: timed.id });

    await engine.migration.execute(plan(v1, v2, instruction('gateway', 'gateway'), instruction('messageCatch', 'messageCatch')), { processInstanceIds: [timed.id, messaged.id] });

    const [newTimer] = await engine.management.findJobs({ processInstanceId: timed.id });
    expect(newTimer).toMatchObject({ activityId: 'timerCatch', processDefinitionId: v2 });
    expect(newTimer.id).not.toBe(oldTimer.id);
    const subscriptions = await engine.management.findEventSubscriptions({ processInstanceId: timed.id });
    expect(subscriptions.map((each) => [each.activityId, each.eventName]).sort()).toEqual([
      ['messageCatch', 'msg'],
      ['newMessageCatch', 'newMsg'],
    ]);
    expect(subscriptions.find((each) => each.activityId === 'messageCatch')!.id).toBe(oldSubscription.id);
    await engine.management.executeJob(newTimer.id);
    await engine.task.complete((await taskOf(engine, timed.id, 'afterTimer'))!.id);
    expect(await engine.runtime.getProcessInstance(timed.id)).toBeNull();

    await engine.message.correlate({ messageName: 'newMsg', processInstanceId: messaged.id });
    await engine.task.complete((await taskOf(engine, messaged.id, 'afterNewMessage'))!.id);
    expect(await engine.runtime.getProcessInstance(messaged.id)).toBeNull();
  });

  // Camunda's ActivityInstanceJobHandler: isNoTimeoutListenerOrMigrates, setTimerElementKey, addEmergingTimeoutListenerJobs.
  it('moves timeout listener timers to the target task, drops those it lacks and creates those it adds', async () => {
    const { engine, v1, v2 } = await deployBoth(timeouts('answer', { reminder: 'PT1H', gone: 'PT1H' }), timeouts('reply', { reminder: 'PT1H', nudge: 'PT3H' }));
    const started = await engine.runtime.startProcessInstanceById(v1);
    const before = await engine.management.findJobs({ processInstanceId: started.id });
    const reminder = before.find((each) => each.handlerConfiguration === 'answer$reminder')!;

    await engine.migration.execute(plan(v1, v2, instruction('answer', 'reply')), { processInstanceIds: [started.id] });

    const jobs = await engine.management.findJobs({ processInstanceId: started.id });
    expect(jobs.map((each) => [each.handlerConfiguration, each.activityId]).sort()).toEqual([
      ['reply$nudge', 'reply'],
      ['reply$reminder', 'reply'],
    ]);
    expect(jobs.find((each) => each.handlerConfiguration === 'reply$reminder')).toMatchObject({ id: reminder.id, dueDate: reminder.dueDate });
    const nudge = jobs.find((each) => each.handlerConfiguration === 'reply$nudge')!;
    expect(nudge.dueDate!.getTime() - engine.clock.now().getTime()).toBe(3 * HOUR);
    expect((await engine.jobDefinition.getJobDefinition(nudge.jobDefinitionId!))?.processDefinitionId).toBe(v2);

    await engine.management.executeJob(reminder.id);
    expect((await engine.runtime.getVariables(started.id)).fired).toMatchObject({ value: 'reminder' });
  });

  // Camunda's MigrationEventSubProcessTest.testUpdateEventMessageWithExpression / testUpdateEventSignalWithExpression, TimerDeclarationImpl.updateJob.
  it('evaluates the target declaration of updated triggers on their execution: names and timers from expressions, a cycle repeats', async () => {
    const { engine, v1, v2 } = await deployBoth(boundaries('m1', 'Duration', 'PT1H'), boundaries('new-${suffix}', 'Cycle', '${cycle}'));
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { suffix: string('foo'), cycle: string('R3/PT2H') } });
    const updating = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, updateEventTriggers: true });

    await engine.migration.execute(updating, { processInstanceIds: [started.id] });

    const subscriptions = await engine.management.findEventSubscriptions({ processInstanceId: started.id });
    expect(subscriptions.map((each) => [each.activityId, each.eventName]).sort()).toEqual([
      ['onMessage', 'new-foo'],
      ['signalledStart', 'new-foo-signal'],
    ]);
    const [job] = await engine.management.findJobs({ processInstanceId: started.id });
    expect(job.dueDate!.getTime() - engine.clock.now().getTime()).toBe(2 * HOUR);
    expect(job.repeat).toMatch(/^R3\/.+\/PT2H$/);
    await engine.message.correlate({ messageName: 'new-foo', processInstanceId: started.id });
    await engine.message.signal({ name: 'new-foo-signal' });
    expect((await engine.task.findTasks({ processInstanceId: started.id })).map((each) => each.taskDefinitionKey).sort()).toEqual(['signalledTask', 'task']);
  });

  // Camunda's MigratingJobInstance.migrateState and MigratingIncident.migrateState.
  it('keeps the failed activity of a job and its incident, and the job definition when the target has none', async () => {
    const failing = (id: string) =>
      wrap('failing', `<bpmn:startEvent id="start" />${flow('f1', 'start', id)}<bpmn:serviceTask id="${id}" camunda:asyncBefore="true" camunda:class="com.example.Decline" />${flow('f2', id, 'end')}<bpmn:endEvent id="end" />`);
    const { engine, v1, v2 } = await deployBoth(failing('charge'), failing('bill'));
    engine.delegates.registerClass('com.example.Decline', () => {
      throw new Error('declined');
    });
    const started = await engine.runtime.startProcessInstanceById(v1);
    for (let i = 0; i < 3; i++) await engine.jobExecutor.runDueJobs();
    const [jobBefore] = await engine.management.findJobs({ processInstanceId: started.id });
    expect(jobBefore).toMatchObject({ retries: 0, failedActivityId: 'charge' });
    // A target without the job definition (as definitions deployed before Camunda had them).
    await (engine as unknown as { container: { get: (key: unknown) => CommandExecutor } }).container.get(CommandExecutor).run('DropJobDefinitionForTest', async (ctx) => {
      await ctx.trx.deleteFrom('trellis_job_definition').where('proc_def_id', '=', v2).execute();
    });

    await engine.migration.execute(plan(v1, v2, instruction('charge', 'bill')), { processInstanceIds: [started.id] });

    const [job] = await engine.management.findJobs({ processInstanceId: started.id });
    expect(job).toMatchObject({ id: jobBefore.id, activityId: 'bill', failedActivityId: 'charge', jobDefinitionId: jobBefore.jobDefinitionId, processDefinitionId: v2 });
    const [incident] = await engine.management.findIncidents({ processInstanceId: started.id });
    expect(incident).toMatchObject({ activityId: 'bill', failedActivityId: 'charge', processDefinitionId: v2, jobDefinitionId: null });
  });
});
