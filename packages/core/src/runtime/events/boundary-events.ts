import type { EventDefinitionModel, FlowElementModel, ProcessModel } from '../../bpmn/index.js';
import type { Execution } from '../execution.js';
import type { ProcessRunner } from '../process-runner.js';
import { createTimerJob, JobHandlerTypes } from '../runtime-jobs.js';
import { subscribe } from './subscriptions.js';

/**
 * Arms the boundary events of an activity on its new scope execution: timers become jobs, messages
 * and signals subscriptions; those `except` names keep the triggers they have (a migration's).
 */
export async function createBoundaryEventTriggers(runner: ProcessRunner, scope: Execution, activity: FlowElementModel, except: ReadonlySet<string> = new Set()): Promise<void> {
  for (const id of activity.boundaryEvents) {
    const boundary = runner.model.activity(id);
    const definition = boundary?.eventDefinitions[0];
    if (!boundary || !definition || except.has(id)) continue;
    if (definition.type === 'bpmn:TimerEventDefinition' && definition.timer) {
      await createTimerJob(runner, scope, boundary, JobHandlerTypes.boundaryTimer, definition.timer);
    } else {
      await subscribe(runner, scope, boundary, definition);
    }
  }
}

/**
 * The error boundary event of an activity that catches an error code: one naming the code wins
 * over a catch-all (no error reference, or an error without a code).
 */
export function matchingErrorBoundary(
  model: ProcessModel,
  activity: FlowElementModel,
  errorCode: string,
): { boundary: FlowElementModel; definition: EventDefinitionModel } | null {
  let catchAll: { boundary: FlowElementModel; definition: EventDefinitionModel } | null = null;
  for (const id of activity.boundaryEvents) {
    const boundary = model.activity(id);
    const definition = boundary?.eventDefinitions.find((each) => each.type === 'bpmn:ErrorEventDefinition');
    if (!boundary || !definition) continue;
    if (definition.errorCode === errorCode) return { boundary, definition };
    if (definition.errorCode === null && catchAll === null) catchAll = { boundary, definition };
  }
  return catchAll;
}

/**
 * The escalation boundary event of an activity that catches an escalation code (Camunda's
 * EscalationEventDefinitionFinder: the first, in document order, naming the code or none).
 */
export function matchingEscalationBoundary(model: ProcessModel, activity: FlowElementModel, escalationCode: string): FlowElementModel | null {
  return (
    activity.boundaryEvents
      .map((id) => model.activity(id))
      .find((boundary) => boundary !== undefined && catchesEscalation(boundary, escalationCode)) ?? null
  );
}

/** Whether a catching escalation event takes this code: it names it, or names no code (catch-all). */
export function catchesEscalation(event: FlowElementModel, escalationCode: string): boolean {
  const definition = event.eventDefinitions.find((each) => each.type === 'bpmn:EscalationEventDefinition');
  return definition !== undefined && (definition.escalationCode === null || definition.escalationCode === escalationCode);
}
