import { inject, injectable } from 'inversify';
import { checkInstance } from '../../authorization/instance-checks.js';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException, ProcessEngineException } from '../../errors/exceptions.js';
import { engineMessage } from '../../errors/engine-message.js';
import { createJob } from '../../jobs/create-job.js';
import type { Job } from '../../jobs/job.js';
import type { JobHandler } from '../../jobs/job-handler.js';
import type { JobDefinition, JobDefinitionQuery } from './job-definition.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/** Which job definitions a suspension concerns: one, or all of a process definition (by id, or by key). */
export interface JobDefinitionSuspensionTarget {
  jobDefinitionId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionTenantId?: string | null;
  processDefinitionWithoutTenantId?: boolean;
}

export interface JobDefinitionSuspensionChange {
  suspended: boolean;
  /** Also suspend or activate the existing jobs of those definitions. */
  includeJobs?: boolean;
  /** Later: a timer job applies the change then. */
  executionDate?: Date | null;
}

export const SUSPEND_JOB_DEFINITION = 'suspend-job-definition';
export const ACTIVATE_JOB_DEFINITION = 'activate-job-definition';

/** Job definitions: query, suspension, overriding priority, retries of their failed jobs (Camunda's ManagementService part). */
@injectable()
export class JobDefinitionService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  findJobDefinitions(query: JobDefinitionQuery = {}): Promise<JobDefinition[]> {
    return this.commands.run('JobDefinitionQuery', async (ctx) => ctx.jobDefinitions.find(ctx.tenantCheck.query(query), await readableDefinitions(ctx)));
  }

  countJobDefinitions(query: JobDefinitionQuery = {}): Promise<number> {
    return this.commands.run('JobDefinitionQuery', async (ctx) => ctx.jobDefinitions.count(ctx.tenantCheck.query(query), await readableDefinitions(ctx)));
  }

  getJobDefinition(id: string): Promise<JobDefinition | null> {
    return this.commands.run('JobDefinitionQuery', async (ctx) => (await ctx.jobDefinitions.find(ctx.tenantCheck.query({ jobDefinitionId: id }), await readableDefinitions(ctx)))[0] ?? null);
  }

  updateSuspensionState(target: JobDefinitionSuspensionTarget, change: JobDefinitionSuspensionChange): Promise<void> {
    return this.commands.run(change.suspended ? 'SuspendJobDefinitionCmd' : 'ActivateJobDefinitionCmd', (ctx) => applySuspension(ctx, target, change));
  }

  /** Overrides the priority of the definition's new jobs (null resets it); includeJobs also sets it on existing jobs. */
  setOverridingJobPriority(id: string, priority: number | null, includeJobs = false): Promise<void> {
    return this.commands.run('SetJobDefinitionPriorityCmd', async (ctx) => {
      if (priority === null && includeJobs) throw new BadUserRequestException('Cannot reset priority for job definition ' + id + ' with includeJobs=true');
      const definition = await ctx.jobDefinitions.findById(id);
      if (!definition) throw new NotFoundException(`Job definition with id '${id}' does not exist: jobDefinition is null`);
      requireTenant(ctx, definition);
      // Camunda's SetJobDefinitionPriorityCmd: giving the jobs the priority too updates the instances.
      await checkUpdateDefinition(ctx, definition.processDefinitionKey, includeJobs);
      const target = { jobDefinitionId: id, processDefinitionId: definition.processDefinitionId, processDefinitionKey: definition.processDefinitionKey };
      OperationLogEntries.jobDefinition(ctx, 'SetPriority', target, [
        { property: 'overridingPriority', orgValue: definition.overridingJobPriority, newValue: priority },
      ]);
      await ctx.jobDefinitions.update({ ...definition, overridingJobPriority: priority });
      if (includeJobs && priority !== null) {
        await ctx.jobDefinitions.setJobsPriority(id, priority);
        // Camunda's createCascadeJobsOperationLogEntry: the jobs' entry, their old priorities unknown.
        OperationLogEntries.job(ctx, 'SetPriority', target, [{ property: 'priority', orgValue: null, newValue: priority }]);
      }
    });
  }

  /**
   * Camunda's SetJobRetriesCmd by job definition: every failed job (no retries left) of the definition
   * gets new retries (and, when `dueDate` is given, that due date); their incidents stay. An unknown
   * definition changes nothing.
   */
  setJobRetries(id: string, retries: number, dueDate?: Date | null): Promise<void> {
    return this.commands.run('SetJobDefinitionJobRetriesCmd', async (ctx) => {
      if (!Number.isInteger(retries) || retries < 0) {
        throw new ProcessEngineException(engineMessage('13', '054', `The number of job retries must be a non-negative Integer, but '${retries}' has been provided.`));
      }
      const definition = await ctx.jobDefinitions.findById(id);
      if (definition) {
        requireTenant(ctx, definition);
        await ctx.authz.check(
          { permission: 'RETRY_JOB', resource: Resources.PROCESS_INSTANCE, resourceId: '*' },
          { permission: 'RETRY_JOB', resource: Resources.PROCESS_DEFINITION, resourceId: definition.processDefinitionKey ?? '' },
          { permission: 'UPDATE', resource: Resources.PROCESS_INSTANCE, resourceId: '*' },
          { permission: 'UPDATE_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: definition.processDefinitionKey ?? '' },
        );
      }
      const changes = [{ property: 'retries', newValue: retries }, ...(dueDate === undefined ? [] : [{ property: 'dueDate', newValue: dueDate?.getTime() ?? null }])];
      OperationLogEntries.job(ctx, 'SetJobRetries', { jobDefinitionId: id, processDefinitionId: definition?.processDefinitionId ?? null }, changes);
      if (!definition) return;
      for (const job of await ctx.jobs.find({ processDefinitionId: definition.processDefinitionId ?? undefined, activityId: definition.activityId ?? undefined, noRetriesLeft: true })) {
        if (job.jobDefinitionId !== id) continue;
        // Camunda's updateFailedJobRetriesByParameters is one bulk update of the jobs: their failedJob
        // incidents stay open (a job failing again keeps its incident, IncidentTest.shouldNotCreateNewIncident).
        await ctx.jobs.setRetriesAndDueDate(job, retries, dueDate);
      }
    });
  }
}

