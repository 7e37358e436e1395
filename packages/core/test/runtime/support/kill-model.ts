import { flow, wrap } from '../scope-models.js';

/** start → fork → (a, b) → join → after → end: each command writes several rows of several tables. */
export const forkJoinModel = wrap(
  'forkJoin',
  `<bpmn:startEvent id="start" />${flow('f1', 'start', 'fork')}
   <bpmn:parallelGateway id="fork" />${flow('f2', 'fork', 'a')}${flow('f3', 'fork', 'b')}
   <bpmn:userTask id="a" />${flow('f4', 'a', 'join')}<bpmn:userTask id="b" />${flow('f5', 'b', 'join')}
   <bpmn:parallelGateway id="join" />${flow('f6', 'join', 'after')}<bpmn:userTask id="after" />${flow('f7', 'after', 'end')}<bpmn:endEvent id="end" />`,
);
