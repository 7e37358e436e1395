import { isServiceTaskLike } from '../activity-type.js';
import { connectorOf, extensionsOf, inputOutputOf } from '../camunda-extensions.js';
import { multiInstanceOf } from '../flow-elements.js';
import { miBodyId } from '../../model/flow-element.js';
import { flowNodesOf, scopesOf, startsAsExpression, type ModdleElement } from '../moddle-element.js';
import { checkTaskAssignment } from '../task-assignment.js';
import { referenceOf, type RuleContext } from './rule-context.js';

const TASK_TYPES = new Set(['mail', 'shell', 'external']);

/** Camunda's checks on boundary events, call activities, user tasks' assignment, form references and service-task-like activities. */
export function checkActivities(process: ModdleElement, context: RuleContext): void {
  const initial = initialStartEventOf(process);
  if (initial) checkFormDefinition(initial, context);
  checkPriority(process, 'jobPriority', context);
  checkPriority(process, 'taskPriority', context);
  checkListeners(process, context);
  for (const scope of scopesOf(process)) {
    const siblings = new Set(flowNodesOf(scope));
    for (const node of siblings) {
      checkPriority(node, 'jobPriority', context);
      if (typeof node.type === 'string' && node.type.toLowerCase() === 'external') checkPriority(node, 'taskPriority', context);
      // ConnectorParseListener.parseConnectorElement.
      if (connectorOf(node)?.connectorId === '') context.report.error("No 'id' defined for connector.", [node.id]);
      checkMultiInstance(node, context);
      checkInputOutput(node, context);
      checkListeners(node, context);
      if (node.$type === 'bpmn:CallActivity') for (const type of ['camunda:In', 'camunda:Out'] as const) checkCallableParameters(node, extensionsOf(node, type), context);
      if (node.$type === 'bpmn:EventBasedGateway' && node.asyncAfter === true) {
        context.report.error("'asyncAfter' not supported for eventBasedGateway elements.", [node.id]);
      }
      switch (node.$type) {
        case 'bpmn:BoundaryEvent':
          checkBoundaryEvent(node, siblings, context);
          break;
        case 'bpmn:CallActivity':
          checkCallActivity(node, context);
          break;
        case 'bpmn:UserTask':
          checkTaskAssignment(node, context.report);
          checkFormDefinition(node, context);
          break;
        case 'bpmn:ServiceTask':
          checkServiceTaskLike(node, 'serviceTask', context);
          break;
        case 'bpmn:BusinessRuleTask':
          if (node.decisionRef === undefined) checkServiceTaskLike(node, 'businessRuleTask', context);
          break;
        case 'bpmn:SendTask':
          if (isServiceTaskLike(node)) checkServiceTaskLike(node, 'sendTask', context);
          else context.report.error("One of the attributes 'class', 'delegateExpression', 'type', or 'expression' is mandatory on sendTask.", [node.id]);
      }
    }
  }
}

const FORM_REF_BINDINGS = ['deployment', 'latest', 'version'];

/** Camunda's BpmnParse.parseFormDefinition, for user tasks and the process's initial start event. */
function checkFormDefinition(node: ModdleElement, { report }: RuleContext): void {
  if (node.formKey !== undefined && node.formRef !== undefined) {
    report.error('Invalid element definition: only one of the attributes formKey and formRef is allowed.', [node.id]);
  }
  const binding = node.formRefBinding as string | undefined;
  if (node.formRef !== undefined && (binding === undefined || !FORM_REF_BINDINGS.includes(binding))) {
    report.error(`Invalid element definition: value for formRefBinding attribute has to be one of [${FORM_REF_BINDINGS.join(', ')}] but was ${binding ?? 'null'}`, [node.id]);
  }
}

/** Camunda's BpmnParse.selectInitial: the none or timer start event of the process, else its only start event. */
function initialStartEventOf(process: ModdleElement): ModdleElement | null {
  const starts = flowNodesOf(process).filter((node) => node.$type === 'bpmn:StartEvent');
  const plain = starts.find((start) => {
    const definitions = (start.eventDefinitions ?? []) as ModdleElement[];
    return definitions.length === 0 || (definitions.length === 1 && definitions[0]!.$type === 'bpmn:TimerEventDefinition');
  });
  return plain ?? (starts.length === 1 ? starts[0]! : null);
}

