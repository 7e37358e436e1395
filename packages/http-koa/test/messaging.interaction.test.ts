import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { deploymentForm, startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:message id="m_paid" name="paid" /><bpmn:message id="m_order" name="order" /><bpmn:signal id="s_go" name="go" />
  <bpmn:process id="shop" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="payment" />
    <bpmn:intermediateCatchEvent id="payment"><bpmn:messageEventDefinition messageRef="m_paid" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="payment" targetRef="go" />
    <bpmn:intermediateCatchEvent id="go"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="go" targetRef="wait" />
    <bpmn:receiveTask id="wait" />
    <bpmn:sequenceFlow id="f4" sourceRef="wait" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="orders" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="orderStart"><bpmn:messageEventDefinition messageRef="m_order" /></bpmn:startEvent>
    <bpmn:sequenceFlow id="o1" sourceRef="orderStart" targetRef="handle" />
    <bpmn:userTask id="handle" />
    <bpmn:sequenceFlow id="o2" sourceRef="handle" targetRef="orderEnd" />
    <bpmn:endEvent id="orderEnd" />
  </bpmn:process>
</bpmn:definitions>`;

beforeEach(async () => {
  rest = await startRestHarness();
  await rest.engine.deployment.deploy({ resources: [{ name: 'shop.bpmn', bytes: Buffer.from(MODEL) }] });
});
afterEach(async () => rest.close());

const startShop = async (businessKey: string) =>
  (await rest.request('POST', '/process-definition/key/shop/start', { json: { businessKey, variables: { order: { value: businessKey, type: 'String' } } } })).body.id as string;

describe('POST /message', () => {
  it('correlates to a waiting execution and returns the result with variables when asked', async () => {
    const id = await startShop('A');
    await startShop('B');

    const response = await rest.request('POST', '/message', {
      json: {
        messageName: 'paid',
        businessKey: 'A',
        processVariables: {
          amount: { value: 5, type: 'Integer' },
          cart: { value: '{"items":2}', type: 'Object', valueInfo: { objectTypeName: 'java.util.LinkedHashMap', serializationDataFormat: 'application/json' } },
        },
        resultEnabled: true,
        variablesInResultEnabled: true,
      },
    });
    const silent = await rest.request('POST', '/message', { json: { messageName: 'paid', correlationKeys: { order: { value: 'B', type: 'String' } } } });

    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(1);
    expect(response.body[0]).toMatchObject({ resultType: 'Execution', processInstance: null, execution: { processInstanceId: id, ended: false } });
    expect(response.body[0].variables.amount).toEqual({ type: 'Integer', value: 5, valueInfo: {} });
    // Camunda answers the result's variables serialized.
    expect(response.body[0].variables.cart).toMatchObject({ type: 'Object', value: '{"items":2}' });
    expect(silent.status).toBe(204);
  });

  it('starts an instance at a message start event', async () => {
    const response = await rest.request('POST', '/message', { json: { messageName: 'order', businessKey: 'o-1', resultEnabled: true } });

    expect(response.body).toMatchObject([{ resultType: 'ProcessDefinition', execution: null, processInstance: { businessKey: 'o-1', ended: false, links: [] } }]);
    expect(response.body[0]).not.toHaveProperty('variables');
    // Correlation keys and a process instance id narrow the waiting executions only: with none waiting, the start event matches.
    const keyed = await rest.request('POST', '/message', { json: { messageName: 'order', correlationKeys: { customer: { value: 'acme', type: 'String' } }, resultEnabled: true } });
    expect(keyed.body).toMatchObject([{ resultType: 'ProcessDefinition' }]);
    const byInstance = await rest.request('POST', '/message', { json: { messageName: 'order', processInstanceId: 'nope', resultEnabled: true } });
    expect(byInstance.body).toMatchObject([{ resultType: 'ProcessDefinition' }]);
  });

  it("leaves a suspended definition's message start event out, as if nothing matched", async () => {
    await rest.request('PUT', '/process-definition/suspended', { json: { processDefinitionKey: 'orders', suspended: true } });

    const response = await rest.request('POST', '/message', { json: { messageName: 'order' } });

    expect([response.status, response.body.message]).toEqual([400, "org.camunda.bpm.engine.MismatchingMessageCorrelationException: Cannot correlate message 'order': No process definition or execution matches the parameters"]);
  });

  it('answers 400 RestException when nothing or too much matches, 400 without a name', async () => {
    await startShop('A');
    await startShop('B');

    const many = await rest.request('POST', '/message', { json: { messageName: 'paid' } });
    const none = await rest.request('POST', '/message', { json: { messageName: 'refund' } });
    const nameless = await rest.request('POST', '/message', { json: {} });

    expect(many.status).toBe(400);
    expect(many.body).toMatchObject({ type: 'RestException', code: 0 });
    // Camunda wraps the exception: the message is its toString(), with the CorrelationSet as Camunda prints it.
    expect(many.body.message).toBe(
      "org.camunda.bpm.engine.MismatchingMessageCorrelationException: ENGINE-13031 Cannot correlate a message with name 'paid' to a single execution. 2 executions match the correlation keys: " +
        'CorrelationSet [businessKey=null, processInstanceId=null, processDefinitionId=null, correlationKeys=null, localCorrelationKeys=null, tenantId=null, isTenantIdSet=false, isExecutionsOnly=false]',
    );
    expect(none.body).toEqual({
      type: 'RestException',
      message: "org.camunda.bpm.engine.MismatchingMessageCorrelationException: Cannot correlate message 'refund': No process definition or execution matches the parameters",
      code: 0,
    });
    expect(nameless.body).toEqual({ type: 'InvalidRequestException', message: 'No message name supplied', code: null });
    // Correlation keys print as Camunda's VariableMapImpl prints its typed values.
    await startShop('A');
    const keyed = await rest.request('POST', '/message', { json: { messageName: 'paid', correlationKeys: { order: { value: 'A', type: 'String' } } } });
    expect(keyed.body.message).toContain("correlationKeys={\n  order => Value 'A' of type 'PrimitiveValueType[string]', isTransient=false\n}, localCorrelationKeys=null");
    const variablesOnly = await rest.request('POST', '/message', { json: { messageName: 'paid', variablesInResultEnabled: true } });
    expect([variablesOnly.status, variablesOnly.body.message]).toEqual([400, "Parameter 'variablesInResultEnabled' cannot be used without 'resultEnabled' set to true."]);
    const instanceAndTenant = await rest.request('POST', '/message', { json: { messageName: 'paid', processInstanceId: 'x', withoutTenantId: true } });
    expect([instanceAndTenant.status, instanceAndTenant.body.message]).toEqual([400, 'ENGINE-13028 Cannot specify a tenant-id when correlate a message to a single process instance.']);
    const executionAndTenant = await rest.request('POST', '/signal', { json: { name: 'go', executionId: 'x', tenantId: 't' } });
    expect([executionAndTenant.status, executionAndTenant.body.message]).toEqual([400, 'ENGINE-13027 Cannot specify a tenant-id when deliver a signal to a single execution.']);
    const unknownExecution = await rest.request('POST', '/signal', { json: { name: 'go', executionId: 'nope' } });
    expect([unknownExecution.status, unknownExecution.body.type, unknownExecution.body.message]).toEqual([500, 'NullValueException', "Cannot find execution with id 'nope': execution is null"]);
    const [waiting] = (await rest.request('GET', '/execution', { query: { processInstanceId: (await rest.request('GET', '/process-instance')).body[0].id } })).body;
    const notSubscribed = await rest.request('POST', '/signal', { json: { name: 'other', executionId: waiting.id } });
    expect([notSubscribed.status, notSubscribed.body.type, notSubscribed.body.message]).toEqual([
      500, 'RestException', `Execution '${waiting.id}' has not subscribed to a signal event with name 'other'. is empty`,
    ]);
  });
});

const JOINED = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="j" targetNamespace="http://trellis.test">
  <bpmn:message id="m_both" name="both" />
  <bpmn:process id="joined" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="fork" />
    <bpmn:parallelGateway id="fork" />
    <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="left" /><bpmn:sequenceFlow id="f3" sourceRef="fork" targetRef="right" />
    <bpmn:intermediateCatchEvent id="left"><bpmn:messageEventDefinition messageRef="m_both" /></bpmn:intermediateCatchEvent>
    <bpmn:intermediateCatchEvent id="right"><bpmn:messageEventDefinition messageRef="m_both" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f4" sourceRef="left" targetRef="join" /><bpmn:sequenceFlow id="f5" sourceRef="right" targetRef="join" />
    <bpmn:parallelGateway id="join" /><bpmn:sequenceFlow id="f6" sourceRef="join" targetRef="after" />
    <bpmn:userTask id="after" /><bpmn:sequenceFlow id="f7" sourceRef="after" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

const TRIGGERED = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="t" targetNamespace="http://trellis.test">
  <bpmn:message id="m_stop" name="stop" /><bpmn:message id="m_note" name="note" /><bpmn:message id="m_side" name="side" />
  <bpmn:process id="triggered" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="s" />
    <bpmn:sequenceFlow id="a" sourceRef="s" targetRef="work" />
    <bpmn:userTask id="work" />
    <bpmn:boundaryEvent id="stopped" attachedToRef="work"><bpmn:messageEventDefinition messageRef="m_stop" /></bpmn:boundaryEvent>
    <bpmn:boundaryEvent id="noted" attachedToRef="work" cancelActivity="false"><bpmn:messageEventDefinition messageRef="m_note" /></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="b" sourceRef="work" targetRef="e1" />
    <bpmn:endEvent id="e1" />
    <bpmn:sequenceFlow id="c" sourceRef="stopped" targetRef="afterStop" />
    <bpmn:userTask id="afterStop" />
    <bpmn:sequenceFlow id="d" sourceRef="noted" targetRef="afterNote" />
    <bpmn:userTask id="afterNote" />
    <bpmn:subProcess id="sideProcess" triggeredByEvent="true">
      <bpmn:startEvent id="sideStart" isInterrupting="false"><bpmn:messageEventDefinition messageRef="m_side" /></bpmn:startEvent>
      <bpmn:sequenceFlow id="e" sourceRef="sideStart" targetRef="afterSide" />
      <bpmn:userTask id="afterSide" />
    </bpmn:subProcess>
  </bpmn:process>
</bpmn:definitions>`;

describe('POST /message with processVariablesToTriggeredScope', () => {
  const payload = (value: string) => ({ testVar: { value, type: 'String' } });
  const scopeOf = async (instanceId: string, activityId: string) =>
    (await rest.request('GET', '/execution', { query: { processInstanceId: instanceId, activityId } })).body[0]?.id as string | undefined;
  const holders = async (instanceId: string) =>
    ((await rest.request('GET', '/variable-instance', { query: { processInstanceIdIn: instanceId, variableName: 'testVar' } })).body as Array<{ executionId: string; value: string }>)
      .map((each) => [each.executionId, each.value]);

  beforeEach(async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'triggered.bpmn', bytes: Buffer.from(TRIGGERED) }] });
  });

  it('sets them local on the path a non-interrupting boundary event starts, the scope of an event sub-process, and the instance an interrupting one continues', async () => {
    const id = (await rest.request('POST', '/process-definition/key/triggered/start', { json: {} })).body.id as string;

    const noted = await rest.request('POST', '/message', { json: { messageName: 'note', processVariablesToTriggeredScope: payload('note') } });
    expect(noted.status).toBe(204);
    expect(await holders(id)).toEqual([[await scopeOf(id, 'afterNote'), 'note']]);
    expect(await scopeOf(id, 'afterNote')).not.toBe(id);

    await rest.request('POST', '/message', { json: { messageName: 'side', processVariablesToTriggeredScope: payload('side') } });
    const side = await scopeOf(id, 'afterSide');
    expect((await holders(id)).find(([, value]) => value === 'side')).toEqual([side, 'side']);

    const other = (await rest.request('POST', '/process-definition/key/triggered/start', { json: { businessKey: 'other' } })).body.id as string;
    await rest.request('POST', '/message', { json: { messageName: 'stop', businessKey: 'other', processVariablesLocal: { gone: { value: 1, type: 'Integer' } }, processVariablesToTriggeredScope: payload('stop') } });
    // The local variables went to the cancelled task's scope and went with it; the triggered scope's stay on the instance.
    expect(await holders(other)).toEqual([[other, 'stop']]);
    expect((await rest.request('GET', '/variable-instance/count', { query: { processInstanceIdIn: other, variableName: 'gone' } })).body.count).toBe(0);
  });

  it('sets them on the execution of a message catch event, and drops them for a receive task, as Camunda', async () => {
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="r" targetNamespace="http://trellis.test">
  <bpmn:message id="m_first" name="first" /><bpmn:message id="m_second" name="second" />
  <bpmn:process id="receiving" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="s" />
    <bpmn:sequenceFlow id="a" sourceRef="s" targetRef="catch" />
    <bpmn:intermediateCatchEvent id="catch"><bpmn:messageEventDefinition messageRef="m_first" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="b" sourceRef="catch" targetRef="receive" />
    <bpmn:receiveTask id="receive" messageRef="m_second" />
    <bpmn:sequenceFlow id="c" sourceRef="receive" targetRef="work" />
    <bpmn:userTask id="work" />
  </bpmn:process>
</bpmn:definitions>`;
    await rest.engine.deployment.deploy({ resources: [{ name: 'receiving.bpmn', bytes: Buffer.from(xml) }] });
    const id = (await rest.request('POST', '/process-definition/key/receiving/start', { json: {} })).body.id as string;

    await rest.request('POST', '/message', { json: { messageName: 'first', processVariablesToTriggeredScope: payload('caught') } });
    expect(await holders(id)).toEqual([[id, 'caught']]);
    const received = await rest.request('POST', '/message', { json: { messageName: 'second', processVariablesToTriggeredScope: { other: { value: 'received', type: 'String' } } } });
    expect(received.status).toBe(204);
    expect(await scopeOf(id, 'work')).toBe(id);
    const history = await rest.request('GET', '/history/variable-instance', { query: { processInstanceId: id } });
    expect(history.body.map((each: { name: string }) => each.name)).toEqual(['testVar']);
  });

  it('takes an empty message name as a name that matches nothing', async () => {
    const response = await rest.request('POST', '/message', { json: { messageName: '' } });

    expect([response.status, response.body.message]).toEqual([400, "org.camunda.bpm.engine.MismatchingMessageCorrelationException: Cannot correlate message '': No process definition or execution matches the parameters"]);
  });
});

describe('POST /signal and the Execution group', () => {
  it('leaves a suspended instance waiting when a signal is broadcast, as Camunda', async () => {
    const id = await startShop('A');
    await rest.request('POST', '/message', { json: { messageName: 'paid', processInstanceId: id } });
    await rest.request('PUT', `/process-instance/${id}/suspended`, { json: { suspended: true } });
    const waiting = async () => (await rest.request('GET', '/execution', { query: { signalEventSubscriptionName: 'go', processInstanceId: id } })).body.length;

    expect((await rest.request('POST', '/signal', { json: { name: 'go' } })).status).toBe(204);
    expect(await waiting()).toBe(1);
    await rest.request('PUT', `/process-instance/${id}/suspended`, { json: { suspended: false } });
    expect((await rest.request('POST', '/signal', { json: { name: 'go' } })).status).toBe(204);
    expect(await waiting()).toBe(0);
  });

  it('signals waiting executions, lists executions by subscription and signals a receive task', async () => {
    const id = await startShop('A');
    await rest.request('POST', '/message', { json: { messageName: 'paid', processInstanceId: id } });

    const waiting = await rest.request('GET', '/execution?signalEventSubscriptionName=go');
    const signal = await rest.request('POST', '/signal', { json: { name: 'go', variables: { flag: { value: true, type: 'Boolean' } } } });
    const atReceive = await rest.request('GET', `/execution?processInstanceId=${id}&activityId=wait`);
    const count = await rest.request('POST', '/execution/count', { json: { processInstanceId: id } });
    const one = await rest.request('GET', `/execution/${atReceive.body[0].id}`);
    await rest.request('PUT', `/execution/${atReceive.body[0].id}/localVariables/note`, { json: { value: 'hi', type: 'String' } });
    const local = await rest.request('GET', `/execution/${atReceive.body[0].id}/localVariables/note`);
    const signalled = await rest.request('POST', `/execution/${atReceive.body[0].id}/signal`, { json: {} });

    expect(waiting.body).toEqual([{ id, processInstanceId: id, ended: false, tenantId: null }]);
    expect(signal.status).toBe(204);
    expect(atReceive.body).toHaveLength(1);
    expect(count.body.count).toBeGreaterThanOrEqual(1);
    expect(one.body).toEqual({ id: atReceive.body[0].id, processInstanceId: id, ended: false, tenantId: null });
    expect(local.body).toEqual({ type: 'String', value: 'hi', valueInfo: {} });
    expect(signalled.status).toBe(204);
    expect((await rest.request('GET', '/process-instance/count')).body.count).toBe(0);
  });

  it('shows and triggers a message subscription of an execution; 404 for unknown ones', async () => {
    const id = await startShop('A');

    const subscription = await rest.request('GET', `/execution/${id}/messageSubscriptions/paid`);
    const unknown = await rest.request('GET', `/execution/${id}/messageSubscriptions/nope`);
    const trigger = await rest.request('POST', `/execution/${id}/messageSubscriptions/paid/trigger`, { json: { variables: { x: { value: 1, type: 'Integer' } } } });
    const missingExecution = await rest.request('GET', '/execution/nope');

    expect(subscription.body).toMatchObject({ eventType: 'message', eventName: 'paid', executionId: id, processInstanceId: id, activityId: 'payment' });
    expect(unknown.status).toBe(404);
    expect(trigger.status).toBe(204);
    expect((await rest.request('GET', `/process-instance/${id}/variables`)).body.x).toEqual({ type: 'Integer', value: 1, valueInfo: {} });
    expect(missingExecution.body).toEqual({ type: 'InvalidRequestException', message: 'Execution with id nope does not exist', code: null });
  });

  it('refuses to signal a suspended execution, an activity that takes no signal and an execution at no activity, with Camunda’s texts', async () => {
    const GATEWAY = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="gd" targetNamespace="http://trellis.test">
  <bpmn:message id="m_a" name="a" />
  <bpmn:process id="gated" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="g" />
    <bpmn:eventBasedGateway id="g" /><bpmn:sequenceFlow id="f2" sourceRef="g" targetRef="a" />
    <bpmn:intermediateCatchEvent id="a"><bpmn:messageEventDefinition messageRef="m_a" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="a" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
    await rest.engine.deployment.deploy({ resources: [{ name: 'gated.bpmn', bytes: Buffer.from(GATEWAY) }, { name: 'joined.bpmn', bytes: Buffer.from(JOINED) }] });
    const refusal = async (id: string) => {
      const response = await rest.request('POST', `/execution/${id}/signal`, { json: {} });
      return [response.status, response.body.type, response.body.message];
    };
    const shop = await startShop('A');
    await rest.request('POST', '/message', { json: { messageName: 'paid', processInstanceId: shop } });
    await rest.request('PUT', `/process-instance/${shop}/suspended`, { json: { suspended: true } });
    const gated = (await rest.request('POST', '/process-definition/key/gated/start', { json: {} })).body.id as string;
    const joined = (await rest.request('POST', '/process-definition/key/joined/start', { json: {} })).body.id as string;

    expect(await refusal(shop)).toEqual([500, 'RestException', `Cannot signal execution ${shop}: ENGINE-03043 Execution with id '${shop}' is suspended.`]);
    expect(await refusal(gated)).toEqual([500, 'RestException', `Cannot signal execution ${gated}: ENGINE-02010 The activity with id 'g' doesn't accept signals.`]);
    expect(await refusal(joined)).toEqual([500, 'RestException', `Cannot signal execution ${joined}: cannot signal execution ${joined}: it has no current activity`]);
  });

  it('suspends an instance so that it refuses messages, and activates it again', async () => {
    const id = await startShop('A');

    const suspend = await rest.request('PUT', `/process-instance/${id}/suspended`, { json: { suspended: true } });
    const refused = await rest.request('POST', '/message', { json: { messageName: 'paid', processInstanceId: id } });
    const listed = await rest.request('GET', '/process-instance?suspended=true');
    await rest.request('PUT', '/process-instance/suspended', { json: { suspended: false, processDefinitionKey: 'shop' } });
    const accepted = await rest.request('POST', '/message', { json: { messageName: 'paid', processInstanceId: id } });

    expect(suspend.status).toBe(204);
    expect(refused.status).toBe(400);
    expect(listed.body.map((instance: { id: string }) => instance.id)).toEqual([id]);
    expect(accepted.status).toBe(204);
  });

  it('modifies an instance: cancel the waiting event, start before the receive task; 400 for an unknown activity', async () => {
    const id = await startShop('A');

    const modified = await rest.request('POST', `/process-instance/${id}/modification`, {
      json: { instructions: [{ type: 'startBeforeActivity', activityId: 'wait' }, { type: 'cancel', activityId: 'payment' }] },
    });
    const tree = await rest.request('GET', `/process-instance/${id}/activity-instances`);
    const unknown = await rest.request('POST', `/process-instance/${id}/modification`, { json: { instructions: [{ type: 'startBeforeActivity', activityId: 'nope' }] } });
    const noId = await rest.request('POST', `/process-instance/${id}/modification`, { json: { instructions: [{ type: 'startTransition' }] } });
    const started = await rest.request('POST', '/process-definition/key/shop/start', { json: { startInstructions: [{ type: 'startAfterActivity', activityId: 'go' }] } });

    expect(modified.status).toBe(204);
    expect(tree.body.childActivityInstances.map((child: { activityId: string }) => child.activityId)).toEqual(['wait']);
    expect(unknown.status).toBe(400);
    expect(unknown.body).toMatchObject({ type: 'NotValidException', message: expect.stringMatching(/^Cannot perform instruction: Start before activity 'nope'; Element 'nope' does not exist in process 'shop:.*': element is null$/) });
    expect(noId.body).toEqual({ type: 'InvalidRequestException', message: "For instruction type 'startTransition': 'transitionId' must be set", code: null });
    expect((await rest.request('GET', `/process-instance/${started.body.id}/activity-instances`)).body.childActivityInstances[0].activityId).toBe('wait');
  });
});

