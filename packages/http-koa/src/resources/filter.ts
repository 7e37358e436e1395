import type Router from '@koa/router';
import type { Context } from 'koa';
import { NotValidException, NullValueException, ProcessEngineException, Resources, type Filter, type FilterQuery, type TaskQuery } from '@trellis/core';
import { readJsonText, readJsonObject, text } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { optionLinks } from '../dto/links.js';
import { toTaskDto } from '../dto/runtime-dto.js';
import { EMPTY_HAL_RESOURCE, embedFilterVariables, emptyHalCollection, halTaskList, halTaskWithLinks, sendHal, taskListVariant } from '../dto/hal.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { baseUrlOf, type RestContext } from './context.js';
import { taskQueryDto } from './task.js';

const FILTER_QUERY: QuerySpec = {
  params: { filterId: 'string', resourceType: 'string', name: 'string', nameLike: 'string', owner: 'string' },
  sortBy: ['filterId', 'resourceType', 'name', 'owner'],
};
/** The only resource type Camunda runs filters of. */
const TASK = 'Task';

/**
 * The Filter group (Camunda's FilterRestServiceImpl and FilterResourceImpl): saved task queries,
 * their CRUD, and running them — as saved or extended by a TaskQueryDto body — as JSON task lists,
 * counts and single results, as JSON or (Tasklist's) `application/hal+json` with the filter's
 * `properties.variables` embedded in each task.
 */
