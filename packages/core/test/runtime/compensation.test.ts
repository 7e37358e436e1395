import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { ParseException } from '../../src/errors/exceptions.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

/** An activity with a compensation boundary event associated with its handler. */
const compensable = (id: string, activity: string, handler: string) =>
  `${activity}
   <bpmn:boundaryEvent id="${id}Compensation" attachedToRef="${id}"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
   ${handler}
   <bpmn:association id="${id}Association" associationDirection="One" sourceRef="${id}Compensation" targetRef="undo_${id}" />`;

/** A script handler that appends its name to the variable 'undone'. */
const undoScript = (id: string) =>
  `<bpmn:scriptTask id="undo_${id}" isForCompensation="true" scriptFormat="javascript"><bpmn:script>execution.setVariable('undone', (execution.getVariable('undone') || '') + '${id},')</bpmn:script></bpmn:scriptTask>`;

/** The saga: hotel, then flight (both user tasks), then `thrower` compensates, then `after`. */
const saga = (key: string, thrower: string, handlers: { hotel: string; flight: string } = { hotel: undoScript('hotel'), flight: undoScript('flight') }) =>
  wrap(
    key,
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'hotel')}
     ${compensable('hotel', '<bpmn:userTask id="hotel" />', handlers.hotel)}
     ${flow('f2', 'hotel', 'flight')}
     ${compensable('flight', '<bpmn:userTask id="flight" />', handlers.flight)}
     ${flow('f3', 'flight', 'undo')}${thrower}${flow('f4', 'undo', 'after')}<bpmn:userTask id="after" />${flow('f5', 'after', 'end')}<bpmn:endEvent id="end" />`,
  );

const throwAll = '<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

describe.each(testStoreConfigs())('compensation on $name', (testStore) => {
  async function deployed(...xmls: string[]) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), scripting: { enabled: true } });
    engines.push(engine);
    for (const [i, xml] of xmls.entries()) await engine.deployment.deploy({ resources: [{ name: `m${i}.bpmn`, bytes: Buffer.from(xml) }] });
    return engine;
  }
  async function started(key: string, xml: string) {
    const engine = await deployed(xml);
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    return { engine, instance };
  }
  const tasksOf = async (engine: ProcessEngine, processInstanceId: string) =>
    (await engine.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey).sort();
  async function complete(engine: ProcessEngine, processInstanceId: string, ...keys: string[]) {
    for (const key of keys) {
      const [task] = await engine.task.findTasks({ processInstanceId, taskDefinitionKey: key });
      await engine.task.complete(task.id);
    }
  }

  it('compensates the completed activities of the scope, newest first, and goes on', async () => {
    const { engine, instance } = await started('saga', saga('saga', throwAll));
    await complete(engine, instance.id, 'hotel');
    const subscriptions = await engine.management.findEventSubscriptions({ processInstanceId: instance.id });
    await complete(engine, instance.id, 'flight');

    expect(subscriptions).toMatchObject([{ eventType: 'compensate', activityId: 'undo_hotel', executionId: instance.id, eventName: null }]);
    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'flight,hotel,' });
    expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toEqual([]);
    const history = await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'undo' });
    expect(history).toMatchObject([{ activityType: 'intermediateCompensationThrowEvent', canceled: false }]);
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'undo_flight' })).toMatchObject([{ activityType: 'scriptTask' }]);
  });

  it('waits at the throw event until every handler that waits (user tasks) is done', async () => {
    const userHandler = (id: string) => `<bpmn:userTask id="undo_${id}" isForCompensation="true" />`;
    const { engine, instance } = await started('waiting', saga('waiting', throwAll, { hotel: userHandler('hotel'), flight: userHandler('flight') }));
    await complete(engine, instance.id, 'hotel', 'flight');

    expect(await tasksOf(engine, instance.id)).toEqual(['undo_flight', 'undo_hotel']);
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    expect(tree!.childActivityInstances.map((child) => child.activityId).sort()).toEqual(['undo', 'undo_flight', 'undo_hotel']);

    await complete(engine, instance.id, 'undo_flight');
    expect(await tasksOf(engine, instance.id)).toEqual(['undo_hotel']);
    await complete(engine, instance.id, 'undo_hotel');
    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
  });

  it('compensates only the activity an activityRef names, and ends at a compensation end event', async () => {
    const thrower = '<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="hotel" /></bpmn:intermediateThrowEvent>';
    const { engine, instance } = await started('onlyHotel', saga('onlyHotel', thrower));
    await complete(engine, instance.id, 'hotel', 'flight');

    expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'hotel,' });
    expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toMatchObject([{ activityId: 'undo_flight' }]);

    const ending = saga('ending', '<bpmn:endEvent id="undo"><bpmn:compensateEventDefinition /></bpmn:endEvent>').replace(flow('f4', 'undo', 'after'), '');
    const { engine: other, instance: second } = await started('ending', ending);
    await complete(other, second.id, 'hotel', 'flight');
    const finished = await other.history.getHistoricProcessInstance(second.id);
    expect(finished).toMatchObject({ state: 'COMPLETED' });
    expect(await other.history.findHistoricActivityInstances({ processInstanceId: second.id, activityId: 'undo' })).toMatchObject([{ activityType: 'compensationEndEvent' }]);
  });

  it('compensates nothing for an activity that did not complete, and passes the throw event at once', async () => {
    const { engine, instance } = await started('nothing', saga('nothing', throwAll).replace(flow('f1', 'start', 'hotel'), flow('f1', 'start', 'undo')));

    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    expect((await engine.runtime.getVariables(instance.id)).undone).toBeUndefined();
  });

  it('compensates inside a sub-process the activities completed there', async () => {
    const xml = wrap(
      'inSub',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
       <bpmn:subProcess id="sub"><bpmn:startEvent id="s" />${flow('s1', 's', 'hotel')}
         ${compensable('hotel', '<bpmn:userTask id="hotel" />', undoScript('hotel'))}${flow('s2', 'hotel', 'undo')}${throwAll}${flow('s3', 'undo', 'se')}<bpmn:endEvent id="se" />
       </bpmn:subProcess>
       ${flow('f2', 'sub', 'after')}<bpmn:userTask id="after" />`,
    );
    const { engine, instance } = await started('inSub', xml);
    await complete(engine, instance.id, 'hotel');

    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'hotel,' });
    expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toEqual([]);
  });

  it('compensates a completed sub-process from outside: it is entered again and compensates what completed inside', async () => {
    const userHandler = (id: string) => `<bpmn:userTask id="undo_${id}" isForCompensation="true" />`;
    const xml = wrap(
      'outside',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'flight')}
       ${compensable('flight', '<bpmn:userTask id="flight" />', undoScript('flight'))}${flow('f2', 'flight', 'sub')}
       <bpmn:subProcess id="sub"><bpmn:startEvent id="s" />${flow('s1', 's', 'hotel')}
         ${compensable('hotel', '<bpmn:userTask id="hotel" />', userHandler('hotel'))}${flow('s2', 'hotel', 'car')}
         ${compensable('car', '<bpmn:userTask id="car" />', undoScript('car'))}${flow('s3', 'car', 'se')}<bpmn:endEvent id="se" />
       </bpmn:subProcess>
       ${flow('f3', 'sub', 'undo')}${throwAll}${flow('f4', 'undo', 'after')}<bpmn:userTask id="after" />`,
    );
    const { engine, instance } = await started('outside', xml);
    await complete(engine, instance.id, 'flight', 'hotel', 'car');
    const completedSub = await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'sub' });

    // newest first, all at once as Camunda's loop does: the sub-process (car at once, hotel waits), then flight
    // the completed run of the sub-process, and its run for compensation (still going)
    expect(completedSub.map((each) => [each.canceled, each.endTime === null]).sort()).toEqual([[false, false], [false, true]]);
    expect(await tasksOf(engine, instance.id)).toEqual(['undo_hotel']);
    expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'car,flight,' });
    const tree = await engine.runtime.getActivityInstanceTree(instance.id);
    const sub = tree!.childActivityInstances.find((child) => child.activityId === 'sub');
    expect(sub?.childActivityInstances.map((child) => child.activityId)).toEqual(['undo_hotel']);

    await complete(engine, instance.id, 'undo_hotel');

    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'car,flight,' });
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'sub' })).toMatchObject([
      { canceled: false },
      { canceled: false },
    ]);
  });

  it("gives the handlers inside a compensated sub-process the sub-process's local variables as they were when it completed", async () => {
    const xml = wrap(
      'snapshot',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
       <bpmn:subProcess id="sub">
         <bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter name="booking">B-1</camunda:inputParameter></camunda:inputOutput></bpmn:extensionElements>
         <bpmn:startEvent id="s" />${flow('s1', 's', 'hotel')}
         ${compensable('hotel', '<bpmn:userTask id="hotel" />', '<bpmn:userTask id="undo_hotel" isForCompensation="true" />')}${flow('s2', 'hotel', 'se')}<bpmn:endEvent id="se" />
       </bpmn:subProcess>
       ${flow('f2', 'sub', 'confirm')}<bpmn:userTask id="confirm" />${flow('f3', 'confirm', 'undo')}${throwAll}${flow('f4', 'undo', 'after')}<bpmn:userTask id="after" />`,
    );
    const { engine, instance } = await started('snapshot', xml);
    const [hotel] = await engine.task.findTasks({ processInstanceId: instance.id, taskDefinitionKey: 'hotel' });
    // Set where it lives: the sub-process's local variable changes, then the sub-process completes.
    await engine.task.complete(hotel.id, { booking: { type: 'string', value: 'B-2', valueInfo: {} }, when: { type: 'date', value: new Date('2026-01-02T03:04:05.000Z'), valueInfo: {} } });
    expect(await engine.runtime.getVariables(instance.id)).not.toHaveProperty('booking');

    await complete(engine, instance.id, 'confirm');
    const [undo] = await engine.task.findTasks({ processInstanceId: instance.id, taskDefinitionKey: 'undo_hotel' });
    const seen = await engine.task.getVariables(undo.id);
    expect(seen.booking).toMatchObject({ type: 'string', value: 'B-2' });
    expect(seen.when).toMatchObject({ type: 'date', value: new Date('2026-01-02T03:04:05.000Z') });

    await engine.task.complete(undo.id);
    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    // The snapshot went with the compensated scope.
    expect(Object.keys(await engine.runtime.getVariables(instance.id)).sort()).toEqual(['when']);
  });

  it("runs a sub-process's compensation event sub-process when it is compensated; its throw event compensates what completed inside", async () => {
    const note = (id: string) =>
      `<bpmn:scriptTask id="${id}" scriptFormat="javascript"><bpmn:script>execution.setVariable('undone', (execution.getVariable('undone') || '') + '${id},')</bpmn:script></bpmn:scriptTask>`;
    const xml = wrap(
      'byEventSub',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
       <bpmn:subProcess id="sub"><bpmn:startEvent id="s" />${flow('s1', 's', 'hotel')}
         ${compensable('hotel', '<bpmn:userTask id="hotel" />', undoScript('hotel'))}${flow('s2', 'hotel', 'se')}<bpmn:endEvent id="se" />
         <bpmn:subProcess id="onCompensation" triggeredByEvent="true">
           <bpmn:startEvent id="compensationStart"><bpmn:compensateEventDefinition /></bpmn:startEvent>${flow('e1', 'compensationStart', 'esp')}${note('esp')}
           ${flow('e2', 'esp', 'inner')}<bpmn:intermediateThrowEvent id="inner"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>
           ${flow('e3', 'inner', 'espEnd')}<bpmn:endEvent id="espEnd" />
         </bpmn:subProcess>
       </bpmn:subProcess>
       ${flow('f2', 'sub', 'undo')}${throwAll}${flow('f3', 'undo', 'after')}<bpmn:userTask id="after" />`,
    );
    const { engine, instance } = await started('byEventSub', xml);
    await complete(engine, instance.id, 'hotel');

    expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'esp,hotel,' });
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'compensationStart' })).toMatchObject([{ activityType: 'compensationStartEvent' }]);
    expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toEqual([]);
  });

  it('runs the handlers from an error event sub-process, for the scope around it', async () => {
    const xml = wrap(
      'onError',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'hotel')}
       ${compensable('hotel', '<bpmn:userTask id="hotel" />', undoScript('hotel'))}
       ${flow('f2', 'hotel', 'fail')}<bpmn:endEvent id="fail"><bpmn:errorEventDefinition errorRef="boom" /></bpmn:endEvent>
       <bpmn:subProcess id="onFailure" triggeredByEvent="true">
         <bpmn:startEvent id="caught"><bpmn:errorEventDefinition errorRef="boom" /></bpmn:startEvent>
         ${flow('e1', 'caught', 'undo')}${throwAll}${flow('e2', 'undo', 'handled')}<bpmn:userTask id="handled" />
       </bpmn:subProcess>`,
      '<bpmn:error id="boom" errorCode="BOOM" />',
    );
    const { engine, instance } = await started('onError', xml);
    await complete(engine, instance.id, 'hotel');

    expect(await tasksOf(engine, instance.id)).toEqual(['handled']);
    expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'hotel,' });
  });

  it('compensates every completed instance of a multi-instance activity, also by activityRef', async () => {
    const multi = (key: string, thrower: string) =>
      wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'hotel')}
         ${compensable('hotel', '<bpmn:serviceTask id="hotel" camunda:expression="${true}"><bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>3</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:serviceTask>', undoScript('hotel'))}
         ${flow('f2', 'hotel', 'undo')}${thrower}${flow('f3', 'undo', 'after')}<bpmn:userTask id="after" />`,
      );
    const byRef = '<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="hotel" /></bpmn:intermediateThrowEvent>';
    const engine = await deployed(multi('multiAll', throwAll), multi('multiRef', byRef));
    for (const key of ['multiAll', 'multiRef']) {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      const instance = await engine.runtime.startProcessInstanceById(definition.id);

      expect(await tasksOf(engine, instance.id)).toEqual(['after']);
      expect((await engine.runtime.getVariables(instance.id)).undone).toMatchObject({ value: 'hotel,hotel,hotel,' });
      const bodies = await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'hotel#multiInstanceBody' });
      expect(bodies.map((each) => each.canceled)).toEqual([false, false]);
    }
  });

  it('cancels a transaction at a cancel end event: compensates what completed inside, then takes the cancel boundary event', async () => {
    const transaction = (key: string, handler = undoScript('book')) =>
      wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'tx')}
         <bpmn:transaction id="tx"><bpmn:startEvent id="txStart" />${flow('t1', 'txStart', 'book')}
           ${compensable('book', '<bpmn:userTask id="book" />', handler)}${flow('t2', 'book', 'decide')}
           <bpmn:exclusiveGateway id="decide" default="t4" />${flow('t3', 'decide', 'cancel', '${abort}')}${flow('t4', 'decide', 'txEnd')}
           <bpmn:endEvent id="cancel"><bpmn:cancelEventDefinition /></bpmn:endEvent><bpmn:endEvent id="txEnd" />
         </bpmn:transaction>
         <bpmn:boundaryEvent id="cancelled" attachedToRef="tx"><bpmn:cancelEventDefinition /></bpmn:boundaryEvent>
         ${flow('f2', 'cancelled', 'afterCancel')}<bpmn:userTask id="afterCancel" />${flow('f3', 'tx', 'done')}<bpmn:userTask id="done" />`,
      );
    const engine = await deployed(transaction('booking'));
    const [definition] = await engine.processDefinition.findProcessDefinitions({ key: 'booking' });
    const run = async (abort: boolean) => {
      const instance = await engine.runtime.startProcessInstanceById(definition.id, { variables: { abort: { type: 'boolean', value: abort, valueInfo: {} } } });
      await complete(engine, instance.id, 'book');
      return instance.id;
    };
    const [aborted, committed] = [await run(true), await run(false)];

    expect(await tasksOf(engine, aborted)).toEqual(['afterCancel']);
    expect((await engine.runtime.getVariables(aborted)).undone).toMatchObject({ value: 'book,' });
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: aborted, activityId: 'tx' })).toMatchObject([{ activityType: 'transaction', canceled: true }]);
    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: aborted, activityId: 'cancelled' })).toMatchObject([{ activityType: 'cancelBoundaryCatch' }]);
    expect(await tasksOf(engine, committed)).toEqual(['done']);
    expect((await engine.runtime.getVariables(committed)).undone).toBeUndefined();

    // A handler that waits: the transaction is cancelled once it is done.
    const { engine: other, instance } = await started('waitingTx', transaction('waitingTx', '<bpmn:userTask id="undo_book" isForCompensation="true" />'));
    await other.runtime.modifyVariables(instance.id, { abort: { type: 'boolean', value: true, valueInfo: {} } });
    await complete(other, instance.id, 'book');
    expect(await tasksOf(other, instance.id)).toEqual(['undo_book']);
    await complete(other, instance.id, 'undo_book');
    expect(await tasksOf(other, instance.id)).toEqual(['afterCancel']);
  });

  it("runs a sub-process's own handler and, when compensating the scope, also what completed inside; by activityRef only its handler", async () => {
    const userHandler = (id: string) => `<bpmn:userTask id="undo_${id}" isForCompensation="true" />`;
    const model = (key: string, thrower: string) =>
      wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
         ${compensable(
           'sub',
           `<bpmn:subProcess id="sub"><bpmn:startEvent id="s" />${flow('s1', 's', 'hotel')}
              ${compensable('hotel', '<bpmn:userTask id="hotel" />', undoScript('hotel'))}${flow('s2', 'hotel', 'se')}<bpmn:endEvent id="se" />
            </bpmn:subProcess>`,
           userHandler('sub'),
         )}
         ${flow('f2', 'sub', 'undo')}${thrower}${flow('f3', 'undo', 'after')}<bpmn:userTask id="after" />`,
      );
    const byRef = '<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="sub" /></bpmn:intermediateThrowEvent>';
    const engine = await deployed(model('ownAll', throwAll), model('ownRef', byRef));
    const run = async (key: string) => {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      const instance = await engine.runtime.startProcessInstanceById(definition.id);
      await complete(engine, instance.id, 'hotel');
      return instance.id;
    };

    // Camunda's ProcessInstanceModificationTest.testCompensationCreation: the handler and the inner one both run.
    const all = await run('ownAll');
    expect(await tasksOf(engine, all)).toEqual(['undo_sub']);
    expect((await engine.runtime.getVariables(all)).undone).toMatchObject({ value: 'hotel,' });
    await complete(engine, all, 'undo_sub');
    expect(await tasksOf(engine, all)).toEqual(['after']);
    expect(await engine.management.findEventSubscriptions({ processInstanceId: all })).toEqual([]);

    // CompensateEventTest.testCompensateSubprocessWithBoundaryEvent: activityRef = the sub-process runs its handler only.
    const onlyOwn = await run('ownRef');
    expect(await tasksOf(engine, onlyOwn)).toEqual(['undo_sub']);
    await complete(engine, onlyOwn, 'undo_sub');
    expect(await tasksOf(engine, onlyOwn)).toEqual(['after']);
    expect((await engine.runtime.getVariables(onlyOwn)).undone).toBeUndefined();
    // What completed inside stays compensable (Camunda keeps its event scope).
    expect(await engine.management.findEventSubscriptions({ processInstanceId: onlyOwn })).toMatchObject([{ eventType: 'compensate', activityId: 'sub' }]);
  });

  describe.each([
    ['parallel', 'false'],
    ['sequential', 'true'],
  ])('a %s multi-instance sub-process', (_kind, sequential) => {
    /** A multi-instance sub-process over three rooms; each instance books its room (a local variable) with a compensable task. */
    const rooms = (key: string, parts: { inside?: string; eventSub?: string; own?: string; thrower?: string | null } = {}) => {
      const thrower = parts.thrower === undefined ? throwAll : parts.thrower;
      const handler = `<bpmn:scriptTask id="undo_hotel" isForCompensation="true" scriptFormat="javascript"><bpmn:script>execution.setVariable('undone', (execution.getVariable('undone') || '') + execution.getVariable('booked') + ',')</bpmn:script></bpmn:scriptTask>`;
      return wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
         <bpmn:subProcess id="sub">
           <bpmn:extensionElements><camunda:inputOutput><camunda:inputParameter name="booked">\${room}</camunda:inputParameter></camunda:inputOutput></bpmn:extensionElements>
           <bpmn:multiInstanceLoopCharacteristics isSequential="${sequential}" camunda:collection="rooms" camunda:elementVariable="room" />
           <bpmn:startEvent id="s" />${flow('s1', 's', 'hotel')}
           ${compensable('hotel', '<bpmn:serviceTask id="hotel" camunda:expression="${true}" />', handler)}
           ${parts.inside ? `${flow('s2', 'hotel', 'inner')}${parts.inside}${flow('s3', 'inner', 'se')}` : flow('s2', 'hotel', 'se')}<bpmn:endEvent id="se" />
           ${parts.eventSub ?? ''}
         </bpmn:subProcess>${parts.own ?? ''}
         ${thrower === null ? flow('f2', 'sub', 'after') : `${flow('f2', 'sub', 'undo')}${thrower}${flow('f3', 'undo', 'after')}`}<bpmn:userTask id="after" />`,
      );
    };
    async function startedWithRooms(engine: ProcessEngine, key: string) {
      const [definition] = await engine.processDefinition.findProcessDefinitions({ key });
      return engine.runtime.startProcessInstanceById(definition.id, { variables: { rooms: { type: 'json', value: '["r1","r2","r3"]', valueInfo: {} } } });
    }
    const undone = async (engine: ProcessEngine, id: string) => String((await engine.runtime.getVariables(id)).undone?.value ?? '').split(',').filter(Boolean);

    it('compensates what completed in every instance, each handler seeing its instance variables; also by activityRef', async () => {
      const byRef = '<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="sub" /></bpmn:intermediateThrowEvent>';
      const engine = await deployed(rooms('miAll'), rooms('miRef', { thrower: byRef }));
      for (const key of ['miAll', 'miRef']) {
        const instance = await startedWithRooms(engine, key);

        expect(await tasksOf(engine, instance.id)).toEqual(['after']);
        // Camunda's testCompensateMiSubprocessVariableSnapshots: one handler per instance, newest first.
        expect(await undone(engine, instance.id)).toEqual(['r3', 'r2', 'r1']);
        expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'undo_hotel' })).toHaveLength(3);
        expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toEqual([]);
      }
    });

    it('compensates inside one instance only what completed in it', async () => {
      const inside = '<bpmn:intermediateThrowEvent id="inner"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>';
      const engine = await deployed(rooms('miInner', { inside, thrower: null }));
      const instance = await startedWithRooms(engine, 'miInner');

      expect(await tasksOf(engine, instance.id)).toEqual(['after']);
      expect((await undone(engine, instance.id)).sort()).toEqual(['r1', 'r2', 'r3']);
      expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toEqual([]);
    });

    it("runs the sub-process's own handler once per instance, with what completed inside it", async () => {
      const own = `<bpmn:boundaryEvent id="subCompensation" attachedToRef="sub"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
        <bpmn:userTask id="undo_sub" isForCompensation="true" />
        <bpmn:association id="subAssociation" associationDirection="One" sourceRef="subCompensation" targetRef="undo_sub" />`;
      const engine = await deployed(rooms('miOwn', { own }));
      const instance = await startedWithRooms(engine, 'miOwn');

      expect(await tasksOf(engine, instance.id)).toEqual(['undo_sub', 'undo_sub', 'undo_sub']);
      expect((await undone(engine, instance.id)).sort()).toEqual(['r1', 'r2', 'r3']);
      const tree = await engine.runtime.getActivityInstanceTree(instance.id);
      const body = tree!.childActivityInstances.find((child) => child.activityId === 'sub#multiInstanceBody');
      expect(body?.childActivityInstances.map((child) => child.activityId)).toEqual(['undo_sub', 'undo_sub', 'undo_sub']);
      for (const task of await engine.task.findTasks({ processInstanceId: instance.id })) await engine.task.complete(task.id);
      expect(await tasksOf(engine, instance.id)).toEqual(['after']);
    });

    it('runs the compensation event sub-process of every instance', async () => {
      const eventSub = `<bpmn:subProcess id="onCompensation" triggeredByEvent="true">
          <bpmn:startEvent id="compensationStart"><bpmn:compensateEventDefinition /></bpmn:startEvent>${flow('e1', 'compensationStart', 'compensateInside')}
          <bpmn:intermediateThrowEvent id="compensateInside"><bpmn:compensateEventDefinition /></bpmn:intermediateThrowEvent>${flow('e2', 'compensateInside', 'espEnd')}<bpmn:endEvent id="espEnd" />
        </bpmn:subProcess>`;
      const engine = await deployed(rooms('miEventSub', { eventSub }));
      const instance = await startedWithRooms(engine, 'miEventSub');

      expect(await tasksOf(engine, instance.id)).toEqual(['after']);
      expect((await undone(engine, instance.id)).sort()).toEqual(['r1', 'r2', 'r3']);
      expect(await engine.history.findHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'compensationStart' })).toHaveLength(3);
    });
  });

  it("refuses Camunda's invalid compensation models with its messages, and what Trellis cannot run yet", async () => {
    const engine = await deployed();
    const problems = async (xml: string) => {
      try {
        await engine.deployment.deploy({ resources: [{ name: 'bad.bpmn', bytes: Buffer.from(xml) }] });
        return [];
      } catch (error) {
        expect(error).toBeInstanceOf(ParseException);
        return (error as ParseException).message.split('\n* ').slice(1).map((line) => line.split(' | ')[0]);
      }
    };
    const notForCompensation = saga('p1', throwAll, { hotel: '<bpmn:task id="undo_hotel" />', flight: undoScript('flight') });
    const badRef = saga('p2', '<bpmn:intermediateThrowEvent id="undo"><bpmn:compensateEventDefinition activityRef="nowhere" /></bpmn:intermediateThrowEvent>');
    const withFlow = saga('p3', throwAll).replace('<bpmn:userTask id="after" />', `<bpmn:userTask id="after" />${flow('fx', 'undo_hotel', 'after')}`);
    const subProcess = wrap(
      'p4',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
       ${compensable('sub', `<bpmn:subProcess id="sub"><bpmn:startEvent id="s" />${flow('s1', 's', 'se')}<bpmn:endEvent id="se" /></bpmn:subProcess>`, undoScript('sub'))}
       ${flow('f2', 'sub', 'undo')}${throwAll}${flow('f3', 'undo', 'end')}<bpmn:endEvent id="end" />`,
    );

    // Camunda runs a sub-process handler of a sub-process twice, and never the handlers inside: refused.
    const subProcessHandler = `<bpmn:subProcess id="undo_sub" isForCompensation="true"><bpmn:startEvent id="us" />${flow('u1', 'us', 'ue')}<bpmn:endEvent id="ue" /></bpmn:subProcess>`;
    const handledBySubProcess = (key: string, inside: string) =>
      wrap(
        key,
        `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
         ${compensable('sub', `<bpmn:subProcess id="sub"><bpmn:startEvent id="s" />${flow('s1', 's', 'hotel')}${inside}${flow('s2', 'hotel', 'se')}<bpmn:endEvent id="se" /></bpmn:subProcess>`, subProcessHandler)}
         ${flow('f2', 'sub', 'undo')}${throwAll}${flow('f3', 'undo', 'end')}<bpmn:endEvent id="end" />`,
      );

    expect(await problems(notForCompensation)).toContain('compensation boundary catch must be connected to element with isForCompensation=true');
    expect(await problems(badRef)).toEqual(["Invalid attribute value for 'activityRef': no activity with id 'nowhere' in scope 'p2'"]);
    expect(await problems(withFlow)).toEqual([
      "Invalid outgoing sequence flow of compensation activity 'undo_hotel'. A compensation activity should not have an incoming or outgoing sequence flow.",
    ]);
    expect(await problems(subProcess)).toEqual([]);
    expect(await problems(handledBySubProcess('p5', '<bpmn:userTask id="hotel" />'))).toEqual([]);
    expect(await problems(handledBySubProcess('p8', compensable('hotel', '<bpmn:userTask id="hotel" />', undoScript('hotel'))))).toEqual([
      "Trellis cannot compensate the sub-process 'sub' with the sub-process 'undo_sub' as its handler while activities inside it are compensable (not supported yet)",
    ]);
    const atProcessLevel = wrap(
      'p6',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'end')}<bpmn:endEvent id="end" />
       <bpmn:subProcess id="onCompensation" triggeredByEvent="true">
         <bpmn:startEvent id="compensationStart"><bpmn:compensateEventDefinition /></bpmn:startEvent>${flow('e1', 'compensationStart', 'espEnd')}<bpmn:endEvent id="espEnd" />
       </bpmn:subProcess>`,
    );
    expect(await problems(atProcessLevel)).toEqual([
      'event subprocess with compensation start event is only supported for embedded subprocess (since throwing compensation through a call activity-induced process hierarchy is not supported)',
    ]);
    const cancelOutside = saga('p7', '<bpmn:endEvent id="undo"><bpmn:cancelEventDefinition /></bpmn:endEvent>').replace(flow('f4', 'undo', 'after'), '');
    expect(await problems(cancelOutside)).toEqual(['end event with cancelEventDefinition only supported inside transaction subprocess']);
    const cancelOnSubProcess = subProcess.replace('attachedToRef="sub"><bpmn:compensateEventDefinition />', 'attachedToRef="sub"><bpmn:cancelEventDefinition />').replace(/<bpmn:association[^>]*>/, '');
    expect(await problems(cancelOnSubProcess)).toContain('boundary event with cancelEventDefinition only supported on transaction subprocesses');
  });
});
