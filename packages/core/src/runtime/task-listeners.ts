import type { FlowElementModel, ListenerModel } from '../bpmn/index.js';
import { ProcessEngineException, suspendedEntity } from '../errors/exceptions.js';
import type { Task } from '../services/task/task.js';
import { TaskLocalVariables } from '../services/task/task-local-variables.js';
import type { Execution } from './execution.js';
import { executionFacade, plainValue } from './execution-facade.js';
import { invokeDelegation } from './listeners.js';
import type { ProcessRunner } from './process-runner.js';
import { CANDIDATE, ListenerTaskLinks } from './task-links.js';
import { untypedValue } from './variables/index.js';

/** Camunda's task listener events (timeout: a timeout listener's timer fired). */
export type TaskListenerEvent = 'create' | 'assignment' | 'update' | 'complete' | 'delete' | 'timeout';

/**
 * A task being created, before its row is written: its identity links and local variables, which
 * its create (and assignment) listeners may change; the creator writes both after the task.
 */
export interface CreatingTask {
  links: ListenerTaskLinks;
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
 * is being created, `creating`) in place; its local variables and identity links are written when
 * the listeners are done (a task being created: by its creator), its other variables go through
 * its execution. True when a listener called `task.complete()`: the caller then completes the task
 * (see completeProcessTask) once the listeners' changes are written.
 */
export async function fireTaskListeners(
  runner: ProcessRunner,
  execution: Execution,
  element: FlowElementModel,
  event: TaskListenerEvent,
  task: Task,
  creating: CreatingTask | null = null,
): Promise<boolean> {
  return runListeners(runner, execution, element.id, element.taskListeners.filter((listener) => listener.event === event), event, task, creating);
}

/** Runs one task listener (a timeout listener whose timer fired); true when it called `task.complete()`. */
export async function fireTaskListener(runner: ProcessRunner, execution: Execution, element: FlowElementModel, listener: ListenerModel, event: TaskListenerEvent, task: Task): Promise<boolean> {
  return runListeners(runner, execution, element.id, [listener], event, task, null);
}

async function runListeners(
  runner: ProcessRunner,
  execution: Execution,
  activityId: string,
  listeners: readonly ListenerModel[],
  event: TaskListenerEvent,
  task: Task,
  creating: CreatingTask | null,
): Promise<boolean> {
  if (listeners.length === 0) return false;
  const locals = creating?.variables ?? (await TaskLocalVariables.of(runner.ctx, task.id));
  const links = creating?.links ?? (await ListenerTaskLinks.of(runner.ctx, task.id));
  const completion = { requested: false };
  const facade = delegateTask(runner, execution, event, task, links, locals, completion);
  for (const listener of listeners) await invokeDelegation(runner, execution, listener, activityId, facade);
  if (creating) return completion.requested;
  await locals.flush(runner.ctx, task);
  await links.flush(runner.ctx, task);
  return completion.requested;
}

/** The task fields a listener may set. */
const LISTENER_FIELDS = ['name', 'description', 'priority', 'assignee', 'owner', 'due', 'followUp'] as const;

/** What listeners changed on a task (`after`, a copy they were given), or null when nothing. */
export function listenerChanges(before: Task, after: Task): Partial<Task> | null {
  const changed = LISTENER_FIELDS.filter((field) => after[field] !== before[field]);
  return changed.length === 0 ? null : Object.fromEntries(changed.map((field) => [field, after[field]]));
}

/**
 * Camunda's DelegateTask: the task's getters and setters, its identity links, and its variables as a
 * variable scope whose parent is its execution (AbstractVariableScope: a name the task holds is the
 * task's, any other its execution's).
 */
function delegateTask(
  runner: ProcessRunner,
  execution: Execution,
  event: TaskListenerEvent,
  task: Task,
  links: ListenerTaskLinks,
  locals: TaskLocalVariables,
  completion: { requested: boolean },
) {
  const onExecution = executionFacade(execution, runner);
  const localsRecord = () => Object.fromEntries(locals.names().map((name) => [name, plainValue(locals.get(name))]));
  const setVariable = (name: string, value: unknown) => (locals.has(name) ? locals.set(name, untypedValue(value)) : onExecution.setVariable(name, value));
  const setVariableLocal = (name: string, value: unknown) => locals.set(name, untypedValue(value));
  // TaskEntity.addIdentityLink / deleteIdentityLink: ensureTaskActive first.
  const addLink = (userId: string | null, groupId: string | null, type: string | null) => {
    if (task.suspended) throw suspendedEntity('task', task.id);
    links.add({ userId, groupId, type });
  };
  // deleteUser/GroupIdentityLink do nothing for a null id.
  const deleteLink = (userId: string | null, groupId: string | null, type: string | null) => {
    if (userId === null && groupId === null) return;
    if (task.suspended) throw suspendedEntity('task', task.id);
    links.delete({ userId, groupId, type });
  };
  // TaskEntity.complete: not from a complete or delete listener, nor twice; ensureTaskActive.
  const complete = () => {
    if (completion.requested || event === 'complete' || event === 'delete') {
      throw new ProcessEngineException("ENGINE-03051 There was an exception while invoking the TaskListener. Message: 'invalid task state'");
    }
    if (task.suspended) throw suspendedEntity('task', task.id);
    completion.requested = true;
  };
  const candidateIds = (kind: 'userId' | 'groupId') => links.candidates().flatMap((link) => (link[kind] === null ? [] : [link[kind]]));
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
    complete,
    getCandidates: () => links.candidates().map((link) => ({ ...link, taskId: task.id })),
    getCandidateUsers: () => candidateIds('userId'),
    getCandidateGroups: () => candidateIds('groupId'),
    addCandidateUser: (userId: string) => addLink(userId, null, CANDIDATE),
    addCandidateUsers: (userIds: Iterable<string>) => [...userIds].forEach((userId) => addLink(userId, null, CANDIDATE)),
    addCandidateGroup: (groupId: string) => addLink(null, groupId, CANDIDATE),
    addCandidateGroups: (groupIds: Iterable<string>) => [...groupIds].forEach((groupId) => addLink(null, groupId, CANDIDATE)),
    addUserIdentityLink: (userId: string | null, type: string | null) => addLink(userId, null, type),
    addGroupIdentityLink: (groupId: string | null, type: string | null) => addLink(null, groupId, type),
    deleteCandidateUser: (userId: string | null) => deleteLink(userId, null, CANDIDATE),
    deleteCandidateGroup: (groupId: string | null) => deleteLink(null, groupId, CANDIDATE),
    deleteUserIdentityLink: (userId: string | null, type: string | null) => deleteLink(userId, null, type),
    deleteGroupIdentityLink: (groupId: string | null, type: string | null) => deleteLink(null, groupId, type),
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
