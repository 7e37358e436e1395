import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { BadUserRequestException } from '../../src/errors/index.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';
import type { TypedValue } from '../../src/runtime/variables/index.js';
import { flow, wrap } from '../runtime/scope-models.js';
import { recordStatements } from '../support/sent-statements.js';

// On PostgreSQL a fetch keeps the rows it read with each task, and completing the task reads nothing:
// its writes check that those rows are unchanged, and the command runs again on fresh rows where
// they are not. Whatever changed between fetch and complete must count as if the complete had read it.

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

/** check (external) → approved? → yes (user task) / no (user task). */
const DECIDING = wrap(
  'deciding',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'check')}
   <bpmn:serviceTask id="check" camunda:type="external" camunda:topic="check" />${flow('f2', 'check', 'gw')}
   <bpmn:exclusiveGateway id="gw" default="toNo" />
   ${flow('toYes', 'gw', 'yes', '${approved}')}${flow('toNo', 'gw', 'no')}
   <bpmn:userTask id="yes" />${flow('f3', 'yes', 'end')}<bpmn:userTask id="no" />${flow('f4', 'no', 'end')}<bpmn:endEvent id="end" />`,
);
/** check (external) → approved? → endYes / endNo: completing the task ends the instance. */
const ENDING = wrap(
  'ending',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'check')}
   <bpmn:serviceTask id="check" camunda:type="external" camunda:topic="check" />${flow('f2', 'check', 'gw')}
   <bpmn:exclusiveGateway id="gw" default="toNo" />
   ${flow('toYes', 'gw', 'endYes', '${approved}')}${flow('toNo', 'gw', 'endNo')}
   <bpmn:endEvent id="endYes" /><bpmn:endEvent id="endNo" />`,
);
/** Two external tasks side by side (left, right) after a fork; `rest` leads them on. */
const twoExternalTasks = (key: string, rest: string) =>
  wrap(
    key,
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}<bpmn:parallelGateway id="fork" />
     ${flow('f2', 'fork', 'left')}${flow('f3', 'fork', 'right')}
     <bpmn:serviceTask id="left" camunda:type="external" camunda:topic="check" />
     <bpmn:serviceTask id="right" camunda:type="external" camunda:topic="check" />${rest}`,
  );
/** Two external tasks side by side, joined, then the end. */
const PARALLEL = twoExternalTasks(
  'parallel',
  `${flow('f4', 'left', 'join')}${flow('f5', 'right', 'join')}<bpmn:parallelGateway id="join" />${flow('f6', 'join', 'end')}<bpmn:endEvent id="end" />`,
);
/** Two external tasks side by side; the left one's path ends the instance at once (terminate end event). */
const TERMINATING = twoExternalTasks(
  'terminating',
  `${flow('f4', 'left', 'stop')}${flow('f5', 'right', 'end')}<bpmn:endEvent id="stop"><bpmn:terminateEventDefinition /></bpmn:endEvent><bpmn:endEvent id="end" />`,
);
const bool = (value: boolean) => ({ type: 'boolean' as const, value, valueInfo: {} });

describe.each(testStoreConfigs())('completing a fetched external task on $name', (testStore) => {
  async function setup(model: string, key: string) {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    return { engine, start: await deployed(engine, model, key) };
  }
  async function deployed(engine: ProcessEngine, model: string, key: string) {
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: `${key}.bpmn`, bytes: Buffer.from(model) }] });
    return (variables: Record<string, TypedValue> = {}) => engine.runtime.startProcessInstanceById(processDefinitions![0].id, { variables });
  }
  const fetch = (engine: ProcessEngine, workerId = 'w1', maxTasks = 10) =>
    engine.externalTask.fetchAndLock({ workerId, maxTasks, topics: [{ topicName: 'check', lockDuration: 60_000 }] });
  const userTasks = async (engine: ProcessEngine, id: string) => (await engine.task.findTasks({ processInstanceId: id })).map((task) => task.taskDefinitionKey);

  it('decides on variables set after the fetch (the instance waits again)', async () => {
    const { engine, start } = await setup(DECIDING, 'deciding');
    const instance = await start({ approved: bool(false) });
    const [task] = await fetch(engine);
    await engine.runtime.modifyVariables(instance.id, { approved: bool(true) });

    await engine.externalTask.complete(task.id, 'w1');
    expect(await userTasks(engine, instance.id)).toEqual(['yes']);
    expect(await engine.externalTask.countExternalTasks({ processInstanceId: instance.id })).toBe(0);
  });

  it('decides on variables set after the fetch (the instance ends)', async () => {
    const { engine, start } = await setup(ENDING, 'ending');
    const instance = await start({ approved: bool(false) });
    const [task] = await fetch(engine);
    await engine.runtime.modifyVariables(instance.id, { approved: bool(true) });

    await engine.externalTask.complete(task.id, 'w1');
    const [historic] = await engine.history.findHistoricProcessInstances({ processInstanceId: instance.id });
    expect(historic).toMatchObject({ state: 'COMPLETED', endActivityId: 'endYes' });
    expect(await engine.runtime.getVariables(instance.id).catch(() => 'gone')).toBe('gone');
  });

  it('joins branches whose tasks one fetch locked together', async () => {
    const { engine, start } = await setup(PARALLEL, 'parallel');
    const instance = await start();
    const tasks = await fetch(engine);
    expect(tasks.map((task) => task.activityId).sort()).toEqual(['left', 'right']);

    // The second completion's fetched rows show the first branch still waiting.
    for (const task of tasks) await engine.externalTask.complete(task.id, 'w1');
    const [historic] = await engine.history.findHistoricProcessInstances({ processInstanceId: instance.id });
    expect(historic).toMatchObject({ state: 'COMPLETED', endActivityId: 'end' });
    expect(await engine.history.countHistoricActivityInstances({ processInstanceId: instance.id, activityId: 'join' })).toBe(2);
  });

  it('completes a task changed after the fetch (its priority), and answers errors from fresh rows', async () => {
    const { engine, start } = await setup(DECIDING, 'deciding');
    const instance = await start({ approved: bool(true) });
    const [task] = await fetch(engine);
    await engine.externalTask.setPriority(task.id, 7);
    await engine.externalTask.complete(task.id, 'w1');
    expect(await userTasks(engine, instance.id)).toEqual(['yes']);

    const other = await start({ approved: bool(true) });
    const [second] = await fetch(engine);
    await engine.externalTask.unlock(second.id);
    await fetch(engine, 'w2');
    await expect(engine.externalTask.complete(second.id, 'w1')).rejects.toThrow(
      new BadUserRequestException(`External Task ${second.id} cannot be completed by worker 'w1'. It is locked by worker 'w2'.`),
    );
    expect(await userTasks(engine, other.id)).toEqual([]);
  });

  it('hands out and completes a task whose instance holds large values', async () => {
    const { engine, start } = await setup(DECIDING, 'deciding');
    const large = Buffer.alloc(40_000, 7);
    const instance = await start({ approved: bool(false), note: { type: 'bytes', value: large, valueInfo: {} } });
    await start({ approved: bool(true) });
    const tasks = await engine.externalTask.fetchAndLock({ workerId: 'w1', maxTasks: 10, topics: [{ topicName: 'check', lockDuration: 60_000, variables: ['note', 'approved'] }] });
    const mine = tasks.find((task) => task.processInstanceId === instance.id)!;
    expect(mine.variables.note.value).toEqual(large);
    expect(tasks.find((task) => task !== mine)!.variables).toEqual({ approved: bool(true) });

    await engine.runtime.modifyVariables(instance.id, { approved: bool(true) });
    for (const task of tasks) await engine.externalTask.complete(task.id, 'w1');
    expect(await userTasks(engine, instance.id)).toEqual(['yes']);
  });

  it.skipIf(testStore.name !== 'postgres')('completes from the kept rows when nothing changed: the check passes at the first try', async () => {
    const { engine, start } = await setup(ENDING, 'ending');
    const { engine: waiting, start: startWaiting } = await setup(DECIDING, 'deciding');
    const { engine: terminating, start: startTerminating } = await setup(TERMINATING, 'terminating');
    await start({ approved: bool(true) });
    await startWaiting({ approved: bool(true) });
    const terminated = await startTerminating();
    const [ending] = await fetch(engine);
    const [deciding] = await fetch(waiting);
    const left = (await fetch(terminating)).find((task) => task.activityId === 'left')!;
    // The definition's row is read once per engine (the runtime keeps it): not the instance's rows.
    // Nor is the relay's NOTIFY of an earlier start's new tasks, sent whenever the pool has a connection for it.
    const texts = async (work: () => Promise<unknown>) =>
      (await recordStatements(work)).sent
        .map((statement) => statement.text)
        .filter((text) => !text.includes('from "trellis_process_definition"') && !text.includes('pg_notify('));
    const endingSent = await texts(() => engine.externalTask.complete(ending.id, 'w1'));
    // Ends its instance and with it the other branch's external task, also kept by the fetch.
    const terminatingSent = await texts(() => terminating.externalTask.complete(left.id, 'w1'));
    const waitingSent = await texts(() => waiting.externalTask.complete(deciding.id, 'w1'));

    // An ended instance: one statement that checks the kept rows itself.
    expect(endingSent).toHaveLength(1);
    expect(endingSent[0]).toMatch(/^\/\* trellis:deferrable guarded \*\//);
    // Ended after other writes (the branches cancelled first): the check right after BEGIN, and the
    // transaction commits at the first try (a failed check would roll it back and run it again).
    expect(terminatingSent.slice(0, 2)).toEqual(['begin', expect.stringMatching(/^\/\* trellis:guard \*\//)]);
    expect(terminatingSent.filter((text) => text === 'begin' || text === 'rollback' || text === 'commit')).toEqual(['begin', 'commit']);
    // The waiting one: its check right after BEGIN, then its writes; a stale check would have read the rows again.
    expect(waitingSent.slice(0, 2)).toEqual(['begin', expect.stringMatching(/^\/\* trellis:guard \*\//)]);
    expect(waitingSent.filter((text) => /^\s*select\b/i.test(text))).toEqual([]);
    expect(await userTasks(waiting, deciding.processInstanceId!)).toEqual(['yes']);
    const [historic] = await terminating.history.findHistoricProcessInstances({ processInstanceId: terminated.id });
    expect(historic).toMatchObject({ state: 'COMPLETED', endActivityId: 'stop' });
    expect(await terminating.externalTask.countExternalTasks({ processInstanceId: terminated.id })).toBe(0);
  });

  it.skipIf(testStore.name !== 'postgres')('refuses the first worker after another node handed the task to a second one', async () => {
    const config = testStore.config(expect.getState().currentTestName!);
    const first = await createTestEngine({ store: config });
    engines.push(first);
    const second = await createTestEngine({ store: config });
    engines.push(second);
    const start = await deployed(first, DECIDING, 'deciding');
    const instance = await start({ approved: bool(false) });
    const [task] = await fetch(first, 'w1');

    // On the other node: the task is unlocked and locked by w2; the first node still has w1's rows.
    await second.externalTask.unlock(task.id);
    await fetch(second, 'w2');
    await expect(first.externalTask.complete(task.id, 'w1')).rejects.toThrow(`It is locked by worker 'w2'.`);
    expect(await userTasks(first, instance.id)).toEqual([]);

    await second.runtime.modifyVariables(instance.id, { approved: bool(true) });
    await second.externalTask.complete(task.id, 'w2');
    expect(await userTasks(first, instance.id)).toEqual(['yes']);
  });
});
