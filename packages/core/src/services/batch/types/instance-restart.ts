import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { NullValueException } from '../../../errors/exceptions.js';
import { RuntimeEnvironment } from '../../../runtime/runtime-environment.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { BatchTypes } from '../batch.js';
import { restartInstance, type InstanceRestartSettings } from '../restart-batches.js';

/**
 * instance-restart: restarts each historic instance as POST /process-definition/{id}/restart does
 * (Camunda's RestartProcessInstancesJobHandler); a definition deleted since the batch began fails the job.
 */
@injectable()
export class InstanceRestartJobHandler extends BatchExecutionJobHandler<InstanceRestartSettings> {
  readonly type = BatchTypes.instanceRestart;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: InstanceRestartSettings): Promise<void> {
    const definition = await ctx.processDefinitions.findById(settings.processDefinitionId);
    if (!definition) throw new NullValueException('Process definition cannot be found: processDefinition is null');
    for (const id of ids) await restartInstance(ctx, this.env, definition, id, settings);
  }
}
