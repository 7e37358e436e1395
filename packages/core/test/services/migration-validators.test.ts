import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';
import { MigratingProcessInstanceValidationException } from '../../src/services/migration/migration-plan.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const MI = '#multiInstanceBody';
const loop = '<bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>';
const timer = '<bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition>';
const model = (body: string, extra = '') => wrap('validators', body, extra);

/** start → `body` → end, where `body` is a list of nodes chained by sequence flows. */
const chain = (...nodes: [id: string, xml: string][]) => {
  const ids = ['start', ...nodes.map(([id]) => id), 'end'];
  const flows = ids.slice(1).map((id, index) => flow(`f_${ids[index]}_${id}`, ids[index], id));
  return `<bpmn:startEvent id="start" />${nodes.map(([, xml]) => xml).join('')}<bpmn:endEvent id="end" />${flows.join('')}`;
};
const userTask = (id: string, inner = ''): [string, string] => [id, `<bpmn:userTask id="${id}">${inner}</bpmn:userTask>`];
/** A sub-process around one user task `taskId`; `head` goes first (e.g. loop characteristics). */
const subProcess = (id: string, taskId: string, head = ''): [string, string] => [
  id,
  `<bpmn:subProcess id="${id}">${head}<bpmn:startEvent id="${id}Start" /><bpmn:userTask id="${taskId}" /><bpmn:endEvent id="${id}End" />
   ${flow(`${id}_in`, `${id}Start`, taskId)}${flow(`${id}_out`, taskId, `${id}End`)}</bpmn:subProcess>`,
];
/** A task with one boundary event `evt` carrying `definition`. */
const withBoundary = (definition: string) =>
  `${chain(userTask('task'))}<bpmn:boundaryEvent id="evt" attachedToRef="task">${definition}</bpmn:boundaryEvent>${flow('b1', 'evt', 'late')}<bpmn:endEvent id="late" />`;
/** start → fork → a, b → join → end (or a → joinA, b → joinB with `split`). */
const forkJoin = (split = false) =>
  split
    ? `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />${flow('f1', 'fork', 'a')}${flow('f2', 'fork', 'b')}
       <bpmn:userTask id="a" />${flow('f3', 'a', 'joinA')}<bpmn:parallelGateway id="joinA" />${flow('f4', 'joinA', 'endA')}<bpmn:endEvent id="endA" />
       <bpmn:userTask id="b" />${flow('f5', 'b', 'joinB')}<bpmn:parallelGateway id="joinB" />${flow('f6', 'joinB', 'endB')}<bpmn:endEvent id="endB" />`
    : `<bpmn:startEvent id="start" />${flow('f0', 'start', 'fork')}<bpmn:parallelGateway id="fork" />${flow('f1', 'fork', 'a')}${flow('f2', 'fork', 'b')}
       <bpmn:userTask id="a" />${flow('f3', 'a', 'join')}<bpmn:userTask id="b" />${flow('f4', 'b', 'join')}
       <bpmn:parallelGateway id="join" />${flow('f5', 'join', 'end')}<bpmn:endEvent id="end" />`;
/** start → sub (the fork/join pair inside) → end. */
const forkJoinInSub = `<bpmn:startEvent id="outerStart" />${flow('p0', 'outerStart', 'sub')}<bpmn:subProcess id="sub">${forkJoin()}</bpmn:subProcess>
  ${flow('p1', 'sub', 'outerEnd')}<bpmn:endEvent id="outerEnd" />`;
const MESSAGE = '<bpmn:message id="msg" name="msg" />';
/** start → event-based gateway gw → caught (message) / timed (timer) → end. */
const afterEventGateway = `<bpmn:startEvent id="start" />${flow('g0', 'start', 'gw')}<bpmn:eventBasedGateway id="gw" />
  ${flow('g1', 'gw', 'caught')}${flow('g2', 'gw', 'timed')}
  <bpmn:intermediateCatchEvent id="caught"><bpmn:messageEventDefinition messageRef="msg" /></bpmn:intermediateCatchEvent>
  <bpmn:intermediateCatchEvent id="timed">${timer}</bpmn:intermediateCatchEvent>
  ${flow('g3', 'caught', 'end')}${flow('g4', 'timed', 'end')}<bpmn:endEvent id="end" />`;
const conditional = '<bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">${go}</bpmn:condition></bpmn:conditionalEventDefinition>';

