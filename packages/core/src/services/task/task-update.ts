import type { CommandContext } from '../../command/command-context.js';
import { TaskHistory } from '../../history/task-history.js';
import { grantTaskDefault } from '../authorization/default-authorizations.js';
import type { Task } from './task.js';

/** Writes a change of the task; its historic task instance (and identity link log) follows. */
export async function updateTask(ctx: CommandContext, task: Task, changes: Partial<Task>): Promise<void> {
  const changed = { ...task, ...changes };
  await ctx.tasks.update(changed);
  await TaskHistory.updated(ctx, task, changed);
  // Camunda's setAssignee / setOwner fire the authorization provider for the user they set.
  if (changes.assignee) await grantTaskDefault(ctx, task, { userId: changes.assignee }, 'assignee');
  if (changes.owner) await grantTaskDefault(ctx, task, { userId: changes.owner }, 'owner');
}
