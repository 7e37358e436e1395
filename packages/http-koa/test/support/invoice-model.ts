/** An external task 'work' (topic invoice) followed by user task 'review'; BPMN error REJECTED on it leads to user task 'fix'. */
export const INVOICE = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="d" targetNamespace="http://trellis.test">
  <bpmn:error id="rejectedError" errorCode="REJECTED" />
  <bpmn:process id="invoice" name="Invoice" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:serviceTask id="work" camunda:type="external" camunda:topic="invoice" />
    <bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="review" />
    <bpmn:userTask id="review" />
    <bpmn:sequenceFlow id="f3" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
    <bpmn:boundaryEvent id="rejected" attachedToRef="work"><bpmn:errorEventDefinition errorRef="rejectedError" /></bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f4" sourceRef="rejected" targetRef="fix" />
    <bpmn:userTask id="fix" />
    <bpmn:sequenceFlow id="f5" sourceRef="fix" targetRef="end" />
  </bpmn:process>
</bpmn:definitions>`;
