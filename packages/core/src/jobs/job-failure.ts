import type { CommandContext } from '../command/command-context.js';
import { openIncident } from '../incidents/open-incident.js';
import type { Job } from './job.js';
import { retryDueDate, type RetryConfiguration } from '../runtime/timers/retry-cycle.js';
import { takeFailedActivity } from '../runtime/failed-activity.js';
import { JobLog } from '../history/job-log.js';
import { IncidentHistory, IncidentState } from '../history/incident-history.js';

/** Camunda's incident type for a job whose retries ran out. */
export const FAILED_JOB_INCIDENT = 'failedJob';

/**
 * Records a failed attempt the way Camunda's default retry strategy does: without a
 * camunda:failedJobRetryTimeCycle one retry less and the job runs again at once; with one, the
 * first failure sets the retries from the cycle and each attempt waits the interval the remaining
 * retries point at (also the last). When no retry is left, a failedJob incident opens.
 */
export async function recordJobFailure(ctx: CommandContext, job: Job, error: unknown, cycle: RetryConfiguration | null): Promise<void> {
  const message = error instanceof Error ? error.message : String(error);
  const stacktrace = error instanceof Error ? (error.stack ?? null) : null;
  const firstFailure = job.exceptionMessage === null && job.exceptionStacktrace === null;
  const now = ctx.clock.now();
  let retriesBefore = job.retries;
  let dueDate = job.dueDate;
  if (cycle) {
    const initial = firstFailure ? cycle.retries : job.retries;
    try {
      dueDate = retryDueDate(cycle, initial, now);
      retriesBefore = initial;
    } catch {
      // Camunda falls back to its standard strategy when the interval cannot be read.
    }
  }
  const retries = Math.max(0, retriesBefore - 1);
  // Camunda's failedActivityId, set anew at each failure: the activity the failing step ran at (an
  // asynchronous continuation may have gone on past the job's own), else the job's activity.
  const failedActivityId = takeFailedActivity(error) ?? job.activityId;
  await ctx.jobs.fail(job, { message, stacktrace, retries, dueDate, failedActivityId });
  // Camunda's FailedJobListener logs the failure before its retry command runs: the retries and due date the attempt had.
  JobLog.failed(ctx, { ...job, exceptionMessage: message, exceptionStacktrace: stacktrace, failedActivityId });
  if (retries === 0) {
    await openFailedJobIncident(ctx, { ...job, failedActivityId }, message);
    await announceBatchJobChange(ctx, job);
  }
}

/** A batch execution job ran out of retries or got new ones: the batch's failedJobs changed, tell its watchers. */
export async function announceBatchJobChange(ctx: CommandContext, job: Job): Promise<void> {
  if (job.processInstanceId !== null || !job.jobDefinitionId) return;
  const batch = await ctx.trx.selectFrom('trellis_batch').select('id').where('batch_job_def_id', '=', job.jobDefinitionId).executeTakeFirst();
  if (batch) ctx.emitAfterCommit('batch.changed', { batchId: batch.id });
}

/**
 * Ends the failedJob incident of a job, if it has one: resolved (the job got retries again or
 * succeeded), or deleted with the job.
 */
export async function endFailedJobIncident(ctx: CommandContext, jobId: string, state: typeof IncidentState.resolved | typeof IncidentState.deleted = IncidentState.resolved): Promise<void> {
  await IncidentHistory.ended(ctx, await ctx.incidents.deleteByConfiguration(FAILED_JOB_INCIDENT, jobId), state);
}

/**
 * Jobs removed with the activity or event they served (Camunda's JobEntity.delete): logged, and the
 * failedJob incident of one out of retries deleted with it, copies included.
 */
export async function jobsDeleted(ctx: CommandContext, jobs: readonly Job[]): Promise<void> {
  for (const job of jobs) {
    JobLog.deleted(ctx, job);
    if (job.retries === 0) await endFailedJobIncident(ctx, job.id, IncidentState.deleted);
  }
}

/** Opens the failedJob incident of a job out of retries, unless it has one (also used when retries are set to 0). */
export async function openFailedJobIncident(ctx: CommandContext, job: Job, message: string): Promise<void> {
  const existing = await ctx.incidents.find({ incidentType: FAILED_JOB_INCIDENT, configuration: job.id });
  if (existing.length > 0) return;
  await openIncident(
    ctx,
    {
      incidentType: FAILED_JOB_INCIDENT,
      incidentMessage: message.slice(0, 4000),
      executionId: job.executionId,
      activityId: job.activityId,
      failedActivityId: job.failedActivityId ?? job.activityId,
      processInstanceId: job.processInstanceId,
      processDefinitionId: job.processDefinitionId,
      configuration: job.id,
      tenantId: job.tenantId,
      jobDefinitionId: job.jobDefinitionId,
    },
    // The job log entry of the failure that ran the retries out (Camunda's lastFailureLogId); none when retries are set to 0.
    JobLog.lastFailureOf(ctx, job.id),
  );
}
