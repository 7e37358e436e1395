import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { DelegateExecution } from '../../src/runtime/delegates/delegate-registry.js';
import { createTestEngine } from '../../src/testing/index.js';

// One listener class on the process, the task and the flow; a service task writing several variables at once.
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="observed" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:extensionElements>
      <camunda:executionListener event="start" class="com.acme.Observer" />
      <camunda:executionListener event="end" class="com.acme.Observer" />
    </bpmn:extensionElements>
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:serviceTask id="work" name="Do the work" camunda:class="com.acme.Worker">
      <bpmn:extensionElements>
        <camunda:inputOutput><camunda:inputParameter name="local">here</camunda:inputParameter></camunda:inputOutput>
        <camunda:executionListener event="start" class="com.acme.Observer" />
      </bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end">
      <bpmn:extensionElements><camunda:executionListener event="take" class="com.acme.Observer" /></bpmn:extensionElements>
    </bpmn:sequenceFlow>
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

describe('DelegateExecution', () => {
  let engine: ProcessEngine;
  beforeEach(async () => {
    engine = await createTestEngine();
  });
  afterEach(async () => engine.close());

  it("tells listeners their event, activity and transition, and offers Camunda's variable scope methods", async () => {
    const seen: Array<[string | null, string | null, string | null, string | null]> = [];
    let worker: { local: Record<string, unknown>; event: string | null } | null = null;
    engine.delegates.registerClass('com.acme.Observer', (execution: DelegateExecution) => {
      seen.push([execution.getEventName(), execution.getCurrentActivityId(), execution.getCurrentActivityName(), execution.getCurrentTransitionId()]);
    });
    engine.delegates.registerClass('com.acme.Worker', (execution: DelegateExecution) => {
      execution.setVariables({ first: 1, second: 'two' });
      worker = { local: execution.getVariablesLocal(), event: execution.getEventName() };
    });
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'observed.bpmn', bytes: Buffer.from(MODEL) }] });

    const instance = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);

    // The process's own listeners first and last.
    expect(seen.map(([event, activityId, name, transition]) => [event, activityId === null ? null : activityId, name, transition])).toEqual([
      ['start', null, null, null],
      ['start', 'work', 'Do the work', null],
      ['take', 'work', 'Do the work', 'f2'],
      ['end', null, null, null],
    ]);
    expect(worker).toEqual({ local: { local: 'here' }, event: null });
    const history = await engine.history.variables.find({ processInstanceId: instance.id, sorting: [{ sortBy: 'variableName', sortOrder: 'asc' }] });
    // setVariables went to the process instance; the input parameter, local to the task, is in history
    // too, though the task ended in the same command (it never got a row).
    expect(history.map((each) => [each.name, each.value.value, each.activityInstanceId?.split(':')[0]])).toEqual([
      ['first', 1, instance.id],
      ['local', 'here', 'work'],
      ['second', 'two', instance.id],
    ]);
  });

  it("runs the process's end listeners when an instance is deleted, unless skipCustomListeners", async () => {
    const WAITING = MODEL.replace('<bpmn:serviceTask id="work" name="Do the work" camunda:class="com.acme.Worker">', '<bpmn:userTask id="work" name="Do the work">').replace('</bpmn:serviceTask>', '</bpmn:userTask>');
    const events: Array<string | null> = [];
    engine.delegates.registerClass('com.acme.Observer', (execution: DelegateExecution) => void events.push(execution.getEventName()));
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'waiting.bpmn', bytes: Buffer.from(WAITING) }] });
    const first = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    const second = await engine.runtime.startProcessInstanceById(processDefinitions![0].id);
    events.length = 0;

    await engine.runtime.deleteProcessInstance(first.id, { reason: 'cancelled' });
    const afterDelete = [...events];
    await engine.runtime.deleteProcessInstance(second.id, { reason: 'quietly', skipCustomListeners: true });

    expect(afterDelete).toEqual(['end']);
    expect(events).toEqual(['end']);
  });
});
