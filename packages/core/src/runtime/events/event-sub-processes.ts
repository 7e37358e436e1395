import type { FlowElementModel, ProcessModel } from '../../bpmn/index.js';
import type { Execution } from '../execution.js';
import type { ProcessRunner } from '../process-runner.js';
import { catchesEscalation } from './boundary-events.js';
import { createTimerJob, JobHandlerTypes } from '../runtime-jobs.js';
import { subscribe } from './subscriptions.js';

/** The start events of the event sub-processes directly inside a container (the process key or a sub-process id). */
export function eventSubProcessStarts(model: ProcessModel, containerId: string): FlowElementModel[] {
  return model
    .childrenOf(containerId)
    .filter((child) => child.type === 'bpmn:SubProcess' && child.triggeredByEvent)
    .flatMap((sub) => model.childrenOf(sub.id).filter((child) => child.type === 'bpmn:StartEvent' && child.eventDefinitions.length > 0));
}

/** The event sub-process an event starts, or null when it is no event sub-process start event. */
export function eventSubProcessOf(model: ProcessModel, event: FlowElementModel): FlowElementModel | null {
  if (event.type !== 'bpmn:StartEvent') return null;
  const container = model.activity(event.scopeId);
  return container?.type === 'bpmn:SubProcess' && container.triggeredByEvent ? container : null;
}

/**
 * Arms the event sub-processes of a scope that just started: timers become jobs, messages, signals
 * and conditions subscriptions; start events `except` names keep the triggers they have (a migration's).
 */
export async function armEventSubProcesses(runner: ProcessRunner, scope: Execution, containerId: string, except: ReadonlySet<string> = new Set()): Promise<void> {
  for (const start of eventSubProcessStarts(runner.model, containerId)) {
    if (except.has(start.id)) continue;
    const definition = start.eventDefinitions[0];
    if (definition.type === 'bpmn:TimerEventDefinition' && definition.timer) {
      await createTimerJob(runner, scope, start, JobHandlerTypes.eventSubProcessTimer, definition.timer);
    } else {
      await subscribe(runner, scope, start, definition);
    }
  }
}

/** The error start event of an event sub-process in the container that catches this code (a code match wins over a catch-all). */
export function matchingErrorStart(model: ProcessModel, containerId: string, errorCode: string): FlowElementModel | null {
  let catchAll: FlowElementModel | null = null;
  for (const start of eventSubProcessStarts(model, containerId)) {
    const definition = start.eventDefinitions.find((each) => each.type === 'bpmn:ErrorEventDefinition');
    if (!definition) continue;
    if (definition.errorCode === errorCode) return start;
    if (definition.errorCode === null) catchAll ??= start;
  }
  return catchAll;
}

/** The escalation start event of an event sub-process in the container that catches this code (the first in document order). */
export function matchingEscalationStart(model: ProcessModel, containerId: string, escalationCode: string): FlowElementModel | null {
  return eventSubProcessStarts(model, containerId).find((start) => catchesEscalation(start, escalationCode)) ?? null;
}

/** The activities whose triggers belong to a scope execution itself (its event sub-process starts, its activity's boundary events). */
export function scopeTriggerActivities(model: ProcessModel, scope: Execution): string[] {
  const container = scope.scopeActivityId ?? model.key;
  const host = scope.scopeActivityId ? model.activity(scope.scopeActivityId.replace(/#multiInstanceBody$/, '')) : undefined;
  return [...eventSubProcessStarts(model, container).map((start) => start.id), ...(host?.boundaryEvents ?? [])];
}
