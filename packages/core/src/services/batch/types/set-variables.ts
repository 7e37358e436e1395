import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { RuntimeService } from '../../runtime/runtime-service.js';
import { BatchExecutionJobHandler, type ExecutionJobConfiguration } from '../batch-service.js';
import { BatchTypes } from '../batch.js';
import { loadBatchVariables } from '../batch-variables.js';

/**
 * set-variables: sets the batch variables on each process instance as POST /process-instance/{id}/variables
 * does; an instance that no longer exists is skipped (Camunda's SetExecutionVariablesCmd with failIfNotExists false).
 */
@injectable()
export class SetVariablesJobHandler extends BatchExecutionJobHandler<unknown> {
  readonly type = BatchTypes.setVariables;

  constructor(@inject(RuntimeService) private readonly runtime: RuntimeService) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], _settings: unknown, { configuration }: { configuration: ExecutionJobConfiguration }): Promise<void> {
    const variables = await loadBatchVariables(ctx, configuration.batchId);
    for (const id of ids) await this.runtime.modifyVariablesIn(ctx, id, variables, [], false);
  }
}
