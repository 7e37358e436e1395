import { hostname } from 'node:os';
import { randomUUID } from 'node:crypto';
import { inject, injectable, multiInject } from 'inversify';
import type { Clock } from '../clock.js';
import { CommandExecutor } from '../command/command-executor.js';
import type { ResolvedEngineConfig } from '../config.js';
import { EventBus } from '../events/event-bus.js';
import type { Logger } from '../logger.js';
import { CLOCK, ENGINE_CONFIG, LOGGER } from '../tokens.js';
import type { CommandContext } from '../command/command-context.js';
import { parseRetryIntervals, type RetryConfiguration } from '../runtime/timers/retry-cycle.js';
import { RuntimeEnvironment } from '../runtime/runtime-environment.js';
import { expressionsOn } from '../runtime/open-instance.js';
import { JobHandlerTypes } from '../runtime/runtime-jobs.js';
import { scopeElementId } from '../runtime/multi-instance.js';
import { scheduleNextCycle } from '../runtime/job-handlers.js';
import { startsAsExpression } from '../bpmn/parse/moddle-element.js';
import { ProcessModelCache } from '../services/process-definition/process-model-cache.js';
import { OptimisticLockingException } from '../errors/exceptions.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import { engineMessage } from '../errors/engine-message.js';
import type { Job } from './job.js';
import { endFailedJobIncident, recordJobFailure } from './job-failure.js';
import { JOB_HANDLER, type JobHandler } from './job-handler.js';
import { EngineMetrics } from '../services/telemetry/engine-metrics.js';
import { JobLog } from '../history/job-log.js';
import { HISTORY_CLEANUP } from '../history/history-cleanup-job.js';

/** The jobs Camunda's DefaultJobRetryCmd applies a retry time cycle to. */
const RETRY_CYCLE_JOBS: ReadonlySet<string> = new Set([
  JobHandlerTypes.asyncContinuation,
  JobHandlerTypes.boundaryTimer,
  JobHandlerTypes.intermediateTimer,
  JobHandlerTypes.timerStartEvent,
  JobHandlerTypes.eventSubProcessTimer,
]);

/**
 * Acquires due jobs and runs each in its own transaction. A failed job loses one retry and keeps
 * its error; the lock expiry frees jobs of a node that died. Tests call runDueJobs() after moving the clock.
 */
@injectable()
export class JobExecutor {
  /** Identifies this engine's locks among the nodes sharing a database. */
  readonly lockOwner = `${hostname()}:${randomUUID()}`;
  private readonly handlers: Map<string, JobHandler>;
  private timer: NodeJS.Timeout | null = null;
  private cycle: Promise<unknown> = Promise.resolve();
  private active = false;
  private unsubscribe: (() => void) | null = null;

  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @multiInject(JOB_HANDLER) handlers: JobHandler[],
    @inject(CLOCK) private readonly clock: Clock,
    @inject(ENGINE_CONFIG) private readonly config: ResolvedEngineConfig,
    @inject(EventBus) private readonly events: EventBus,
    @inject(LOGGER) private readonly logger: Logger,
    @inject(ProcessModelCache) private readonly models: ProcessModelCache,
    @inject(EngineMetrics) private readonly metrics: EngineMetrics,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {
    this.handlers = new Map(handlers.map((handler) => [handler.type, handler]));
  }

  get isActive(): boolean {
    return this.active;
  }

  /** Starts polling (every `jobExecutor.waitTimeMs`) and listening for new jobs. */
  start(): void {
    if (this.active) return;
    this.active = true;
    this.unsubscribe = this.events.on('job.created', ({ dueDate }) => {
      if (!dueDate || dueDate.getTime() <= this.clock.now().getTime()) this.schedule(0);
    });
    this.schedule(0);
  }

  /** Stops polling and waits for the running cycle to end. */
  async stop(): Promise<void> {
    this.active = false;
    this.unsubscribe?.();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    await this.cycle.catch(() => {});
  }