export function filterRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  /** The filter as the caller may read it; Camunda's 404 when there is none. */
  async function readable(id: string): Promise<Filter> {
    const filter = await engine.filter.getFilter(id);
    if (!filter) throw filterNotFound(id);
    return filter;
  }

  /** The request's filter, looked up once: by an extending body first when there is one, else when the query runs. */
  const lookupOnce = (id: string, onError?: (error: unknown) => never) => {
    let found: Promise<Filter> | undefined;
    return () => (found ??= onError ? readable(id).catch(onError) : readable(id));
  };

  /** What the filter's saved query, extended by `extending` (when given), finds. */
  async function run<T>(filter: Filter, extending: Record<string, unknown> | null, execute: (query: TaskQuery) => Promise<T>): Promise<T> {
    const saved = taskQueryDto(filter.query, true);
    const query = extending === null || Object.keys(extending).length === 0 ? saved : extend(saved, taskQueryDto(extending, false));
    try {
      return await execute(query);
    } catch (error) {
      if (error instanceof NotValidException) throw new InvalidRequestException(400, 'Filter cannot be extended by an invalid query');
      throw error;
    }
  }

  const itemCountOf = (filter: Filter) => engine.task.countTasks(taskQueryDto(filter.query, true));

  router.get('/filter', async (ctx) => {
    const filters = await engine.filter.findFilters(parseListQuery<FilterQuery>(ctx.query, FILTER_QUERY));
    const withCount = itemCountAsked(ctx.query.itemCount);
    ctx.body = await Promise.all(filters.map(async (filter) => toFilterDto(filter, withCount ? await itemCountOf(filter) : undefined)));
  });

  router.get('/filter/count', async (ctx) => {
    const criteria = countCriteria(parseListQuery<FilterQuery>(ctx.query, FILTER_QUERY));
    ctx.body = { count: await engine.filter.countFilters(criteria) };
  });

  router.options('/filter', async (ctx) => {
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['list', 'GET', '/filter'],
      ['count', 'GET', '/filter/count'],
      ['create', 'POST', '/filter/create', await engine.authorization.mayOn('CREATE', Resources.FILTER)],
    ]);
  });

  router.options('/filter/:id', async (ctx) => {
    const id = ctx.params.id;
    const read = await engine.authorization.mayOn('READ', Resources.FILTER, id);
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['self', 'GET', `/filter/${id}`, read],
      ['singleResult', 'GET', `/filter/${id}/singleResult`, read],
      ['singleResult', 'POST', `/filter/${id}/singleResult`, read],
      ['list', 'GET', `/filter/${id}/list`, read],
      ['list', 'POST', `/filter/${id}/list`, read],
      ['count', 'GET', `/filter/${id}/count`, read],
      ['count', 'POST', `/filter/${id}/count`, read],
      ['delete', 'DELETE', `/filter/${id}`, await engine.authorization.mayOn('DELETE', Resources.FILTER, id)],
      ['update', 'PUT', `/filter/${id}`, await engine.authorization.mayOn('UPDATE', Resources.FILTER, id)],
    ]);
  });

  router.post('/filter/create', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const resourceType = text(body.resourceType);
    if (resourceType !== TASK) throw new InvalidRequestException(400, `Unable to create filter with invalid resource type '${resourceType}'`);
    const filter = await invalidContentAs400('Unable to create filter with invalid content', async () =>
      engine.filter.createFilter({ resourceType, ...filterFields(body) }, checkTaskQuery),
    );
    // (Camunda's own answer shows null properties when none were sent; the 7.22 contract has an object, as stored.)
    ctx.body = toFilterDto(filter);
  });

  router.get('/filter/:id', async (ctx) => {
    const filter = await readable(ctx.params.id);
    ctx.body = toFilterDto(filter, itemCountAsked(ctx.query.itemCount) ? await itemCountOf(filter) : undefined);
  });

  router.put('/filter/:id', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const filter = await readable(ctx.params.id);
    const resourceType = text(body.resourceType);
    if (resourceType !== null && resourceType !== filter.resourceType) {
      throw new InvalidRequestException(400, `Unable to update filter from resource type '${filter.resourceType}' to '${resourceType}'`);
    }
    await invalidContentAs400('Unable to update filter with invalid content', () => engine.filter.updateFilter(ctx.params.id, filterFields(body), checkTaskQuery));
    ctx.status = 204;
  });

  router.delete('/filter/:id', async (ctx) => {
    try {
      await engine.filter.deleteFilter(ctx.params.id);
    } catch (error) {
      if (error instanceof NullValueException) throw filterNotFound(ctx.params.id);
      throw error;
    }
    ctx.status = 204;
  });

  for (const method of ['get', 'post'] as const) {
    router[method]('/filter/:id/list', async (ctx) => {
      const variant = taskListVariant(ctx);
      const lookup = lookupOnce(ctx.params.id);
      const extending = method === 'post' ? await extendingBody(ctx, rest.bodyLimit, lookup) : null;
      const page = parsePage(ctx.query);
      const filter = await lookup();
      const tasks = await run(filter, extending, (query) => engine.task.findTasks({ ...query, ...page }));
      if (variant === 'json') {
        ctx.body = tasks.map(toTaskDto);
        return;
      }
      const count = await run(filter, extending, (query) => engine.task.countTasks(query));
      if (tasks.length === 0) {
        sendHal(ctx, emptyHalCollection(count));
        return;
      }
      // Camunda's AbstractExecuteFilterCmd initializes the form keys.
      const { halTasks, list } = await halTaskList(engine, tasks, count);
      await embedFilterVariables(engine, halTasks, tasks, variableNamesOf(filter));
      sendHal(ctx, list);
    });

    router[method]('/filter/:id/count', async (ctx) => {
      const lookup = lookupOnce(ctx.params.id);
      const extending = method === 'post' ? await extendingBody(ctx, rest.bodyLimit, lookup) : null;
      ctx.body = { count: await run(await lookup(), extending, (query) => engine.task.countTasks(query)) };
    });

    router[method]('/filter/:id/singleResult', async (ctx) => {
      const variant = taskListVariant(ctx);
      // Camunda answers any engine failure here (several results included, and a denied READ on the filter,
      // an AuthorizationException) with this 400.
      const invalidResult = (error: unknown) => {
        if (ProcessEngineException.is(error) && !(error instanceof NotValidException)) throw new InvalidRequestException(400, 'Filter does not returns a valid single result');
        throw error;
      };
      const lookup = lookupOnce(ctx.params.id, invalidResult);
      const extending = method === 'post' ? await extendingBody(ctx, rest.bodyLimit, lookup) : null;
      const filter = await lookup();
      const tasks = await run(filter, extending, (query) => engine.task.findTasks({ ...query, maxResults: 2 })).catch(invalidResult);
      if (tasks.length > 1) throw new InvalidRequestException(400, 'Filter does not returns a valid single result');
      if (variant === 'hal') {
        if (tasks.length === 0) {
          sendHal(ctx, EMPTY_HAL_RESOURCE);
          return;
        }
        const task = await halTaskWithLinks(engine, tasks[0]);
        await embedFilterVariables(engine, [task], tasks, variableNamesOf(filter));
        sendHal(ctx, task);
        return;
      }
      if (tasks.length === 0) {
        ctx.status = 204;
        return;
      }
      ctx.body = toTaskDto(tasks[0]);
    });
  }
}

const filterNotFound = (id: string) => new InvalidRequestException(404, `Filter with id '${id}' does not exist.`);

/** The `itemCount` query parameter, a JAX-RS Boolean (Boolean.valueOf: `true` in any case; the first of several). */
const itemCountAsked = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value)?.toLowerCase() === 'true';

