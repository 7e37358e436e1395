import type { CommandContext } from '../command/command-context.js';
import { ExternalTaskLog } from './external-task-log.js';
import { isHistoryEventProduced } from './history-level.js';
import { JobLog } from './job-log.js';

/**
 * A cancelled instance's jobs and external tasks on its root execution (the instance cleanup would
 * remove them in bulk, unlogged): removed here first, with their deletion entries. Only at level
 * full; below it the cleanup removes them as before, with no extra statement.
 */
export async function removeLoggedWorkOf(ctx: CommandContext, executionId: string): Promise<void> {
  if (!isHistoryEventProduced(ctx.config.historyLevel, 'job-delete')) return;
  for (const job of await ctx.jobs.deleteByExecutions([executionId])) JobLog.deleted(ctx, job);
  for (const task of await ctx.externalTasks.deleteByExecutions([executionId])) ExternalTaskLog.deleted(ctx, task);
}
