import { inject, injectable } from 'inversify';
import type { CommandContext } from '../command/command-context.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { createJob } from '../jobs/create-job.js';
import type { Job } from '../jobs/job.js';
import type { JobHandler } from '../jobs/job-handler.js';
import { completeRun, expressionsOn, openInstance } from './open-instance.js';
import { receiveSignalJob, SIGNAL_EVENT_JOB } from './events/signals.js';
import { RuntimeEnvironment } from './runtime-environment.js';
import { JobHandlerTypes, resolveTimerText } from './runtime-jobs.js';
import { isExpression } from './expressions/index.js';
import type { FlowElementModel, TimerModel } from '../bpmn/index.js';
import { startInstance } from './start-instance.js';
import { parseTimer, prepareRepeat } from './timers/index.js';
import { enclosingBody, instanceCompleted, scopeElementId } from './multi-instance.js';
import { fireTaskListener, listenerChanges } from './task-listeners.js';
import { completeProcessTask } from './task-completion.js';
import { updateTask } from '../services/task/task-update.js';

/** Opens the job's instance and execution; a job whose execution is gone is a programming error. */
async function openJobExecution(ctx: CommandContext, env: RuntimeEnvironment, job: Job) {
  const runner = job.processInstanceId ? await openInstance(ctx, env, job.processInstanceId) : null;
  const execution = runner && job.executionId ? runner.tree.executions.get(job.executionId) : undefined;
  if (!runner || !execution) throw new ProcessEngineException(`Execution '${job.executionId}' of job '${job.id}' does not exist`);
  return { runner, execution };
}

/**
 * A repeating timer about to fire schedules its next firing as a new job (Camunda's
 * TimerEntity.preExecute): the next instant of its cycle after now (less the offset a cascading
 * due date change added, which the new due date gets back), with the firing job's retries and
 * priority. With reevaluateTimeCycleWhenDue, a cycle declared as an expression is evaluated again
 * first and a changed cycle replaces the job's. Null when none is left.
 */
export async function scheduleNextCycle(ctx: CommandContext, env: RuntimeEnvironment, job: Job): Promise<Job | null> {
  if (job.type !== 'timer' || !job.repeat) return null;
  const now = ctx.clock.now();
  const current = ctx.config.reevaluateTimeCycleWhenDue ? await reevaluatedCycle(ctx, env, job, now) : job.repeat;
  const schedule = parseTimer('timeCycle', current);
  if (!schedule.repeats()) return null;
  // Camunda's cron cycles ignore the offset.
  const offset = current.startsWith('R') ? job.repeatOffset : 0;
  const next = schedule.nextDueDate(new Date(now.getTime() - offset));
  if (!next) return null;
  // A cycle still in the form Trellis once stored (R<n>/<duration>, counted down) goes on that way.
  const repeat = current.startsWith('R') && current.split('/').length === 2 ? schedule.afterFiring() : current;
  const { id: _id, createTime: _created, lockOwner: _owner, lockExpirationTime: _expiry, ...rest } = job;
  return createJob(ctx, { ...rest, dueDate: new Date(next.getTime() + offset), repeat, exceptionMessage: null, exceptionStacktrace: null, failedActivityId: null });
}

/**
 * Camunda's TimerEntity.adjustRepeatBasedOnNewExpression: the job's cycle after its declaration's
 * expression was evaluated again — a cron expression as it is, the same repeating interval kept with
 * its start, another one from now.
 */
async function reevaluatedCycle(ctx: CommandContext, env: RuntimeEnvironment, job: Job, now: Date): Promise<string> {
  const repeat = job.repeat!;
  const declaration = await timerDeclarationOf(ctx, env, job);
  if (!declaration || !isExpression(declaration.timer.expression)) return repeat;
  const value = await declaration.evaluated();
  // A date is no cycle: the job keeps the one it has.
  if (value instanceof Date) return repeat;
  if (!value.startsWith('R')) return value;
  const [currentParts, newParts] = [repeat.split('/'), value.split('/')];
  const same =
    !repeat.startsWith('R') ? false
    : currentParts.length === 3 && newParts.length === 2 ? currentParts[0] === newParts[0] && currentParts[2] === newParts[1]
    : currentParts.length === 3 && newParts.length === 3 ? repeat === value
    : true;
  return same ? repeat : prepareRepeat(value, now);
}

/**
 * A timer job's declaration: its activity's timer event definition, or for a timeout task listener
 * (`<task>$<listener id>`) the listener's, with the timer's text evaluated now on the job's
 * execution (without one, on no variables). Null when the model has none.
 */
export async function timerDeclarationOf(
  ctx: CommandContext,
  env: RuntimeEnvironment,
  job: Job,
): Promise<{ element: FlowElementModel; timer: TimerModel; evaluated(): Promise<string | Date> } | null> {
  const definition = job.processDefinitionId ? await ctx.processDefinitions.findById(job.processDefinitionId) : null;
  const element = definition && job.activityId ? (await env.models.get(ctx, definition)).activity(job.activityId) : undefined;
  const listenerId = job.handlerType === JobHandlerTypes.taskListenerTimer ? ((job.handlerConfiguration ?? '').split('$')[1] ?? '') : null;
  const timer =
    listenerId !== null
      ? element?.taskListeners.find((each) => each.event === 'timeout' && (each.id ?? '') === listenerId)?.timer
      : element?.eventDefinitions.find((each) => each.type === 'bpmn:TimerEventDefinition')?.timer;
  if (!element || !timer) return null;
  const evaluated = async () => resolveTimerText(timer, (await expressionsOn(ctx, env, job.processInstanceId, job.executionId)).evaluate);
  return { element, timer, evaluated };
}

