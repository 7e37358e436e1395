export { parseBpmnResource, type BpmnParseOptions, type BpmnParseResult } from './parse/bpmn-parser.js';
export type { TimeToLiveRules } from './parse/history-time-to-live.js';
export {
  ProcessModel,
  type CallActivityReference,
  type MessageStartEventModel,
  type ProcessModelData,
  type SignalStartEventModel,
  type TimerStartEventModel,
} from './model/process-model.js';
export type {
  CamundaAttributes,
  ConditionModel,
  EventDefinitionModel,
  FieldModel,
  FlowElementModel,
  InputOutputModel,
  ConnectorModel,
  ListenerModel,
  MultiInstanceModel,
  ParameterModel,
  ParameterValue,
  ScriptModel,
  SequenceFlowModel,
  TaskAssignmentModel,
  TimerModel,
} from './model/flow-element.js';
export { hasCondition } from './model/flow-element.js';