type Instruction = { sourceActivityId: string; targetActivityId: string; updateEventTrigger: boolean };
const map = (sourceActivityId: string, targetActivityId = sourceActivityId, updateEventTrigger = false): Instruction => ({ sourceActivityId, targetActivityId, updateEventTrigger });
const listed = (...pairs: [string, string][]) =>
  pairs.map(([source, target]) => `ValidatingMigrationInstructionImpl{sourceActivity=Activity(${source}), targetActivity=Activity(${target})}`).join(', ');

interface Case {
  validator: string;
  source: string;
  target: string;
  instructions: Instruction[];
  /** The instruction reports validate must return: the failing instructions, in plan order, with their failures. */
  reports: { instruction: Instruction; failures: string[] }[];
}

/** One case per Camunda default instruction validator (camunda-facts-2 §1.3), in engine order. */
const cases: Case[] = [
  {
    validator: '1 SameBehaviorInstructionValidator',
    source: model(chain(userTask('task'))),
    target: model(chain(['task', '<bpmn:receiveTask id="task" />'])),
    instructions: [map('task')],
    reports: [{ instruction: map('task'), failures: ['Activities have incompatible types (UserTaskActivityBehavior is not compatible with ReceiveTaskActivityBehavior)'] }],
  },
  {
    // Throwing events behave by what they throw: a signal end event is no none end event.
    validator: '1b SameBehaviorInstructionValidator (end events)',
    source: model(`${chain(['task', '<bpmn:userTask id="task" />'])}`.replace('<bpmn:endEvent id="end" />', '<bpmn:endEvent id="end" camunda:asyncBefore="true"><bpmn:signalEventDefinition signalRef="sig" /></bpmn:endEvent>'), '<bpmn:signal id="sig" name="sig" />'),
    target: model(`${chain(['task', '<bpmn:userTask id="task" />'])}`.replace('<bpmn:endEvent id="end" />', '<bpmn:endEvent id="end" camunda:asyncBefore="true" />')),
    instructions: [map('task'), map('end')],
    reports: [{ instruction: map('end'), failures: ['Activities have incompatible types (ThrowSignalEventActivityBehavior is not compatible with NoneEndEventActivityBehavior)'] }],
  },
  {
    validator: '2 SameEventTypeValidator',
    source: model(withBoundary(timer)),
    target: model(withBoundary('<bpmn:messageEventDefinition messageRef="msg" />'), '<bpmn:message id="msg" name="msg" />'),
    instructions: [map('task'), map('evt')],
    reports: [{ instruction: map('evt'), failures: ['Events are not of the same type (boundaryTimer != boundaryMessage)'] }],
  },
  {
    validator: '3 OnlyOnceMappedActivityInstructionValidator',
    source: model(chain(userTask('task'))),
    target: model(chain(userTask('task'), userTask('other'))),
    instructions: [map('task'), map('task', 'other')],
    reports: [map('task'), map('task', 'other')].map((instruction) => ({
      instruction,
      failures: [`There are multiple mappings for source activity id 'task': ${listed(['task', 'task'], ['task', 'other'])}`],
    })),
  },
  {
    validator: '4 CannotAddMultiInstanceBodyValidator',
    source: model(chain(userTask('task'))),
    target: model(chain(userTask('task', loop))),
    instructions: [map('task')],
    reports: [
      {
        instruction: map('task'),
        failures: [`Target activity 'task' is a descendant of multi-instance body 'task${MI}' that is not mapped from the source process definition.`],
      },
    ],
  },
  {
    // The MI task becomes an MI sub-process around it: the new body's inner activity (the sub-process) is not mapped.
    validator: '5 CannotAddMultiInstanceInnerActivityValidator',
    source: model(chain(userTask('task', loop))),
    target: model(chain(subProcess('sub', 'task', loop))),
    instructions: [map(`task${MI}`, `sub${MI}`), map('task')],
    reports: [{ instruction: map(`task${MI}`, `sub${MI}`), failures: ['Must map the inner activity of a multi-instance body when the body is mapped'] }],
  },
  {
    // The reverse: an MI sub-process around the task becomes an MI task; the old body's inner activity is not mapped.
    validator: '6 CannotRemoveMultiInstanceInnerActivityValidator',
    source: model(chain(subProcess('sub', 'task', loop))),
    target: model(chain(userTask('task', loop))),
    instructions: [map(`sub${MI}`, `task${MI}`), map('task')],
    reports: [{ instruction: map(`sub${MI}`, `task${MI}`), failures: ['Cannot remove the inner activity of a multi-instance body when the body is mapped'] }],
  },
  {
    validator: '7a GatewayMappingValidator (incoming flows)',
    source: model(forkJoin()),
    target: model(chain(userTask('a'), ['join', '<bpmn:parallelGateway id="join" />'])),
    instructions: [map('join')],
    reports: [{ instruction: map('join'), failures: ['The target gateway must have at least the same number of incoming sequence flows that the source gateway has'] }],
  },
  {
    validator: '7b GatewayMappingValidator (flow scope mapped)',
    source: model(forkJoinInSub),
    target: model(forkJoinInSub),
    instructions: [map('join')],
    reports: [{ instruction: map('join'), failures: ["The gateway's flow scope 'sub' must be mapped"] }],
  },
  {
    validator: '7c GatewayMappingValidator (one gateway per target)',
    source: model(forkJoin(true)),
    target: model(forkJoin()),
    instructions: [map('joinA', 'join'), map('joinB', 'join')],
    reports: [map('joinA', 'join'), map('joinB', 'join')].map((instruction) => ({ instruction, failures: ["Only one gateway can be mapped to gateway 'join'"] })),
  },
  {
    validator: '8 SameEventScopeInstructionValidator',
    source: model(withBoundary(timer)),
    target: model(withBoundary(timer)),
    instructions: [map('evt')],
    reports: [{ instruction: map('evt'), failures: ["The source activity's event scope (task) must be mapped to the target activity's event scope (task)"] }],
  },
  {
    // An event behind an event-based gateway has the gateway as its event scope.
    validator: '8b SameEventScopeInstructionValidator (event-based gateway)',
    source: model(afterEventGateway, MESSAGE),
    target: model(afterEventGateway, MESSAGE),
    instructions: [map('caught')],
    reports: [{ instruction: map('caught'), failures: ["The source activity's event scope (gw) must be mapped to the target activity's event scope (gw)"] }],
  },
  {
    // A catch event (no gateway before it) is its own event scope; a user task has none.
    validator: '8c SameEventScopeInstructionValidator (catch event to a task)',
    source: model(chain(['wait', `<bpmn:intermediateCatchEvent id="wait">${timer}</bpmn:intermediateCatchEvent>`])),
    target: model(chain(['wait', '<bpmn:userTask id="wait" />'])),
    instructions: [map('wait')],
    reports: [
      {
        instruction: map('wait'),
        failures: [
          'Activities have incompatible types (IntermediateCatchEventActivityBehavior is not compatible with UserTaskActivityBehavior)',
          "The source activity's event scope (wait) must be mapped but the target activity has no event scope",
        ],
      },
    ],
  },
  {
    // A receive task with a message defines a persistent trigger; mapped to itself, with the gateway mapped, all is valid.
    validator: '9b UpdateEventTriggersValidator (receive task with a message; gateway mapped)',
    source: model(`${chain(['rt', '<bpmn:receiveTask id="rt" messageRef="msg" />'])}`, MESSAGE),
    target: model(`${chain(['rt', '<bpmn:receiveTask id="rt" messageRef="msg" />'])}`, MESSAGE),
    instructions: [map('rt', 'rt', true)],
    reports: [],
  },
  {
    validator: '9 UpdateEventTriggersValidator',
    source: model(chain(userTask('task'))),
    target: model(chain(userTask('task'))),
    instructions: [map('task', 'task', true)],
    reports: [{ instruction: map('task', 'task', true), failures: ['Cannot update event trigger because the activity does not define a persistent event trigger'] }],
  },
  {
    validator: '10a AdditionalFlowScopeInstructionValidator (moved to another sub-process)',
    source: model(chain(subProcess('one', 'task'))),
    target: model(chain(subProcess('one', 'other'), subProcess('two', 'task'))),
    instructions: [map('one'), map('task')],
    reports: [{ instruction: map('task'), failures: ["The closest mapped ancestor 'one' is mapped to scope 'one' which is not an ancestor of target scope 'task'"] }],
  },
  {
    validator: '10b AdditionalFlowScopeInstructionValidator (moved out to the process)',
    source: model(chain(subProcess('one', 'task'))),
    target: model(chain(subProcess('one', 'other'), userTask('task'))),
    instructions: [map('one'), map('task')],
    reports: [{ instruction: map('task'), failures: ["The closest mapped ancestor 'one' is mapped to scope 'one' which is not an ancestor of target scope 'task'"] }],
  },
  {
    validator: '11 ConditionalEventUpdateEventTriggerValidator',
    source: model(chain(['cond', `<bpmn:intermediateCatchEvent id="cond">${conditional}</bpmn:intermediateCatchEvent>`])),
    target: model(chain(['cond', `<bpmn:intermediateCatchEvent id="cond">${conditional}</bpmn:intermediateCatchEvent>`])),
    instructions: [map('cond')],
    reports: [{ instruction: map('cond'), failures: ['Conditional event has to migrate with update event trigger.'] }],
  },
];

