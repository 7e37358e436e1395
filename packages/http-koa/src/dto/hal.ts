import type { Context } from 'koa';
import type { Group, ProcessDefinition, ProcessEngine, Task, TaskIdentityLink, User, VariableInstance } from '@trellis/core';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { toTaskDto } from './runtime-dto.js';
import { toVariableValueDto } from './variable-dto.js';

// Camunda's HAL task lists (engine-rest's hal package): Tasklist asks GET /task and the filters'
// list and singleResult for `application/hal+json`. A resource carries `_links` (a relation's href
// where it has an id) and `_embedded` (the linked users, definitions, … it resolved), both keyed in
// alphabetical order, as Camunda's TreeMaps; a resource that embeds nothing has `_embedded: null`.

export const HAL_JSON = 'application/hal+json';

type Links = Record<string, { href: string }>;
interface HalResource {
  _links: Links;
  _embedded: Record<string, unknown> | null;
  [field: string]: unknown;
}

/** The variant a task list answers in (JAX-RS selectVariant: JSON first on a tie); 406 for neither. */
export function taskListVariant(ctx: Context): 'json' | 'hal' {
  const chosen = ctx.accepts('application/json', HAL_JSON);
  if (!chosen) throw new InvalidRequestException(406, 'No acceptable content-type found');
  return chosen === HAL_JSON ? 'hal' : 'json';
}

/** Sends a HAL resource with Camunda's content type. */
export function sendHal(ctx: Context, resource: object): void {
  ctx.body = JSON.stringify(resource);
  ctx.type = HAL_JSON;
}

/** EmptyHalCollection / EmptyHalResource. */
export const emptyHalCollection = (count: number) => ({ _links: {}, _embedded: {}, count });
export const EMPTY_HAL_RESOURCE = { _links: {}, _embedded: {} };

/** Links with the relations whose id is known, in key order. */
function links(relations: Record<string, string | null | undefined>): Links {
  const result: Links = {};
  for (const rel of Object.keys(relations).sort()) {
    const href = relations[rel];
    if (href != null) result[rel] = { href };
  }
  return result;
}
const path = (base: string, id: string | null | undefined) => (id == null ? null : `${base}/${id}`);

function sortedEmbedded(entries: Record<string, unknown[]>): Record<string, unknown> | null {
  const names = Object.keys(entries).filter((name) => entries[name].length > 0).sort();
  if (names.length === 0) return null;
  return Object.fromEntries(names.map((name) => [name, entries[name]]));
}

/** HalTask.fromTask: the TaskDto's fields (no lastUpdated, no taskState) with links to what the task names; every caller's query initializes form keys. */
function halTask(task: Task): HalResource {
  const { lastUpdated: _lastUpdated, taskState: _taskState, ...fields } = toTaskDto(task);
  return {
    _links: links({
      self: path('/task', task.id),
      assignee: path('/user', task.assignee),
      owner: path('/user', task.owner),
      execution: path('/execution', task.executionId),
      parentTask: path('/task', task.parentTaskId),
      processDefinition: path('/process-definition', task.processDefinitionId),
      processInstance: path('/process-instance', task.processInstanceId),
      identityLink: `/task/${task.id}/identity-links`,
    }),
    _embedded: null,
    ...fields,
  };
}

const halUser = (user: User): HalResource => ({
  _links: links({ self: path('/user', user.id) }),
  _embedded: null,
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
});

const halGroup = (group: Group): HalResource => ({
  _links: links({ self: path('/group', group.id) }),
  _embedded: null,
  id: group.id,
  name: group.name,
  type: group.type,
});

const halProcessDefinition = (definition: ProcessDefinition): HalResource => ({
  _links: links({
    self: path('/process-definition', definition.id),
    deployment: path('/deployment', definition.deploymentId),
    resource: `/deployment/${definition.deploymentId}/resources/${definition.resourceName}`,
  }),
  _embedded: null,
  id: definition.id,
  key: definition.key,
  category: definition.category,
  description: definition.description,
  name: definition.name,
  versionTag: definition.versionTag,
  version: definition.version,
  resource: definition.resourceName,
  deploymentId: definition.deploymentId,
  diagram: definition.diagramResourceName,
  suspended: definition.suspended,
  contextPath: null,
});

const halIdentityLink = (link: TaskIdentityLink): HalResource => ({
  _links: links({ user: path('/user', link.userId), group: path('/group', link.groupId), task: path('/task', link.taskId) }),
  _embedded: null,
  type: link.type,
  userId: link.userId,
  groupId: link.groupId,
  taskId: link.taskId,
});

