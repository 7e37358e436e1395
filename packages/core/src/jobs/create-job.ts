import type { CommandContext } from '../command/command-context.js';
import { DEFAULT_JOB_RETRIES, type Job, type NewJob } from './job.js';

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
    exceptionStacktrace: null,
    failedActivityId: null,
    exclusive: true,
    ...fields,
    createTime: ctx.clock.now(),
  };
  await ctx.jobs.insert(job);
  ctx.emitAfterCommit('job.created', { jobId: job.id, dueDate: job.dueDate });
  return job;
}
