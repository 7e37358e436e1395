// The three BPMN models of the engine benchmark (bench/engine.ts), as BPMN 2.0 XML strings.
// Trellis and bpmn-engine run the same XML, except for model 3's gateway condition, which each
// engine writes in its own expression language.

function definitions(key: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"
  xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="definitions_${key}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="1">
${body}
  </bpmn:process>
</bpmn:definitions>
`;
}

function flow(id: string, from: string, to: string, condition?: string): string {
  if (!condition) return `    <bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}" />`;
  return `    <bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${condition}</bpmn:conditionExpression>
    </bpmn:sequenceFlow>`;
}

/** Model 1: start → end. */
export const startEndXml = definitions(
  'benchStartEnd',
  [
    '    <bpmn:startEvent id="start" />',
    flow('f1', 'start', 'end'),
    '    <bpmn:endEvent id="end" />',
  ].join('\n'),
);

/** Model 2: start → user task → end. */
export const userTaskXml = definitions(
  'benchUserTask',
  [
    '    <bpmn:startEvent id="start" />',
    flow('f1', 'start', 'approve'),
    '    <bpmn:userTask id="approve" name="Approve" />',
    flow('f2', 'approve', 'end'),
    '    <bpmn:endEvent id="end" />',
  ].join('\n'),
);

/**
 * Model 3, ten steps on either path: start → task → exclusive split on the start variable `amount`
 * (condition, or the default flow) → one of two tasks → exclusive merge → parallel fork of three
 * tasks → parallel join → end. Plain bpmn:task only: bpmn-engine treats manualTask as a wait state.
 */
function tenStepXml(key: string, amountAbove100: string): string {
  return definitions(
    key,
    [
      '    <bpmn:startEvent id="start" />',
      flow('f1', 'start', 'receive'),
      '    <bpmn:task id="receive" name="Receive order" />',
      flow('f2', 'receive', 'split'),
      '    <bpmn:exclusiveGateway id="split" name="Amount above 100?" default="fSmall" />',
      flow('fLarge', 'split', 'review', amountAbove100),
      flow('fSmall', 'split', 'autoApprove'),
      '    <bpmn:task id="review" name="Review" />',
      '    <bpmn:task id="autoApprove" name="Approve automatically" />',
      flow('f3', 'review', 'merge'),
      flow('f4', 'autoApprove', 'merge'),
      '    <bpmn:exclusiveGateway id="merge" />',
      flow('f5', 'merge', 'fork'),
      '    <bpmn:parallelGateway id="fork" />',
      flow('f6', 'fork', 'invoice'),
      flow('f7', 'fork', 'ship'),
      flow('f8', 'fork', 'notify'),
      '    <bpmn:task id="invoice" name="Invoice" />',
      '    <bpmn:task id="ship" name="Ship" />',
      '    <bpmn:task id="notify" name="Notify" />',
      flow('f9', 'invoice', 'join'),
      flow('f10', 'ship', 'join'),
      flow('f11', 'notify', 'join'),
      '    <bpmn:parallelGateway id="join" />',
      flow('f12', 'join', 'end'),
      '    <bpmn:endEvent id="end" />',
    ].join('\n'),
  );
}

/** Model 3 for Trellis: a JUEL condition, as Camunda 7 evaluates it. */
export const tenStepTrellisXml = tenStepXml('benchTenStep', '${amount &gt; 100}');

/**
 * Model 3 for bpmn-engine. Its built-in expressions resolve property paths and function calls only,
 * so `${environment.variables.amount > 100}` would read a property named "amount > 100" (undefined,
 * always false); the comparison is the `isAbove` service the engine is given (see bench/engine.ts).
 */
export const tenStepBpmnEngineXml = tenStepXml('benchTenStep', '${environment.services.isAbove(environment.variables.amount,100)}');
