import { inject, injectable } from 'inversify';
import type { CommandContext } from '../../../command/command-context.js';
import { RuntimeEnvironment } from '../../../runtime/runtime-environment.js';
import { mapInstructionVariables } from '../../../runtime/modification.js';
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
    const instructions = settings.instructions.map((instruction) => mapInstructionVariables(instruction, unpackVariables));
    for (const id of ids) await modifyInstanceOfDefinition(ctx, this.env, settings.processDefinitionId, id, instructions, settings);
  }
}
