import type { CommandContext } from '../../command/command-context.js';
import { engineMessage } from '../../errors/engine-message.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ProcessDefinition } from './process-definition.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import { runnerSkips } from '../../runtime/process-runner.js';
import type { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { HistoryWriter } from '../../history/history-writer.js';
import { registerStartEventTriggers } from '../deployment/start-event-triggers.js';

export interface DeleteDefinitionOptions {
  cascade: boolean;
  /** For the instances a cascade deletes: their custom listeners and input/output mappings are skipped. */
  skipCustomListeners?: boolean;
  skipIoMappings?: boolean;
  /** Where the models come from: the instances deleted run in them, the version that becomes the latest gets its start events armed. */
  env: RuntimeEnvironment;
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
  for (const instance of instances) await deleteWithDefinition(ctx, options, instance.id);
  // Camunda: a cascading delete takes the definition's history with it (ProcessDefinitionManager cascadeToHistory).
  if (options.cascade) await HistoryWriter.definitionDeleted(ctx, definition.id);
  await ctx.jobs.deleteByProcessDefinition(definition.id);
  await ctx.eventSubscriptions.deleteStartEventSubscriptions(definition.id);
  await ctx.jobDefinitions.deleteByProcessDefinition(definition.id);
  await ctx.processDefinitions.delete(definition);
  if (!wasLatest) return;
  const newLatest = await ctx.processDefinitions.findLatestByKey(definition.key, definition.tenantId);
  if (newLatest) await registerStartEventTriggers(ctx, newLatest, await options.env.models.get(ctx, newLatest), null);
}

/**
 * One instance of a definition a cascade deletes (Camunda's ExecutionManager.deleteProcessInstance):
 * cancelled as a deletion cancels it — end listeners and output mappings unless skipped, the instances
 * it called with it — for the reason "deleted process definition"; a caller waiting on it stays as it
 * is (only the deletion command cancels the caller's call activity). One a caller's deletion took along is gone already.
 */
async function deleteWithDefinition(ctx: CommandContext, options: DeleteDefinitionOptions, processInstanceId: string): Promise<void> {
  const runner = await openInstance(ctx, options.env, processInstanceId);
  const root = runner?.tree.root;
  if (!runner || runner.ended || !root) return;
  root.superExecutionId = null;
  root.superProcessInstanceId = null;
  runner.skips = runnerSkips(options);
  runner.tree.history.terminate('INTERNALLY_TERMINATED', 'deleted process definition');
  await runner.cancelInstance();
  await completeRun(ctx, runner);
}
