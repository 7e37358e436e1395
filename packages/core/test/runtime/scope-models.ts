/** Executable models for the scope, event, job and call-activity tests. */
export const wrap = (key: string, body: string, extra = '') => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" id="d_${key}" targetNamespace="http://trellis.test">
  ${extra}
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5">
${body}
  </bpmn:process>
</bpmn:definitions>`;

export const flow = (id: string, from: string, to: string, condition?: string) =>
  condition
    ? `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${condition}</bpmn:conditionExpression></bpmn:sequenceFlow>`
    : `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}" />`;

/** start → sub-process (io mapping; inside: start → work → end) → after → end. */
export const subProcessModel = wrap(
  'withSub',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
   <bpmn:subProcess id="sub" name="Sub">
     <bpmn:extensionElements><camunda:inputOutput>
       <camunda:inputParameter name="inner">\${amount * 2}</camunda:inputParameter>
       <camunda:outputParameter name="result">\${inner + 1}</camunda:outputParameter>
     </camunda:inputOutput></bpmn:extensionElements>
     <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'work')}
     <bpmn:userTask id="work" />${flow('s2', 'work', 'subEnd')}
     <bpmn:endEvent id="subEnd" />
   </bpmn:subProcess>
   ${flow('f2', 'sub', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

/** A user task with an interrupting timer (PT1H → escalated) and a non-interrupting message (→ note). */
export const boundaryModel = wrap(
  'boundaries',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'review')}
   <bpmn:userTask id="review" />${flow('f2', 'review', 'end')}
   <bpmn:boundaryEvent id="late" attachedToRef="review"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
   ${flow('f3', 'late', 'escalated')}<bpmn:userTask id="escalated" />${flow('f4', 'escalated', 'end')}
   <bpmn:boundaryEvent id="remark" attachedToRef="review" cancelActivity="false"><bpmn:messageEventDefinition messageRef="m_remark" /></bpmn:boundaryEvent>
   ${flow('f5', 'remark', 'note')}<bpmn:userTask id="note" />${flow('f6', 'note', 'noteEnd')}<bpmn:endEvent id="noteEnd" />
   <bpmn:endEvent id="end" />`,
  '<bpmn:message id="m_remark" name="remark" />',
);

/** A sub-process whose error end event is caught by an error boundary event on it. */
export const errorModel = wrap(
  'errors',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
   <bpmn:subProcess id="sub">
     <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'check')}
     <bpmn:exclusiveGateway id="check" default="ok" />
     ${flow('bad', 'check', 'fail', '${amount &gt; 100}')}${flow('ok', 'check', 'subEnd')}
     <bpmn:endEvent id="fail"><bpmn:errorEventDefinition errorRef="e_limit" /></bpmn:endEvent>
     <bpmn:endEvent id="subEnd" />
   </bpmn:subProcess>
   ${flow('f2', 'sub', 'done')}<bpmn:userTask id="done" />${flow('f3', 'done', 'end')}
   <bpmn:boundaryEvent id="caught" attachedToRef="sub"><bpmn:errorEventDefinition errorRef="e_limit" camunda:errorCodeVariable="code" /></bpmn:boundaryEvent>
   ${flow('f4', 'caught', 'handle')}<bpmn:userTask id="handle" />${flow('f5', 'handle', 'end')}
   <bpmn:endEvent id="end" />`,
  '<bpmn:error id="e_limit" errorCode="LIMIT" />',
);

/** Waits for a message, then a signal. */
export const messageSignalModel = wrap(
  'waiting',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'payment')}
   <bpmn:intermediateCatchEvent id="payment"><bpmn:messageEventDefinition messageRef="m_paid" /></bpmn:intermediateCatchEvent>
   ${flow('f2', 'payment', 'go')}
   <bpmn:intermediateCatchEvent id="go"><bpmn:signalEventDefinition signalRef="s_go" /></bpmn:intermediateCatchEvent>
   ${flow('f3', 'go', 'end')}<bpmn:endEvent id="end" />`,
  '<bpmn:message id="m_paid" name="paid" /><bpmn:signal id="s_go" name="go" />',
);

/** Started by a message; waits in a user task. */
export const messageStartModel = wrap(
  'byMessage',
  `<bpmn:startEvent id="start"><bpmn:messageEventDefinition messageRef="m_order" /></bpmn:startEvent>
   ${flow('f1', 'start', 'handle')}<bpmn:userTask id="handle" />${flow('f2', 'handle', 'end')}<bpmn:endEvent id="end" />`,
  '<bpmn:message id="m_order" name="order" />',
);

/** An async-before service task calling a delegate class, with a retry cycle. */
export const asyncServiceModel = (retryCycle = '') =>
  wrap(
    'asyncService',
    `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
     <bpmn:serviceTask id="call" camunda:asyncBefore="true" camunda:class="com.example.Charge">
       ${retryCycle ? `<bpmn:extensionElements><camunda:failedJobRetryTimeCycle>${retryCycle}</camunda:failedJobRetryTimeCycle></bpmn:extensionElements>` : ''}
     </bpmn:serviceTask>
     ${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
  );

