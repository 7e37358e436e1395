import type { CommandContext } from '../command/command-context.js';
import type { Job } from './job.js';

/** Runs one kind of job (by `type`, Camunda's handler type name) inside the job's transaction. */
export interface JobHandler {
  readonly type: string;
  /** The handler reschedules its job itself (Camunda's ever-living history cleanup job): the executor leaves it in place. */
  readonly keepsJob?: boolean;
  execute(ctx: CommandContext, job: Job): Promise<void>;
}

/** Multi-bound token: every JobHandler in the container. */
export const JOB_HANDLER = Symbol.for('trellis.JobHandler');