/** Camunda's FilterDto; `itemCount` only when asked for. */
function toFilterDto(filter: Filter, itemCount?: number) {
  return {
    id: filter.id,
    resourceType: filter.resourceType,
    name: filter.name,
    owner: filter.owner,
    query: savedQueryDto(filter.query),
    properties: filter.properties ?? {},
    ...(itemCount === undefined ? {} : { itemCount }),
  };
}

/**
 * A saved query as Camunda shows it (FilterDto.fromFilter: TaskQueryDto.fromQuery of the query it
 * stored): read as the filter runs it, then written back in Camunda's names — deprecated spellings
 * under their current ones, dates in the REST format, delegation states in capitals, the variable
 * lists always present. A query saved before a rule refused it shows as it was sent.
 */
function savedQueryDto(query: Record<string, unknown>): Record<string, unknown> {
  let parsed: TaskQuery;
  try {
    parsed = taskQueryDto(query, true);
  } catch {
    return query;
  }
  return taskQueryToDto(parsed, true);
}

/** The criteria TaskQueryDto.fromQuery copies as they are, in its order (a few Trellis keeps beyond it after them). */
const COPIED_CRITERIA = [
  'activityInstanceIdIn', 'candidateUser', 'candidateGroup', 'candidateGroupLike', 'candidateGroups', 'processInstanceBusinessKey',
  'processInstanceBusinessKeyLike', 'processDefinitionKey', 'processDefinitionKeyIn', 'processDefinitionId', 'executionId', 'processDefinitionName',
  'processDefinitionNameLike', 'processInstanceId', 'processInstanceIdIn', 'assignee', 'assigneeIn', 'assigneeLike', 'taskDefinitionKey',
  'taskDefinitionKeyIn', 'taskDefinitionKeyLike', 'description', 'descriptionLike', 'involvedUser', 'maxPriority', 'minPriority', 'name',
  'nameNotEqual', 'nameLike', 'nameNotLike', 'owner', 'priority', 'parentTaskId', 'delegationState',
  // Criteria Camunda stores and runs but leaves out of what it shows; Trellis shows what it runs.
  'taskId', 'taskIdIn', 'assigneeNotIn', 'processInstanceBusinessKeyIn', 'tenantIdIn',
] as const;

/** Flags shown only when set, as Camunda's stored query keeps them. */
const SET_FLAGS = [
  'includeAssignedTasks', 'assigned', 'unassigned', 'withoutDueDate', 'withoutTenantId', 'active', 'suspended',
  // Kept and run by Trellis (Camunda drops the last three when it stores a query, and shows none of them).
  'withCandidateGroups', 'withoutCandidateGroups', 'withCandidateUsers', 'withoutCandidateUsers', 'variableNamesIgnoreCase',
  'variableValuesIgnoreCase', 'withCommentAttachmentInfo',
] as const;

const DATE_CRITERIA = ['dueAfter', 'dueBefore', 'dueDate', 'followUpAfter', 'followUpDate', 'createdAfter', 'createdBefore', 'createdOn', 'updatedAfter'] as const;

/** TaskQueryDto.fromQuery: or-queries (of the top query only), criteria, variable conditions, sorting and expressions. */
function taskQueryToDto(query: TaskQuery, top: boolean): Record<string, unknown> {
  const dto: Record<string, unknown> = {};
  if (top) dto.orQueries = (query.orQueries ?? []).map((orQuery) => taskQueryToDto(orQuery, false));
  for (const key of COPIED_CRITERIA) if (query[key] !== undefined && query[key] !== null) dto[key] = query[key];
  for (const key of SET_FLAGS) if (query[key] === true) dto[key] = true;
  for (const key of DATE_CRITERIA) if (query[key]) dto[key] = formatRestDate(query[key]);
  // Camunda keeps one follow-up bound, marked when tasks without a follow-up date count too.
  if (query.followUpBeforeOrNotExistent) dto.followUpBeforeOrNotExistent = formatRestDate(query.followUpBeforeOrNotExistent);
  else if (query.followUpBefore) dto.followUpBefore = formatRestDate(query.followUpBefore);
  const conditions = (list: TaskQuery['taskVariables']) =>
    (list ?? []).map(({ name, operator, value }) => ({ name, operator, value: value instanceof Date ? formatRestDate(value) : value }));
  dto.processVariables = conditions(query.processVariables);
  dto.taskVariables = conditions(query.taskVariables);
  dto.caseInstanceVariables = [];
  if (query.sorting?.length) dto.sorting = query.sorting.map(({ sortBy, sortOrder, parameters }) => (parameters ? { sortBy, sortOrder, parameters } : { sortBy, sortOrder }));
  return { ...dto, ...query.expressions };
}

