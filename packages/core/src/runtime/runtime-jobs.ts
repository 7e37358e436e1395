import type { FlowElementModel, TimerModel } from '../bpmn/index.js';
import { createJob } from '../jobs/create-job.js';
import type { Job } from '../jobs/job.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { Execution } from './execution.js';
import { declaredPriority, describeExecution, jobContext } from './priority.js';
import type { ProcessRunner } from './process-runner.js';
import { fixedDueDate, parseTimer, prepareRepeat, type TimerKind } from './timers/index.js';

/** Camunda's job handler types for the runtime's jobs. */
export const JobHandlerTypes = {
  asyncContinuation: 'async-continuation',
  /** An intermediate timer catch event: the waiting execution moves on. */
  intermediateTimer: 'timer-intermediate-transition',
  /** A boundary timer: the event fires on the activity's scope execution. */
  boundaryTimer: 'timer-transition',
  timerStartEvent: 'timer-start-event',
  /** An event sub-process's timer start event: the sub-process starts in its scope. */
  eventSubProcessTimer: 'timer-start-event-subprocess',
  /** A user task's timeout task listener (its configuration: `<activity id>$<listener id>`). */
  taskListenerTimer: 'timer-task-listener',
} as const;

/** The handlers of a process's timer jobs (Camunda's timer declarations; not the engine's own timers). */
export const TIMER_JOB_HANDLERS: ReadonlySet<string> = new Set([
  JobHandlerTypes.intermediateTimer,
  JobHandlerTypes.boundaryTimer,
  JobHandlerTypes.timerStartEvent,
  JobHandlerTypes.eventSubProcessTimer,
  JobHandlerTypes.taskListenerTimer,
]);

const KINDS: Record<TimerModel['kind'], TimerKind> = { date: 'timeDate', duration: 'timeDuration', cycle: 'timeCycle' };

/** An async-before or async-after continuation: the execution waits until the job executor resumes it. */
export async function createAsyncJob(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  configuration: string,
  continuation: { activityId: string; camunda: FlowElementModel['camunda'] } = { activityId: element.id, camunda: element.camunda },
): Promise<Job> {
  return createJob(runner.ctx, {
    ...ownedBy(runner, execution, element, JobHandlerTypes.asyncContinuation),
    activityId: continuation.activityId,
    type: 'message',
    handlerType: JobHandlerTypes.asyncContinuation,
    handlerConfiguration: configuration,
    exclusive: continuation.camunda.exclusive !== false,
  });
}

/** A timer job of an execution: its due date is the timer's first firing from now. */
export async function createTimerJob(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  handlerType: string,
  timer: TimerModel,
  configuration: string = element.id,
): Promise<Job> {
  return createJob(runner.ctx, {
    ...ownedBy(runner, execution, element, handlerType),
    type: 'timer',
    handlerType,
    handlerConfiguration: configuration,
    ...scheduleTimer(runner, execution, element, handlerType, timer),
    exclusive: timer.exclusive,
  });
}

/**
 * A timer's first due date from now and the repeat its job keeps, its text evaluated on the
 * execution (Camunda's TimerDeclarationImpl.initializeConfiguration): an intermediate or
 * interrupting timer never repeats.
 */
export function scheduleTimer(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  handlerType: string,
  timer: TimerModel,
): { dueDate: Date; repeat: string | null } {
  const text = resolveTimerText(timer, (expression) => runner.evaluate(execution, expression));
  const schedule = parseTimerOrFail(timer, text, element.id);
  const now = runner.ctx.clock.now();
  const repeats = timer.kind === 'cycle' && handlerType !== JobHandlerTypes.intermediateTimer && !(handlerType === JobHandlerTypes.boundaryTimer ? element.cancelActivity : handlerType === JobHandlerTypes.eventSubProcessTimer && element.isInterrupting);
  return { dueDate: schedule.firstDueDate(now), repeat: repeats ? repeatOf(text, element.id, now) : null };
}

/**
 * The timer's text with its expression (if any) evaluated; a Date the expression gives stays a Date,
 * the due date whatever the timer's kind (Camunda's TimerDeclarationImpl.resolveAndSetDuedate).
 */
export function resolveTimerText(timer: TimerModel, evaluate: (expression: string) => unknown): string | Date {
  const value = /[$#]\{/.test(timer.expression) ? evaluate(timer.expression) : timer.expression;
  if (value instanceof Date) return value;
  return String(value ?? '').trim();
}

/**
 * The repeat a cycle's job keeps (prepareRepeat). A date has nothing to repeat: Camunda fails there
 * with a NullPointerException (prepareRepeat of no text); Trellis names the element instead.
 */
export function repeatOf(text: string | Date, elementId: string, now: Date): string {
  if (text instanceof Date) throw new ProcessEngineException(`Cannot schedule timer of element '${elementId}': a repeating timer needs a cycle, not the date ${text.toISOString()}`);
  return prepareRepeat(text, now);
}

export function parseTimerOrFail(timer: TimerModel, text: string | Date, elementId: string) {
  if (text instanceof Date) return fixedDueDate(text);
  try {
    // Camunda accepts a repeating interval as a duration and fires it once, after the first period.
    if (timer.kind === 'duration' && text.startsWith('R')) return parseTimer('timeCycle', text);
    return parseTimer(KINDS[timer.kind], text);
  } catch (error) {
    throw new ProcessEngineException(`Cannot schedule timer of element '${elementId}': ${(error as Error).message}`, { cause: error });
  }
}

export function timerKind(timer: TimerModel): TimerKind {
  return KINDS[timer.kind];
}

function ownedBy(runner: ProcessRunner, execution: Execution, element: FlowElementModel, handlerType: string) {
  runner.wroteRows = true;
  return {
    executionId: execution.id,
    processInstanceId: execution.processInstanceId,
    activityId: element.id,
    processDefinitionId: runner.definition.id,
    processDefinitionKey: runner.definition.key,
    deploymentId: runner.definition.deploymentId,
    tenantId: runner.definition.tenantId,
    suspended: execution.suspended,
    priority: declaredPriority(runner.model, element, 'jobPriority', (expression) => runner.evaluate(execution, expression), jobContext(element, handlerType, describeExecution(execution))),
  };
}
