import type { CommandContext } from '../command/command-context.js';
import type { Job } from './job.js';

/**
 * What a job run asks of the executor: nothing (the job is done and deleted), or `kept` — the
 * handler rescheduled its job itself (Camunda's ever-living history cleanup job, a chunked
 * set-removal-time job with more rows to update) and the executor leaves it in place.
 */
export type JobOutcome = void | 'kept';

/** Runs one kind of job (by `type`, Camunda's handler type name) inside the job's transaction. */
export interface JobHandler {
  readonly type: string;
  execute(ctx: CommandContext, job: Job): Promise<JobOutcome>;
}

/** Multi-bound token: every JobHandler in the container. */
export const JOB_HANDLER = Symbol.for('trellis.JobHandler');
