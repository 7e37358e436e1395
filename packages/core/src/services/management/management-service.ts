import { inject, injectable } from 'inversify';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { parseTimerOrFail, TIMER_JOB_HANDLERS } from '../../runtime/runtime-jobs.js';
import { timerDeclarationOf } from '../../runtime/job-handlers.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { Job } from '../../jobs/job.js';
import type { JobListQuery, JobQuery, JobSuspensionSelector } from '../../persistence/repositories/job-repository.js';
import { JobExecutor } from '../../jobs/job-executor.js';
import { announceBatchJobChange, endFailedJobIncident, jobsDeleted, openFailedJobIncident } from '../../jobs/job-failure.js';
import { engineMessage } from '../../errors/engine-message.js';
import type { Incident, IncidentQuery } from '../../persistence/repositories/incident-repository.js';
import type { EventSubscription, EventSubscriptionListQuery, EventSubscriptionQuery } from '../../persistence/repositories/event-subscription-repository.js';
import { Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException, NullValueException, ProcessEngineException } from '../../errors/exceptions.js';
import { IncidentHistory, IncidentState } from '../../history/incident-history.js';
import { checkInstance } from '../../authorization/instance-checks.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { findSchemaLog, type SchemaLogEntry, type SchemaLogQuery } from './schema-log.js';