/** The caller passes `amount` in and takes `total` out of the called process `child`. */
export const callerModel = wrap(
  'caller',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'call')}
   <bpmn:callActivity id="call" calledElement="child">
     <bpmn:extensionElements>
       <camunda:in source="amount" target="amount" />
       <camunda:in businessKey="\${execution.processBusinessKey}" />
       <camunda:out source="total" target="total" />
     </bpmn:extensionElements>
   </bpmn:callActivity>
   ${flow('f2', 'call', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

export const childModel = wrap(
  'child',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />`,
);

/** Inclusive fork on conditions, inclusive join. */
export const inclusiveModel = wrap(
  'inclusive',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}
   <bpmn:inclusiveGateway id="fork" />
   ${flow('toA', 'fork', 'a', '${a}')}${flow('toB', 'fork', 'b', '${b}')}${flow('toC', 'fork', 'c', '${c}')}
   <bpmn:userTask id="a" />${flow('fa', 'a', 'join')}
   <bpmn:userTask id="b" />${flow('fb', 'b', 'join')}
   <bpmn:userTask id="c" />${flow('fc', 'c', 'join')}
   <bpmn:inclusiveGateway id="join" />${flow('f9', 'join', 'after')}<bpmn:userTask id="after" />${flow('f10', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

/** An event-based gateway: a message or a timeout, whichever is first. */
export const eventGatewayModel = wrap(
  'race',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'gw')}
   <bpmn:eventBasedGateway id="gw" />
   ${flow('f2', 'gw', 'reply')}${flow('f3', 'gw', 'timeout')}
   <bpmn:intermediateCatchEvent id="reply"><bpmn:messageEventDefinition messageRef="m_reply" /></bpmn:intermediateCatchEvent>
   <bpmn:intermediateCatchEvent id="timeout"><bpmn:timerEventDefinition><bpmn:timeDuration>P1D</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
   ${flow('f4', 'reply', 'answered')}${flow('f5', 'timeout', 'expired')}
   <bpmn:userTask id="answered" />${flow('f6', 'answered', 'end')}
   <bpmn:userTask id="expired" />${flow('f7', 'expired', 'end2')}
   <bpmn:endEvent id="end" /><bpmn:endEvent id="end2" />`,
  '<bpmn:message id="m_reply" name="reply" />',
);

/** Parallel paths in a sub-process; a terminate end event inside ends only the sub-process. */
export const terminateInSubModel = wrap(
  'terminateSub',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'sub')}
   <bpmn:subProcess id="sub">
     <bpmn:startEvent id="subStart" />${flow('s1', 'subStart', 'fork')}
     <bpmn:parallelGateway id="fork" />${flow('s2', 'fork', 'slow')}${flow('s3', 'fork', 'kill')}
     <bpmn:userTask id="slow" />${flow('s4', 'slow', 'subEnd')}<bpmn:endEvent id="subEnd" />
     <bpmn:endEvent id="kill"><bpmn:terminateEventDefinition /></bpmn:endEvent>
   </bpmn:subProcess>
   ${flow('f2', 'sub', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

/** Delegates, listeners, a script task and a BpmnError thrown by a delegate. */
export const delegateModel = wrap(
  'delegates',
  `<bpmn:startEvent id="start">
     <bpmn:extensionElements><camunda:executionListener event="end" expression="\${execution.setVariable('started', true)}" /></bpmn:extensionElements>
   </bpmn:startEvent>
   ${flow('f1', 'start', 'price')}
   <bpmn:serviceTask id="price" camunda:class="com.example.Pricing" />${flow('f2', 'price', 'tax')}
   <bpmn:serviceTask id="tax" camunda:expression="\${taxes.rate(net)}" camunda:resultVariable="rate" />${flow('f3', 'tax', 'check')}
   <bpmn:serviceTask id="check" camunda:delegateExpression="\${checker}" />${flow('f4', 'check', 'ok')}
   <bpmn:boundaryEvent id="rejected" attachedToRef="check"><bpmn:errorEventDefinition errorRef="e_reject" /></bpmn:boundaryEvent>
   ${flow('f5', 'rejected', 'review')}<bpmn:userTask id="review" />${flow('f6', 'review', 'end')}
   <bpmn:userTask id="ok" />${flow('f7', 'ok', 'end')}<bpmn:endEvent id="end" />`,
  '<bpmn:error id="e_reject" errorCode="REJECT" />',
);

export const scriptModel = wrap(
  'scripted',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'calc')}
   <bpmn:scriptTask id="calc" scriptFormat="javascript" camunda:resultVariable="doubled"><bpmn:script>amount * 2</bpmn:script></bpmn:scriptTask>
   ${flow('f2', 'calc', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

/** A timer start event every day at 08:00 (cron) starts an instance that waits in a user task. */
export const timerStartModel = wrap(
  'daily',
  `<bpmn:startEvent id="start"><bpmn:timerEventDefinition><bpmn:timeCycle>R2/PT1H</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:startEvent>
   ${flow('f1', 'start', 'report')}<bpmn:userTask id="report" />${flow('f2', 'report', 'end')}<bpmn:endEvent id="end" />`,
);

/** A parallel multi-instance user task over a collection, done when two are approved. */
export const parallelMiModel = wrap(
  'parallelMi',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'vote')}
   <bpmn:userTask id="vote" camunda:assignee="\${voter}">
     <bpmn:multiInstanceLoopCharacteristics camunda:collection="voters" camunda:elementVariable="voter">
       <bpmn:completionCondition xsi:type="bpmn:tFormalExpression">\${nrOfCompletedInstances &gt;= 2}</bpmn:completionCondition>
     </bpmn:multiInstanceLoopCharacteristics>
   </bpmn:userTask>
   ${flow('f2', 'vote', 'after')}<bpmn:userTask id="after" />${flow('f3', 'after', 'end')}<bpmn:endEvent id="end" />`,
);

/** A sequential multi-instance sub-process, three times. */
export const sequentialMiModel = wrap(
  'sequentialMi',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'step')}
   <bpmn:subProcess id="step">
     <bpmn:multiInstanceLoopCharacteristics isSequential="true"><bpmn:loopCardinality>3</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics>
     <bpmn:startEvent id="stepStart" />${flow('s1', 'stepStart', 'work')}<bpmn:userTask id="work" camunda:assignee="user\${loopCounter}" />${flow('s2', 'work', 'stepEnd')}<bpmn:endEvent id="stepEnd" />
   </bpmn:subProcess>
   ${flow('f2', 'step', 'end')}<bpmn:endEvent id="end" />`,
);

/** An interrupting message event sub-process and a non-interrupting timer one around a user task. */
export const eventSubProcessModel = wrap(
  'withEventSubs',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />
   <bpmn:subProcess id="cancelled" triggeredByEvent="true">
     <bpmn:startEvent id="cancelStart"><bpmn:messageEventDefinition messageRef="m_cancel" /></bpmn:startEvent>
     ${flow('c1', 'cancelStart', 'cleanup')}<bpmn:userTask id="cleanup" />${flow('c2', 'cleanup', 'cancelEnd')}<bpmn:endEvent id="cancelEnd" />
   </bpmn:subProcess>
   <bpmn:subProcess id="reminder" triggeredByEvent="true">
     <bpmn:startEvent id="remindStart" isInterrupting="false"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:startEvent>
     ${flow('r1', 'remindStart', 'remind')}<bpmn:userTask id="remind" />${flow('r2', 'remind', 'remindEnd')}<bpmn:endEvent id="remindEnd" />
   </bpmn:subProcess>`,
  '<bpmn:message id="m_cancel" name="cancel" />',
);

/** A user task with a conditional boundary event on a variable. */
export const conditionalModel = wrap(
  'conditional',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'work')}<bpmn:userTask id="work" />${flow('f2', 'work', 'end')}<bpmn:endEvent id="end" />
   <bpmn:boundaryEvent id="urgent" attachedToRef="work"><bpmn:conditionalEventDefinition><bpmn:condition xsi:type="bpmn:tFormalExpression">\${priority == 'high'}</bpmn:condition></bpmn:conditionalEventDefinition></bpmn:boundaryEvent>
   ${flow('f3', 'urgent', 'escalate')}<bpmn:userTask id="escalate" />${flow('f4', 'escalate', 'end2')}<bpmn:endEvent id="end2" />`,
);
