/** Small executable models for runtime tests, built as BPMN XML. */
const wrap = (key: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="d_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5">
${body}
  </bpmn:process>
</bpmn:definitions>`;

const flow = (id: string, from: string, to: string, condition?: string) =>
  condition
    ? `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${condition}</bpmn:conditionExpression></bpmn:sequenceFlow>`
    : `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}" />`;

export const startToEnd = wrap('startToEnd', `<bpmn:startEvent id="start" />${flow('f1', 'start', 'end')}<bpmn:endEvent id="end" />`);

export const userTaskProcess = wrap(
  'approval',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}
   <bpmn:userTask id="review" name="Review \${subject}" camunda:assignee="\${reviewer}" camunda:candidateGroups="sales,management" camunda:formKey="embedded:app:forms/review.html" camunda:priority="70" />
   ${flow('f2', 'review', 'end')}<bpmn:endEvent id="end" />`,
);

export const gatewayProcess = wrap(
  'routing',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'decide')}
   <bpmn:exclusiveGateway id="decide" default="toSmall" />
   ${flow('toLarge', 'decide', 'large', '${amount &gt; 1000}')}
   ${flow('toSmall', 'decide', 'small')}
   <bpmn:userTask id="large" />${flow('f3', 'large', 'end')}
   <bpmn:userTask id="small" />${flow('f4', 'small', 'end')}
   <bpmn:endEvent id="end" />`,
);

export const noDefaultGateway = wrap(
  'stuck',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'decide')}
   <bpmn:exclusiveGateway id="decide" />
   ${flow('f2', 'decide', 'end', '${amount &gt; 1000}')}
   ${flow('f3', 'decide', 'end', '${amount &lt; 0}')}
   <bpmn:endEvent id="end" />`,
);

export const parallelProcess = wrap(
  'parallel',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}
   <bpmn:parallelGateway id="fork" />
   ${flow('f2', 'fork', 'a')}${flow('f3', 'fork', 'b')}
   <bpmn:userTask id="a" /><bpmn:userTask id="b" />
   ${flow('f4', 'a', 'join')}${flow('f5', 'b', 'join')}
   <bpmn:parallelGateway id="join" />
   ${flow('f6', 'join', 'after')}<bpmn:userTask id="after" />${flow('f7', 'after', 'end')}
   <bpmn:endEvent id="end" />`,
);
