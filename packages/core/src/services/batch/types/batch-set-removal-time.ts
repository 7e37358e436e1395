import { injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { setHistoricBatchRemovalTime } from '../historic-batch-events.js';

/** Camunda's Batch.TYPE_BATCH_SET_REMOVAL_TIME. */
export const BATCH_SET_REMOVAL_TIME = 'batch-set-removal-time';

export interface SetRemovalTimeSettings {
  /** true: absolute or cleared (removalTime null); false: calculated from each batch's end and type. */
  hasRemovalTime: boolean;
  /** ISO text. */
  removalTime: string | null;
}

/** batch-set-removal-time: sets the removal time of each historic batch that still exists (BatchSetRemovalTimeJobHandler). */
@injectable()
export class BatchSetRemovalTimeJobHandler extends BatchExecutionJobHandler<SetRemovalTimeSettings> {
  readonly type = BATCH_SET_REMOVAL_TIME;

  protected async run(ctx: CommandContext, ids: string[], settings: SetRemovalTimeSettings): Promise<void> {
    const removalTime = settings.removalTime === null ? null : new Date(settings.removalTime);
    for (const id of ids) await setHistoricBatchRemovalTime(ctx, id, { hasRemovalTime: settings.hasRemovalTime, removalTime });
  }
}