/** Camunda's TenantCommandChecker on the job definition's process definition (before any permission). */
function requireTenant(ctx: CommandContext, definition: JobDefinition): void {
  if (definition.processDefinitionId) ctx.tenantCheck.require(definition.tenantId, `update the process definition '${definition.processDefinitionId}'`);
}

async function applySuspension(ctx: CommandContext, target: JobDefinitionSuspensionTarget, change: JobDefinitionSuspensionChange): Promise<void> {
  const definitions = await targets(ctx, target);
  // Camunda's AbstractSetJobDefinitionStateCmd: once per command, on the process definition key the
  // target names (also when it has no job definitions), UPDATE on the definition; with its jobs, also
  // on its instances. A definition id that names no definition checks nothing.
  const key = target.jobDefinitionId
    ? definitions[0]?.processDefinitionKey
    : target.processDefinitionId
      ? (await ctx.processDefinitions.findById(target.processDefinitionId))?.key
      : target.processDefinitionKey;
  await checkUpdateDefinition(ctx, key, change.includeJobs ?? false);
  OperationLogEntries.jobDefinitionSuspension(ctx, target.jobDefinitionId ? { jobDefinitionId: target.jobDefinitionId, processDefinitionId: definitions[0]?.processDefinitionId } : target, change.suspended);
  // Camunda's AbstractSetStateCmd schedules whenever a date is given (a past one runs with the next acquisition).
  if (change.executionDate) {
    await createJob(ctx, {
      type: 'timer',
      handlerType: change.suspended ? SUSPEND_JOB_DEFINITION : ACTIVATE_JOB_DEFINITION,
      handlerConfiguration: JSON.stringify({ target, includeJobs: change.includeJobs ?? false }),
      dueDate: change.executionDate,
    });
    return;
  }
  // Camunda's update is tenant-checked: it leaves other tenants' job definitions (and jobs) as they are.
  const changed = definitions.filter((definition) => ctx.tenantCheck.isAuthenticatedTenant(definition.tenantId));
  await setJobDefinitionsSuspended(ctx, changed, change, !target.jobDefinitionId);
}

