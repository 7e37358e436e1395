import type { FlowElementModel } from '../../bpmn/index.js';
import type { Execution } from '../execution.js';
import type { ProcessRunner } from '../process-runner.js';
import type { ActivityBehavior } from './behavior.js';
import { TASK_PRIORITY_NORMAL, type Task } from '../../services/task/task.js';
import { TaskHistory } from '../../history/task-history.js';
import { grantTaskDefaults } from '../../services/authorization/default-authorizations.js';
import { fireTaskListeners } from '../task-listeners.js';
import { TaskLocalVariables } from '../../services/task/task-local-variables.js';
import { ListenerTaskLinks } from '../task-links.js';
import { completeProcessTask } from '../task-completion.js';
import { createTimerJob, JobHandlerTypes } from '../runtime-jobs.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { javaInteger } from '../../services/process-definition/start-form.js';
import { addDuration, parseDateTime, parseDuration } from '../timers/iso8601.js';

/** Creates a task for a person (assignee, candidates, form key, dates, priority) and waits for its completion. */
export const userTask: ActivityBehavior = {
  async execute(runner, execution, element) {
    runner.wroteRows = true;
    const assignment = element.taskAssignment;
    const id = runner.ctx.ids.next();
    const assignee = optionalText(runner, execution, assignment?.assignee);
    const task: Task = {
      id,
      name: element.name === null ? null : String(runner.evaluate(execution, element.name) ?? ''),
      // Camunda's TaskDecorator: the documentation is the description expression.
      description: element.documentation === null ? null : String(runner.evaluate(execution, element.documentation) ?? ''),
      taskDefinitionKey: element.id,
      assignee,
      owner: null,
      priority: priorityOf(runner, execution, element),
      due: dateOf(runner, execution, element, 'dueDate', 'Due date'),
      followUp: dateOf(runner, execution, element, 'followUpDate', 'Follow up date'),
      created: runner.ctx.clock.now(),
      processInstanceId: execution.processInstanceId,
      executionId: execution.id,
      processDefinitionId: runner.definition.id,
      activityInstanceId: execution.activityInstanceId,
      // Kept as written: Camunda evaluates it when the task is read (TaskService#withFormKey).
      formKey: typeof element.camunda.formKey === 'string' && element.camunda.formKey !== '' ? element.camunda.formKey : null,
      suspended: false,
      tenantId: runner.definition.tenantId,
    };
    const candidates = {
      users: candidatesOf(runner, execution, assignment?.candidateUsers ?? []),
      groups: candidatesOf(runner, execution, assignment?.candidateGroups ?? []),
    };
    const creating = { links: ListenerTaskLinks.creating(candidates), variables: TaskLocalVariables.none() };
    // Camunda's order: create, then assignment when the task has an assignee; both may change it.
    let completing = false;
    await runner.catchingBpmnErrors(execution, async () => {
      completing = await fireTaskListeners(runner, execution, element, 'create', task, creating);
      if (task.assignee !== null) completing = (await fireTaskListeners(runner, execution, element, 'assignment', task, creating)) || completing;
    });
    runner.tree.history.taskCreated(execution.activityInstanceId, id, task.assignee);
    await runner.ctx.tasks.insert(task, candidates);
    await creating.variables.flush(runner.ctx, task);
    await creating.links.flush(runner.ctx, task);
    TaskHistory.created(runner.ctx, task, runner.definition.key, candidates);
    await grantTaskDefaults(runner.ctx, task, candidates);
    await createTimeoutListenerTimers(runner, execution, element);
    // A create or assignment listener called task.complete(): the task is completed once it exists.
    if (completing) await completeProcessTask(runner, execution, element, task);
  },
  async signal(runner, execution) {
    runner.leave(execution);
  },
};

/** Camunda's TaskDecorator.initializeTaskAssignee: the expression's String (a cast: anything else fails). */
function optionalText(runner: ProcessRunner, execution: Execution, raw: unknown): string | null {
  if (raw === undefined || raw === null || raw === '') return null;
  const value = runner.evaluate(execution, String(raw));
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw new ProcessEngineException(`Assignee expression does not resolve to a String: ${String(raw)}`);
  return value;
}

