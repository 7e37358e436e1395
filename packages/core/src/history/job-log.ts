import { sql } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import type { Job } from '../jobs/job.js';
import { historicRootOf } from './history-roots.js';
import { isHistoryEventProduced, type HistoryEventType } from './history-level.js';
import { queueHistoryWrite } from './queued-history.js';
import { batchRemovalTimeOf } from '../services/batch/historic-batch-events.js';

/** Camunda's JobState: which event of a job a log entry records. */
export const JobLogState = { created: 0, failed: 1, successful: 2, deleted: 3 } as const;

const FAILURES = Symbol('trellis.jobFailureLogs');
/** Orders entries of equal timestamp (Camunda's occurrence) in the order this engine wrote them. */
let sequence = 0;

/**
 * The historic job log (Camunda's HistoricJobLogEventEntity), level full: one entry when a job is
 * created, fails (with its exception), succeeds or is deleted. Entries are queued on the command and
 * reach the store with the instance's history statement.
 */
export const JobLog = {
  created: (ctx: CommandContext, job: Job) => log(ctx, job, 'job-create', JobLogState.created),
  succeeded: (ctx: CommandContext, job: Job) => log(ctx, job, 'job-success', JobLogState.successful),
  deleted: (ctx: CommandContext, job: Job) => log(ctx, job, 'job-delete', JobLogState.deleted),

  /** A failed attempt: the job as it is after the failure (retries left, the error kept). */
  failed(ctx: CommandContext, job: Job): void {
    const id = log(ctx, job, 'job-fail', JobLogState.failed);
    if (id) failureLogs(ctx).set(job.id, id);
  },

  /** The id of the failure entry this command wrote for a job (a failedJob incident's history configuration). */
  lastFailureOf(ctx: CommandContext, jobId: string): string | null {
    return failureLogs(ctx).get(jobId) ?? null;
  },
};

function log(ctx: CommandContext, job: Job, event: HistoryEventType, state: number): string | null {
  if (!isHistoryEventProduced(ctx.config.historyLevel, event)) return null;
  const id = ctx.ids.next();
  const definitionId = job.jobDefinitionId;
  const failed = state === JobLogState.failed;
  const row = {
    id,
    timestamp: ctx.clock.now().getTime(),
    job_id: job.id,
    job_due_date: job.dueDate ? job.dueDate.getTime() : null,
    job_retries: job.retries,
    job_priority: job.priority,
    job_exception_msg: failed ? job.exceptionMessage : null,
    job_exception_stack: failed ? job.exceptionStacktrace : null,
    state,
    job_def_id: definitionId,
    // Without a job definition Camunda logs the job's handler type as its definition type.
    job_def_type: definitionId ? sql<string | null>`(select jd.job_type from trellis_job_definition jd where jd.id = ${definitionId})` : job.handlerType,
    job_def_configuration: definitionId ? sql<string | null>`(select jd.job_configuration from trellis_job_definition jd where jd.id = ${definitionId})` : null,
    activity_id: job.activityId,
    // The job's failed activity, on every entry once it failed (Camunda's initHistoricJobLogEvent).
    failed_activity_id: job.failedActivityId,
    execution_id: job.executionId,
    root_proc_inst_id: historicRootOf(job.processInstanceId),
    process_instance_id: job.processInstanceId,
    process_def_id: job.processDefinitionId,
    process_def_key: job.processDefinitionKey,
    deployment_id: job.deploymentId,
    sequence_counter: ++sequence,
    tenant_id: job.tenantId,
    hostname: ctx.config.hostname,
    // A job of no instance with a job definition may be a batch's (seed, monitor or execution job).
    batch_id:
      definitionId && job.processInstanceId === null
        ? sql<string | null>`(select b.id from trellis_batch b where b.batch_job_def_id = ${definitionId} or b.seed_job_def_id = ${definitionId} or b.monitor_job_def_id = ${definitionId})`
        : null,
    // The instance's, inherited (inheritedRemovalTime); a batch job's under strategy start its batch's.
    removal_time: batchRemovalTimeOf(ctx, definitionId, job.processInstanceId),
  };
  queueHistoryWrite(ctx, (db) => db.insertInto('trellis_hi_job_log').values(row));
  return id;
}

function failureLogs(ctx: CommandContext): Map<string, string> {
  let logs = ctx.attachments.get(FAILURES) as Map<string, string> | undefined;
  if (!logs) ctx.attachments.set(FAILURES, (logs = new Map()));
  return logs;
}