/**
 * Camunda's AbstractSetJobDefinitionStateCmd.updateSuspensionState on job definitions found: each
 * definition, its jobs too with `includeJobs`; and when found by process definition, that process
 * definition's timer start event jobs always (so a suspended definition's start timer waits to fire).
 */
export async function setJobDefinitionsSuspended(
  ctx: CommandContext,
  definitions: readonly JobDefinition[],
  change: { suspended: boolean; includeJobs?: boolean },
  byProcessDefinition: boolean,
): Promise<void> {
  for (const definition of definitions) {
    await ctx.jobDefinitions.update({ ...definition, suspended: change.suspended });
    if (change.includeJobs) await ctx.jobDefinitions.setJobsSuspended(definition.id, change.suspended);
  }
  if (byProcessDefinition) {
    const processDefinitionIds = [...new Set(definitions.flatMap((definition) => (definition.processDefinitionId ? [definition.processDefinitionId] : [])))];
    await ctx.jobDefinitions.setStartTimerJobsSuspended(processDefinitionIds, change.suspended);
  }
}

async function targets(ctx: CommandContext, target: JobDefinitionSuspensionTarget): Promise<JobDefinition[]> {
  // Camunda's AbstractSetJobDefinitionStateCmd: an unknown job definition changes nothing.
  if (target.jobDefinitionId) {
    const definition = await ctx.jobDefinitions.findById(target.jobDefinitionId);
    return definition ? [definition] : [];
  }
  if (target.processDefinitionId) return ctx.jobDefinitions.find({ processDefinitionId: target.processDefinitionId });
  if (target.processDefinitionKey) {
    const all = await ctx.jobDefinitions.find({ processDefinitionKey: target.processDefinitionKey });
    if (target.processDefinitionWithoutTenantId) return all.filter((each) => each.tenantId === null);
    if (target.processDefinitionTenantId != null) return all.filter((each) => each.tenantId === target.processDefinitionTenantId);
    return all;
  }
  throw new BadUserRequestException('Either jobDefinitionId, processDefinitionId or processDefinitionKey has to be set to update the suspension state.');
}

/**
 * Camunda's checkUpdateProcessDefinitionByKey, and with `instances` its
 * checkUpdateProcessInstanceByProcessDefinitionKey; nothing without a key (batch job definitions).
 */
async function checkUpdateDefinition(ctx: CommandContext, processDefinitionKey: string | null | undefined, instances: boolean): Promise<void> {
  if (!processDefinitionKey) return;
  await ctx.authz.check({ permission: 'UPDATE', resource: Resources.PROCESS_DEFINITION, resourceId: processDefinitionKey });
  if (instances) await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', null, processDefinitionKey, null);
}

const readableDefinitions = async (ctx: CommandContext) => {
  const filter = await ctx.authz.readFilter('READ', Resources.PROCESS_DEFINITION);
  return filter && ((column: string) => filter(column));
};

/** Scheduled job definition suspension or activation (PUT …/suspended with an executionDate). */
abstract class JobDefinitionSuspensionHandler implements JobHandler {
  abstract readonly type: string;
  protected abstract readonly suspended: boolean;

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const { target, includeJobs } = JSON.parse(job.handlerConfiguration ?? '{}') as { target: JobDefinitionSuspensionTarget; includeJobs: boolean };
    await applySuspension(ctx, target, { suspended: this.suspended, includeJobs });
  }
}

@injectable()
export class SuspendJobDefinitionHandler extends JobDefinitionSuspensionHandler {
  readonly type = SUSPEND_JOB_DEFINITION;
  protected readonly suspended = true;
}

@injectable()
export class ActivateJobDefinitionHandler extends JobDefinitionSuspensionHandler {
  readonly type = ACTIVATE_JOB_DEFINITION;
  protected readonly suspended = false;
}
