import type { FlowElementModel } from '../bpmn/index.js';
import { jobsDeleted } from '../jobs/job-failure.js';
import { removeTasks } from '../services/task/task-removal.js';
import type { Task } from '../services/task/task.js';
import { withErrorPropagation } from './bpmn-error.js';
import type { Execution } from './execution.js';
import type { ProcessRunner } from './process-runner.js';
import { JobHandlerTypes } from './runtime-jobs.js';
import { fireTaskListeners, hasTaskListeners } from './task-listeners.js';

/**
 * Camunda's TaskEntity.complete for a task of a process: its complete listeners (a BPMN error one
 * throws goes to the event that catches it and the task stays: false), then its timeout jobs and
 * the task removed (`removing` runs just before) and its execution queued to move on.
 */
export async function completeProcessTask(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  task: Task,
  removing: () => void = () => undefined,
): Promise<boolean> {
  const ctx = runner.ctx;
  if (await withErrorPropagation(runner, execution, async () => void (await fireTaskListeners(runner, execution, element, 'complete', { ...task })))) return false;
  if (hasTaskListeners(element, 'timeout')) {
    await jobsDeleted(ctx, await ctx.jobs.deleteByExecutionAndHandler(execution.id, JobHandlerTypes.taskListenerTimer));
  }
  removing();
  await removeTasks(ctx, [task], 'completed');
  runner.signal(execution);
  return true;
}