/** A priority attribute Camunda's BpmnParse.parsePriority accepts: an expression, or a Java int. */
function isValidPriority(text: string): boolean {
  if (startsAsExpression(text)) return true;
  if (!/^[+-]?\d+$/.test(text)) return false;
  const value = Number(text);
  return value >= -2_147_483_648 && value <= 2_147_483_647;
}

// BpmnParse.parsePriority: a priority is an expression or a Java int.
function checkPriority(element: ModdleElement, attribute: 'jobPriority' | 'taskPriority', { report }: RuleContext): void {
  const value = element[attribute];
  if (value === undefined || value === null || isValidPriority(String(value))) return;
  report.error(`Value '${String(value)}' for attribute '${attribute}' is not a valid number`, [element.id]);
}

const TASK_EVENTS = new Set(['create', 'assignment', 'complete', 'update', 'delete', 'timeout']);

// BpmnParse.isValidEventNameForScope and parseTaskListeners (a sequence flow's listeners take any event).
function checkListeners(element: ModdleElement, { report }: RuleContext): void {
  for (const listener of extensionsOf(element, 'camunda:ExecutionListener')) {
    const event = typeof listener.event === 'string' ? listener.event.trim() : '';
    if (event === '') report.error("Attribute 'event' is mandatory on listener", [element.id]);
    else if (listener.event !== 'start' && listener.event !== 'end') report.error("Attribute 'event' must be one of {start|end}", [element.id]);
  }
  if (element.$type !== 'bpmn:UserTask') return;
  for (const listener of extensionsOf(element, 'camunda:TaskListener')) {
    if (typeof listener.event !== 'string') report.error("Attribute 'event' is mandatory on taskListener", [element.id]);
    else if (!TASK_EVENTS.has(listener.event)) report.error("Attribute 'event' must be one of {create|assignment|complete|update|delete|timeout}", [element.id]);
  }
}

// BpmnParse.parseCallableElementProvider (strict call activity validation, Camunda's default).
function checkCallableParameters(element: ModdleElement, parameters: ModdleElement[], { report }: RuleContext): void {
  for (const parameter of parameters) {
    const attribute = (name: string) => (typeof parameter[name] === 'string' ? (parameter[name] as string) : undefined);
    if (attribute('variables') === 'all' || (attribute('businessKey') ?? '') !== '') continue;
    const problem = (message: string) => report.error(message, [element.id]);
    const source = attribute('source');
    const sourceExpression = attribute('sourceExpression');
    if (source === '') problem("Empty attribute 'source' when passing variables");
    else if (source === undefined && sourceExpression === '') problem("Empty attribute 'sourceExpression' when passing variables");
    if (source === undefined && sourceExpression === undefined) problem("Missing parameter 'source' or 'sourceExpression' when passing variables");
    const target = attribute('target');
    if (target === undefined) problem("Missing attribute 'target' when attribute 'source' or 'sourceExpression' is set");
    else if (target === '') problem("Empty attribute 'target' when attribute 'source' or 'sourceExpression' is set");
  }
}

// BpmnParse.checkActivityInputOutputSupported / checkActivityOutputParameterSupported / ensureNoIoMappingDefined.
function checkInputOutput(node: ModdleElement, { report }: RuleContext): void {
  const io = inputOutputOf(node);
  if (!io) return;
  const tag = node.$type.replace(/^bpmn:(.)/, (_, first: string) => first.toLowerCase());
  const unsupported = (suffix = '') => report.error(`camunda:inputOutput mapping unsupported for element type '${tag}'${suffix}.`, [node.id]);
  if (tag === 'startEvent' || tag === 'boundaryEvent') return unsupported();
  if (!(tag.toLowerCase().includes('task') || tag.includes('Event') || ['transaction', 'subProcess', 'callActivity'].includes(tag))) return unsupported();
  if (tag === 'subProcess' && node.triggeredByEvent === true) return unsupported(" with attribute 'triggeredByEvent = true'");
  if (io.outputParameters.length === 0) return;
  if (tag === 'endEvent') report.error(`camunda:outputParameter not allowed for element type '${tag}'.`, [node.id]);
  else if ((node.loopCharacteristics as ModdleElement | undefined)?.$type === 'bpmn:MultiInstanceLoopCharacteristics') {
    report.error('camunda:outputParameter not allowed for multi-instance constructs', [node.id]);
  }
}