/** The resolvers: what the caller may read of the linked ids, by id (Camunda's queries' default order). */
async function users(engine: ProcessEngine, ids: Iterable<string | null>): Promise<HalResource[]> {
  const idIn = distinct(ids);
  return idIn.length === 0 ? [] : (await engine.identity.findUsers({ idIn })).map(halUser);
}
async function groups(engine: ProcessEngine, ids: Iterable<string | null>): Promise<HalResource[]> {
  const idIn = distinct(ids);
  return idIn.length === 0 ? [] : (await engine.identity.findGroups({ idIn })).map(halGroup);
}
async function definitions(engine: ProcessEngine, ids: Iterable<string | null>): Promise<HalResource[]> {
  const processDefinitionIdIn = distinct(ids);
  return processDefinitionIdIn.length === 0 ? [] : (await engine.processDefinition.findProcessDefinitions({ processDefinitionIdIn })).map(halProcessDefinition);
}
const distinct = (ids: Iterable<string | null>) => [...new Set([...ids].filter((id): id is string => id !== null))];

/** HalTaskList.generate: the tasks, and the assignees, owners and process definitions they link to. */
export async function halTaskList(engine: ProcessEngine, tasks: readonly Task[], count: number): Promise<{ halTasks: HalResource[]; list: object }> {
  const halTasks = tasks.map((task) => halTask(task));
  const list = {
    _links: links({ self: '/task' }),
    // The task list is always there; a relation only where it resolved something.
    _embedded: {
      ...sortedEmbedded({
        assignee: await users(engine, tasks.map((task) => task.assignee)),
        owner: await users(engine, tasks.map((task) => task.owner)),
        processDefinition: await definitions(engine, tasks.map((task) => task.processDefinitionId)),
      }),
      task: halTasks,
    },
    count,
  };
  return { halTasks, list };
}

/** HalTask.generate: one task with its process definition, identity links and their users and groups. */
export async function halTaskWithLinks(engine: ProcessEngine, task: Task): Promise<HalResource> {
  const resource = halTask(task);
  const identityLinks = await engine.task.getIdentityLinks(task.id);
  resource._embedded = sortedEmbedded({
    group: await groups(engine, identityLinks.map((link) => link.groupId)),
    identityLink: identityLinks.map(halIdentityLink),
    processDefinition: await definitions(engine, [task.processDefinitionId]),
    user: await users(engine, identityLinks.map((link) => link.userId)),
  });
  return resource;
}

/**
 * FilterResourceImpl's variables: the filter's `properties.variables` names, looked up on each task,
 * its execution and its process instance (in that order, the first of a name wins), embedded in the
 * task as `variable` (also when none is found).
 */
export async function embedFilterVariables(engine: ProcessEngine, halTasks: HalResource[], tasks: readonly Task[], names: readonly string[] | null): Promise<void> {
  if (names === null || names.length === 0 || tasks.length === 0) return;
  const scopeIds = distinct(tasks.flatMap((task) => [task.id, task.executionId, task.processInstanceId]));
  const found = await engine.variableInstance.findVariableInstances({ variableNameIn: [...names], variableScopeIdIn: scopeIds });
  const byScope = new Map<string, VariableInstance[]>();
  for (const variable of found) {
    const scope = variable.taskId ?? variable.executionId;
    if (scope === null) continue;
    byScope.set(scope, [...(byScope.get(scope) ?? []), variable]);
  }
  tasks.forEach((task, index) => {
    const seen = new Set<string>();
    const values: HalResource[] = [];
    for (const scope of distinct([task.id, task.executionId, task.processInstanceId])) {
      for (const variable of byScope.get(scope) ?? []) {
        if (seen.has(variable.name)) continue;
        seen.add(variable.name);
        values.push(halVariableValue(variable, scope, task));
      }
    }
    const resource = halTasks[index];
    resource._embedded = { ...(resource._embedded ?? {}), variable: values };
  });
}

/** HalVariableValue: the value as VariableValueDto without deserializing, linked where it lives. */
function halVariableValue(variable: VariableInstance, scope: string, task: Task): HalResource {
  const base = scope === task.id ? `/task/${scope}/localVariables` : scope === task.processInstanceId ? `/process-instance/${scope}/variables` : `/execution/${scope}/localVariables`;
  return { _links: links({ self: `${base}/${variable.name}` }), _embedded: null, name: variable.name, ...toVariableValueDto(variable.value, { deserializeValues: false }) };
}