/**
 * Camunda's TaskDecorator.initializeTaskDueDate / FollowUpDate: a Date, or a text its
 * DueDateBusinessCalendar reads (`P…` from now, else an ISO date-time); anything else fails.
 */
function dateOf(runner: ProcessRunner, execution: Execution, element: FlowElementModel, attribute: string, label: string): Date | null {
  const raw = element.camunda[attribute];
  if (raw === undefined || raw === '') return null;
  const value = runner.evaluate(execution, String(raw));
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value;
  if (typeof value !== 'string') throw new ProcessEngineException(`${label} expression does not resolve to a Date or Date string: ${String(raw)}`);
  const duration = value.startsWith('P') ? parseDuration(value) : null;
  const date = duration ? addDuration(runner.ctx.clock.now(), duration) : value.startsWith('P') ? null : parseDateTime(value);
  if (!date) throw new ProcessEngineException(`ENGINE-04027 Exception while resolving duedate '${value}': Invalid format: "${value}"`);
  return date;
}

/** Camunda's TaskDecorator.initializeTaskPriority: a number's int value, a text parsed as an int; null keeps the default. */
function priorityOf(runner: ProcessRunner, execution: Execution, element: FlowElementModel): number {
  const raw = element.camunda.priority;
  if (raw === undefined || raw === null || raw === '') return TASK_PRIORITY_NORMAL;
  const value = runner.evaluate(execution, String(raw));
  if (value === null || value === undefined) return TASK_PRIORITY_NORMAL;
  // Number.intValue(): an integral number keeps its low 32 bits (a Long's), a fraction truncates, saturating (a Double's).
  if (typeof value === 'number') return Number.isInteger(value) ? value | 0 : Math.max(-2147483648, Math.min(2147483647, Math.trunc(value)) || 0);
  if (typeof value === 'string') {
    try {
      return javaInteger(value);
    } catch (error) {
      throw new ProcessEngineException(`Priority does not resolve to a number: ${value}`, { cause: error });
    }
  }
  throw new ProcessEngineException(`Priority expression does not resolve to a number: ${String(raw)}`);
}

/**
 * Camunda's TaskDecorator.initializeTaskCandidateUsers / Groups: each candidate expression gives a
 * text (split at commas) or a collection of ids; anything else, null too, fails.
 */
function candidatesOf(runner: ProcessRunner, execution: Execution, expressions: readonly string[]): string[] {
  return expressions.flatMap((expression) => {
    const value = runner.evaluate(execution, expression);
    if (typeof value === 'string') return splitCandidates(value);
    if (Array.isArray(value) || value instanceof Set) return [...value].map(String);
    throw new ProcessEngineException('Expression did not resolve to a string or collection of strings');
  });
}

/** Java's `split("[\\s]*,[\\s]*")`, as TaskDecorator.extractCandidates uses it: trailing empty parts are dropped. */
function splitCandidates(text: string): string[] {
  const parts = text.split(/\s*,\s*/);
  if (parts.length === 1) return parts;
  while (parts.length > 0 && parts[parts.length - 1] === '') parts.pop();
  return parts;
}

/**
 * A user task's timeout listeners: a timer job each (Camunda's TimerTaskListenerJobHandler), removed
 * with the task; listener ids `except` names get none (a migration's, which had them already).
 */
export async function createTimeoutListenerTimers(runner: ProcessRunner, execution: Execution, element: FlowElementModel, except: ReadonlySet<string> = new Set()): Promise<void> {
  for (const listener of element.taskListeners) {
    if (listener.event !== 'timeout' || !listener.timer || except.has(listener.id ?? '')) continue;
    await createTimerJob(runner, execution, element, JobHandlerTypes.taskListenerTimer, listener.timer, `${element.id}$${listener.id ?? ''}`);
  }
}
