import type { FlowElementModel } from '../../bpmn/index.js';
import type { Execution } from '../execution.js';
import type { ProcessRunner } from '../process-runner.js';
import type { ActivityBehavior } from './behavior.js';
import { TASK_PRIORITY_NORMAL, type Task } from '../../services/task/task.js';
import { TaskHistory } from '../../history/task-history.js';
import { grantTaskDefaults } from '../../services/authorization/default-authorizations.js';
import { fireTaskListeners } from '../task-listeners.js';
import { TaskLocalVariables } from '../../services/task/task-local-variables.js';
import { createTimerJob, JobHandlerTypes } from '../runtime-jobs.js';

/** Creates a task for a person (assignee, candidates, form key, dates, priority) and waits for its completion. */
export const userTask: ActivityBehavior = {
  async execute(runner, execution, element) {
    runner.wroteRows = true;
    const text = (name: string) => optionalText(runner, execution, element, name);
    const id = runner.ctx.ids.next();
    const assignee = text('assignee');
    const task: Task = {
      id,
      name: element.name === null ? null : String(runner.evaluate(execution, element.name, element.id) ?? ''),
      description: null,
      taskDefinitionKey: element.id,
      assignee,
      owner: null,
      priority: priorityOf(text('priority')),
      due: dateOf(runner, execution, element, 'dueDate'),
      followUp: dateOf(runner, execution, element, 'followUpDate'),
      created: runner.ctx.clock.now(),
      processInstanceId: execution.processInstanceId,
      executionId: execution.id,
      processDefinitionId: runner.definition.id,
      activityInstanceId: execution.activityInstanceId,
      formKey: text('formKey'),
      suspended: false,
      tenantId: runner.definition.tenantId,
    };
    const candidates = { users: list(text('candidateUsers')), groups: list(text('candidateGroups')) };
    const creating = { candidates, variables: TaskLocalVariables.none() };
    // Camunda's order: create, then assignment when the task has an assignee; both may change it.
    await runner.catchingBpmnErrors(execution, async () => {
      await fireTaskListeners(runner, execution, element, 'create', task, creating);
      if (task.assignee !== null) await fireTaskListeners(runner, execution, element, 'assignment', task, creating);
    });
    runner.tree.history.taskCreated(execution.activityInstanceId, id, task.assignee);
    await runner.ctx.tasks.insert(task, candidates);
    await creating.variables.flush(runner.ctx, task);
    TaskHistory.created(runner.ctx, task, runner.definition.key, candidates);
    await grantTaskDefaults(runner.ctx, task, candidates);
    // Timeout listeners: a timer job each (Camunda's TimerTaskListenerJobHandler), removed with the task.
    for (const listener of element.taskListeners) {
      if (listener.event !== 'timeout' || !listener.timer) continue;
      await createTimerJob(runner, execution, element, JobHandlerTypes.taskListenerTimer, listener.timer, `${element.id}$${listener.id ?? ''}`);
    }
  },
  async signal(runner, execution) {
    runner.leave(execution);
  },
};

function optionalText(runner: ProcessRunner, execution: Execution, element: FlowElementModel, attribute: string): string | null {
  const raw = element.camunda[attribute];
  if (raw === undefined || raw === null || raw === '') return null;
  const value = runner.evaluate(execution, String(raw), element.id);
  if (value === null || value === undefined) return null;
  return Array.isArray(value) ? value.join(',') : String(value);
}

function dateOf(runner: ProcessRunner, execution: Execution, element: FlowElementModel, attribute: string): Date | null {
  const raw = element.camunda[attribute];
  if (raw === undefined || raw === '') return null;
  const value = runner.evaluate(execution, String(raw), element.id);
  if (value instanceof Date) return value;
  if (typeof value === 'string' && value !== '') {
    const date = new Date(value);
    if (!Number.isNaN(date.getTime())) return date;
  }
  return null;
}

function priorityOf(text: string | null): number {
  if (text === null) return TASK_PRIORITY_NORMAL;
  const value = Number(text);
  return Number.isInteger(value) ? value : TASK_PRIORITY_NORMAL;
}

const list = (text: string | null) => (text ? text.split(',').map((part) => part.trim()).filter(Boolean) : []);
