import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine, simpleProcessXml, testStoreConfigs } from '../../src/testing/index.js';

/** Waits in a user task. */
const waiting = simpleProcessXml('p', { body: '<bpmn:userTask id="review" />' }).replace('targetRef="end"', 'targetRef="review"').replace('</bpmn:process>', '<bpmn:sequenceFlow id="flow2" sourceRef="review" targetRef="end" /></bpmn:process>');

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

// Camunda's queries escape their LIKE patterns with a backslash (ESCAPE '\'): `\_` and `\%` match
// an underscore and a percent sign themselves. The same on both stores.
describe.each(testStoreConfigs())('LIKE patterns as Camunda escapes them, on $name', (testStore) => {
  async function setup() {
    const engine = await createTestEngine({ store: testStore.config(expect.getState().currentTestName!) });
    engines.push(engine);
    return engine;
  }

  it('a backslash escapes _ and % in a column filter, a template filter, a variable value and the history', async () => {
    const engine = await setup();
    let definitionId = '';
    for (const name of ['a_b', 'axb', 'a%b', 'a\\b']) {
      definitionId = (await engine.deployment.deploy({ name, resources: [{ name: 'p.bpmn', bytes: Buffer.from(waiting) }] })).processDefinitions![0]!.id;
    }
    const names = async (nameLike: string) => (await engine.deployment.findDeployments({ nameLike })).map((each) => each.name).sort();
    expect(await names('a_b')).toEqual(['a%b', 'a\\b', 'a_b', 'axb']);
    expect(await names('a\\_b')).toEqual(['a_b']);
    expect(await names('a\\%b')).toEqual(['a%b']);
    expect(await names('a\\\\b')).toEqual(['a\\b']);

    for (const businessKey of ['order_1', 'orderX1']) {
      await engine.runtime.startProcessInstanceById(definitionId, { businessKey, variables: { code: { type: 'string', value: businessKey, valueInfo: {} } } });
    }
    const keys = (instances: Array<{ businessKey: string | null }>) => instances.map((each) => each.businessKey).sort();
    expect(keys(await engine.runtime.findProcessInstances({ businessKeyLike: 'order\\_%' }))).toEqual(['order_1']);
    expect(keys(await engine.history.findHistoricProcessInstances({ processInstanceBusinessKeyLike: 'order\\_%' }))).toEqual(['order_1']);
    expect((await engine.task.findTasks({ processInstanceBusinessKeyLike: 'order\\_%' })).length).toBe(1);
    const codes = async (operator: 'like' | 'notLike', value: string) =>
      (await engine.variableInstance.findVariableInstances({ variableValues: [{ name: 'code', operator, value }] })).map((each) => each.value.value as string).sort();
    expect(await codes('like', 'order_1')).toEqual(['orderX1', 'order_1']);
    expect(await codes('like', 'order\\_1')).toEqual(['order_1']);
    expect(await codes('notLike', 'order\\_1')).toEqual(['orderX1']);
  });
});