describe('query bodies and BPMN errors from user tasks', () => {
  const REVIEW = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="r" targetNamespace="http://trellis.test">
  <bpmn:error id="e" errorCode="REJECTED" />
  <bpmn:process id="review" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="check" />
    <bpmn:userTask id="check" /><bpmn:sequenceFlow id="f2" sourceRef="check" targetRef="end" /><bpmn:endEvent id="end" />
    <bpmn:boundaryEvent id="rejected" attachedToRef="check"><bpmn:errorEventDefinition errorRef="e" /></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="rejected" targetRef="fix" /><bpmn:userTask id="fix" />
    <bpmn:sequenceFlow id="f4" sourceRef="fix" targetRef="end" />
  </bpmn:process>
</bpmn:definitions>`;

  it('finds instances with a POST query and routes a user task BPMN error to its boundary event', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(REVIEW) }] });
    const id = (await rest.request('POST', '/process-definition/key/review/start', { json: { businessKey: 'r-1' } })).body.id;
    await startShop('A');

    const found = await rest.request('POST', '/process-instance?maxResults=5', { json: { businessKey: 'r-1', sorting: [{ sortBy: 'instanceId', sortOrder: 'asc' }] } });
    const count = await rest.request('POST', '/process-instance/count', { json: { processDefinitionKey: 'shop' } });
    const [task] = (await rest.request('GET', `/task?processInstanceId=${id}`)).body;
    const missingCode = await rest.request('POST', `/task/${task.id}/bpmnError`, { json: {} });
    const thrown = await rest.request('POST', `/task/${task.id}/bpmnError`, { json: { errorCode: 'REJECTED', variables: { why: { value: 'typo', type: 'String' } } } });
    const [fix] = (await rest.request('GET', `/task?processInstanceId=${id}`)).body;

    expect(found.body.map((instance: { id: string }) => instance.id)).toEqual([id]);
    expect(count.body).toEqual({ count: 1 });
    expect(missingCode.status).toBe(400);
    expect(thrown.status).toBe(204);
    expect(fix.taskDefinitionKey).toBe('fix');
    expect((await rest.request('GET', `/process-instance/${id}/variables`)).body.why.value).toBe('typo');
  });

  it('routes a user task escalation to its boundary event, and fails as a whole when nothing catches it', async () => {
    const escalating = REVIEW.replace('id="r"', 'id="esc"')
      .replace('<bpmn:error id="e" errorCode="REJECTED" />', '<bpmn:escalation id="late" escalationCode="LATE" />')
      .replace('id="review"', 'id="escalating"')
      .replace('<bpmn:boundaryEvent id="rejected" attachedToRef="check"><bpmn:errorEventDefinition errorRef="e" /></bpmn:boundaryEvent>', '<bpmn:boundaryEvent id="rejected" attachedToRef="check" cancelActivity="false"><bpmn:escalationEventDefinition escalationRef="late" /></bpmn:boundaryEvent>');
    await rest.engine.deployment.deploy({ resources: [{ name: 'escalating.bpmn', bytes: Buffer.from(escalating) }] });
    const id = (await rest.request('POST', '/process-definition/key/escalating/start', { json: {} })).body.id;
    const [task] = (await rest.request('GET', `/task?processInstanceId=${id}`)).body;

    const missingCode = await rest.request('POST', `/task/${task.id}/bpmnEscalation`, { json: {} });
    const unknownTask = await rest.request('POST', '/task/nope/bpmnEscalation', { json: { escalationCode: 'LATE' } });
    const uncaught = await rest.request('POST', `/task/${task.id}/bpmnEscalation`, { json: { escalationCode: 'OTHER', variables: { lost: { value: 1, type: 'Integer' } } } });
    const caught = await rest.request('POST', `/task/${task.id}/bpmnEscalation`, { json: { escalationCode: 'LATE', variables: { why: { value: 'slow', type: 'String' } } } });
    const tasks = (await rest.request('GET', `/task?processInstanceId=${id}`)).body.map((each: { taskDefinitionKey: string }) => each.taskDefinitionKey).sort();

    expect(missingCode.status).toBe(400);
    // Camunda's TaskResourceImpl.handleEscalation rethrows both as RestException.
    expect(missingCode.body).toMatchObject({ type: 'RestException', message: 'escalationCode is null' });
    expect([unknownTask.status, unknownTask.body.type, unknownTask.body.message]).toEqual([404, 'RestException', 'Cannot find task with id nope: task is null']);
    expect(uncaught.status).toBe(500);
    expect(uncaught.body.message).toBe("ENGINE-02043 Execution with id 'check' throws an escalation event with escalationCode 'OTHER', but no escalation handler was defined. ");
    expect(caught.status).toBe(204);
    // The non-interrupting boundary event keeps the task; the failed call set nothing.
    expect(tasks).toEqual(['check', 'fix']);
    expect(Object.keys((await rest.request('GET', `/process-instance/${id}/variables`)).body)).toEqual(['why']);
  });

  it('keeps comments on a task and its process instance, also after the task ended', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(REVIEW) }] });
    const id = (await rest.request('POST', '/process-definition/key/review/start', { json: {} })).body.id;
    const [task] = (await rest.request('GET', `/task?processInstanceId=${id}`)).body;

    // Camunda's CommentDto: the comment's process instance is the one the body names.
    const created = await rest.request('POST', `/task/${task.id}/comment/create`, { json: { message: 'looks good', processInstanceId: id } });
    const bare = await rest.request('POST', `/task/${task.id}/comment/create`, { json: { message: '' } });
    const empty = await rest.request('POST', `/task/${task.id}/comment/create`, { json: {} });
    await rest.request('POST', `/task/${task.id}/complete`, { json: {} });
    const afterwards = await rest.request('POST', `/task/${task.id}/comment/create`, { json: { message: 'done' } });
    const listed = await rest.request('GET', `/task/${task.id}/comment`);
    const one = await rest.request('GET', `/task/${task.id}/comment/${created.body.id}`);
    const byInstance = await rest.request('GET', `/process-instance/${id}/comment`);
    const unknownTask = await rest.request('GET', '/task/nope/comment');
    const commentOnUnknown = await rest.request('POST', '/task/nope/comment/create', { json: { message: 'x' } });
    const unknownComment = await rest.request('GET', `/task/${task.id}/comment/nope`);

    expect(created.body).toMatchObject({ taskId: task.id, processInstanceId: id, rootProcessInstanceId: id, message: 'looks good', userId: null });
    expect(created.body.links).toEqual([{ method: 'GET', href: `${rest.url}/task/${task.id}/comment/${created.body.id}`, rel: 'self' }]);
    expect(bare.body).toMatchObject({ taskId: task.id, processInstanceId: null, message: '' });
    expect(empty.body).toEqual({ type: 'InvalidRequestException', message: 'Not enough parameters submitted', code: 0 });
    expect(afterwards.status).toBe(200);
    expect(listed.body.map((comment: { message: string }) => comment.message).sort()).toEqual(['', 'done', 'looks good']);
    expect(one.body.id).toBe(created.body.id);
    expect(byInstance.body.map((comment: { id: string }) => comment.id)).toEqual([created.body.id]);
    expect([unknownTask.status, unknownTask.body.message]).toEqual([404, 'No task found for task id nope']);
    expect([commentOnUnknown.status, commentOnUnknown.body.message]).toEqual([400, 'No task found for task id nope']);
    expect(unknownComment.body.message).toBe(`Task comment with id nope does not exist for task id '${task.id}'.`);
  });

  it('serves and applies the form fields of a user task', async () => {
    const FORM = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="f" targetNamespace="http://trellis.test">
  <bpmn:process id="formed" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve"><bpmn:extensionElements><camunda:formData>
      <camunda:formField id="amount" type="long" defaultValue="100" />
      <camunda:formField id="approved" type="boolean" />
      <camunda:formField id="note" type="string"><camunda:validation><camunda:constraint name="required" /></camunda:validation></camunda:formField>
      <camunda:formField id="decided" type="date" />
    </camunda:formData></bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
    await rest.engine.deployment.deploy({ resources: [{ name: 'formed.bpmn', bytes: Buffer.from(FORM) }] });
    const id = (await rest.request('POST', '/process-definition/key/formed/start', { json: { variables: { note: { value: 'hi', type: 'String' } } } })).body.id;
    const [task] = (await rest.request('GET', `/task?processInstanceId=${id}`)).body;

    const variables = await rest.request('GET', `/task/${task.id}/form-variables`);
    const submitted = await rest.request('POST', `/task/${task.id}/submit-form`, {
      json: { variables: { amount: { value: '250', type: 'String' }, approved: { value: true, type: 'Boolean' }, decided: { value: ' ' } }, withVariablesInReturn: true },
    });

    expect(variables.body).toEqual({
      note: { type: 'String', value: 'hi', valueInfo: {} },
      amount: { type: 'Long', value: 100, valueInfo: {} },
      approved: { type: 'Boolean', value: null, valueInfo: {} },
      // Camunda's DateFormType: no date is the empty text.
      decided: { type: 'String', value: '', valueInfo: {} },
    });
    // The required note is not submitted but the instance holds it (Camunda's RequiredValidator); an empty date is none.
    expect(submitted.status).toBe(200);
    expect(submitted.body.amount).toEqual({ type: 'Long', value: 250, valueInfo: {} });
    expect(submitted.body.decided).toEqual({ type: 'Date', value: null, valueInfo: {} });
  });
});

describe('POST /signal with authorization on', () => {
  const SIGNALS = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="sig" targetNamespace="http://trellis.test">
  <bpmn:signal id="s_alarm" name="alarm" />
  <bpmn:process id="waiter" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="wait" />
    <bpmn:intermediateCatchEvent id="wait"><bpmn:signalEventDefinition signalRef="s_alarm" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="wait" targetRef="react" /><bpmn:userTask id="react" />
  </bpmn:process>
  <bpmn:process id="starter" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="alarmStart"><bpmn:signalEventDefinition signalRef="s_alarm" /></bpmn:startEvent>
    <bpmn:sequenceFlow id="g1" sourceRef="alarmStart" targetRef="respond" /><bpmn:userTask id="respond" />
  </bpmn:process>
</bpmn:definitions>`;
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  it('needs UPDATE on every waiting instance and CREATE with CREATE_INSTANCE for every started one, before anything moves', async () => {
    await rest.close();
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', { json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } }, headers: admin });
    await rest.request('POST', '/deployment/create', { form: deploymentForm({ 'deployment-name': 'sig' }, [{ name: 'sig.bpmn', content: SIGNALS }]), headers: admin });
    const waiting = (await rest.request('POST', '/process-definition/key/waiter/start', { json: {}, headers: admin })).body.id;
    const grant = (resourceType: number, resourceId: string, permissions: string[]) =>
      rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType, resourceId, permissions }, headers: admin });
    const send = () => rest.request('POST', '/signal', { json: { name: 'alarm' }, headers: jonny });

    const noRights = await send();
    await grant(6, 'waiter', ['UPDATE_INSTANCE']);
    const noCreate = await send();
    const tasksBefore = (await rest.request('GET', '/task', { headers: admin })).body.length;
    await grant(8, '*', ['CREATE']);
    await grant(6, 'starter', ['CREATE_INSTANCE']);
    const sent = await send();
    const tasks = (await rest.request('GET', '/task', { headers: admin })).body.map((task: { taskDefinitionKey: string }) => task.taskDefinitionKey).sort();

    expect(noRights.status).toBe(403);
    expect(noRights.body.missingAuthorizations).toEqual([
      { permissionName: 'UPDATE', resourceName: 'ProcessInstance', resourceId: waiting },
      { permissionName: 'UPDATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'waiter' },
    ]);
    expect(noCreate.status).toBe(403);
    expect(noCreate.body.missingAuthorizations).toEqual([{ permissionName: 'CREATE', resourceName: 'ProcessInstance', resourceId: null }]);
    expect(tasksBefore).toBe(0);
    expect(sent.status).toBe(204);
    expect(tasks).toEqual(['react', 'respond']);
  });
});

