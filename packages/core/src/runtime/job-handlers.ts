import { inject, injectable } from 'inversify';
import type { CommandContext } from '../command/command-context.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { createJob } from '../jobs/create-job.js';
import type { Job } from '../jobs/job.js';
import type { JobHandler } from '../jobs/job-handler.js';
import { completeRun, openInstance } from './open-instance.js';
import { receiveSignalJob, SIGNAL_EVENT_JOB } from './events/signals.js';
import { RuntimeEnvironment } from './runtime-environment.js';
import { JobHandlerTypes } from './runtime-jobs.js';
import { startInstance } from './start-instance.js';
import { parseTimer } from './timers/index.js';
import { enclosingBody, instanceCompleted, scopeElementId } from './multi-instance.js';
import { fireTaskListener, listenerChanges } from './task-listeners.js';
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
 * priority. Null when none is left.
 */
export async function scheduleNextCycle(ctx: CommandContext, job: Job): Promise<Job | null> {
  if (job.type !== 'timer' || !job.repeat) return null;
  const schedule = parseTimer('timeCycle', job.repeat);
  if (!schedule.repeats()) return null;
  const now = ctx.clock.now();
  // Camunda's cron cycles ignore the offset.
  const offset = job.repeat.startsWith('R') ? job.repeatOffset : 0;
  const next = schedule.nextDueDate(new Date(now.getTime() - offset));
  if (!next) return null;
  // A cycle still in the form Trellis once stored (R<n>/<duration>, counted down) goes on that way.
  const repeat = job.repeat.startsWith('R') && job.repeat.split('/').length === 2 ? schedule.afterFiring() : job.repeat;
  const { id: _id, createTime: _created, lockOwner: _owner, lockExpirationTime: _expiry, ...rest } = job;
  return createJob(ctx, { ...rest, dueDate: new Date(next.getTime() + offset), repeat, exceptionMessage: null, exceptionStacktrace: null, failedActivityId: null });
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
    await fireTaskListener(runner, execution, element, listener, 'timeout', changed);
    const changes = listenerChanges(task, changed);
    if (changes) await updateTask(ctx, task, changes);
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