  /** Runs due jobs until none is left; returns how many ran (successfully or not). */
  async runDueJobs(): Promise<number> {
    let executed = 0;
    for (;;) {
      const jobs = await this.acquire();
      if (jobs.length === 0) return executed;
      for (const job of jobs) await this.executeJob(job);
      executed += jobs.length;
      // SQLite answers synchronously: let timers and requests in between acquisitions
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * Camunda's ManagementService.executeJob: runs one job now, in the caller's authentication, whatever
   * its due date, retries or suspension. `authorize` runs first; an unknown job is no failure, but a
   * refusal is, as is a failure of the job itself: recorded (one retry less, the error kept, an
   * incident at 0) in its own transaction, then thrown to the caller as it was.
   */
  async executeJobNow(jobId: string, authorize: (ctx: CommandContext, job: Job) => Promise<void> = async () => {}): Promise<void> {
    let started = false;
    try {
      await this.commands.run('ExecuteJobsCmd', async (ctx) => {
        const job = await ctx.jobs.findById(jobId);
        if (!job) throw new ProcessEngineException(engineMessage('14', '026', `No job found with id '${jobId}'`));
        // Camunda's ExecuteJobsCmd hands the job to its failure collector before the checks: a refusal is a failure too.
        started = true;
        await authorize(ctx, job);
        await this.run(ctx, job);
      });
    } catch (error) {
      if (!started) throw error;
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`job ${jobId} failed: ${message}`);
      await this.commands.run('FailJobCmd', async (ctx) => {
        const job = await ctx.jobs.findById(jobId);
        if (job) await this.recordFailure(ctx, job, error);
      });
      throw error;
    }
  }

  /** Runs a job's handler and removes the job; a job that failed before and now succeeded resolves its incident. */
  private async run(ctx: CommandContext, job: Job): Promise<void> {
    const handler = this.handlers.get(job.handlerType);
    if (!handler) throw new Error(`No job handler for type '${job.handlerType}'`);
    // Queued before the handler runs the instance on, so the instance's history statement carries it (rolled back with a failure).
    JobLog.succeeded(ctx, job);
    await scheduleNextCycle(ctx, this.env, job);
    if ((await handler.execute(ctx, job)) !== 'kept') await ctx.jobs.delete(job);
    if (job.exceptionMessage !== null) {
      await endFailedJobIncident(ctx, job.id);
    }
    ctx.afterCommit(() => this.metrics.mark('job-successful'));
  }

  /** One retry less, the error kept, an incident at 0 retries; counted as a failed job once committed. */
  private async recordFailure(ctx: CommandContext, job: Job, error: unknown): Promise<void> {
    await recordJobFailure(ctx, job, error, await this.retryCycleOf(ctx, job));
    // Camunda's RepeatingFailedJobListener: a repeating timer's next firing is scheduled all the same, once.
    if (await scheduleNextCycle(ctx, this.env, job)) await ctx.jobs.stopRepeating(job);
    ctx.afterCommit(() => this.metrics.mark('job-failed'));
  }

  private schedule(delay: number): void {
    if (!this.active) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.timer = null;
      this.cycle = this.cycle
        .then(() => this.runDueJobs())
        .catch((error) => this.logger.error('job acquisition failed', error))
        .finally(() => this.schedule(this.config.jobExecutor.waitTimeMs));
    }, delay);
    this.timer.unref();
  }

  private async acquire(): Promise<Job[]> {
    const { lockTimeMs, maxJobsPerAcquisition } = this.config.jobExecutor;
    const jobs = await this.commands.run('AcquireJobsCmd', (ctx) => {
      const now = ctx.clock.now();
      // Camunda's acquisition query leaves history cleanup jobs out while history cleanup is disabled.
      const skip = ctx.config.historyCleanup.enabled ? {} : { skipHandlerType: HISTORY_CLEANUP };
      return ctx.jobs.acquire(this.lockOwner, now, new Date(now.getTime() + lockTimeMs), maxJobsPerAcquisition, skip);
    });
    this.metrics.mark('job-acquisition-attempt');
    this.metrics.mark('job-acquired-success', jobs.length);
    return jobs;
  }

  /**
   * The camunda:failedJobRetryTimeCycle of the job's activity, if it declares one, for the jobs
   * Camunda's DefaultJobRetryCmd reads it for (async continuations and BPMN timers); an expression
   * is evaluated on the job's execution, and one that gives no text leaves the standard strategy.
   */
  private async retryCycleOf(ctx: CommandContext, job: Job): Promise<RetryConfiguration | null> {
    if (!RETRY_CYCLE_JOBS.has(job.handlerType) || !job.processDefinitionId || !job.activityId) return null;
    const definition = await ctx.processDefinitions.findById(job.processDefinitionId);
    if (!definition) return null;
    // Camunda's DefaultFailedJobParseListener: the activity's own cycle, else the engine's; of a
    // multi-instance activity, the element's is its body's and the loop characteristics' the inner activity's.
    const elementId = scopeElementId(job.activityId);
    const element = (await this.models.get(ctx, definition)).activity(elementId);
    const declared = element?.multiInstance && elementId === job.activityId ? element.multiInstance.failedJobRetryTimeCycle : element?.failedJobRetryTimeCycle;
    let text = declared ?? ctx.config.failedJobRetryTimeCycle;
    for (let depth = 0; text !== null && startsAsExpression(text); depth++) {
      text = depth < 8 ? await this.evaluateRetryCycle(ctx, job, text) : null;
    }
    return text === null ? null : parseRetryIntervals(text);
  }

  private async evaluateRetryCycle(ctx: CommandContext, job: Job, expression: string): Promise<string | null> {
    try {
      const value = (await expressionsOn(ctx, this.env, job.processInstanceId, job.executionId)).evaluate(expression);
      return typeof value === 'string' ? value : null;
    } catch {
      return null;
    }
  }

  private async executeJob(acquired: Job): Promise<void> {
    try {
      await this.commands.run('ExecuteJobsCmd', async (ctx) => {
        const job = await ctx.jobs.findById(acquired.id);
        // Deleted meanwhile, or the lock expired and another node took it.
        if (!job || job.lockOwner !== this.lockOwner) return;
        await this.run(ctx, job);
      });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      this.logger.warn(`job ${acquired.id} (${acquired.handlerType}) failed: ${message}`);
      await this.commands
        .run('FailJobCmd', async (ctx) => {
          const job = await ctx.jobs.findById(acquired.id);
          if (!job || job.lockOwner !== this.lockOwner) return;
          // A concurrent change (another node moved the instance) is no failure of the job: it runs again, retries untouched.
          if (error instanceof OptimisticLockingException) await ctx.jobs.unlock(job);
          else await this.recordFailure(ctx, job, error);
        })
        .catch((failure) => this.logger.error(`recording the failure of job ${acquired.id} failed`, failure));
    }
  }
}
