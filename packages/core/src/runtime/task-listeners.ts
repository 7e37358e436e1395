import type { FlowElementModel, ListenerModel } from '../bpmn/index.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { Task } from '../services/task/task.js';
import { TaskLocalVariables } from '../services/task/task-local-variables.js';
import type { Execution } from './execution.js';
import { executionFacade, plainValue } from './execution-facade.js';
import { invokeDelegation } from './listeners.js';
import type { ProcessRunner } from './process-runner.js';
import { untypedValue } from './variables/index.js';

/** Camunda's task listener events (timeout: a timeout listener's timer fired). */
export type TaskListenerEvent = 'create' | 'assignment' | 'update' | 'complete' | 'delete' | 'timeout';

/** A new task's candidates, which a create listener may change. */
export interface TaskCandidates {
  users: string[];
  groups: string[];
}

/**
 * A task being created, before its row is written: its candidates and local variables, which its
 * create (and assignment) listeners may change; the creator writes both after the task.
 */
export interface CreatingTask {
  candidates: TaskCandidates;
  variables: TaskLocalVariables;
}

/** Whether the user task has listeners for the event. */
export function hasTaskListeners(element: FlowElementModel | undefined, event: TaskListenerEvent): boolean {
  return element?.taskListeners.some((listener) => listener.event === event) ?? false;
}

/**
 * Runs the user task's camunda:taskListener elements of the event, in model order: a class
 * (registered with engine.delegates), an expression, a delegate expression or a script, each given
 * Camunda's DelegateTask as `task`. What a listener sets on the task changes `task` (and, while it
 * is being created, `creating`) in place; its local variables are written when the listeners are
 * done (a task being created: by its creator), its other variables go through its execution.
 */
export async function fireTaskListeners(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  event: TaskListenerEvent,
  task: Task,
  creating: CreatingTask | null = null,
): Promise<void> {
  await runListeners(runner, execution, element.id, element.taskListeners.filter((listener) => listener.event === event), event, task, creating);
}

/** Runs one task listener (a timeout listener whose timer fired). */
export async function fireTaskListener(runner: ProcessRunner, execution: Execution, element: FlowElementModel, listener: ListenerModel, event: TaskListenerEvent, task: Task): Promise<void> {
  await runListeners(runner, execution, element.id, [listener], event, task, null);
}

async function runListeners(
  runner: ProcessRunner,
  execution: Execution,
  activityId: string,
  listeners: readonly ListenerModel[],
  event: TaskListenerEvent,
  task: Task,
  creating: CreatingTask | null,
): Promise<void> {
  if (listeners.length === 0) return;
  const locals = creating?.variables ?? (await TaskLocalVariables.of(runner.ctx, task.id));
  const facade = delegateTask(runner, execution, event, task, creating?.candidates ?? null, locals);
  for (const listener of listeners) await invokeDelegation(runner, execution, listener, activityId, facade);
  if (!creating) await locals.flush(runner.ctx, task);
}

/** The task fields a listener may set. */
const LISTENER_FIELDS = ['name', 'description', 'priority', 'assignee', 'owner', 'due', 'followUp'] as const;

/** What listeners changed on a task (`after`, a copy they were given), or null when nothing. */
export function listenerChanges(before: Task, after: Task): Partial<Task> | null {
  const changed = LISTENER_FIELDS.filter((field) => after[field] !== before[field]);
  return changed.length === 0 ? null : Object.fromEntries(changed.map((field) => [field, after[field]]));
}

/**
 * Camunda's DelegateTask: the task's getters and setters, its candidates while it is created, and
 * its variables as a variable scope whose parent is its execution (AbstractVariableScope: a name the
 * task holds is the task's, any other its execution's).
 */
function delegateTask(runner: ProcessRunner, execution: Execution, event: TaskListenerEvent, task: Task, candidates: TaskCandidates | null, locals: TaskLocalVariables) {
  const onExecution = executionFacade(execution, runner);
  const localsRecord = () => Object.fromEntries(locals.names().map((name) => [name, plainValue(locals.get(name))]));
  const setVariable = (name: string, value: unknown) => (locals.has(name) ? locals.set(name, untypedValue(value)) : onExecution.setVariable(name, value));
  const setVariableLocal = (name: string, value: unknown) => locals.set(name, untypedValue(value));
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
    getVariable: (name: string) => (locals.has(name) ? plainValue(locals.get(name)) : onExecution.getVariable(name)),
    getVariableLocal: (name: string) => plainValue(locals.get(name)),
    getVariables: () => ({ ...onExecution.getVariables(), ...localsRecord() }),
    getVariablesLocal: localsRecord,
    hasVariable: (name: string) => locals.has(name) || onExecution.hasVariable(name),
    hasVariableLocal: (name: string) => locals.has(name),
    hasVariables: () => locals.names().length > 0 || onExecution.getVariableNames().length > 0,
    hasVariablesLocal: () => locals.names().length > 0,
    getVariableNames: () => [...new Set([...onExecution.getVariableNames(), ...locals.names()])],
    getVariableNamesLocal: () => locals.names(),
    setVariable,
    setVariableLocal,
    setVariables: (variables: Record<string, unknown>) => Object.entries(variables).forEach(([name, value]) => setVariable(name, value)),
    setVariablesLocal: (variables: Record<string, unknown>) => Object.entries(variables).forEach(([name, value]) => setVariableLocal(name, value)),
    removeVariable: (name: string) => (locals.has(name) ? locals.remove(name) : onExecution.removeVariable(name)),
    removeVariableLocal: (name: string) => locals.remove(name),
  };
}