/** Jobs, incidents and event subscriptions (Camunda's ManagementService and its queries). */
@injectable()
export class ManagementService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(JobExecutor) private readonly jobExecutor: JobExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  /** The database schema's history (Camunda's schema log); empty for a caller without READ on System. */
  getSchemaLog(query: SchemaLogQuery = {}): Promise<SchemaLogEntry[]> {
    return this.commands.run('SchemaLogQuery', (ctx) => findSchemaLog(ctx, query));
  }

  /** Jobs by the engine's own criteria; with authorization on, only those queryJobs would show the caller. */
  findJobs(query: JobQuery = {}): Promise<Job[]> {
    return this.commands.run('JobQuery', async (ctx) => {
      const jobs = (await ctx.jobs.find(query)).filter((job) => ctx.tenantCheck.isAuthenticatedTenant(job.tenantId));
      const readable = await readableSubscriptions(ctx);
      if (!readable || jobs.length === 0) return jobs;
      const visible = new Set((await ctx.jobs.query({ jobIds: jobs.map((job) => job.id) }, ctx.clock.now(), readable)).map((job) => job.id));
      return jobs.filter((job) => visible.has(job.id));
    });
  }

  /** Camunda's job query (REST GET /job): only jobs whose instance the caller may READ (or whose definition READ_INSTANCE). */
  queryJobs(query: JobListQuery = {}): Promise<Job[]> {
    return this.commands.run('JobQuery', async (ctx) => ctx.jobs.query(ctx.tenantCheck.query(query), ctx.clock.now(), await readableSubscriptions(ctx)));
  }

  countJobs(query: JobListQuery = {}): Promise<number> {
    return this.commands.run('JobQuery', async (ctx) => ctx.jobs.count(ctx.tenantCheck.query(query), ctx.clock.now(), await readableSubscriptions(ctx)));
  }

  /** One job, or null when it does not exist or is not readable. */
  getJob(id: string): Promise<Job | null> {
    return this.commands.run('JobQuery', async (ctx) => (await ctx.jobs.query(ctx.tenantCheck.query({ jobId: id }), ctx.clock.now(), await readableSubscriptions(ctx)))[0] ?? null);
  }

  /** The stack trace of the job's last failure, null when it has none (Camunda's GetJobExceptionStacktraceCmd). */
  getJobExceptionStacktrace(id: string): Promise<string | null> {
    return this.commands.run('GetJobExceptionStacktraceCmd', async (ctx) => {
      const job = await ctx.jobs.findById(id);
      if (!job) throw new NullValueException(`No job found with id ${id}: job is null`);
      await checkJob(ctx, job, ['READ', 'READ_INSTANCE']);
      return job.exceptionStacktrace;
    });
  }

  /**
   * Camunda's SetJobRetriesCmd for one job: new retries and, when `dueDate` is given (null included),
   * a new due date. Retries from 0 to more resolve the job's failedJob incident; to 0 open one.
   */
  setJobRetries(id: string, retries: number, dueDate?: Date | null): Promise<void> {
    return this.commands.run('SetJobRetriesCmd', (ctx) => setJobRetriesIn(ctx, id, retries, dueDate));
  }

  /**
   * Camunda's SetJobDuedateCmd (null: due at once). With `cascade`, a timer's later firings move by
   * as much as this one (its repeat offset).
   */
  setJobDuedate(id: string, dueDate: Date | null, cascade = false): Promise<void> {
    return this.commands.run('SetJobDuedateCmd', async (ctx) => {
      const job = await ctx.jobs.findById(id);
      if (!job) throw new ProcessEngineException(`No job found with id '${id}'.`);
      await checkJob(ctx, job, ['UPDATE', 'UPDATE_INSTANCE']);
      OperationLogEntries.job(ctx, 'SetDueDate', job, [{ property: 'duedate', orgValue: job.dueDate, newValue: dueDate }]);
      const offset = cascade && dueDate !== null && job.type === 'timer' ? dueDate.getTime() - (job.dueDate?.getTime() ?? 0) : 0;
      await ctx.jobs.setDueDate(job, dueDate, job.repeatOffset + offset);
    });
  }

  /**
   * Camunda's RecalculateJobDuedateCmd: a timer job's due date computed again from its timer
   * definition (expressions evaluated now), from now or, with `creationDateBased`, from its creation.
   */
  recalculateJobDuedate(id: string, creationDateBased = false): Promise<void> {
    return this.commands.run('RecalculateJobDuedateCmd', async (ctx) => {
      const job = await ctx.jobs.findById(id);
      if (!job) throw new NotFoundException(`No job found with id '${id}': job is null`);
      // Camunda's order: the job's type, then the permission, then its timer declaration.
      if (job.type !== 'timer' || !TIMER_JOB_HANDLERS.has(job.handlerType)) {
        throw new ProcessEngineException(`Only timer jobs can be recalculated, but the job with id '${id}' is of type '${job.handlerType}'.`);
      }
      await checkJob(ctx, job, ['UPDATE', 'UPDATE_INSTANCE']);
      const declaration = await timerDeclarationOf(ctx, this.env, job);
      if (!declaration) throw new ProcessEngineException(`No timer declaration found for job id '${id}'.`);
      // The declaration decides anew, its expression evaluated now (a cycle's schedule itself stays as it was).
      const { element, timer } = declaration;
      const text = await declaration.evaluated();
      const base = creationDateBased ? job.createTime : ctx.clock.now();
      const [before, dueDate] = [job.dueDate, parseTimerOrFail(timer, text, element.id).firstDueDate(base)];
      await ctx.jobs.setDueDate(job, dueDate);
      OperationLogEntries.job(ctx, 'RecalculateDuedate', job, [
        { property: 'duedate', orgValue: before, newValue: dueDate },
        { property: 'creationDateBased', orgValue: null, newValue: creationDateBased },
      ]);
    });
  }

  /** Camunda's SetJobPriorityCmd. */
  setJobPriority(id: string, priority: number): Promise<void> {
    return this.commands.run('SetJobPriorityCmd', async (ctx) => {
      const job = await ctx.jobs.findById(id);
      if (!job) throw new NotFoundException(`No job found with id '${id}': job is null`);
      await checkJob(ctx, job, ['UPDATE', 'UPDATE_INSTANCE']);
      OperationLogEntries.job(ctx, 'SetPriority', job, [{ property: 'priority', orgValue: job.priority, newValue: priority }]);
      await ctx.jobs.setPriority(job, priority);
    });
  }

  /** Camunda's DeleteJobCmd: a job being executed (locked) cannot be deleted; its failedJob incident goes with it. */
  deleteJob(id: string): Promise<void> {
    return this.commands.run('DeleteJobCmd', async (ctx) => {
      const job = await ctx.jobs.findById(id);
      if (!job) throw new NullValueException(`No job found with id '${id}': job is null`);
      await checkJob(ctx, job, ['UPDATE', 'UPDATE_INSTANCE']);
      if (job.lockOwner !== null || job.lockExpirationTime !== null) {
        throw new ProcessEngineException('Cannot delete job when the job is being executed. Try again later.');
      }
      await ctx.jobs.delete(job);
      OperationLogEntries.job(ctx, 'Delete', job, []);
      await jobsDeleted(ctx, [job]);
    });
  }

  /**
   * Camunda's ManagementService.executeJob: runs the job now (due or not, suspended or not). Its failure
   * is recorded (one retry less, an incident at 0) and thrown to the caller unchanged.
   */
  executeJob(id: string): Promise<void> {
    return this.jobExecutor.executeJobNow(id, (ctx, job) => checkJob(ctx, job, ['UPDATE', 'UPDATE_INSTANCE']));
  }

  /**
   * Camunda's SetJobStateCmd: suspends or activates the jobs one criterion selects (a job, a job
   * definition, a process instance, a process definition by id or key). Suspended jobs are not acquired.
   */
  updateJobSuspensionState(selector: JobSuspensionSelector, suspended: boolean): Promise<void> {
    return this.commands.run(suspended ? 'SuspendJobCmd' : 'ActivateJobCmd', async (ctx) => {
      const jobs = await ctx.jobs.findBySuspensionSelector(selector);
      await checkJobSuspension(ctx, selector, jobs);
      // Camunda's update is tenant-checked: other tenants' jobs stay as they are.
      for (const job of jobs) if (job.suspended !== suspended && ctx.tenantCheck.isAuthenticatedTenant(job.tenantId)) await ctx.jobs.setSuspended(job, suspended);
      OperationLogEntries.jobSuspension(ctx, selector.jobId ? (jobs[0] ?? { id: selector.jobId }) : selector, suspended);
    });
  }

  /** Camunda's incident query: only incidents whose instance the caller may READ (or whose definition READ_INSTANCE). */
  findIncidents(query: IncidentQuery = {}): Promise<Incident[]> {
    return this.commands.run('IncidentQuery', async (ctx) => ctx.incidents.find(ctx.tenantCheck.query(query), await readableSubscriptions(ctx)));
  }

  countIncidents(query: IncidentQuery = {}): Promise<number> {
    return this.commands.run('IncidentQuery', async (ctx) => ctx.incidents.count(ctx.tenantCheck.query(query), await readableSubscriptions(ctx)));
  }

  /** One incident, or null when it does not exist or is not readable. */
  getIncident(id: string): Promise<Incident | null> {
    return this.commands.run('IncidentQuery', async (ctx) => (await ctx.incidents.find(ctx.tenantCheck.query({ id }), await readableSubscriptions(ctx)))[0] ?? null);
  }

  /**
   * Camunda's ResolveIncidentCmd: resolves a custom incident as its DefaultIncidentHandler does,
   * every incident of the same configuration (of any type) with its copies up the call chain; an
   * incident without configuration matches none of them there, so it stays. failedJob /
   * failedExternalTask incidents are resolved by retries, never here.
   */
  resolveIncident(id: string): Promise<void> {
    return this.commands.run('ResolveIncidentCmd', async (ctx) => {
      const incident = await ctx.incidents.findById(id);
      if (!incident) throw new NotFoundException(`Cannot find an incident with id '${id}': incident is null`);
      if (incident.incidentType === 'failedJob' || incident.incidentType === 'failedExternalTask') {
        throw new BadUserRequestException(`Cannot resolve an incident of type ${incident.incidentType}`);
      }
      if (!incident.executionId) throw new BadUserRequestException('executionId is null');
      await checkIncidentUpdate(ctx, incident);
      const definition = incident.processDefinitionId ? await ctx.processDefinitions.findById(incident.processDefinitionId) : null;
      OperationLogEntries.processInstance(
        ctx,
        'Resolve',
        { processInstanceId: incident.processInstanceId, processDefinitionId: incident.processDefinitionId, processDefinitionKey: definition?.key ?? null },
        [{ property: 'incidentId', orgValue: null, newValue: id }],
      );
      const resolved = incident.configuration === null ? [] : await ctx.incidents.find({ configuration: incident.configuration });
      for (const each of resolved) {
        await IncidentHistory.ended(ctx, await ctx.incidents.deleteWithCopies(each), IncidentState.resolved);
      }
    });
  }

  /** Sets (or with null clears) an incident's annotation (Camunda's SetAnnotationForIncidentCmd). */
  setIncidentAnnotation(id: string, annotation: string | null): Promise<void> {
    return this.commands.run('SetAnnotationForIncidentCmd', async (ctx) => {
      const incident = await ctx.incidents.findById(id);
      if (!incident) throw new BadUserRequestException('incident is null');
      await checkIncidentUpdate(ctx, incident);
      await ctx.incidents.setAnnotation(id, annotation);
      OperationLogEntries.incidentAnnotation(ctx, id, incident.tenantId, annotation);
      await IncidentHistory.annotated(ctx, id, annotation);
    });
  }

  clearIncidentAnnotation(id: string): Promise<void> {
    return this.setIncidentAnnotation(id, null);
  }

  /** Subscriptions by the engine's own criteria; with authorization on, only those queryEventSubscriptions would show the caller. */
  findEventSubscriptions(query: EventSubscriptionQuery = {}): Promise<EventSubscription[]> {
    return this.commands.run('EventSubscriptionQuery', async (ctx) => {
      const subscriptions = (await ctx.eventSubscriptions.find(query)).filter((each) => ctx.tenantCheck.isAuthenticatedTenant(each.tenantId));
      const readable = await readableSubscriptions(ctx);
      if (!readable || subscriptions.length === 0) return subscriptions;
      const visible = new Set((await ctx.eventSubscriptions.query({ eventSubscriptionIds: subscriptions.map((each) => each.id) }, readable)).map((each) => each.id));
      return subscriptions.filter((each) => visible.has(each.id));
    });
  }

  /**
   * Camunda's event subscription query (REST GET /event-subscription): only the subscriptions whose
   * process instance the caller may READ or whose instance's definition (by key) it may READ_INSTANCE;
   * a start-event subscription has no instance, so only a `*` grant shows it.
   */
  queryEventSubscriptions(query: EventSubscriptionListQuery = {}): Promise<EventSubscription[]> {
    return this.commands.run('EventSubscriptionQuery', async (ctx) => ctx.eventSubscriptions.query(ctx.tenantCheck.query(query), await readableSubscriptions(ctx)));
  }

  countEventSubscriptions(query: EventSubscriptionListQuery = {}): Promise<number> {
    return this.commands.run('EventSubscriptionQuery', async (ctx) => ctx.eventSubscriptions.count(ctx.tenantCheck.query(query), await readableSubscriptions(ctx)));
  }
}

