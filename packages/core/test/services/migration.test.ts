import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException, ProcessEngineException } from '../../src/errors/index.js';
import { MigratingProcessInstanceValidationException, MigrationPlanValidationException } from '../../src/services/migration/migration-plan.js';
import { createTestEngine, grantMore, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → sub (userTask `task` with boundary timer `timer`) → external task `ext` → end. */
const model = (taskName: string, extra = '') =>
  wrap(
    'migrating',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
     <bpmn:subProcess id="sub">
       <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'task')}
       <bpmn:userTask id="task" name="${taskName}" />${flow('s2', 'task', 'subEnd')}<bpmn:endEvent id="subEnd" />
       <bpmn:boundaryEvent id="timer" attachedToRef="task"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
       ${flow('s3', 'timer', 'timedOut')}<bpmn:endEvent id="timedOut" />
     </bpmn:subProcess>
     ${flow('f2', 'sub', 'ext')}<bpmn:serviceTask id="ext" camunda:type="external" camunda:topic="work" />${flow('f3', 'ext', 'end')}<bpmn:endEvent id="end" />
     ${extra}`,
  );

const string = (value: string) => ({ type: 'string' as const, value, valueInfo: {} });
const instruction = (sourceActivityId: string, targetActivityId: string, updateEventTrigger = false) => ({ sourceActivityId, targetActivityId, updateEventTrigger });

describe.each(testStoreConfigs())('process instance migration on $name', (testStore) => {
  async function setup() {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) =>
      (await engine.deployment.deploy({ resources: [{ name: 'migrating.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const v1 = await deploy(model('Old name'));
    const v2 = await deploy(model('New name', `<bpmn:userTask id="unrelated" />`));
    return { engine, v1, v2 };
  }
  const sorted = (instructions: { sourceActivityId: string | null; targetActivityId: string | null; updateEventTrigger: boolean }[]) =>
    [...instructions].sort((a, b) => a.sourceActivityId!.localeCompare(b.sourceActivityId!));

  it('generates instructions for equal activities, recursing into mapped sub-processes', async () => {
    const { engine, v1, v2 } = await setup();
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    expect(plan.sourceProcessDefinitionId).toBe(v1);
    expect(plan.targetProcessDefinitionId).toBe(v2);
    expect(plan.variables).toBeNull();
    expect(sorted(plan.instructions)).toEqual([instruction('ext', 'ext'), instruction('sub', 'sub'), instruction('task', 'task'), instruction('timer', 'timer')]);

    const updating = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, updateEventTriggers: true });
    expect(sorted(updating.instructions)).toEqual([instruction('ext', 'ext'), instruction('sub', 'sub'), instruction('task', 'task'), instruction('timer', 'timer', true)]);
  });

  it('reports invalid instructions with Camunda texts, and refuses to create such a plan', async () => {
    const { engine, v1, v2 } = await setup();
    const input = {
      sourceProcessDefinitionId: v1,
      targetProcessDefinitionId: v2,
      instructions: [instruction('sub', 'sub'), instruction('task', 'ext'), instruction('timer', 'timer'), instruction('nope', 'task'), instruction('ext', 'ext', true)],
    };
    const report = await engine.migration.validate(input);
    expect(report.variableReports).toEqual({});
    // Camunda's order: the instructions naming missing activities first, then the refused ones.
    expect(report.instructionReports).toEqual([
      { instruction: instruction('nope', 'task'), failures: ["Source activity 'nope' does not exist"] },
      {
        instruction: instruction('task', 'ext'),
        failures: [
          'Activities have incompatible types (UserTaskActivityBehavior is not compatible with ExternalTaskActivityBehavior)',
          "The closest mapped ancestor 'sub' is mapped to scope 'sub' which is not an ancestor of target scope 'ext'",
        ],
      },
      { instruction: instruction('timer', 'timer'), failures: ["The source activity's event scope (task) must be mapped to the target activity's event scope (task)"] },
      { instruction: instruction('ext', 'ext', true), failures: ['Cannot update event trigger because the activity does not define a persistent event trigger'] },
    ]);

    const error = await engine.migration.createPlan(input).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(MigrationPlanValidationException);
    expect((error as Error).message).toContain(`ENGINE-23001 Migration plan for process definition '${v1}' to '${v2}' is not valid:\n`);
    expect((error as Error).message).toContain(
      "\t Migration instruction MigrationInstructionImpl{sourceActivityId='nope', targetActivityId='task', updateEventTrigger='false'} is not valid:\n\t\tSource activity 'nope' does not exist\n",
    );

    const duplicate = await engine.migration.validate({
      sourceProcessDefinitionId: v1,
      targetProcessDefinitionId: v2,
      instructions: [instruction('ext', 'ext'), instruction('ext', 'unrelated')],
    });
    expect(duplicate.instructionReports[0].failures).toContain(
      "There are multiple mappings for source activity id 'ext': ValidatingMigrationInstructionImpl{sourceActivity=Activity(ext), targetActivity=Activity(ext)}, ValidatingMigrationInstructionImpl{sourceActivity=Activity(ext), targetActivity=Activity(unrelated)}",
    );

    await expect(engine.migration.validate({ sourceProcessDefinitionId: 'missing', targetProcessDefinitionId: v2 })).rejects.toThrow(
      "ENGINE-23008 Source process definition with id 'missing' does not exist",
    );
    await expect(engine.migration.validate({ targetProcessDefinitionId: v2 })).rejects.toThrow('Source process definition id is null');

    // An instruction with a null id is reported for that alone (the other id is not looked for).
    const halfNull = await engine.migration.validate({
      sourceProcessDefinitionId: v1,
      targetProcessDefinitionId: v2,
      instructions: [{ sourceActivityId: null, targetActivityId: 'xx', updateEventTrigger: false }],
    });
    expect(halfNull.instructionReports.map((each) => each.failures)).toEqual([['Source activity id is null']]);
  });

  it('migrates instances in one transaction; they then run on to the end on the target definition', async () => {
    const { engine, v1, v2 } = await setup();
    const first = await engine.runtime.startProcessInstanceById(v1);
    const second = await engine.runtime.startProcessInstanceById(v1);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, variables: { migrated: string('yes') } });
    const treeBefore = await engine.runtime.getActivityInstanceTree(first.id);

    await engine.migration.execute(plan, { processInstanceIds: [first.id, second.id] });

    for (const id of [first.id, second.id]) {
      expect((await engine.runtime.getProcessInstance(id))!.processDefinitionId).toBe(v2);
      const [task] = await engine.task.findTasks({ processInstanceId: id });
      expect(task.processDefinitionId).toBe(v2);
      expect(task.taskDefinitionKey).toBe('task');
      expect(task.name).toBe('Old name');
      const [job] = await engine.management.findJobs({ processInstanceId: id });
      expect(job.processDefinitionId).toBe(v2);
      const jobDefinition = await engine.jobDefinition.getJobDefinition(job.jobDefinitionId!);
      expect(jobDefinition?.processDefinitionId).toBe(v2);
      expect((await engine.runtime.getVariables(id))['migrated']).toMatchObject({ value: 'yes' });
    }
    const treeAfter = await engine.runtime.getActivityInstanceTree(first.id);
    expect(treeAfter!.activityId).toBe(v2);
    expect(treeAfter!.childActivityInstances[0].id).toBe(treeBefore!.childActivityInstances[0].id);

    for (const id of [first.id, second.id]) {
      const [task] = await engine.task.findTasks({ processInstanceId: id });
      await engine.task.complete(task.id);
      expect(await engine.management.findJobs({ processInstanceId: id })).toEqual([]);
    }
    const locked = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 10, topics: [{ topicName: 'work', lockDuration: 60_000 }] });
    expect(locked).toHaveLength(2);
    expect(locked.every((task) => task.processDefinitionId === v2)).toBe(true);
    for (const task of locked) await engine.externalTask.complete(task.id, 'w');
    expect(await engine.runtime.findProcessInstances({ processDefinitionId: v2 })).toEqual([]);
  });

  it('migrates waiting external tasks, and selects instances by query', async () => {
    const { engine, v1, v2 } = await setup();
    const started = await engine.runtime.startProcessInstanceById(v1);
    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    await engine.task.complete(task.id);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });

    await engine.migration.execute(plan, { processInstanceQuery: { processDefinitionId: v1 } });

    const [locked] = await engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 10, topics: [{ topicName: 'work', lockDuration: 60_000 }] });
    expect(locked.processDefinitionId).toBe(v2);
    expect(locked.activityId).toBe('ext');
    await engine.externalTask.complete(locked.id, 'w');
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('refuses unmapped leaf instances with Camunda’s report and migrates nothing', async () => {
    const { engine, v1, v2 } = await setup();
    const started = await engine.runtime.startProcessInstanceById(v1);
    const plan = { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('sub', 'sub')], variables: null };

    const error = await engine.migration.execute(plan, { processInstanceIds: [started.id] }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(MigratingProcessInstanceValidationException);
    const report = (error as MigratingProcessInstanceValidationException).validationReport;
    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    expect(report).toEqual({
      processInstanceId: started.id,
      failures: [],
      activityInstanceValidationReports: [
        { migrationInstruction: null, activityInstanceId: task.activityInstanceId, sourceScopeId: 'task', failures: ["There is no migration instruction for this instance's activity"] },
      ],
      transitionInstanceValidationReports: [],
    });
    expect((error as Error).message).toBe(
      `ENGINE-23004 Cannot migrate process instance '${started.id}':\n\tCannot migrate activity instance '${task.activityInstanceId}':\n\t\tThere is no migration instruction for this instance's activity\n`,
    );
    expect((await engine.runtime.getProcessInstance(started.id))!.processDefinitionId).toBe(v1);
  });

  it('checks the selection', async () => {
    const { engine, v1, v2 } = await setup();
    const onTarget = await engine.runtime.startProcessInstanceById(v2);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    await expect(engine.migration.execute(plan, { processInstanceIds: [] })).rejects.toThrow(
      new BadUserRequestException('Process instance ids cannot empty: process instance ids is empty'),
    );
    await expect(engine.migration.execute(plan, { processInstanceIds: [null] })).rejects.toThrow('Process instance ids cannot be null: process instance ids contains null value');
    await expect(engine.migration.execute(null, { processInstanceIds: ['x'] })).rejects.toThrow('Migration plan cannot be null: migration plan is null');
    const missing = await engine.migration.execute(plan, { processInstanceIds: ['nope'] }).catch((caught: unknown) => caught);
    expect(missing).toBeInstanceOf(ProcessEngineException);
    expect((missing as Error).message).toBe("ENGINE-23003 Process instance 'nope' cannot be migrated. The process instance does not exist");
    await expect(engine.migration.execute(plan, { processInstanceIds: [onTarget.id] })).rejects.toThrow(
      `ENGINE-23002 Process instance '${onTarget.id}' cannot be migrated. Its process definition '${v2}' does not match the source process definition of the migration plan '${v1}'`,
    );
  });
});

