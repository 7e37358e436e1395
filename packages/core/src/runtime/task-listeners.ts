import type { FlowElementModel, ListenerModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { Task } from '../services/task/task.js';
import type { Execution } from './execution.js';
import { executionFacade } from './execution-facade.js';
import { invokeDelegation } from './listeners.js';
import type { ProcessRunner } from './process-runner.js';

/** Camunda's task listener events (timeout: a timeout listener's timer fired). */
export type TaskListenerEvent = 'create' | 'assignment' | 'update' | 'complete' | 'delete' | 'timeout';

/** A new task's candidates, which a create listener may change. */
export interface TaskCandidates {
  users: string[];
  groups: string[];
}

/** Whether the user task has listeners for the event. */
export function hasTaskListeners(element: FlowElementModel | undefined, event: TaskListenerEvent): boolean {
  return element?.taskListeners.some((listener) => listener.event === event) ?? false;
}

/**
 * Runs the user task's camunda:taskListener elements of the event, in model order: a class
 * (registered with engine.delegates), an expression, a delegate expression or a script, each given
 * Camunda's DelegateTask as `task`. What a listener sets on the task changes `task` (and, while it
 * is being created, `candidates`) in place; its variables go through the task's execution.
 */
export async function fireTaskListeners(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  event: TaskListenerEvent,
  task: Task,
  candidates: TaskCandidates | null = null,
): Promise<void> {
  const listeners = element.taskListeners.filter((listener) => listener.event === event);
  if (listeners.length === 0) return;
  const facade = delegateTask(runner, execution, event, task, candidates);
  for (const listener of listeners) await invokeDelegation(runner, execution, listener, element.id, facade);
}

/** Runs one task listener (a timeout listener whose timer fired). */
export async function fireTaskListener(runner: ProcessRunner, execution: Execution, element: FlowElementModel, listener: ListenerModel, event: TaskListenerEvent, task: Task): Promise<void> {
  await invokeDelegation(runner, execution, listener, element.id, delegateTask(runner, execution, event, task, null));
}

/** The task fields a listener may set. */
const LISTENER_FIELDS = ['name', 'description', 'priority', 'assignee', 'owner', 'due', 'followUp'] as const;

/** What listeners changed on a task (`after`, a copy they were given), or null when nothing. */
export function listenerChanges(before: Task, after: Task): Partial<Task> | null {
  const changed = LISTENER_FIELDS.filter((field) => after[field] !== before[field]);
  return changed.length === 0 ? null : Object.fromEntries(changed.map((field) => [field, after[field]]));
}

/** Camunda's DelegateTask: the task's getters and setters, its candidates while it is created, and variables through its execution. */
function delegateTask(runner: ProcessRunner, execution: Execution, event: TaskListenerEvent, task: Task, candidates: TaskCandidates | null) {
  const onExecution = executionFacade(execution, runner.variables);
  const changeCandidates = (kind: keyof TaskCandidates, ids: readonly string[], add: boolean) => {
    if (!candidates) throw new ProcessEngineException(`Task '${task.id}': candidates can be changed by a create listener only`);
    const list = candidates[kind];
    for (const id of ids) {
      const index = list.indexOf(id);
      if (add && index < 0) list.push(id);
      if (!add && index >= 0) list.splice(index, 1);
    }
  };
  return {
    getId: () => task.id,
    getEventName: () => event,
    getName: () => task.name,
    setName: (name: string | null) => void (task.name = name),
    getDescription: () => task.description,
    setDescription: (description: string | null) => void (task.description = description),
    getPriority: () => task.priority,
    setPriority: (priority: number) => void (task.priority = priority),
    getAssignee: () => task.assignee,
    setAssignee: (assignee: string | null) => void (task.assignee = assignee),
    getOwner: () => task.owner,
    setOwner: (owner: string | null) => void (task.owner = owner),
    getDueDate: () => task.due,
    setDueDate: (due: Date | null) => void (task.due = due),
    getFollowUpDate: () => task.followUp,
    setFollowUpDate: (followUp: Date | null) => void (task.followUp = followUp),
    getCreateTime: () => task.created,
    getTaskDefinitionKey: () => task.taskDefinitionKey,
    getProcessInstanceId: () => task.processInstanceId,
    getProcessDefinitionId: () => task.processDefinitionId,
    getExecutionId: () => task.executionId,
    getExecution: () => onExecution,
    getTenantId: () => task.tenantId,
    getCandidateUsers: () => [...(candidates?.users ?? [])],
    getCandidateGroups: () => [...(candidates?.groups ?? [])],
    addCandidateUser: (userId: string) => changeCandidates('users', [userId], true),
    addCandidateUsers: (userIds: readonly string[]) => changeCandidates('users', userIds, true),
    addCandidateGroup: (groupId: string) => changeCandidates('groups', [groupId], true),
    addCandidateGroups: (groupIds: readonly string[]) => changeCandidates('groups', groupIds, true),
    deleteCandidateUser: (userId: string) => changeCandidates('users', [userId], false),
    deleteCandidateGroup: (groupId: string) => changeCandidates('groups', [groupId], false),
    getVariable: onExecution.getVariable,
    getVariables: onExecution.getVariables,
    hasVariable: onExecution.hasVariable,
    setVariable: onExecution.setVariable,
    removeVariable: onExecution.removeVariable,
    getVariableNames: onExecution.getVariableNames,
  };
}
