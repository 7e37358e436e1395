import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine } from '../../src/testing/index.js';

// camunda:field on a service task's class, on an execution listener's delegate expression and on a task listener.
const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="greeting" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="greet" />
    <bpmn:serviceTask id="greet" camunda:class="com.acme.Greeter">
      <bpmn:extensionElements>
        <camunda:field name="salutation" stringValue="Hello" />
        <camunda:field name="recipient"><camunda:expression>\${customer}</camunda:expression></camunda:field>
        <camunda:executionListener event="end" delegateExpression="\${stamper}">
          <camunda:field name="mark"><camunda:string>greeted</camunda:string></camunda:field>
        </camunda:executionListener>
      </bpmn:extensionElements>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="f2" sourceRef="greet" targetRef="check" />
    <bpmn:userTask id="check">
      <bpmn:extensionElements>
        <camunda:taskListener event="create" class="com.acme.Prioritize"><camunda:field name="priority" stringValue="90" /></camunda:taskListener>
      </bpmn:extensionElements>
    </bpmn:userTask>
  </bpmn:process>
</bpmn:definitions>`;

type Expression = { getValue(scope: unknown): unknown; getExpressionText(): string };
type Scope = { setVariable(name: string, value: unknown): void };

describe('camunda:field injection', () => {
  let engine: ProcessEngine;

  beforeEach(async () => {
    engine = await createTestEngine();
  });
  afterEach(async () => engine.close());

  it('hands the fields to an object delegate as its own properties, to a function delegate as this, and to beans of delegate expressions', async () => {
    const greeter = {
      salutation: null as Expression | null,
      recipient: null as Expression | null,
      execute(execution: Scope) {
        execution.setVariable('greeting', `${this.salutation!.getValue(execution)}, ${this.recipient!.getValue(execution)}`);
        execution.setVariable('recipientText', this.recipient!.getExpressionText());
      },
    };
    engine.delegates.registerClass('com.acme.Greeter', greeter as never);
    engine.delegates.registerClass('com.acme.Prioritize', function (this: { priority: Expression }, task: unknown) {
      (task as { setPriority(value: number): void }).setPriority(Number(this.priority.getValue(task)));
    } as never);
    engine.delegates.registerBean('stamper', { notify(this: { mark: Expression }, execution: Scope) { execution.setVariable('mark', this.mark.getValue(execution)); } });
    const { processDefinitions } = await engine.deployment.deploy({ resources: [{ name: 'greeting.bpmn', bytes: Buffer.from(MODEL) }] });

    const { id } = await engine.runtime.startProcessInstanceById(processDefinitions![0].id, { variables: { customer: { type: 'string', value: 'Acme', valueInfo: {} } } });
    const variables = await engine.runtime.getVariables(id);
    const [task] = await engine.task.findTasks({ processInstanceId: id });

    expect(variables.greeting).toMatchObject({ value: 'Hello, Acme' });
    expect(variables.recipientText).toMatchObject({ value: '${customer}' });
    expect(variables.mark).toMatchObject({ value: 'greeted' });
    expect(task.priority).toBe(90);
    // The registered object itself is left as it was.
    expect([greeter.salutation, greeter.recipient]).toEqual([null, null]);
  });
});