/** What FilterDto.updateFilter sets: name, owner, the query (checked as a TaskQueryDto by checkTaskQuery, when the engine saves it) and the properties. */
function filterFields(body: Record<string, unknown>) {
  const query = body.query;
  if (query !== undefined && query !== null && (typeof query !== 'object' || Array.isArray(query))) throw new InvalidRequestException(400, `Invalid query for resource type '${TASK}'`);
  const properties = body.properties;
  return {
    name: text(body.name) ?? '',
    owner: text(body.owner),
    query: (query ?? null) as Record<string, unknown>,
    properties: properties && typeof properties === 'object' && !Array.isArray(properties) ? (properties as Record<string, unknown>) : null,
  };
}

/** A filter's saved query read as Camunda's TaskQueryDto.toQuery reads it (its failures are the request's). */
const checkTaskQuery = (query: Record<string, unknown>) => taskQueryDto(query, true);

async function invalidContentAs400<T>(message: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotValidException) throw new InvalidRequestException(400, message);
    throw error;
  }
}

/**
 * A POST body extending the saved query, as Camunda's FilterResourceImpl.convertQuery reads it:
 * none, blank or `{}` extends nothing; otherwise the filter must exist (`lookup`, its 404 first),
 * then the text must be a TaskQueryDto object (400 "Invalid query …" when it is not even JSON).
 */
async function extendingBody(ctx: Context, limit: number, lookup: () => Promise<unknown>): Promise<Record<string, unknown> | null> {
  const raw = await readJsonText(ctx, limit, { optional: true });
  if (raw === null || /^\s*(\{\s*\})?\s*$/.test(raw)) return null;
  await lookup();
  let body: unknown;
  try {
    body = JSON.parse(raw);
  } catch {
    body = undefined;
  }
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw new InvalidRequestException(400, `Invalid query for resource type '${TASK}'`);
  return body as Record<string, unknown>;
}

/** The variable names of the filter's `properties.variables` (a list of `{name, label}`); null when it has none. */
function variableNamesOf(filter: Filter): string[] | null {
  const variables = filter.properties?.variables;
  if (variables === undefined || variables === null) return null;
  if (!Array.isArray(variables) || variables.some((each) => each === null || typeof each !== 'object')) {
    throw new InvalidRequestException(500, "Filter property 'variables' has to be a list of variable definitions with a 'name' property");
  }
  return variables.map((each) => (each as { name?: unknown }).name).filter((name): name is string => typeof name === 'string');
}

/**
 * Camunda's TaskQueryImpl.extend, in brief: the extending query's criteria win, flags hold when
 * either query sets them — but a suspension state the extending query sets replaces the saved one —,
 * variable conditions add up (one of the same name and kind replaced), or-queries and sortings add up
 * (the saved ones first), and the saved expressions stay (evaluated last, they win); it copies no
 * `processInstanceBusinessKeyIn` or `withCommentAttachmentInfo`, of either query.
 */
function extend(saved: TaskQuery, extending: TaskQuery): TaskQuery {
  const merged: Record<string, unknown> = { ...saved };
  for (const [key, value] of Object.entries(extending)) {
    if (value === undefined || key === 'expressions' || key === 'sorting') continue;
    merged[key] = typeof value === 'boolean' ? value || (saved as Record<string, unknown>)[key] === true : value;
  }
  for (const name of ['taskVariables', 'processVariables'] as const) {
    if (saved[name] && extending[name]) {
      const replaced = new Set(extending[name]!.map((condition) => condition.name));
      merged[name] = [...saved[name]!.filter((condition) => !replaced.has(condition.name)), ...extending[name]!];
    }
  }
  if (extending.active || extending.suspended) {
    merged.active = extending.active === true;
    merged.suspended = extending.suspended === true;
  }
  if (saved.orQueries || extending.orQueries) merged.orQueries = [...(saved.orQueries ?? []), ...(extending.orQueries ?? [])];
  if (saved.sorting || extending.sorting) merged.sorting = [...(saved.sorting ?? []), ...(extending.sorting ?? [])];
  if (saved.expressions || extending.expressions) merged.expressions = { ...saved.expressions, ...extending.expressions };
  // Criteria extend never copies into the query it builds: gone from both, whichever set them.
  for (const dropped of NOT_EXTENDED) delete merged[dropped];
  return merged as TaskQuery;
}

/** TaskQuery criteria Camunda's TaskQueryImpl.extend leaves out of the query it builds. */
const NOT_EXTENDED = ['processInstanceBusinessKeyIn', 'withCommentAttachmentInfo'] as const;
