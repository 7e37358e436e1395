import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { RuntimeEnvironment } from '../../../runtime/runtime-environment.js';
import { BatchExecutionJobHandler } from '../batch-service.js';
import { BatchTypes } from '../batch.js';
import { modifyInstanceOfDefinition, unpackVariables, type InstanceModificationSettings } from '../modification-batches.js';

/** instance-modification: applies the batch's instructions to each instance as POST /modification/execute does. */
@injectable()
export class InstanceModificationJobHandler extends BatchExecutionJobHandler<InstanceModificationSettings> {
  readonly type = BatchTypes.instanceModification;

  constructor(@inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: InstanceModificationSettings): Promise<void> {
    const instructions = settings.instructions.map((instruction) =>
      'variables' in instruction && instruction.variables ? { ...instruction, variables: unpackVariables(instruction.variables) } : instruction,
    );
    for (const id of ids) await modifyInstanceOfDefinition(ctx, this.env, settings.processDefinitionId, id, instructions, settings);
  }
}