describe('POST /condition', () => {
  /** Processes started by conditions on `temperature` (one only when `temperature` itself is given), and one without. */
  const CONDITIONS = (hotAbove = 30) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="cond" targetNamespace="http://trellis.test">
  <bpmn:process id="hot" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="tooHot"><bpmn:conditionalEventDefinition camunda:variableName="temperature"><bpmn:condition xsi:type="bpmn:tFormalExpression">\${temperature &gt; ${hotAbove}}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:startEvent>
    <bpmn:sequenceFlow id="h1" sourceRef="tooHot" targetRef="cool" /><bpmn:userTask id="cool" />
  </bpmn:process>
  <bpmn:process id="warm" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="warmEnough"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">\${temperature &gt; 20}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:startEvent>
    <bpmn:sequenceFlow id="w1" sourceRef="warmEnough" targetRef="open" /><bpmn:userTask id="open" />
  </bpmn:process>
  <bpmn:process id="plain" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="plainStart" /><bpmn:sequenceFlow id="p1" sourceRef="plainStart" targetRef="plainTask" /><bpmn:userTask id="plainTask" />
  </bpmn:process>
</bpmn:definitions>`;
  const deployConditions = (hotAbove?: number) => rest.engine.deployment.deploy({ resources: [{ name: 'cond.bpmn', bytes: Buffer.from(CONDITIONS(hotAbove)) }] });
  const temperature = (value: number) => ({ temperature: { value, type: 'Integer' } });
  const definitionId = async (key: string) => (await rest.request('GET', `/process-definition/key/${key}`)).body.id as string;
  const taskKeys = async () => (await rest.request('GET', '/task')).body.map((task: { taskDefinitionKey: string }) => task.taskDefinitionKey).sort();

  it('starts an instance at every conditional start event whose condition holds for the variables given', async () => {
    const none = await rest.request('POST', '/condition', { json: { variables: temperature(40) } });
    await deployConditions();

    const warm = await rest.request('POST', '/condition', { json: { variables: temperature(25), businessKey: 'b-1' } });
    // A condition on a variable that is not given is false (no error); camunda:variableName needs that variable.
    const unknown = await rest.request('POST', '/condition', { json: { variables: { humidity: { value: 80, type: 'Integer' } } } });
    const both = await rest.request('POST', '/condition', { json: { variables: temperature(35) } });

    expect(none.status).toBe(500);
    expect(none.body).toEqual({ type: 'ProcessEngineException', message: 'ENGINE-13043 No subscriptions were found during evaluation of the conditional start events.', code: 0 });
    expect(warm.status).toBe(200);
    expect(warm.body).toEqual([{ links: [], id: expect.any(String), definitionId: await definitionId('warm'), businessKey: 'b-1', caseInstanceId: null, ended: false, suspended: false, tenantId: null }]);
    const variables = await rest.request('GET', `/process-instance/${warm.body[0].id}/variables`);
    expect(variables.body.temperature).toEqual({ type: 'Integer', value: 25, valueInfo: {} });
    expect(unknown.body).toEqual([]);
    expect(both.body.map((instance: { definitionId: string }) => instance.definitionId).sort()).toEqual([await definitionId('hot'), await definitionId('warm')].sort());
    expect(await taskKeys()).toEqual(['cool', 'open', 'open']);
    const subscriptions = await rest.request('GET', '/event-subscription?eventType=conditional');
    expect(subscriptions.body.map((each: { activityId: string; processInstanceId: string | null }) => [each.activityId, each.processInstanceId]).sort()).toEqual([
      ['tooHot', null],
      ['warmEnough', null],
    ]);
  });

  it("evaluates one definition's start events by processDefinitionId, skips suspended definitions, and follows the latest version", async () => {
    await deployConditions();
    const plainId = await definitionId('plain');
    const plain = await rest.request('POST', '/condition', { json: { variables: temperature(25), processDefinitionId: plainId } });
    const missing = await rest.request('POST', '/condition', { json: { variables: temperature(25), processDefinitionId: 'nope' } });
    const onlyHot = await rest.request('POST', '/condition', { json: { variables: temperature(35), processDefinitionId: await definitionId('hot') } });
    await rest.request('PUT', `/process-definition/${await definitionId('warm')}/suspended`, { json: { suspended: true } });
    const whileSuspended = await rest.request('POST', '/condition', { json: { variables: temperature(35) } });
    const byIdSuspended = await rest.request('POST', '/condition', { json: { variables: temperature(35), processDefinitionId: await definitionId('warm') } });
    const previousHot = await definitionId('hot');
    await deployConditions(50);
    const afterRedeploy = await rest.request('POST', '/condition', { json: { variables: temperature(45) } });
    const conflicting = await rest.request('POST', '/condition', { json: { tenantId: 't1', withoutTenantId: true } });

    expect(plain.status).toBe(500);
    expect(plain.body.message).toBe(`ENGINE-13042 Process definition with id '${plainId}' does not declare conditional start event.`);
    // Camunda's NotFoundException is a BadUserRequestException: 400.
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ type: 'NotFoundException', message: "no deployed process definition found with id 'nope': processDefinition is null", code: 0 });
    expect(onlyHot.body.map((instance: { definitionId: string }) => instance.definitionId)).toEqual([previousHot]);
    expect(whileSuspended.body.map((instance: { definitionId: string }) => instance.definitionId)).toEqual([previousHot]);
    expect(byIdSuspended.body).toEqual([]);
    // The new version of 'warm' is active; the new 'hot' (above 50) does not start at 45, the old one no longer listens.
    expect(afterRedeploy.body.map((instance: { definitionId: string }) => instance.definitionId)).toEqual([await definitionId('warm')]);
    expect(conflicting.status).toBe(400);
    expect(conflicting.body.message).toBe("Parameter 'tenantId' cannot be used together with parameter 'withoutTenantId'.");
  });

  it('needs CREATE and CREATE_INSTANCE for every instance it would start, before it starts any', async () => {
    await rest.close();
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    const admin = basic('admin', 'admin-secret');
    const jonny = basic('jonny', 'jonny-secret');
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', { json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } }, headers: admin });
    await deployConditions();
    const grant = (resourceType: number, resourceId: string, permissions: string[]) =>
      rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType, resourceId, permissions }, headers: admin });
    await grant(8, '*', ['CREATE']);
    const evaluate = () => rest.request('POST', '/condition', { json: { variables: temperature(35) }, headers: jonny });
    // Camunda finds only the subscriptions of definitions the caller may READ: none, no subscriptions.
    const unseen = await evaluate();
    expect([unseen.status, unseen.body.message]).toEqual([500, 'ENGINE-13043 No subscriptions were found during evaluation of the conditional start events.']);
    await grant(6, 'warm', ['READ', 'CREATE_INSTANCE']);
    const onlyWarm = await evaluate();
    expect(onlyWarm.body).toHaveLength(1);
    const hot = (await grant(6, 'hot', ['READ'])).body.id as string;

    const refused = await evaluate();
    const countAfterRefusal = (await rest.request('GET', '/process-instance/count', { headers: admin })).body.count;
    const widened = await rest.request('PUT', `/authorization/${hot}`, {
      json: { permissions: ['READ', 'CREATE_INSTANCE'], userId: 'jonny', groupId: null, resourceType: 6, resourceId: 'hot' },
      headers: admin,
    });
    expect(widened.status).toBe(204);
    const allowed = await evaluate();

    expect(refused.status).toBe(403);
    expect(refused.body.missingAuthorizations).toEqual([{ permissionName: 'CREATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'hot' }]);
    expect(countAfterRefusal).toBe(1);
    expect(allowed.body).toHaveLength(2);
  });
});

describe('messages and signals in Camunda 7.22 order', () => {
  const TWICE = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="t" targetNamespace="http://trellis.test">
  <bpmn:message id="m_twice" name="twice" />
  <bpmn:process id="twice" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="catch" />
    <bpmn:intermediateCatchEvent id="catch"><bpmn:messageEventDefinition messageRef="m_twice" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f2" sourceRef="catch" targetRef="end" /><bpmn:endEvent id="end" />
    <bpmn:subProcess id="handler" triggeredByEvent="true">
      <bpmn:startEvent id="handlerStart"><bpmn:messageEventDefinition messageRef="m_twice" /></bpmn:startEvent>
      <bpmn:sequenceFlow id="h1" sourceRef="handlerStart" targetRef="handlerEnd" /><bpmn:endEvent id="handlerEnd" />
    </bpmn:subProcess>
  </bpmn:process>
</bpmn:definitions>`;
  const SIGNALS = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="s" targetNamespace="http://trellis.test">
  <bpmn:signal id="s_go" name="go" /><bpmn:signal id="s_go2" name="go2" />
  <bpmn:process id="starter" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="sStart"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:startEvent>
    <bpmn:sequenceFlow id="s1" sourceRef="sStart" targetRef="throw" />
    <bpmn:intermediateThrowEvent id="throw"><bpmn:signalEventDefinition signalRef="s_go2" /></bpmn:intermediateThrowEvent>
    <bpmn:sequenceFlow id="s2" sourceRef="throw" targetRef="sEnd" /><bpmn:endEvent id="sEnd" />
  </bpmn:process>
  <bpmn:process id="waiter" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="wStart" /><bpmn:sequenceFlow id="w1" sourceRef="wStart" targetRef="first" />
    <bpmn:intermediateCatchEvent id="first"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="w2" sourceRef="first" targetRef="second" />
    <bpmn:intermediateCatchEvent id="second"><bpmn:signalEventDefinition signalRef="s_go2" /></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="w3" sourceRef="second" targetRef="done" /><bpmn:userTask id="done" />
    <bpmn:sequenceFlow id="w4" sourceRef="done" targetRef="wEnd" /><bpmn:endEvent id="wEnd" />
  </bpmn:process>
</bpmn:definitions>`;

  it('refuses to deliver to an execution that waits for the message twice, also when correlating all (500)', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'twice.bpmn', bytes: Buffer.from(TWICE) }] });
    const id = (await rest.request('POST', '/process-definition/key/twice/start', { json: {} })).body.id as string;
    for (const all of [false, true]) {
      const response = await rest.request('POST', '/message', { json: { messageName: 'twice', all } });
      expect([response.status, response.body.type]).toEqual([500, 'ProcessEngineException']);
      expect(response.body.message).toBe(`More than one matching message subscription found for execution ${id}: eventSubscriptions does not have 1 elements`);
    }
  });

  it('triggers a message subscription of an execution only when it has exactly one of that name (500 RestException otherwise)', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'twice.bpmn', bytes: Buffer.from(TWICE) }] });
    const id = (await rest.request('POST', '/process-definition/key/twice/start', { json: {} })).body.id as string;
    const trigger = async (name: string) => {
      const response = await rest.request('POST', `/execution/${id}/messageSubscriptions/${name}/trigger`, { json: {} });
      return [response.status, response.body.type, response.body.message];
    };

    expect(await trigger('twice')).toEqual([500, 'RestException',
      `Cannot trigger message twice for execution ${id}: More than one matching message subscription found for execution ${id}: eventSubscriptions does not have 1 elements`]);
    expect(await trigger('nope')).toEqual([500, 'RestException',
      `Cannot trigger message nope for execution ${id}: Execution with id '${id}' does not have a subscription to a message event with name 'nope': eventSubscriptions is empty`]);
  });

  it('moves the waiting executions before it starts instances at signal start events', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'signals.bpmn', bytes: Buffer.from(SIGNALS) }] });
    const id = (await rest.request('POST', '/process-definition/key/waiter/start', { json: {} })).body.id as string;
    expect((await rest.request('POST', '/signal', { json: { name: 'go' } })).status).toBe(204);
    // The waiter passed its first catch before the started instance threw go2, so go2 moved it on too.
    expect((await rest.request('GET', '/task', { query: { processInstanceId: id } })).body.map((task: { taskDefinitionKey: string }) => task.taskDefinitionKey)).toEqual(['done']);
  });
});

describe('correlation keys as Camunda matches them', () => {
  const NESTED = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="n" targetNamespace="http://trellis.test">
  <bpmn:message id="m_ship" name="ship" />
  <bpmn:process id="nestedShip" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="sub" />
    <bpmn:subProcess id="sub">
      <bpmn:startEvent id="subStart" /><bpmn:sequenceFlow id="s1" sourceRef="subStart" targetRef="wait" />
      <bpmn:intermediateCatchEvent id="wait"><bpmn:messageEventDefinition messageRef="m_ship" /></bpmn:intermediateCatchEvent>
      <bpmn:sequenceFlow id="s2" sourceRef="wait" targetRef="subEnd" /><bpmn:endEvent id="subEnd" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="sub" targetRef="after" /><bpmn:userTask id="after" />
    <bpmn:sequenceFlow id="f3" sourceRef="after" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

  it('match a variable of any scope of the instance, not only the instance’s own', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'nested.bpmn', bytes: Buffer.from(NESTED) }] });
    const id = (await rest.request('POST', '/process-definition/key/nestedShip/start', { json: {} })).body.id as string;
    const tree = (await rest.request('GET', `/process-instance/${id}/activity-instances`)).body;
    const scope = tree.childActivityInstances.find((child: { activityId: string }) => child.activityId === 'sub').executionIds[0] as string;
    await rest.request('PUT', `/execution/${scope}/localVariables/orderId`, { json: { value: 'A-1', type: 'String' } });

    const wrong = await rest.request('POST', '/message', { json: { messageName: 'ship', correlationKeys: { orderId: { value: 'B-2', type: 'String' } } } });
    expect(wrong.status).toBe(400);
    const right = await rest.request('POST', '/message', { json: { messageName: 'ship', correlationKeys: { orderId: { value: 'A-1', type: 'String' } } } });
    expect(right.status).toBe(204);
    expect((await rest.request('GET', '/task', { query: { processInstanceId: id } })).body.map((task: { taskDefinitionKey: string }) => task.taskDefinitionKey)).toEqual(['after']);
  });

  it('match a variable of the very type of the key (a bare JSON 5 is an Integer), while query filters compare numbers of any width', async () => {
    const started: Record<string, string> = {};
    for (const type of ['Integer', 'Long', 'Double', 'String']) {
      const value = type === 'String' ? '5' : 5;
      started[type] = (await rest.request('POST', '/process-definition/key/shop/start', { json: { variables: { amount: { value, type } } } })).body.id;
    }
    const nothing = (await rest.request('POST', '/process-definition/key/shop/start', { json: { variables: { amount: { value: null, type: 'Integer' } } } })).body.id as string;
    const correlate = async (key: Record<string, unknown>) => {
      const response = await rest.request('POST', '/message', { json: { messageName: 'paid', correlationKeys: { amount: key }, resultEnabled: true } });
      return response.status === 200 ? response.body[0].execution.processInstanceId : [response.status, response.body.type, response.body.message];
    };

    // Camunda's REST query filters pass numbers as Variables.numberValue: every width matches.
    const filtered = await rest.request('POST', '/execution', { json: { processVariables: [{ name: 'amount', operator: 'eq', value: 5 }] } });
    expect(filtered.body.map((execution: { id: string }) => execution.id).sort()).toEqual([started.Integer, started.Long, started.Double].sort());
    expect(await correlate({ value: 5, type: 'Short' })).toEqual([400, 'RestException', expect.stringContaining('No process definition or execution matches the parameters')]);
    expect(await correlate({ value: 5 })).toBe(started.Integer);
    expect(await correlate({ value: 5, type: 'Long' })).toBe(started.Long);
    expect(await correlate({ value: 5, type: 'Double' })).toBe(started.Double);
    expect(await correlate({ value: '5' })).toBe(started.String);
    // A null of any type matches a variable holding null.
    expect(await correlate({ value: null, type: 'Long' })).toBe(nothing);
    // Values that cannot query, refused before anything is looked at (a 500 of their own).
    expect(await correlate({ value: '{"a":1}', type: 'Json' })).toEqual([500, 'ProcessEngineException', 'Object values cannot be used to query']);
    expect(await correlate({ value: { a: 1 } })).toEqual([500, 'ProcessEngineException', 'Object values cannot be used to query']);
    expect(await correlate({ value: 'AQI=', type: 'Bytes' })).toEqual([500, 'ProcessEngineException', 'Variables of type ByteArray cannot be used to query']);
    expect(await correlate({ value: '{}', type: 'Object', valueInfo: { objectTypeName: 'java.util.HashMap', serializationDataFormat: 'application/json' } }))
      .toEqual([500, 'IllegalStateException', 'Object is not deserialized.']);
  });

  it('match local keys with a variable of the waiting execution, a task-local one on it included; process keys never with a task’s', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'triggered.bpmn', bytes: Buffer.from(TRIGGERED) }] });
    const id = (await rest.request('POST', '/process-definition/key/triggered/start', { json: {} })).body.id as string;
    const [task] = (await rest.request('GET', '/task', { query: { processInstanceId: id } })).body;
    await rest.request('PUT', `/task/${task.id}/localVariables/ref`, { json: { value: 'R-1', type: 'String' } });

    const asProcessKey = await rest.request('POST', '/message', { json: { messageName: 'stop', correlationKeys: { ref: { value: 'R-1', type: 'String' } } } });
    expect(asProcessKey.status).toBe(400);
    const asLocalKey = await rest.request('POST', '/message', { json: { messageName: 'stop', localCorrelationKeys: { ref: { value: 'R-1', type: 'String' } }, resultEnabled: true } });
    expect(asLocalKey.body).toMatchObject([{ resultType: 'Execution', execution: { processInstanceId: id } }]);
    expect((await rest.request('GET', '/task', { query: { processInstanceId: id } })).body.map((open: { taskDefinitionKey: string }) => open.taskDefinitionKey)).toEqual(['afterStop']);
  });
});

describe('POST /message with all: the results', () => {
  it('show each execution as it is once every correlation is done: one a later correlation joined away is ended', async () => {
    await rest.engine.deployment.deploy({ resources: [{ name: 'joined.bpmn', bytes: Buffer.from(JOINED) }] });
    const id = (await rest.request('POST', '/process-definition/key/joined/start', { json: {} })).body.id as string;

    const response = await rest.request('POST', '/message', { json: { messageName: 'both', all: true, resultEnabled: true } });

    expect(response.body).toHaveLength(2);
    expect(response.body.map((result: { execution: { processInstanceId: string; ended: boolean } }) => result.execution)).toEqual([
      expect.objectContaining({ processInstanceId: id, ended: true }),
      expect.objectContaining({ processInstanceId: id, ended: true }),
    ]);
    expect((await rest.request('GET', '/task', { query: { processInstanceId: id } })).body.map((task: { taskDefinitionKey: string }) => task.taskDefinitionKey)).toEqual(['after']);
  });
});

describe('POST /message with all: the operation log', () => {
  it('writes one CorrelateMessage entry: a summary for several results, the started instance for one', async () => {
    const logged = await startRestHarness({}, { authentication: 'basic' });
    try {
      await logged.engine.identity.setUpAdministrator('demo', 'demo-secret');
      const demo = basic('demo', 'demo-secret');
      await logged.engine.deployment.deploy({ resources: [{ name: 'shop.bpmn', bytes: Buffer.from(MODEL) }] });
      for (const key of ['A', 'B']) await logged.request('POST', '/process-definition/key/shop/start', { json: { businessKey: key }, headers: demo });
      const entries = async () =>
        (await logged.request('GET', '/history/user-operation', { query: { operationType: 'CorrelateMessage', sortBy: 'timestamp', sortOrder: 'asc' }, headers: demo })).body as Array<{
          property: string; newValue: string; processInstanceId: string | null; processDefinitionKey: string | null;
        }>;

      expect((await logged.request('POST', '/message', { json: { messageName: 'paid', all: true, processVariables: { x: { value: 1, type: 'Integer' } } }, headers: demo })).status).toBe(204);
      const summary = await entries();
      expect(Object.fromEntries(summary.map((entry) => [entry.property, entry.newValue]))).toEqual({ messageName: 'paid', nrOfVariables: '1', nrOfInstances: '2' });
      expect(summary.every((entry) => entry.processInstanceId === null)).toBe(true);

      const started = (await logged.request('POST', '/message', { json: { messageName: 'order', all: true, resultEnabled: true }, headers: demo })).body;
      const single = (await entries()).filter((entry) => entry.processInstanceId !== null);
      expect(Object.fromEntries(single.map((entry) => [entry.property, entry.newValue]))).toEqual({ messageName: 'order', processInstanceId: started[0].processInstance.id });
      expect(single.every((entry) => entry.processInstanceId === started[0].processInstance.id && entry.processDefinitionKey === 'orders')).toBe(true);
    } finally {
      await logged.close();
    }
  });
});
