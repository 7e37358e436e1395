import type { CommandContext } from '../command/command-context.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { ProcessModelCache } from '../services/process-definition/process-model-cache.js';
import { ExecutionTree } from './execution-tree.js';
import { InstanceVariables } from './instance-variables.js';
import { ProcessRunner } from './process-runner.js';

/** Loads a running process instance (tree, variables, model) so a command can move it on; null when it does not exist. */
export async function openInstance(ctx: CommandContext, models: ProcessModelCache, processInstanceId: string): Promise<ProcessRunner | null> {
  const tree = await ExecutionTree.load(ctx, processInstanceId);
  const root = tree.root;
  if (!root) return null;
  const definition = await ctx.processDefinitions.findById(root.processDefinitionId);
  if (!definition) throw new ProcessEngineException(`Process definition '${root.processDefinitionId}' of instance '${processInstanceId}' is gone`);
  const model = await models.get(ctx, definition);
  return new ProcessRunner(ctx, tree, model, definition, await InstanceVariables.load(ctx, processInstanceId));
}

/** Runs the runner's agenda and writes the instance: tree, variables, and, when it ended, removes what is left. */
export async function completeRun(ctx: CommandContext, runner: ProcessRunner): Promise<void> {
  await runner.run();
  if (runner.ended) {
    await ctx.tasks.deleteByProcessInstance(runner.tree.processInstanceId);
    await ctx.variables.deleteByProcessInstance(runner.tree.processInstanceId);
    return;
  }
  await runner.variables.flush(ctx);
}