/** UPDATE on the incident's process instance or UPDATE_INSTANCE on its definition (none needed without an instance). */
async function checkIncidentUpdate(ctx: CommandContext, incident: Incident): Promise<void> {
  if (!incident.processInstanceId) return;
  const definition = incident.processDefinitionId ? await ctx.processDefinitions.findById(incident.processDefinitionId) : null;
  await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', incident.processInstanceId, definition?.key ?? '', incident.tenantId);
}

/** ManagementService#setJobRetries inside the caller's command (also the set-job-retries batch job). */
export async function setJobRetriesIn(ctx: CommandContext, id: string, retries: number, dueDate?: Date | null): Promise<void> {
  if (!Number.isInteger(retries) || retries < 0) {
    throw new ProcessEngineException(engineMessage('13', '054', `The number of job retries must be a non-negative Integer, but '${retries}' has been provided.`));
  }
  const job = await ctx.jobs.findById(id);
  if (!job) throw new ProcessEngineException(engineMessage('13', '053', `No job found with id '${id}'.'`));
  await checkJob(ctx, job, ['RETRY_JOB', 'RETRY_JOB'], ['UPDATE', 'UPDATE_INSTANCE']);
  OperationLogEntries.job(ctx, 'SetJobRetries', job, [{ property: 'retries', orgValue: job.retries, newValue: retries }]);
  await ctx.jobs.setRetriesAndDueDate(job, retries, dueDate);
  if (retries > 0) {
    await endFailedJobIncident(ctx, job.id);
  } else if (job.retries > 0) await openFailedJobIncident(ctx, job, job.exceptionMessage ?? '');
  if ((retries === 0) !== (job.retries === 0)) await announceBatchJobChange(ctx, job);
}

