import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { NotFoundException, ProcessEngineException } from '../../errors/exceptions.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import type { Task, TaskQuery } from './task.js';

/** User tasks: queries, assignment and completion (Camunda's TaskService). */
@injectable()
export class TaskService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  findTasks(query: TaskQuery = {}): Promise<Task[]> {
    return this.commands.run('TaskQuery', async (ctx) => ctx.tasks.find(query, await readableTasks(ctx)));
  }

  countTasks(query: TaskQuery = {}): Promise<number> {
    return this.commands.run('TaskQuery', async (ctx) => ctx.tasks.count(query, await readableTasks(ctx)));
  }

  getTask(id: string): Promise<Task | null> {
    return this.commands.run('TaskQuery', async (ctx) => (await ctx.tasks.find({ taskId: id }, await readableTasks(ctx)))[0] ?? null);
  }

  /** Claims for a user; Camunda refuses a task someone else holds. */
  claim(taskId: string, userId: string): Promise<void> {
    return this.commands.run('ClaimTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId);
      await checkTaskWork(ctx, task);
      if (task.assignee && task.assignee !== userId) {
        throw new ProcessEngineException(`Task '${taskId}' is already claimed by someone else.`);
      }
      await ctx.tasks.update({ ...task, assignee: userId });
    });
  }

  /** Sets (or, with null, clears) the assignee. */
  setAssignee(taskId: string, userId: string | null): Promise<void> {
    return this.commands.run('AssignTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId);
      await checkTaskWork(ctx, task);
      await ctx.tasks.update({ ...task, assignee: userId });
    });
  }

  /** Completes the task with variables (set on the process instance) and moves the instance on. */
  complete(taskId: string, variables: Record<string, TypedValue> = {}): Promise<Record<string, TypedValue>> {
    return this.commands.run('CompleteTaskCmd', async (ctx) => {
      const task = await this.load(ctx, taskId);
      await checkTaskWork(ctx, task);
      if (task.suspended) throw new ProcessEngineException(`Cannot complete task ${taskId}: task is suspended`);
      await ctx.tasks.delete(task);
      if (!task.processInstanceId || !task.executionId) return variables;
      const runner = await openInstance(ctx, this.env, task.processInstanceId);
      const execution = runner?.tree.executions.get(task.executionId);
      if (!runner || !execution) throw new ProcessEngineException(`Execution '${task.executionId}' of task '${taskId}' is gone`);
      for (const [name, value] of Object.entries(variables)) runner.variables.setVisible(execution.id, name, value);
      runner.signal(execution);
      await completeRun(ctx, runner);
      return runner.variables.visible(execution.id);
    });
  }

  private async load(ctx: CommandContext, taskId: string): Promise<Task> {
    const task = await ctx.tasks.findById(taskId);
    if (!task) throw new NotFoundException(`Cannot find task with id ${taskId}: task is null`);
    return task;
  }
}

// Camunda: TASK_WORK (or UPDATE) on the task, or the same on its process definition's key.
async function checkTaskWork(ctx: CommandContext, task: Task): Promise<void> {
  if (!ctx.authz.isActive) return;
  const definition = task.processDefinitionId ? await ctx.processDefinitions.findById(task.processDefinitionId) : null;
  await ctx.authz.check(
    { permission: 'TASK_WORK', resource: Resources.TASK, resourceId: task.id },
    { permission: 'UPDATE', resource: Resources.TASK, resourceId: task.id },
    ...(definition
      ? [
          { permission: 'TASK_WORK', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key },
          { permission: 'UPDATE_TASK', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key },
        ]
      : []),
  );
}

const readableTasks = (ctx: CommandContext) => ctx.authz.readFilter('READ', Resources.TASK);
