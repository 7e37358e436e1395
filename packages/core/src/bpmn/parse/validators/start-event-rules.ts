import { flowNodesOf, localType, scopesOf, type ModdleElement } from '../moddle-element.js';
import { definitionLocation, eventDefinitionsOf, type RuleContext } from './rule-context.js';

// Camunda's BpmnParse.parseScopeStartEvent, for a start event inside a plain sub-process.
const NOT_IN_SUBPROCESS: Record<string, string> = {
  'bpmn:ConditionalEventDefinition': 'conditionalEventDefinition is not allowed on start event within a subprocess',
  'bpmn:TimerEventDefinition': 'timerEventDefinition is not allowed on start event within a subprocess',
  'bpmn:EscalationEventDefinition': 'escalationEventDefinition is not allowed on start event within a subprocess',
  'bpmn:CompensateEventDefinition': 'compensateEventDefinition is not allowed on start event within a subprocess',
  'bpmn:ErrorEventDefinition': 'errorEventDefinition only allowed on start event if subprocess is an event subprocess',
  'bpmn:MessageEventDefinition': 'messageEventDefinition only allowed on start event if subprocess is an event subprocess',
  'bpmn:SignalEventDefinition': 'signalEventDefintion only allowed on start event if subprocess is an event subprocess',
};

/** Camunda's BpmnParse.parseStartEvents and selectInitial: which start events each scope may have. */
export function checkStartEvents(process: ModdleElement, context: RuleContext): void {
  for (const scope of scopesOf(process)) {
    const startEvents = flowNodesOf(scope).filter((node) => node.$type === 'bpmn:StartEvent');
    const tagName = localType(scope.$type).replace(/^./, (first) => first.toLowerCase());
    if (startEvents.length === 0) {
      if (tagName === 'process' || tagName === 'subProcess') {
        context.report.error(`${tagName} must define a startEvent element`, [scope.id]);
      }
    } else if (scope === process) {
      checkProcessStartEvents(process, startEvents, context);
    } else {
      checkSubProcessStartEvents(scope, startEvents, context);
    }
  }
}

function checkProcessStartEvents(process: ModdleElement, startEvents: ModdleElement[], { report }: RuleContext): void {
  let initial: ModdleElement | undefined;
  for (const startEvent of startEvents) {
    const type = eventDefinitionsOf(startEvent)[0]?.$type;
    const isNoneOrTimer = !['bpmn:MessageEventDefinition', 'bpmn:SignalEventDefinition', 'bpmn:ConditionalEventDefinition'].includes(type);
    if (!isNoneOrTimer) continue;
    if (initial) {
      report.error('multiple none start events or timer start events not supported on process definition', [startEvent.id, process.id], process.id);
    }
    initial ??= startEvent;
  }
}

function checkSubProcessStartEvents(subProcess: ModdleElement, startEvents: ModdleElement[], { report }: RuleContext): void {
  for (const startEvent of startEvents.slice(1)) {
    report.error('multiple start events not supported for subprocess', [startEvent.id, subProcess.id], subProcess.id);
  }
  for (const startEvent of startEvents) {
    const definitions = eventDefinitionsOf(startEvent);
    if (subProcess.triggeredByEvent !== true) {
      for (const definition of definitions) {
        const message = NOT_IN_SUBPROCESS[definition.$type];
        if (message) report.error(message, [startEvent.id], definitionLocation(definition, startEvent));
      }
    } else if (definitions.length === 0) {
      report.error("start event of event subprocess must be of type 'error', 'message', 'timer', 'signal', 'compensation' or 'escalation'", [startEvent.id]);
    } else if (definitions[0].$type === 'bpmn:ErrorEventDefinition' && startEvent.isInterrupting === false) {
      report.error('error start event of event subprocess must be interrupting', [startEvent.id]);
    }
  }
}
