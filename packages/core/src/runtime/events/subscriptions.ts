import type { EventDefinitionModel, FlowElementModel } from '../../bpmn/index.js';
import type { EventSubscription } from '../../persistence/repositories/event-subscription-repository.js';
import type { Execution } from '../execution.js';
import type { ProcessRunner } from '../process-runner.js';

const KINDS: Record<string, EventSubscription['eventType']> = {
  'bpmn:MessageEventDefinition': 'message',
  'bpmn:SignalEventDefinition': 'signal',
  'bpmn:ConditionalEventDefinition': 'conditional',
};

/** Makes an execution wait for a message, signal or condition (a catch event, a receive task, a boundary event). */
export async function subscribe(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  definition: EventDefinitionModel,
): Promise<EventSubscription | null> {
  const kind = KINDS[definition.type];
  if (kind === undefined) return null;
  runner.wroteRows = true;
  // A condition is checked at once and then whenever variables change (the runner evaluates it).
  if (kind === 'conditional') {
    runner.hasConditionalEvents = true;
    runner.variables.conditionSubscribed(execution.id, element.id);
  }
  const name = eventNameOf(runner, execution, definition);
  const subscription: EventSubscription = {
    id: runner.ctx.ids.next(),
    eventType: kind,
    eventName: name,
    executionId: execution.id,
    processInstanceId: execution.processInstanceId,
    activityId: element.id,
    processDefinitionId: runner.definition.id,
    configuration: null,
    created: runner.ctx.clock.now(),
    tenantId: runner.definition.tenantId,
  };
  await runner.ctx.eventSubscriptions.insert(subscription);
  return subscription;
}

/** A message's or signal's name, its expression evaluated on the execution (Camunda's resolveExpressionOfEventName); null for a condition. */
export function eventNameOf(runner: ProcessRunner, execution: Execution, definition: EventDefinitionModel): string | null {
  const rawName = KINDS[definition.type] === 'message' ? definition.messageName : KINDS[definition.type] === 'signal' ? definition.signalName : null;
  return rawName === null ? null : String(runner.evaluate(execution, rawName) ?? '');
}

/** The message, signal or conditional definition of an element (receive tasks reference their message directly). */
export function catchingDefinition(element: FlowElementModel): EventDefinitionModel | null {
  return (
    element.eventDefinitions.find((definition) => definition.type in KINDS) ?? null
  );
}
