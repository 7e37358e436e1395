import { injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { setJobRetriesIn } from '../../management/management-service.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { BatchTypes } from '../batch.js';

export interface SetJobRetriesSettings {
  retries: number;
  /** Only when the request named a due date (null included): ISO text, or null for "due now". */
  dueDate?: string | null;
}

/** set-job-retries: sets each job's retries (and due date) as PUT /job/{id}/retries does, failedJob incidents included. */
@injectable()
export class SetJobRetriesJobHandler extends BatchExecutionJobHandler<SetJobRetriesSettings> {
  readonly type = BatchTypes.setJobRetries;

  protected async run(ctx: CommandContext, ids: string[], settings: SetJobRetriesSettings): Promise<void> {
    const dueDate = settings.dueDate === undefined ? undefined : settings.dueDate === null ? null : new Date(settings.dueDate);
    // A function, not ManagementService: that service needs the job executor, which needs this handler.
    for (const id of ids) await setJobRetriesIn(ctx, id, settings.retries, dueDate);
  }
}
