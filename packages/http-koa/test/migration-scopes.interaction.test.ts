import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const definitions = (body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:message id="poke" name="poke" />
  <bpmn:process id="order" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    ${body}
    <bpmn:userTask id="ship" />
    <bpmn:sequenceFlow id="f3" sourceRef="ship" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

/** start → approve → ship → end. */
const flat = definitions(`
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve" />
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="ship" />`);

/** start → review (sub-process: io mapping, listeners, boundary timer, message event sub-process; inside: approve) → ship → end. */
const nested = definitions(`
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:subProcess id="review">
      <bpmn:extensionElements>
        <camunda:executionListener event="start" expression="\${execution.setVariable('reviewStarted', true)}" />
        <camunda:executionListener event="end" expression="\${execution.setVariable('reviewEnded', true)}" />
        <camunda:inputOutput>
          <camunda:inputParameter name="limit">\${amount * 10}</camunda:inputParameter>
          <camunda:outputParameter name="approvedLimit">\${limit}</camunda:outputParameter>
        </camunda:inputOutput>
      </bpmn:extensionElements>
      <bpmn:startEvent id="reviewStart" />
      <bpmn:sequenceFlow id="r1" sourceRef="reviewStart" targetRef="approve" />
      <bpmn:userTask id="approve" />
      <bpmn:sequenceFlow id="r2" sourceRef="approve" targetRef="reviewEnd" />
      <bpmn:endEvent id="reviewEnd" />
      <bpmn:subProcess id="pokes" triggeredByEvent="true">
        <bpmn:startEvent id="pokeStart" isInterrupting="false"><bpmn:messageEventDefinition messageRef="poke" /></bpmn:startEvent>
        <bpmn:sequenceFlow id="p1" sourceRef="pokeStart" targetRef="pokeEnd" />
        <bpmn:endEvent id="pokeEnd" />
      </bpmn:subProcess>
    </bpmn:subProcess>
    <bpmn:boundaryEvent id="reviewTimeout" attachedToRef="review"><bpmn:timerEventDefinition><bpmn:timeDuration>PT4H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="t1" sourceRef="reviewTimeout" targetRef="end" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="ship" />`);

/** The flat model with a boundary timer on approve (→ escalate). */
const guarded = definitions(`
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve" />
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="ship" />
    <bpmn:boundaryEvent id="late" attachedToRef="approve"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="l1" sourceRef="late" targetRef="escalate" />
    <bpmn:userTask id="escalate" />
    <bpmn:sequenceFlow id="l2" sourceRef="escalate" targetRef="ship" />`);

interface TreeNode {
  id: string;
  activityId: string;
  parentActivityInstanceId: string | null;
  childActivityInstances: TreeNode[];
}
const shape = (node: TreeNode): unknown[] => [node.activityId, node.childActivityInstances.map(shape)];

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

const deploy = async (xml: string) => (await rest.engine.deployment.deploy({ resources: [{ name: 'order.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
const instruction = (id: string) => ({ sourceActivityIds: [id], targetActivityIds: [id] });
const start = async (definitionId: string) =>
  (await rest.request('POST', `/process-definition/${definitionId}/start`, { json: { variables: { amount: { type: 'Integer', value: 3 } } } })).body.id as string;
const tree = async (id: string) => (await rest.request('GET', `/process-instance/${id}/activity-instances`)).body as TreeNode;
const variables = async (id: string) => (await rest.request('GET', `/process-instance/${id}/variables`)).body as Record<string, { value: unknown }>;
const migrate = (source: string, target: string, processInstanceId: string, activities: string[], extra: Record<string, unknown> = {}) =>
  rest.request('POST', '/migration/execute', {
    json: { migrationPlan: { sourceProcessDefinitionId: source, targetProcessDefinitionId: target, instructions: activities.map(instruction) }, processInstanceIds: [processInstanceId], ...extra },
  });
async function completeTask(processInstanceId: string, key: string) {
  const [task] = (await rest.request('GET', '/task', { query: { processInstanceId, taskDefinitionKey: key } })).body;
  expect((await rest.request('POST', `/task/${task.id}/complete`, { json: {} })).status).toBe(204);
}
const count = async (processInstanceId: string) => (await rest.request('GET', '/process-instance/count', { query: { processInstanceIds: processInstanceId } })).body.count;

describe('POST /migration/execute changing the scope hierarchy', () => {
  it('moves a task into a new embedded sub-process', async () => {
    const v1 = await deploy(flat);
    const v2 = await deploy(nested);
    const id = await start(v1);
    const before = await tree(id);

    const response = await migrate(v1, v2, id, ['approve', 'ship']);

    expect(response.status).toBe(204);
    const after = await tree(id);
    expect(shape(after)).toEqual([v2, [['review', [['approve', []]]]]]);
    expect(after.childActivityInstances[0].childActivityInstances[0].id).toBe(before.childActivityInstances[0].id);
    const review = after.childActivityInstances[0];
    const limit = (await rest.request('GET', '/variable-instance', { query: { processInstanceIdIn: id, variableName: 'limit' } })).body;
    expect(limit).toMatchObject([{ value: 30, activityInstanceId: review.id }]);
    expect(await variables(id)).toMatchObject({ amount: { value: 3 }, reviewStarted: { value: true } });
    const jobs = (await rest.request('GET', '/job', { query: { processInstanceId: id } })).body;
    expect(jobs).toMatchObject([{ processDefinitionId: v2 }]);
    const subscriptions = (await rest.request('GET', '/event-subscription', { query: { processInstanceId: id } })).body;
    expect(subscriptions).toMatchObject([{ eventType: 'message', eventName: 'poke', activityId: 'pokeStart' }]);

    await completeTask(id, 'approve');
    expect(await variables(id)).toMatchObject({ approvedLimit: { value: 30 }, reviewEnded: { value: true } });
    expect(shape(await tree(id))).toEqual([v2, [['ship', []]]]);
    await completeTask(id, 'ship');
    expect(await count(id)).toBe(0);
  });

  it('removes a sub-process around a waiting task, honouring skipCustomListeners and skipIoMappings', async () => {
    const v1 = await deploy(nested);
    const v2 = await deploy(flat);
    const kept = await start(v1);
    const skipped = await start(v1);
    const approveId = (await tree(kept)).childActivityInstances[0].childActivityInstances[0].id;

    expect((await migrate(v1, v2, kept, ['approve', 'ship'])).status).toBe(204);
    expect((await migrate(v1, v2, skipped, ['approve', 'ship'], { skipCustomListeners: true, skipIoMappings: true })).status).toBe(204);

    const after = await tree(kept);
    expect(shape(after)).toEqual([v2, [['approve', []]]]);
    expect(after.childActivityInstances[0]).toMatchObject({ id: approveId, parentActivityInstanceId: kept });
    expect(Object.keys(await variables(kept)).sort()).toEqual(['amount', 'approvedLimit', 'reviewEnded', 'reviewStarted']);
    expect(Object.keys(await variables(skipped)).sort()).toEqual(['amount', 'reviewStarted']);
    expect((await rest.request('GET', '/job', { query: { processInstanceId: kept } })).body).toEqual([]);
    expect((await rest.request('GET', '/event-subscription', { query: { processInstanceId: kept } })).body).toEqual([]);

    for (const id of [kept, skipped]) {
      await completeTask(id, 'approve');
      await completeTask(id, 'ship');
      expect(await count(id)).toBe(0);
    }
  });

  it('adds a boundary timer to a waiting task', async () => {
    const v1 = await deploy(flat);
    const v2 = await deploy(guarded);
    const id = await start(v1);
    const approveId = (await tree(id)).childActivityInstances[0].id;

    expect((await migrate(v1, v2, id, ['approve', 'ship'])).status).toBe(204);

    const after = await tree(id);
    expect(shape(after)).toEqual([v2, [['approve', []]]]);
    expect(after.childActivityInstances[0].id).toBe(approveId);
    const [job] = (await rest.request('GET', '/job', { query: { processInstanceId: id } })).body;
    expect(job).toMatchObject({ processDefinitionId: v2 });
    expect((await rest.request('POST', `/job/${job.id}/execute`)).status).toBe(204);
    expect(shape(await tree(id))).toEqual([v2, [['escalate', []]]]);
    await completeTask(id, 'escalate');
    await completeTask(id, 'ship');
    expect(await count(id)).toBe(0);
  });
});
