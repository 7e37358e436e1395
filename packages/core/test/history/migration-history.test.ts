import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import { flow, wrap } from '../runtime/scope-models.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** start → first → task → end (`key` the process, `taskId` the second task, `async` making it asyncBefore). */
const twoTasks = (key: string, taskId: string, async = false) =>
  wrap(key, `<bpmn:startEvent id="start" />${flow('f1', 'start', 'first')}<bpmn:userTask id="first" />${flow('f2', 'first', taskId)}
    <bpmn:userTask id="${taskId}" name="${taskId} name" camunda:asyncBefore="${async}" />${flow('f3', taskId, 'end')}<bpmn:endEvent id="end" />`);
/** The same in a sub-process. */
const inSubProcess = wrap(
  'oneTask',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
   <bpmn:subProcess id="sub"><bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'task')}<bpmn:userTask id="task" />${flow('s2', 'task', 'subEnd')}<bpmn:endEvent id="subEnd" /></bpmn:subProcess>
   ${flow('f2', 'sub', 'end')}<bpmn:endEvent id="end" />`,
);
const oneTask = wrap('oneTask', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'task')}<bpmn:userTask id="task" />${flow('f2', 'task', 'end')}<bpmn:endEvent id="end" />`);

describe.each(testStoreConfigs())('history of a migrated instance on $name', (testStore) => {
  async function deployBoth(v1Xml: string, v2Xml: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!), historyLevel: 'full' });
    engines.push(engine);
    const deploy = async (xml: string) => (await engine.deployment.deploy({ resources: [{ name: 'm.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0];
    return { engine, v1: await deploy(v1Xml), v2: await deploy(v2Xml) };
  }
  const migrate = (engine: ProcessEngine, v1: string, v2: string, processInstanceId: string, ...pairs: Array<[string, string]>) =>
    engine.migration.execute(
      { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: pairs.map(([sourceActivityId, targetActivityId]) => ({ sourceActivityId, targetActivityId, updateEventTrigger: false })) },
      { processInstanceIds: [processInstanceId] },
    );

  // Camunda's MigrationHistoricActivityInstanceTest.testMigrateHistoryActivityInstance; task migrate events likewise.
  it('moves only the running activity instances and tasks; ended ones keep the source definition', async () => {
    const { engine, v1, v2 } = await deployBoth(twoTasks('twoTasks', 'task'), twoTasks('twoTasks2', 'task2'));
    const started = await engine.runtime.startProcessInstanceById(v1.id);
    const [first] = await engine.task.findTasks({ processInstanceId: started.id });
    await engine.task.complete(first.id);

    await migrate(engine, v1.id, v2.id, started.id, ['task', 'task2']);

    const activities = await engine.history.findHistoricActivityInstances({ processInstanceId: started.id });
    expect(activities.map((each) => [each.activityId, each.processDefinitionId, each.processDefinitionKey]).sort()).toEqual([
      ['first', v1.id, 'twoTasks'],
      ['start', v1.id, 'twoTasks'],
      ['task2', v2.id, 'twoTasks2'],
    ]);
    expect(activities.find((each) => each.activityId === 'task2')).toMatchObject({ activityName: 'task2 name', parentActivityInstanceId: started.id, activityType: 'userTask' });
    const tasks = await engine.history.tasks.findTasks({ processInstanceId: started.id });
    expect(tasks.map((each) => [each.taskDefinitionKey, each.processDefinitionId]).sort()).toEqual([
      ['first', v1.id],
      ['task2', v2.id],
    ]);
  });

  // Camunda's MigrationHistoricActivityInstanceTest.testMigrateHistoricActivityInstanceAddScope (and the scope removed again).
  it('re-parents the historic activity instances as the runtime tree when scopes are added and removed', async () => {
    const { engine, v1, v2 } = await deployBoth(oneTask, inSubProcess);
    const started = await engine.runtime.startProcessInstanceById(v1.id);

    await migrate(engine, v1.id, v2.id, started.id, ['task', 'task']);

    const unfinished = await engine.history.findHistoricActivityInstances({ processInstanceId: started.id, unfinished: true });
    const sub = unfinished.find((each) => each.activityId === 'sub')!;
    expect(sub).toMatchObject({ processDefinitionId: v2.id, parentActivityInstanceId: started.id });
    expect(unfinished.find((each) => each.activityId === 'task')).toMatchObject({ processDefinitionId: v2.id, parentActivityInstanceId: sub.id });

    await migrate(engine, v2.id, v1.id, started.id, ['task', 'task']);

    expect(await engine.history.findHistoricActivityInstances({ processInstanceId: started.id, unfinished: true })).toEqual([
      expect.objectContaining({ activityId: 'task', processDefinitionId: v1.id, parentActivityInstanceId: started.id }),
    ]);
  });

  // Camunda's MigrationHistoricIncidentTest.testMigrateHistoricIncident.
  it('migrates the historic incident with its runtime incident', async () => {
    const asyncTask = (key: string, taskId: string) => wrap(key, `<bpmn:startEvent id="start" />${flow('f1', 'start', taskId)}<bpmn:userTask id="${taskId}" camunda:asyncBefore="true" />${flow('f2', taskId, 'end')}<bpmn:endEvent id="end" />`);
    const { engine, v1, v2 } = await deployBoth(asyncTask('asyncTask', 'userTask'), asyncTask('newAsyncTask', 'newUserTask'));
    const [targetJobDefinition] = await engine.jobDefinition.findJobDefinitions({ processDefinitionId: v2.id });
    const started = await engine.runtime.startProcessInstanceById(v1.id);
    const [job] = await engine.management.findJobs({ processInstanceId: started.id });
    await engine.management.setJobRetries(job.id, 0);
    const [before] = await engine.history.incidents.find();

    await migrate(engine, v1.id, v2.id, started.id, ['userTask', 'newUserTask']);

    const [incident] = await engine.history.incidents.find();
    expect(incident).toMatchObject({
      id: before.id,
      activityId: 'newUserTask',
      jobDefinitionId: targetJobDefinition.id,
      processDefinitionId: v2.id,
      processDefinitionKey: 'newAsyncTask',
      executionId: started.id,
      createTime: before.createTime,
      processInstanceId: started.id,
    });
  });
});
