import type { CommandContext } from '../../command/command-context.js';
import type { ProcessDefinition } from './process-definition.js';

export interface DeleteDefinitionOptions {
  cascade: boolean;
}

/**
 * Deletes one process definition row and its candidate starters. Running instances arrive with
 * the runtime (issue 4); until then a definition has none, so cascade has nothing more to remove.
 */
export async function deleteProcessDefinition(
  ctx: CommandContext,
  definition: ProcessDefinition,
  _options: DeleteDefinitionOptions,
): Promise<void> {
  await ctx.jobs.deleteByProcessDefinition(definition.id);
  await ctx.processDefinitions.delete(definition);
}
