export { parseBpmnResource, type BpmnParseResult, type BpmnParseOptions } from './parse/bpmn-parser.js';
export {
  activity,
  flowsFrom,
  type CallActivityReference,
  type EventDefinitionModel,
  type FlowElementModel,
  type ProcessModel,
  type SequenceFlowModel,
} from './model/process-model.js';