// BpmnParse.parseMultiInstanceLoopCharacteristics: the problems name the multi-instance body.
function checkMultiInstance(node: ModdleElement, context: RuleContext): void {
  const loop = multiInstanceOf(node, context.references);
  if (!loop) return;
  const cardinality = (node.loopCharacteristics as ModdleElement).loopCardinality as ModdleElement | undefined;
  const problem = (message: string) => context.report.error(message, [miBodyId(node.id!)], context.report.positions.ofId(node.id!));
  if (cardinality && !loop.loopCardinality) problem('loopCardinality must be defined for a multiInstanceLoopCharacteristics definition ');
  if (!cardinality && loop.collection === null) problem('Either loopCardinality or loopDataInputRef/activiti:collection must be set');
  if (loop.collection === null && loop.elementVariable !== null) {
    problem('LoopDataInputRef/activiti:collection must be set when using inputDataItem or activiti:elementVariable');
  }
}

// BpmnParse.parseBoundaryEvents: the activity must be a sibling (findActivityAtLevelOfSubprocess).
function checkBoundaryEvent(boundaryEvent: ModdleElement, siblings: Set<ModdleElement>, context: RuleContext): void {
  const attachedTo = referenceOf(boundaryEvent, 'bpmn:attachedToRef', context);
  if (attachedTo.id === null || attachedTo.id === '') {
    context.report.error('AttachedToRef is required when using a timerEventDefinition', [boundaryEvent.id]);
  }
  if (!attachedTo.target || !siblings.has(attachedTo.target)) {
    context.report.error(
      'Invalid reference in boundary event. Make sure that the referenced activity is defined in the same scope as the boundary event',
      [boundaryEvent.id],
    );
  }
}

// BpmnParse.parseCallActivity.
function checkCallActivity(callActivity: ModdleElement, { report }: RuleContext): void {
  const calledElement = callActivity.calledElement as string | undefined;
  const caseRef = callActivity.caseRef as string | undefined;
  if (calledElement === undefined && caseRef === undefined) {
    report.error("Missing attribute 'calledElement' or 'caseRef'", [callActivity.id]);
  } else if (calledElement !== undefined && caseRef !== undefined) {
    report.error("The attributes 'calledElement' or 'caseRef' cannot be used together: Use either 'calledElement' or 'caseRef'", [callActivity.id]);
  }
}

// BpmnParse.parseServiceTaskLike and validateServiceTaskLike (7.22 text, missing space included).
function checkServiceTaskLike(task: ModdleElement, elementName: string, { report }: RuleContext): void {
  const { type, topic, class: className, delegateExpression, expression } = task as Record<string, string | undefined>;
  const resultVariable = task.resultVariable as string | undefined;
  const ids = [task.id];
  if (type !== undefined) {
    if (!TASK_TYPES.has(type.toLowerCase())) report.error(`Invalid usage of type attribute on ${elementName}: '${type}'`, ids);
    else if (type.toLowerCase() === 'external' && topic === undefined) {
      report.error("External tasks must specify a 'topic' attribute in the camunda namespace", ids);
    }
  } else if (className !== undefined && className.trim() !== '') {
    if (resultVariable !== undefined) report.error(`'resultVariableName' not supported for ${elementName} elements using 'class'`, ids);
  } else if (delegateExpression !== undefined) {
    if (resultVariable !== undefined) {
      report.error(`'resultVariableName' not supported for ${elementName} elements using 'delegateExpression'`, ids);
    }
  } else if ((expression === undefined || expression.trim() === '') && !connectorOf(task)) {
    // A connector implements the element instead (the connect plugin's parse listener).
    report.error(
      `One of the attributes 'class', 'delegateExpression', 'type', or 'expression' is mandatory on ${elementName}. ` +
        'If you are using a connector, make sure theconnect process engine plugin is registered with the process engine.',
      ids,
    );
  }
}
