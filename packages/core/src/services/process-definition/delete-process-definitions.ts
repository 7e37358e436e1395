import type { CommandContext } from '../../command/command-context.js';
import { engineMessage } from '../../errors/engine-message.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ProcessDefinition } from './process-definition.js';
import { deleteInstanceRows } from '../../persistence/repositories/instance-cleanup.js';
import { HistoryWriter } from '../../history/history-writer.js';
import { registerStartEventTriggers } from '../deployment/start-event-triggers.js';
import type { ProcessModelCache } from './process-model-cache.js';

export interface DeleteDefinitionOptions {
  cascade: boolean;
  /** Where the models come from, to arm the start events of the version that becomes the latest. */
  models: Pick<ProcessModelCache, 'get'>;
}

/**
 * Deletes one process definition with its candidate starters and jobs. Running instances block
 * it unless `cascade`, which removes them too (Camunda's ENGINE-03076 otherwise). When it was the
 * latest version, the version that becomes the latest gets its start events (message, signal,
 * conditional, timer) back, as Camunda's DeleteProcessDefinitionsByIdsCmd.
 */
export async function deleteProcessDefinition(ctx: CommandContext, definition: ProcessDefinition, options: DeleteDefinitionOptions): Promise<void> {
  const wasLatest = (await ctx.processDefinitions.findLatestByKey(definition.key, definition.tenantId))?.id === definition.id;
  const instances = await ctx.processInstances.find({ processDefinitionId: definition.id });
  if (instances.length > 0 && !options.cascade) {
    throw new ProcessEngineException(
      engineMessage(
        '03',
        '076',
        `Deletion of process definition without cascading failed. Process definition with id: ${definition.id} can't be deleted, because there are ${instances.length} dependent process instances.`,
      ),
    );
  }
  for (const instance of instances) await removeProcessInstance(ctx, instance.id);
  // Camunda: a cascading delete takes the definition's history with it (ProcessDefinitionManager cascadeToHistory).
  if (options.cascade) await HistoryWriter.definitionDeleted(ctx, definition.id);
  await ctx.jobs.deleteByProcessDefinition(definition.id);
  await ctx.eventSubscriptions.deleteStartEventSubscriptions(definition.id);
  await ctx.jobDefinitions.deleteByProcessDefinition(definition.id);
  await ctx.processDefinitions.delete(definition);
  if (!wasLatest) return;
  const newLatest = await ctx.processDefinitions.findLatestByKey(definition.key, definition.tenantId);
  if (newLatest) await registerStartEventTriggers(ctx, newLatest, await options.models.get(ctx, newLatest), null);
}

/** Removes every runtime row of a process instance (no listeners run: a cascading delete). */
export async function removeProcessInstance(ctx: CommandContext, processInstanceId: string): Promise<void> {
  await deleteInstanceRows(ctx.trx, ctx.dialect, processInstanceId);
  await ctx.executions.deleteProcessInstance(processInstanceId);
}
