import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { RuntimeService } from '../../runtime/runtime-service.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { BatchTypes } from '../batch.js';

export interface InstanceSuspensionSettings {
  suspended: boolean;
}

/** instance-update-suspension-state: suspends or activates each process instance as PUT /process-instance/{id}/suspended does. */
@injectable()
export class InstanceSuspensionJobHandler extends BatchExecutionJobHandler<InstanceSuspensionSettings> {
  readonly type = BatchTypes.instanceUpdateSuspensionState;

  constructor(@inject(RuntimeService) private readonly runtime: RuntimeService) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: InstanceSuspensionSettings): Promise<void> {
    for (const id of ids) await this.runtime.setInstanceSuspended(ctx, id, settings.suspended);
  }
}
