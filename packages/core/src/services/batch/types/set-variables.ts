import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { RuntimeService } from '../../runtime/runtime-service.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { BatchTypes } from '../batch.js';
import { loadBatchVariables, type StoredBatchVariables } from '../batch-variables.js';

export interface SetVariablesSettings {
  variables: StoredBatchVariables;
}

/**
 * set-variables: sets the batch variables on each process instance as POST /process-instance/{id}/variables
 * does; an instance that no longer exists is skipped (Camunda's SetExecutionVariablesCmd with failIfNotExists false).
 */
@injectable()
export class SetVariablesJobHandler extends BatchExecutionJobHandler<SetVariablesSettings> {
  readonly type = BatchTypes.setVariables;

  constructor(@inject(RuntimeService) private readonly runtime: RuntimeService) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: SetVariablesSettings): Promise<void> {
    const variables = loadBatchVariables(settings.variables);
    for (const id of ids) await this.runtime.modifyVariablesIn(ctx, id, variables, [], false);
  }
}