@injectable()
export class AsyncContinuationJobHandler implements JobHandler {
  readonly type = JobHandlerTypes.asyncContinuation;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {}

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const { runner, execution } = await openJobExecution(ctx, this.env, job);
    const configuration = job.handlerConfiguration ?? 'async-before';
    // A multi-instance body's job carries the body's id.
    const activityId = scopeElementId(job.activityId!);
    if (configuration === 'async-before') {
      runner.enter(execution, activityId, { skipAsync: true });
    } else {
      const element = runner.model.activity(activityId);
      if (!element) throw new ProcessEngineException(`Activity '${job.activityId}' of job '${job.id}' does not exist`);
      const chosen = configuration.startsWith('async-after:') ? configuration.slice('async-after:'.length).split(',') : undefined;
      // After one instance of a multi-instance activity (its loop's asyncAfter): the instance completes in its body.
      const body = job.activityId === element.id ? enclosingBody(runner, execution, element) : null;
      if (body) runner.schedule(execution, () => instanceCompleted(runner, body, execution, element));
      else runner.schedule(execution, () => runner.takeFlows(execution, element, chosen, true));
    }
    await completeRun(ctx, runner);
  }
}

/** Intermediate timer catch events and timers after an event-based gateway. */
@injectable()
export class IntermediateTimerJobHandler implements JobHandler {
  readonly type = JobHandlerTypes.intermediateTimer;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {}

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const { runner, execution } = await openJobExecution(ctx, this.env, job);
    runner.trigger(execution, job.handlerConfiguration ?? job.activityId!);
    await completeRun(ctx, runner);
  }
}

/**
 * A user task's timeout task listener (Camunda's TimerTaskListenerJobHandler): the listener runs on
 * the task with event `timeout`; what it sets on the task is written; a cycle schedules its next firing.
 */
@injectable()
export class TaskListenerTimerJobHandler implements JobHandler {
  readonly type = JobHandlerTypes.taskListenerTimer;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {}

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const { runner, execution } = await openJobExecution(ctx, this.env, job);
    const [activityId, listenerId] = (job.handlerConfiguration ?? '').split('$');
    const element = runner.model.activity(activityId);
    const listener = element?.taskListeners.find((each) => each.event === 'timeout' && (each.id ?? '') === listenerId);
    if (!element || !listener) throw new ProcessEngineException(`Cannot find timeout taskListener with id '${listenerId}' of activity '${activityId}'`);
    const [task] = (await ctx.tasks.find({ executionId: execution.id })).filter((each) => each.taskDefinitionKey === activityId);
    if (!task) return;
    const changed = { ...task };
    const completing = await fireTaskListener(runner, execution, element, listener, 'timeout', changed);
    const changes = listenerChanges(task, changed);
    if (changes) await updateTask(ctx, task, changes);
    // The listener called task.complete().
    if (completing) await completeProcessTask(runner, execution, element, { ...task, ...changes });
    await completeRun(ctx, runner);
  }
}

/** Boundary timers: the event fires; a non-interrupting cycle schedules its next firing. */
@injectable()
export class BoundaryTimerJobHandler implements JobHandler {
  readonly type = JobHandlerTypes.boundaryTimer;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {}

  execute(ctx: CommandContext, job: Job): Promise<void> {
    return fireTimerEvent(ctx, this.env, job, 'Boundary event');
  }
}

/** Event sub-process timer start events: the sub-process starts; a non-interrupting cycle schedules its next firing. */
@injectable()
export class EventSubProcessTimerJobHandler implements JobHandler {
  readonly type = JobHandlerTypes.eventSubProcessTimer;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {}

  execute(ctx: CommandContext, job: Job): Promise<void> {
    return fireTimerEvent(ctx, this.env, job, 'Start event');
  }
}

/** A timer event of an execution (`label` names its kind in the error for a missing one) fires. */
async function fireTimerEvent(ctx: CommandContext, env: RuntimeEnvironment, job: Job, label: string): Promise<void> {
  const { runner, execution } = await openJobExecution(ctx, env, job);
  const event = runner.model.activity(job.handlerConfiguration ?? '');
  if (!event) throw new ProcessEngineException(`${label} '${job.handlerConfiguration}' of job '${job.id}' does not exist`);
  runner.trigger(execution, event.id);
  await completeRun(ctx, runner);
}

/** An async signal throw's delivery to one subscription (Camunda's ProcessEventJobHandler, type "event"). */
@injectable()
export class SignalEventJobHandler implements JobHandler {
  readonly type = SIGNAL_EVENT_JOB;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {}

  execute(ctx: CommandContext, job: Job): Promise<void> {
    return receiveSignalJob(ctx, this.env, job.handlerConfiguration ?? '');
  }
}

/** Timer start events: each firing starts an instance of the definition; cycles schedule the next. */
@injectable()
export class TimerStartEventJobHandler implements JobHandler {
  readonly type = JobHandlerTypes.timerStartEvent;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {}

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const definition = job.processDefinitionId ? await ctx.processDefinitions.findById(job.processDefinitionId) : null;
    if (!definition) throw new ProcessEngineException(`Process definition '${job.processDefinitionId}' of timer job '${job.id}' does not exist`);
    if (definition.suspended) return;
    await startInstance(ctx, this.env, definition, { startActivityId: job.handlerConfiguration ?? job.activityId! });
  }
}