describe.each(testStoreConfigs())('migrating event triggers and multi-instance on $name', (testStore) => {
  async function deployBoth(v1Xml: string, v2Xml: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    return { engine, v1: await deploy(v1Xml), v2: await deploy(v2Xml) };
  }

  const withEvents = (messageName: string, duration: string) =>
    wrap(
      'events',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />
       <bpmn:boundaryEvent id="onMessage" attachedToRef="task"><bpmn:messageEventDefinition messageRef="msg" /></bpmn:boundaryEvent>
       ${flow('f3', 'onMessage', 'messaged')}<bpmn:endEvent id="messaged" />
       <bpmn:boundaryEvent id="onTimer" attachedToRef="task"><bpmn:timerEventDefinition><bpmn:timeDuration>${duration}</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
       ${flow('f4', 'onTimer', 'timedOut')}<bpmn:endEvent id="timedOut" />`,
      `<bpmn:message id="msg" name="${messageName}" />`,
    );

  it('keeps event triggers unless updateEventTrigger is set, then takes the target declaration', async () => {
    const { engine, v1, v2 } = await deployBoth(withEvents('m1', 'PT1H'), withEvents('m2', 'PT2H'));
    const kept = await engine.runtime.startProcessInstanceById(v1);
    const updated = await engine.runtime.startProcessInstanceById(v1);
    const [keptJobBefore] = await engine.management.findJobs({ processInstanceId: kept.id });

    await engine.migration.execute(await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 }), { processInstanceIds: [kept.id] });
    const updating = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, updateEventTriggers: true });
    expect(updating.instructions.filter((each) => each.updateEventTrigger).map((each) => each.sourceActivityId).sort()).toEqual(['onMessage', 'onTimer']);
    await engine.migration.execute(updating, { processInstanceIds: [updated.id] });

    const [keptJob] = await engine.management.findJobs({ processInstanceId: kept.id });
    expect(keptJob.dueDate).toEqual(keptJobBefore.dueDate);
    expect(keptJob.processDefinitionId).toBe(v2);
    const [updatedJob] = await engine.management.findJobs({ processInstanceId: updated.id });
    expect(updatedJob.dueDate!.getTime() - engine.clock.now().getTime()).toBe(2 * 3600_000);

    await engine.message.correlate({ messageName: 'm1', processInstanceId: kept.id });
    expect(await engine.runtime.getProcessInstance(kept.id)).toBeNull();
    await expect(engine.message.correlate({ messageName: 'm1', processInstanceId: updated.id })).rejects.toThrow();
    await engine.message.correlate({ messageName: 'm2', processInstanceId: updated.id });
    expect(await engine.runtime.getProcessInstance(updated.id)).toBeNull();
  });

  it('replaces the triggers of events the plan does not map with new ones from the target declarations', async () => {
    const { engine, v1, v2 } = await deployBoth(withEvents('m1', 'PT1H'), withEvents('m2', 'PT3H'));
    const started = await engine.runtime.startProcessInstanceById(v1);
    const [oldJob] = await engine.management.findJobs({ processInstanceId: started.id });
    const plan = { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('task', 'task')], variables: null };

    await engine.migration.execute(plan, { processInstanceIds: [started.id] });

    const jobs = await engine.management.findJobs({ processInstanceId: started.id });
    expect(jobs).toHaveLength(1);
    expect(jobs[0].id).not.toBe(oldJob.id);
    expect(jobs[0].dueDate!.getTime() - engine.clock.now().getTime()).toBe(3 * 3600_000);
    await expect(engine.message.correlate({ messageName: 'm1', processInstanceId: started.id })).rejects.toThrow();
    await engine.message.correlate({ messageName: 'm2', processInstanceId: started.id });
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  const multiInstance = (name: string) =>
    wrap(
      'multi',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}
       <bpmn:userTask id="review" name="${name}"><bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>2</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>
       ${flow('f2', 'review', 'end')}<bpmn:endEvent id="end" />`,
    );

  it('maps multi-instance bodies and their inner activities, and requires both', async () => {
    const { engine, v1, v2 } = await deployBoth(multiInstance('A'), multiInstance('B'));
    const started = await engine.runtime.startProcessInstanceById(v1);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    expect(plan.instructions.map((each) => each.sourceActivityId).sort()).toEqual(['review', 'review#multiInstanceBody']);

    const report = await engine.migration.validate({ ...plan, instructions: [instruction('review#multiInstanceBody', 'review#multiInstanceBody')] });
    expect(report.instructionReports[0].failures).toEqual([
      'Must map the inner activity of a multi-instance body when the body is mapped',
      'Cannot remove the inner activity of a multi-instance body when the body is mapped',
    ]);

    await engine.migration.execute(plan, { processInstanceIds: [started.id] });
    const tasks = await engine.task.findTasks({ processInstanceId: started.id });
    expect(tasks.map((task) => task.processDefinitionId)).toEqual([v2, v2]);
    const tree = await engine.runtime.getActivityInstanceTree(started.id);
    expect(tree!.childActivityInstances.map((each) => each.activityId)).toEqual(['review#multiInstanceBody']);
    for (const task of tasks) await engine.task.complete(task.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('migrates a partially completed parallel body, its ended instance kept as Camunda (CAM-5609) and not validated as a transition', async () => {
    const { engine, v1, v2 } = await deployBoth(multiInstance('A'), multiInstance('B'));
    const started = await engine.runtime.startProcessInstanceById(v1);
    const [first] = await engine.task.findTasks({ processInstanceId: started.id });
    await engine.task.complete(first.id);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    await engine.migration.execute(plan, { processInstanceIds: [started.id] });
    const [body] = (await engine.runtime.getActivityInstanceTree(started.id))!.childActivityInstances;
    expect(body.childActivityInstances.map((each) => each.activityId)).toEqual(['review']);
    expect(body.childTransitionInstances.map((each) => each.executionId)).toEqual([first.executionId]);
    for (const task of await engine.task.findTasks({ processInstanceId: started.id })) await engine.task.complete(task.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  const plain = wrap('events', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />`);

  it('migrates an activity that stops being a scope (its boundary events removed)', async () => {
    const { engine, v1, v2 } = await deployBoth(withEvents('m1', 'PT1H'), plain);
    const started = await engine.runtime.startProcessInstanceById(v1, { variables: { amount: { type: 'integer', value: 5, valueInfo: {} } } });
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    expect(plan.instructions.map((each) => each.sourceActivityId)).toEqual(['task']);

    await engine.migration.execute(plan, { processInstanceIds: [started.id] });

    expect(await engine.management.findJobs({ processInstanceId: started.id })).toEqual([]);
    const executions = await engine.execution.findExecutions({ processInstanceId: started.id });
    expect(executions).toHaveLength(1);
    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    expect(task.executionId).toBe(started.id);
    await engine.task.complete(task.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('migrates an activity that becomes a scope, arming its new boundary events', async () => {
    const { engine, v1, v2 } = await deployBoth(plain, withEvents('m1', 'PT1H'));
    const timedOut = await engine.runtime.startProcessInstanceById(v1);
    const messaged = await engine.runtime.startProcessInstanceById(v1);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });

    await engine.migration.execute(plan, { processInstanceIds: [timedOut.id, messaged.id] });

    const [job] = await engine.management.findJobs({ processInstanceId: timedOut.id });
    expect(job).toMatchObject({ processDefinitionId: v2, activityId: 'onTimer' });
    const tree = await engine.runtime.getActivityInstanceTree(timedOut.id);
    expect(tree!.childActivityInstances.map((each) => each.activityId)).toEqual(['task']);
    await engine.management.executeJob(job.id);
    expect(await engine.runtime.getProcessInstance(timedOut.id)).toBeNull();

    await engine.message.correlate({ messageName: 'm1', processInstanceId: messaged.id });
    expect(await engine.runtime.getProcessInstance(messaged.id)).toBeNull();
  });

  const asyncTask = (asyncBefore: boolean) =>
    wrap(
      'async',
      `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" camunda:asyncBefore="${asyncBefore}" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />
       <bpmn:subProcess id="esp" triggeredByEvent="true">
         <bpmn:startEvent id="espStart" isInterrupting="false"><bpmn:timerEventDefinition><bpmn:timeDuration>PT5H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:startEvent>
         ${flow('e1', 'espStart', 'espTask')}<bpmn:userTask id="espTask" />${flow('e2', 'espTask', 'espEnd')}<bpmn:endEvent id="espEnd" />
       </bpmn:subProcess>`,
    );

  it('migrates waiting async continuations and event sub-process timers, and checks the target is async too', async () => {
    const { engine, v1, v2 } = await deployBoth(asyncTask(true), asyncTask(true));
    const started = await engine.runtime.startProcessInstanceById(v1);
    const plan = await engine.migration.generate({ sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 });
    expect(plan.instructions.map((each) => each.sourceActivityId).sort()).toEqual(['esp', 'espStart', 'espTask', 'task']);

    await engine.migration.execute(plan, { processInstanceIds: [started.id] });

    const jobs = await engine.management.findJobs({ processInstanceId: started.id });
    expect(jobs.map((job) => [job.activityId, job.processDefinitionId]).sort()).toEqual([
      ['espStart', v2],
      ['task', v2],
    ]);
    for (const job of jobs) expect((await engine.jobDefinition.getJobDefinition(job.jobDefinitionId!))?.processDefinitionId).toBe(v2);
    await engine.management.executeJob(jobs.find((job) => job.activityId === 'task')!.id);
    const [task] = await engine.task.findTasks({ processInstanceId: started.id });
    expect(task).toMatchObject({ processDefinitionId: v2, taskDefinitionKey: 'task' });
    await engine.task.complete(task.id);
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('reports a transition instance whose target is not asyncBefore', async () => {
    const { engine, v1, v2 } = await deployBoth(asyncTask(true), asyncTask(false));
    const started = await engine.runtime.startProcessInstanceById(v1);
    const plan = { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('task', 'task'), instruction('esp', 'esp'), instruction('espStart', 'espStart')], variables: null };

    const error = await engine.migration.execute(plan, { processInstanceIds: [started.id] }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(MigratingProcessInstanceValidationException);
    const report = (error as MigratingProcessInstanceValidationException).validationReport;
    expect(report.transitionInstanceValidationReports).toEqual([
      { migrationInstruction: instruction('task', 'task'), transitionInstanceId: expect.any(String), sourceScopeId: 'task', failures: ['Target activity is not asyncBefore'] },
    ]);
  });

  it('reports the job that starts the process when its target is not a flow node of the process itself', async () => {
    const asyncStart = wrap(
      'asyncStart',
      `<bpmn:startEvent id="start" camunda:asyncBefore="true" />${flow('s1', 'start', 'task')}<bpmn:userTask id="task" />${flow('s2', 'task', 'end')}<bpmn:endEvent id="end" />`,
    );
    const nested = wrap(
      'asyncStart',
      `<bpmn:startEvent id="start" camunda:asyncBefore="true" />${flow('s1', 'start', 'sub')}
       <bpmn:subProcess id="sub"><bpmn:startEvent id="subStart" camunda:asyncBefore="true" />${flow('i1', 'subStart', 'subEnd')}<bpmn:endEvent id="subEnd" /></bpmn:subProcess>
       ${flow('s2', 'sub', 'end')}<bpmn:endEvent id="end" />`,
    );
    const { engine, v1, v2 } = await deployBoth(asyncStart, nested);
    const started = await engine.runtime.startProcessInstanceById(v1);
    const plan = { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('start', 'subStart')], variables: null };

    const error = await engine.migration.execute(plan, { processInstanceIds: [started.id] }).catch((caught: unknown) => caught);

    expect(error).toBeInstanceOf(MigratingProcessInstanceValidationException);
    expect((error as MigratingProcessInstanceValidationException).validationReport.transitionInstanceValidationReports).toEqual([
      {
        migrationInstruction: instruction('start', 'subStart'),
        transitionInstanceId: expect.any(String),
        sourceScopeId: 'start',
        failures: ['A transition instance that instantiates the process can only be migrated to a process-level flow node'],
      },
    ]);
  });

  it('needs MIGRATE_INSTANCE on both definitions to execute, READ to validate', async () => {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), authorization: { enabled: true } });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
    const v1 = await deploy(plain);
    const v2 = await deploy(plain);
    const started = await engine.runtime.startProcessInstanceById(v1);
    const grant = (permissions: string[]) =>
      grantMore(engine, { userId: 'mia' }, 6, 'events', permissions);
    const asMia = <T>(work: () => Promise<T>) => engine.runAs({ userId: 'mia', groupIds: [], tenantIds: [] }, work);
    const plan = { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('task', 'task')], variables: null };

    await expect(asMia(() => engine.migration.validate(plan))).rejects.toMatchObject({ name: 'AuthorizationException' });
    await grant(['READ']);
    expect(await asMia(() => engine.migration.validate(plan))).toEqual({ instructionReports: [], variableReports: {} });
    const denied = await asMia(() => engine.migration.execute(plan, { processInstanceIds: [started.id] })).catch((caught: unknown) => caught);
    // Camunda's conjunctive check lists source and target, here the same key twice.
    const migrateInstance = { permissionName: 'MIGRATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'events' };
    expect(denied).toMatchObject({ name: 'AuthorizationException', missingAuthorizations: [migrateInstance, migrateInstance] });
    // As a batch, the batch permissions come first (Camunda's BatchBuilder), then MIGRATE_INSTANCE.
    const deniedBatch = await asMia(() => engine.batch.migrateAsync(plan, { processInstanceIds: [started.id] })).catch((caught: unknown) => caught);
    expect(deniedBatch).toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [
        { permissionName: 'CREATE_BATCH_MIGRATE_PROCESS_INSTANCES', resourceName: 'Batch' },
        { permissionName: 'CREATE', resourceName: 'Batch' },
      ],
    });
    await engine.authorization.createAuthorization({ type: 1, userId: 'mia', groupId: null, resourceType: 13, resourceId: '*', permissions: ['CREATE'] });
    const deniedInstances = await asMia(() => engine.batch.migrateAsync(plan, { processInstanceIds: [started.id] })).catch((caught: unknown) => caught);
    expect(deniedInstances).toMatchObject({ name: 'AuthorizationException', missingAuthorizations: [migrateInstance, migrateInstance] });
    await grant(['MIGRATE_INSTANCE']);
    await asMia(() => engine.migration.execute(plan, { processInstanceIds: [started.id] }));
    expect((await engine.runtime.getProcessInstance(started.id))!.processDefinitionId).toBe(v2);
  });
});
