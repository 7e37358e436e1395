import type { FlowElementModel } from '../../bpmn/index.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ActivityBehavior } from './behavior.js';
import { noneEndEvent, terminateEndEvent } from './end-event.js';
import { eventBasedGateway } from './event-based-gateway.js';
import { catchEvent, errorEndEvent, escalationThrow, messageThrow, signalThrow } from './events.js';
import { exclusiveGateway } from './exclusive-gateway.js';
import { inclusiveGateway } from './inclusive-gateway.js';
import { parallelGateway } from './parallel-gateway.js';
import { passThrough } from './pass-through.js';
import { connectorTask, scriptTask, serviceTask } from './service-task.js';
import { callActivity, subProcess } from './sub-process.js';
import { userTask } from './user-task.js';
import { externalTask } from './external-task.js';
import { cancelEndEvent, compensationThrow } from '../compensation.js';

/** The behavior of an element; an element Trellis cannot run fails with a clear message. */
export function behaviorFor(element: FlowElementModel): ActivityBehavior {
  const behavior = lookup(element);
  if (!behavior) throw new ProcessEngineException(unsupportedElementMessage(element));
  return behavior;
}

/** Why Trellis cannot run an element, or null when it can (deployment refuses what it cannot run). */
export function unsupportedReason(element: FlowElementModel): string | null {
  return lookup(element) ? null : unsupportedElementMessage(element);
}

function unsupportedElementMessage(element: FlowElementModel): string {
  const kind = element.eventDefinitions[0]?.type.replace('bpmn:', '') ?? '';
  return `Trellis cannot execute ${element.type.replace('bpmn:', '')}${kind ? ` (${kind})` : ''} '${element.id}'`;
}

// Boundary events Trellis fires (timers and subscriptions arm them; errors and escalations find them when thrown).
const BOUNDARY_DEFINITIONS = [
  'bpmn:TimerEventDefinition',
  'bpmn:MessageEventDefinition',
  'bpmn:SignalEventDefinition',
  'bpmn:ErrorEventDefinition',
  'bpmn:EscalationEventDefinition',
  'bpmn:ConditionalEventDefinition',
  // Never armed: the completed activity's subscription stands for it (compensation.ts).
  'bpmn:CompensateEventDefinition',
  // Fired by a cancel end event of its transaction.
  'bpmn:CancelEventDefinition',
];

const hasDelegate = (element: FlowElementModel) => Boolean(element.camunda.class || element.camunda.expression || element.camunda.delegateExpression);

function lookup(element: FlowElementModel): ActivityBehavior | null {
  const definition = element.eventDefinitions[0]?.type ?? null;
  switch (element.type) {
    case 'bpmn:StartEvent':
      // An escalation start event only starts an event sub-process (elsewhere it has no type of its own).
      if (definition === 'bpmn:EscalationEventDefinition') return element.activityType === 'escalationStartEvent' ? passThrough : null;
      // A compensation start event starts its event sub-process when its sub-process is compensated (compensation.ts).
      if (definition === 'bpmn:CompensateEventDefinition') return element.activityType === 'compensationStartEvent' ? passThrough : null;
      return definition === null ||
        ['bpmn:MessageEventDefinition', 'bpmn:SignalEventDefinition', 'bpmn:TimerEventDefinition', 'bpmn:ErrorEventDefinition', 'bpmn:ConditionalEventDefinition'].includes(definition)
        ? passThrough
        : null;
    case 'bpmn:EndEvent':
      if (definition === null) return noneEndEvent;
      if (definition === 'bpmn:TerminateEventDefinition') return terminateEndEvent;
      if (definition === 'bpmn:ErrorEventDefinition') return errorEndEvent;
      if (definition === 'bpmn:SignalEventDefinition') return signalThrow(true);
      if (definition === 'bpmn:MessageEventDefinition') return messageThrow(true);
      if (definition === 'bpmn:EscalationEventDefinition') return escalationThrow(true);
      if (definition === 'bpmn:CompensateEventDefinition') return compensationThrow(true);
      if (definition === 'bpmn:CancelEventDefinition') return cancelEndEvent;
      return null;
    case 'bpmn:IntermediateThrowEvent':
      if (definition === null) return passThrough;
      if (definition === 'bpmn:SignalEventDefinition') return signalThrow(false);
      if (definition === 'bpmn:MessageEventDefinition') return messageThrow(false);
      if (definition === 'bpmn:EscalationEventDefinition') return escalationThrow(false);
      if (definition === 'bpmn:CompensateEventDefinition') return compensationThrow(false);
      return null;
    case 'bpmn:IntermediateCatchEvent':
      // A link catch event is no wait state (Camunda's IntermediateCatchLinkEventActivityBehavior).
      if (definition === 'bpmn:LinkEventDefinition') return passThrough;
      return ['bpmn:TimerEventDefinition', 'bpmn:MessageEventDefinition', 'bpmn:SignalEventDefinition', 'bpmn:ConditionalEventDefinition'].includes(definition ?? '')
        ? catchEvent
        : null;
    case 'bpmn:BoundaryEvent':
      return BOUNDARY_DEFINITIONS.includes(definition ?? '') ? passThrough : null;
    case 'bpmn:Task':
    case 'bpmn:ManualTask':
      return passThrough;
    case 'bpmn:UserTask':
      return userTask;
    case 'bpmn:ReceiveTask':
      return catchEvent;
    case 'bpmn:ScriptTask':
      return scriptTask;
    case 'bpmn:ServiceTask':
    case 'bpmn:SendTask':
    case 'bpmn:BusinessRuleTask':
      // The connect plugin's parse listener replaces whatever else the element declares.
      if (element.connector) return connectorTask;
      if (element.camunda.type === 'external') return externalTask;
      if (element.type === 'bpmn:BusinessRuleTask' && element.camunda.decisionRef) return null;
      return hasDelegate(element) ? serviceTask : null;
    case 'bpmn:ExclusiveGateway':
      return exclusiveGateway;
    case 'bpmn:ParallelGateway':
      return parallelGateway;
    case 'bpmn:InclusiveGateway':
      return inclusiveGateway;
    case 'bpmn:EventBasedGateway':
      return eventBasedGateway;
    case 'bpmn:SubProcess':
    case 'bpmn:Transaction':
      return subProcess;
    case 'bpmn:CallActivity':
      return element.calledElement ? callActivity : null;
    default:
      return null;
  }
}
