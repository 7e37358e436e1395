import type { FlowElementModel, ProcessModel, TimerModel } from '../../bpmn/index.js';
import type { CommandContext } from '../../command/command-context.js';
import { JobHandlerTypes } from '../../runtime/runtime-jobs.js';
import { eventSubProcessOf } from '../../runtime/events/event-sub-processes.js';
import { continuationOf } from '../../runtime/multi-instance.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';

const TIMER_KIND = { date: 'DATE', duration: 'DURATION', cycle: 'CYCLE' } as const;

/** Camunda creates one job definition per asynchronous or timer-driven activity of a deployed definition. */
export async function createJobDefinitions(ctx: CommandContext, definition: ProcessDefinition, model: ProcessModel): Promise<void> {
  for (const element of model.elements.values()) {
    for (const [jobType, configuration, activityId] of jobsOf(model, element)) {
      await ctx.jobDefinitions.insert({
        id: ctx.ids.next(),
        processDefinitionId: definition.id,
        processDefinitionKey: definition.key,
        activityId,
        jobType,
        jobConfiguration: configuration,
        overridingJobPriority: null,
        suspended: false,
        tenantId: definition.tenantId,
        deploymentId: definition.deploymentId,
      });
    }
  }
}

/** The jobs an element may create: its type, configuration and activity (a multi-instance body's continuations carry the body's id). */
function jobsOf(model: ProcessModel, element: FlowElementModel): Array<[string, string, string]> {
  const jobs: Array<[string, string, string]> = [];
  for (const { activityId, camunda } of element.multiInstance ? [continuationOf(element, false), continuationOf(element, true)] : [continuationOf(element, false)]) {
    if (camunda.asyncBefore === true) jobs.push([JobHandlerTypes.asyncContinuation, 'async-before', activityId]);
    if (camunda.asyncAfter === true) jobs.push([JobHandlerTypes.asyncContinuation, 'async-after', activityId]);
  }
  const timer = element.eventDefinitions.find((each) => each.type === 'bpmn:TimerEventDefinition')?.timer;
  if (timer) jobs.push([timerJobType(model, element), timerConfiguration(timer), element.id]);
  // Camunda's parseTimer for a timeout task listener.
  for (const listener of element.taskListeners) {
    if (listener.event === 'timeout' && listener.timer) jobs.push([JobHandlerTypes.taskListenerTimer, timerConfiguration(listener.timer), element.id]);
  }
  return jobs;
}

function timerJobType(model: ProcessModel, element: FlowElementModel): string {
  if (element.type === 'bpmn:BoundaryEvent') return JobHandlerTypes.boundaryTimer;
  if (element.type === 'bpmn:StartEvent') return eventSubProcessOf(model, element) ? JobHandlerTypes.eventSubProcessTimer : JobHandlerTypes.timerStartEvent;
  return JobHandlerTypes.intermediateTimer;
}

/** Camunda's timer job configuration: the kind and the text, e.g. 'DURATION: PT5M'. */
const timerConfiguration = (timer: TimerModel) => `${TIMER_KIND[timer.kind]}: ${timer.expression}`;
