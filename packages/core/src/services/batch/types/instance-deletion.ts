import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { RuntimeService } from '../../runtime/runtime-service.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { BatchTypes } from '../batch.js';

export interface InstanceDeletionSettings {
  deleteReason: string | null;
  skipCustomListeners: boolean;
  skipSubprocesses: boolean;
  skipIoMappings: boolean;
}

/**
 * instance-deletion: deletes each process instance as DELETE /process-instance/{id} does; an id that no
 * longer exists is skipped (Camunda's batch deletes with failIfNotExists false). The skip flags are kept
 * for Camunda's contract: deletion here runs no end listeners or output mappings anyway.
 */
@injectable()
export class InstanceDeletionJobHandler extends BatchExecutionJobHandler<InstanceDeletionSettings> {
  readonly type = BatchTypes.instanceDeletion;

  constructor(@inject(RuntimeService) private readonly runtime: RuntimeService) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: InstanceDeletionSettings): Promise<void> {
    for (const id of ids) {
      await this.runtime.deleteProcessInstanceIn(ctx, id, {
        skipSubprocesses: settings.skipSubprocesses,
        skipCustomListeners: settings.skipCustomListeners,
        skipIoMappings: settings.skipIoMappings,
        failIfNotExists: false,
        reason: settings.deleteReason,
      });
    }
  }
}