/**
 * Camunda's AbstractSetJobStateCmd: UPDATE, not SUSPEND; by job, on its process instance (a start
 * timer's: on the definition's instances as a whole; another tenant's start timer is left as it is
 * by the update); by process instance, on it; by job definition or process definition, once on the
 * definition's instances as a whole, whether or not any job matches. The tenant checks name the
 * process instance (or definition), not the job.
 */
async function checkJobSuspension(ctx: CommandContext, selector: JobSuspensionSelector, jobs: readonly Job[]): Promise<void> {
  if (selector.jobId) {
    for (const job of jobs) {
      if (job.processInstanceId) await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', job.processInstanceId, job.processDefinitionKey, job.tenantId);
      else if (job.processDefinitionKey) await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', null, job.processDefinitionKey, null);
    }
    return;
  }
  if (selector.processInstanceId && ctx.tenantCheck.isActive) {
    const root = await ctx.executions.findById(selector.processInstanceId);
    if (root) ctx.tenantCheck.require(root.tenantId, `update the process instance '${root.id}'`);
  }
  if (selector.processDefinitionId && ctx.tenantCheck.isActive) {
    const definition = await ctx.processDefinitions.findById(selector.processDefinitionId);
    if (definition) ctx.tenantCheck.require(definition.tenantId, `update the process definition '${definition.id}'`);
  }
  if (!ctx.authz.isActive) return;
  if (selector.processInstanceId) {
    const root = await ctx.executions.findById(selector.processInstanceId);
    if (root) await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', root.id, root.processDefinitionKey, root.tenantId);
    return;
  }
  const keys = new Set<string>();
  if (selector.jobDefinitionId) {
    const definition = await ctx.jobDefinitions.findById(selector.jobDefinitionId);
    if (definition?.processDefinitionKey) keys.add(definition.processDefinitionKey);
  } else if (selector.processDefinitionId) {
    const definition = await ctx.processDefinitions.findById(selector.processDefinitionId);
    if (definition) keys.add(definition.key);
  } else if (selector.processDefinitionKey) {
    keys.add(selector.processDefinitionKey);
  }
  for (const key of keys) await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', null, key, null);
}

/**
 * Camunda's checks on a job (checkReadJob, checkUpdateJob, checkUpdateRetriesJob): each permission
 * pair in turn, on its instance or on its definition by key; a job of a definition but no instance
 * (a start timer) is checked on process instances as a whole (only a `*` grant counts there); a job
 * of neither needs nothing.
 */
async function checkJob(ctx: CommandContext, job: Job, ...pairs: Array<[onInstance: string, onDefinition: string]>): Promise<void> {
  ctx.tenantCheck.require(job.tenantId, `${pairs[0][0] === 'READ' ? 'read' : 'update'} the job '${job.id}'`);
  const key = job.processDefinitionKey;
  if (!key) return;
  await ctx.authz.check(
    ...pairs.flatMap(([onInstance, onDefinition]) => [
      { permission: onInstance, resource: Resources.PROCESS_INSTANCE, resourceId: job.processInstanceId },
      { permission: onDefinition, resource: Resources.PROCESS_DEFINITION, resourceId: key },
    ]),
  );
}

const readableSubscriptions = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });
