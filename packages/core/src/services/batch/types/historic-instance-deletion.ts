import { injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { deleteHistoricProcessInstancesIn } from '../../history/history-service.js';

/** Camunda's Batch.TYPE_HISTORIC_PROCESS_INSTANCE_DELETION. */
export const HISTORIC_INSTANCE_DELETION = 'historic-instance-deletion';

/**
 * historic-instance-deletion: deletes the history of each finished process instance of the job as
 * DELETE /history/process-instance/{id} does; ids without history are skipped (the batch's
 * failIfNotExists is false, as in Camunda). A still running instance fails the job.
 */
@injectable()
export class HistoricInstanceDeletionJobHandler extends BatchExecutionJobHandler<Record<string, never>> {
  readonly type = HISTORIC_INSTANCE_DELETION;

  protected async run(ctx: CommandContext, ids: string[]): Promise<void> {
    await deleteHistoricProcessInstancesIn(ctx, ids, false);
  }
}
