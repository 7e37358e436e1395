import type { CommandContext } from '../command/command-context.js';
import { DEFAULT_JOB_RETRIES, type Job, type NewJob } from './job.js';
import { JobLog } from '../history/job-log.js';

/** Stores a new job and, after commit, tells job executors there is work. */
export async function createJob(ctx: CommandContext, fields: NewJob): Promise<Job> {
  const job: Job = {
    id: ctx.ids.next(),
    handlerConfiguration: null,
    dueDate: null,
    lockOwner: null,
    lockExpirationTime: null,
    retries: DEFAULT_JOB_RETRIES,
    exceptionMessage: null,
    suspended: false,
    priority: 0,
    processDefinitionId: null,
    processDefinitionKey: null,
    deploymentId: null,
    tenantId: null,
    executionId: null,
    processInstanceId: null,
    activityId: null,
    jobDefinitionId: null,
    repeat: null,
    repeatOffset: 0,
    exceptionStacktrace: null,
    failedActivityId: null,
    exclusive: true,
    ...fields,
    createTime: ctx.clock.now(),
  };
  await linkJobDefinition(ctx, job);
  await ctx.jobs.insert(job);
  JobLog.created(ctx, job);
  ctx.emitAfterCommit('job.created', { jobId: job.id, dueDate: job.dueDate });
  return job;
}

/**
 * A job of a deployed activity, or of a given job definition (a batch's), belongs to its job definition:
 * suspended with it, its overriding priority applied (Camunda's JobDeclaration and DefaultJobPriorityProvider).
 */
async function linkJobDefinition(ctx: CommandContext, job: Job): Promise<void> {
  const definition = await definitionOf(ctx, job);
  if (!definition) return;
  job.jobDefinitionId = definition.id;
  job.suspended ||= definition.suspended;
  if (definition.overridingJobPriority !== null) job.priority = definition.overridingJobPriority;
}

async function definitionOf(ctx: CommandContext, job: Job) {
  if (job.jobDefinitionId) return ctx.jobDefinitions.findById(job.jobDefinitionId);
  if (!job.processDefinitionId || !job.activityId) return null;
  const configuration = job.handlerType === 'async-continuation' ? (job.handlerConfiguration?.startsWith('async-after') ? 'async-after' : 'async-before') : undefined;
  return ctx.jobDefinitions.findFor(job.processDefinitionId, job.activityId, job.handlerType, configuration);
}