describe.each(testStoreConfigs())('migration instruction validators on $name', (testStore) => {
  async function deployPair(source: string, target: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) =>
      (await engine.deployment.deploy({ resources: [{ name: 'validators.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    return { engine, sourceId: await deploy(source), targetId: await deploy(target) };
  }

  it.each(cases)('$validator', async ({ source, target, instructions, reports }) => {
    const { engine, sourceId, targetId } = await deployPair(source, target);
    const report = await engine.migration.validate({ sourceProcessDefinitionId: sourceId, targetProcessDefinitionId: targetId, instructions });
    expect(report).toEqual({ instructionReports: reports, variableReports: {} });
  });

  it('generates instructions in the order Camunda parses the activities (a boundary event after its task, whatever the XML says)', async () => {
    const xml = model(
      `<bpmn:startEvent id="start" />${flow('b0', 'start', 'task')}<bpmn:boundaryEvent id="late" attachedToRef="task">${timer}</bpmn:boundaryEvent>
       <bpmn:endEvent id="lateEnd" />${flow('b1', 'late', 'lateEnd')}<bpmn:userTask id="task" />${flow('b2', 'task', 'end')}<bpmn:endEvent id="end" />`,
    );
    const { engine, sourceId, targetId } = await deployPair(xml, xml);

    const plan = await engine.migration.generate({ sourceProcessDefinitionId: sourceId, targetProcessDefinitionId: targetId });

    expect(plan.instructions.map((each) => each.sourceActivityId)).toEqual(['task', 'late']);
  });

  // Camunda's SupportedActivityValidator.isAsync: a multi-instance activity's inner activity is asynchronous by its loop characteristics.
  it('generates instructions for an unsupported multi-instance activity whose instances are asynchronous', async () => {
    const asyncInstances = model(
      chain(['svc', `<bpmn:serviceTask id="svc" camunda:expression="\${true}"><bpmn:multiInstanceLoopCharacteristics camunda:asyncBefore="true"><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:serviceTask>`]),
    );
    const { engine, sourceId, targetId } = await deployPair(asyncInstances, asyncInstances);

    const plan = await engine.migration.generate({ sourceProcessDefinitionId: sourceId, targetProcessDefinitionId: targetId });

    expect(plan.instructions.map((each) => each.sourceActivityId).sort()).toEqual(['svc', `svc${MI}`]);
  });

  // Camunda's UpdateEventTriggersValidator: BpmnParse gives a process-level signal start event the process as event scope, and its declaration.
  it('accepts updateEventTrigger on a signal start event of the process, not on a message start event', async () => {
    const starts = model(
      `<bpmn:startEvent id="signalStart" camunda:asyncBefore="true"><bpmn:signalEventDefinition signalRef="sig" /></bpmn:startEvent>${flow('s1', 'signalStart', 'task')}
       <bpmn:startEvent id="messageStart" camunda:asyncBefore="true"><bpmn:messageEventDefinition messageRef="msg" /></bpmn:startEvent>${flow('s2', 'messageStart', 'task')}
       <bpmn:userTask id="task" />${flow('s3', 'task', 'end')}<bpmn:endEvent id="end" />`,
      `${MESSAGE}<bpmn:signal id="sig" name="sig" />`,
    );
    const { engine, sourceId, targetId } = await deployPair(starts, starts);

    const report = await engine.migration.validate({ sourceProcessDefinitionId: sourceId, targetProcessDefinitionId: targetId, instructions: [map('signalStart', 'signalStart', true), map('messageStart', 'messageStart', true)] });

    expect(report.instructionReports).toEqual([
      { instruction: map('messageStart', 'messageStart', true), failures: ['Cannot update event trigger because the activity does not define a persistent event trigger'] },
    ]);
  });

  it('migrates an instance waiting at an event-based gateway with the gateway and its events mapped', async () => {
    const { engine, sourceId, targetId } = await deployPair(model(afterEventGateway, MESSAGE), model(afterEventGateway, MESSAGE));
    const instance = await engine.runtime.startProcessInstanceById(sourceId);
    const plan = { sourceProcessDefinitionId: sourceId, targetProcessDefinitionId: targetId, instructions: [map('gw'), map('caught'), map('timed')] };
    expect(await engine.migration.validate(plan)).toEqual({ instructionReports: [], variableReports: {} });

    await engine.migration.execute(plan, { processInstanceIds: [instance.id] });
    await engine.message.correlate({ messageName: 'msg' });

    const [historic] = await engine.history.findHistoricProcessInstances({ processInstanceId: instance.id });
    expect(historic).toMatchObject({ processDefinitionId: targetId, state: 'COMPLETED' });
  });
});

// Camunda's compensation instance validator (facts-2 §1.6): a compensation subscription follows its boundary event.
describe.each(testStoreConfigs())('compensation on $name', (testStore) => {
  const compensable = model(
    `${chain(userTask('task'), userTask('next'))}<bpmn:boundaryEvent id="comp" attachedToRef="task"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
     <bpmn:userTask id="undo" isForCompensation="true" /><bpmn:association id="as1" associationDirection="One" sourceRef="comp" targetRef="undo" />`,
  );

  /**
   * Deploys both models, completes the first task of an instance of the first, then migrates it with
   * only `next` mapped (refused) and with the generated plan.
   */
  async function migrated(source: string, target: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'validators.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const [v1, v2] = [await deploy(source), await deploy(target)];
    const instance = await engine.runtime.startProcessInstanceById(v1);
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });
    await engine.task.complete(task.id);
    const refused = await engine.migration
      .execute({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [map('next')], variables: null }, { processInstanceIds: [instance.id] })
      .catch((caught: unknown) => caught);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    await engine.migration.execute(plan, { processInstanceIds: [instance.id] });
    return { engine, v2, instance, plan, refused };
  }

  it('migrates a compensation subscription with its boundary event, and refuses one whose boundary event is not mapped', async () => {
    const { engine, v2, instance, plan, refused } = await migrated(compensable, compensable.replace('id="undo"', 'id="undo2"').replace('targetRef="undo"', 'targetRef="undo2"'));

    expect(refused).toBeInstanceOf(MigratingProcessInstanceValidationException);
    expect((refused as MigratingProcessInstanceValidationException).validationReport.activityInstanceValidationReports).toEqual([
      {
        migrationInstruction: null,
        activityInstanceId: instance.id,
        sourceScopeId: expect.any(String),
        failures: ["Cannot migrate subscription for compensation handler 'undo'. There is no migration instruction for the compensation boundary event"],
      },
    ]);
    expect(plan.instructions).toContainEqual(map('comp'));
    expect(await engine.management.findEventSubscriptions({ processInstanceId: instance.id })).toMatchObject([{ eventType: 'compensate', activityId: 'undo2', processDefinitionId: v2 }]);
  });

  it('migrates the subscription of a completed sub-process with what completed inside it, or refuses it unmapped', async () => {
    const inSub = (handler: string) =>
      model(
        `${chain(subProcess('sub', 'task'), userTask('next'))}`.replace(
          '<bpmn:endEvent id="subEnd" />',
          `<bpmn:endEvent id="subEnd" /><bpmn:boundaryEvent id="comp" attachedToRef="task"><bpmn:compensateEventDefinition /></bpmn:boundaryEvent>
           <bpmn:userTask id="${handler}" isForCompensation="true" /><bpmn:association id="as1" associationDirection="One" sourceRef="comp" targetRef="${handler}" />`,
        ),
      );
    const { engine, v2, instance, refused } = await migrated(inSub('undo'), inSub('undo2'));
    const [subscription] = await engine.management.findEventSubscriptions({ processInstanceId: instance.id });

    expect((refused as MigratingProcessInstanceValidationException).validationReport.activityInstanceValidationReports[0].failures).toEqual([
      "Cannot migrate subscription for compensation handler 'sub'. There is no migration instruction for the compensation start event",
    ]);
    expect(subscription).toMatchObject({ eventType: 'compensate', activityId: 'sub', processDefinitionId: v2 });
    expect(JSON.parse(subscription.configuration!).inner).toMatchObject([{ activityId: 'undo2' }]);
  });
});
