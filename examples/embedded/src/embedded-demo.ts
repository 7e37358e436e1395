import type { ProcessEngine } from '@trellis/core';

const ORDER_PROCESS = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="orders" targetNamespace="http://example.com/orders">
  <bpmn:process id="order" name="Order" isExecutable="true" camunda:historyTimeToLive="30">
    <bpmn:startEvent id="received"><bpmn:outgoing>toShip</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="toShip" sourceRef="received" targetRef="ship" />
    <bpmn:serviceTask id="ship" name="Ship" camunda:type="external" camunda:topic="shipping">
      <bpmn:incoming>toShip</bpmn:incoming><bpmn:outgoing>toDone</bpmn:outgoing>
    </bpmn:serviceTask>
    <bpmn:sequenceFlow id="toDone" sourceRef="ship" targetRef="done" />
    <bpmn:endEvent id="done"><bpmn:incoming>toDone</bpmn:incoming></bpmn:endEvent>
  </bpmn:process>
</bpmn:definitions>`;

/** Deploys the order process (unless unchanged) and describes the latest definition. */
export async function embeddedDemo(engine: ProcessEngine): Promise<string> {
  await engine.deployment.deploy({
    name: 'embedded-demo',
    enableDuplicateFiltering: true,
    resources: [{ name: 'order.bpmn', bytes: Buffer.from(ORDER_PROCESS) }],
  });
  const latest = await engine.processDefinition.findLatestByKey('order');
  if (!latest) throw new Error('the order process was not deployed');
  const model = await engine.processDefinition.getProcessModel(latest.id);
  return `${latest.name} v${latest.version} (${latest.id}) with ${model.key} deployed`;
}
