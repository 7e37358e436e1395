import type { CommandContext } from '../../command/command-context.js';
import { TaskHistory } from '../../history/task-history.js';
import type { Task } from './task.js';

/**
 * Camunda's TaskManager.deleteTask: each task's sub-tasks go first (recursively, with the same
 * reason), then the task; the tasks without a process end their history here, in one update (a
 * process task's ends with its activity instance).
 */
export async function removeTasks(ctx: CommandContext, tasks: readonly Task[], reason: 'completed' | 'deleted'): Promise<void> {
  const withoutProcess: string[] = [];
  const remove = async (each: Task): Promise<void> => {
    for (const subTask of await ctx.tasks.find({ parentTaskId: each.id })) await remove(subTask);
    await ctx.tasks.delete(each);
    if (each.executionId === null) withoutProcess.push(each.id);
  };
  for (const task of tasks) await remove(task);
  await TaskHistory.standaloneEnded(ctx, withoutProcess, reason);
}

/** The sub-tasks of process tasks their process removed (cancelled, not completed): deleted with them. */
export async function removeSubTasksOf(ctx: CommandContext, removedTaskIds: readonly string[]): Promise<void> {
  if (removedTaskIds.length === 0) return;
  const subTasks: Task[] = [];
  for (const id of removedTaskIds) subTasks.push(...(await ctx.tasks.find({ parentTaskId: id })));
  if (subTasks.length > 0) await removeTasks(ctx, subTasks, 'deleted');
}
