import Router from '@koa/router';
import {
  BadUserRequestException,
  NotFoundException,
  type ExternalTaskQuery,
  type ExternalTaskSelection,
  type FetchAndLockRequest,
  type FetchTopic,
  type LockedExternalTask,
  type TypedValue,
} from '@trellis/core';
import type { Context } from 'koa';
import { flag, mapNested, objectOf, integer, readJsonBody, readJsonObject, text } from '../body.js';
import { toExternalTaskDto, toLockedExternalTaskDto } from '../dto/external-task-dto.js';
import { variablesFromDto } from '../dto/variables-map.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { FetchAndLockCancelled, FetchAndLockHandler, MAX_ASYNC_RESPONSE_TIMEOUT } from '../fetch-and-lock-handler.js';
import { countCriteria, directionMissing, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { plainText } from '../plain-text.js';
import type { RestContext } from './context.js';
import { toBatchDto } from './batch.js';
import { instanceQueryOf } from './process-instance.js';
import { historicQueryOf } from './historic-selection.js';

const SORT_FIELDS = ['id', 'lockExpirationTime', 'processInstanceId', 'processDefinitionId', 'processDefinitionKey', 'tenantId', 'taskPriority', 'createTime'];

const EXTERNAL_TASK_QUERY: QuerySpec = {
  params: {
    externalTaskId: 'string', externalTaskIdIn: 'optionalList', topicName: 'string', workerId: 'string',
    locked: 'boolean', notLocked: 'boolean', withRetriesLeft: 'boolean', noRetriesLeft: 'boolean',
    lockExpirationAfter: 'date', lockExpirationBefore: 'date', activityId: 'string', activityIdIn: 'optionalList',
    executionId: 'string', processInstanceId: 'string', processInstanceIdIn: 'optionalList', processDefinitionId: 'string',
    tenantIdIn: 'optionalList', active: 'boolean', suspended: 'boolean',
    priorityHigherThanOrEquals: 'long', priorityLowerThanOrEquals: 'long',
  },
  sortBy: SORT_FIELDS,
};

/** The External Task group: queries, fetchAndLock (with long polling), complete, failure, BPMN errors, locks, retries, priority. */
export function externalTaskRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;
  const handler = (rest.fetchAndLock ??= new FetchAndLockHandler(engine));

  const list = async (query: ExternalTaskQuery) => (await engine.externalTask.findExternalTasks(query)).map(toExternalTaskDto);
  const count = async (listQuery: ExternalTaskQuery) => ({
    count: await engine.externalTask.countExternalTasks(countCriteria(listQuery)),
  });
  const fromBody = async (ctx: Context) => ({ ...queryFromBody(await readJsonObject(ctx, bodyLimit)), ...parsePage(ctx.query) });

  router.get('/external-task', async (ctx) => {
    ctx.body = await list(parseListQuery<ExternalTaskQuery>(ctx.query, EXTERNAL_TASK_QUERY));
  });
  router.post('/external-task', async (ctx) => {
    ctx.body = await list(await fromBody(ctx));
  });
  router.get('/external-task/count', async (ctx) => {
    ctx.body = await count(parseListQuery<ExternalTaskQuery>(ctx.query, EXTERNAL_TASK_QUERY));
  });
  router.post('/external-task/count', async (ctx) => {
    ctx.body = await count(await fromBody(ctx));
  });

  router.get('/external-task/topic-names', async (ctx) => {
    const flags = parseListQuery<{ withLockedTasks?: boolean; withUnlockedTasks?: boolean; withRetriesLeft?: boolean }>(ctx.query, {
      params: { withLockedTasks: 'boolean', withUnlockedTasks: 'boolean', withRetriesLeft: 'boolean' },
    });
    ctx.body = await engine.externalTask.getTopicNames(flags);
  });

  router.post('/external-task/fetchAndLock', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const timeout = integer(body.asyncResponseTimeout);
    if (timeout !== null && timeout > MAX_ASYNC_RESPONSE_TIMEOUT) {
      throw new InvalidRequestException(
        400,
        `The asynchronous response timeout cannot be set to a value greater than ${MAX_ASYNC_RESPONSE_TIMEOUT} milliseconds`,
      );
    }
    const { request, deserializeValues } = fetchRequestFromBody(body);
    let tasks: LockedExternalTask[];
    const authentication = engine.currentAuthentication();
    try {
      tasks = await handler.fetchAndLock(request, timeout, authentication, (abandon) => {
        // A client that disconnects frees its place in the queue.
        ctx.res.once('close', () => {
          if (!ctx.res.writableEnded) abandon();
        });
      });
    } catch (error) {
      if (error instanceof FetchAndLockCancelled) {
        // Replaced by a newer request of its worker: Camunda cancels the JAX-RS AsyncResponse, a 503
        // without a body (the null body first: Koa would otherwise turn it into a 204).
        ctx.body = null;
        ctx.status = 503;
        return;
      }
      // Shutting down: let the connection go too, so that closing the server need not wait for it.
      if (handler.isClosed) ctx.set('Connection', 'close');
      throw error;
    }
    // The client left while the tasks were being locked: nobody would receive them.
    if (ctx.req.socket?.destroyed) {
      handler.unlockUndelivered(tasks, authentication);
      return;
    }
    ctx.body = tasks.map((task) => toLockedExternalTaskDto(task, deserializeValues.get(task.topicName) ?? false));
  });

  router.put('/external-task/retries', async (ctx) => {
    const { selection, retries } = retriesFromBody(await readJsonObject(ctx, bodyLimit));
    await engineCall(() => engine.externalTask.setRetriesFor(selection, retries), 'InvalidRequestException');
    ctx.status = 204;
  });

  router.post('/external-task/retries-async', async (ctx) => {
    const { selection, retries } = retriesFromBody(await readJsonObject(ctx, bodyLimit));
    ctx.body = toBatchDto(await engineCall(() => engine.asyncRetries.setExternalTaskRetriesAsync(selection, retries), 'InvalidRequestException'));
  });

  router.get('/external-task/:id', async (ctx) => {
    const task = await engine.externalTask.getExternalTask(ctx.params.id);
    if (!task) throw new InvalidRequestException(404, `External task with id ${ctx.params.id} does not exist`, 'RestException');
    ctx.body = toExternalTaskDto(task);
  });

  router.get('/external-task/:id/errorDetails', (ctx) => plainText(ctx, () => engine.externalTask.getErrorDetails(ctx.params.id), false));

  router.post('/external-task/:id/complete', async (ctx) => {
    const { id } = ctx.params;
    const body = await readJsonObject(ctx, bodyLimit);
    const variables = variablesFromDto(body.variables, `Cannot complete external task ${id}`);
    const localVariables = variablesFromDto(body.localVariables, `Cannot complete external task ${id}`);
    await engineCall(() => engine.externalTask.complete(id, text(body.workerId), variables, localVariables));
    ctx.status = 204;
  });

  router.post('/external-task/:id/failure', async (ctx) => {
    const { id } = ctx.params;
    const body = await readJsonObject(ctx, bodyLimit);
    const prefix = `Cannot report failure of external task ${id}`;
    await engineCall(() =>
      engine.externalTask.handleFailure(id, {
        workerId: text(body.workerId),
        errorMessage: text(body.errorMessage),
        errorDetails: text(body.errorDetails),
        // Primitive fields in Camunda's DTO: missing means 0.
        retries: integer(body.retries) ?? 0,
        retryTimeout: integer(body.retryTimeout) ?? 0,
        variables: variablesFromDto(body.variables, prefix),
        localVariables: variablesFromDto(body.localVariables, prefix),
      }),
    );
    ctx.status = 204;
  });

  router.post('/external-task/:id/bpmnError', async (ctx) => {
    const { id } = ctx.params;
    const body = await readJsonObject(ctx, bodyLimit);
    const variables: Record<string, TypedValue> = variablesFromDto(body.variables, `Cannot report BPMN error of external task ${id}`);
    await engineCall(() => engine.externalTask.handleBpmnError(id, text(body.workerId), text(body.errorCode), text(body.errorMessage), variables));
    ctx.status = 204;
  });

  router.post('/external-task/:id/lock', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    await engineCall(() => engine.externalTask.lock(ctx.params.id, text(body.workerId), integer(body.lockDuration) ?? 0));
    ctx.status = 204;
  });

  router.post('/external-task/:id/extendLock', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    await engineCall(() => engine.externalTask.extendLock(ctx.params.id, text(body.workerId), integer(body.newDuration) ?? 0));
    ctx.status = 204;
  });

  router.post('/external-task/:id/unlock', async (ctx) => {
    // The official client sends no body and no content type.
    await readJsonBody(ctx, bodyLimit, { optional: true });
    await engineCall(() => engine.externalTask.unlock(ctx.params.id));
    ctx.status = 204;
  });

  router.put('/external-task/:id/retries', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const retries = integer(body.retries);
    if (retries === null) throw new InvalidRequestException(400, 'The number of retries cannot be null.');
    await notFoundOnly(() => engine.externalTask.setRetries(ctx.params.id, retries));
    ctx.status = 204;
  });

  router.put('/external-task/:id/priority', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const priority = integer(body.priority);
    if (priority === null) throw new InvalidRequestException(400, 'The priority cannot be null.');
    await notFoundOnly(() => engine.externalTask.setPriority(ctx.params.id, priority));
    ctx.status = 204;
  });
}

/**
 * Camunda's ExternalTaskResourceImpl: an unknown task is a 404, another bad request a 400, both
 * as RestException carrying the engine's message and code; other engine errors pass through (500).
 */
async function engineCall<T>(call: () => Promise<T>, badRequestType: 'RestException' | 'InvalidRequestException' = 'RestException'): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message, badRequestType, error.code);
    if (error instanceof BadUserRequestException) throw new InvalidRequestException(400, error.message, badRequestType, error.code);
    throw error;
  }
}

/** Only the unknown task becomes a 404 RestException; a BadUserRequestException stays itself (400). */
async function notFoundOnly<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message, 'RestException', error.code);
    throw error;
  }
}


function stringList(value: unknown, name: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value) || value.some((each) => typeof each !== 'string')) throw new InvalidRequestException(400, `Cannot set '${name}': not a list of strings`);
  return value as string[];
}

/** A POST /external-task body (also `externalTaskQuery` of PUT /external-task/retries) → the engine query. */
const queryFromBody = (body: Record<string, unknown>) => parseBodyQuery<ExternalTaskQuery>(body, EXTERNAL_TASK_QUERY);

/**
 * A SetRetriesForExternalTasksDto (PUT /external-task/retries and POST /external-task/retries-async) → the
 * engine's selection and retries; a historicProcessInstanceQuery adds the tasks of the instances it finds.
 */
function retriesFromBody(body: Record<string, unknown>): { selection: ExternalTaskSelection; retries: number } {
  const selection: ExternalTaskSelection = {
    externalTaskIds: stringList(body.externalTaskIds, 'externalTaskIds'),
    processInstanceIds: stringList(body.processInstanceIds, 'processInstanceIds'),
    externalTaskQuery: mapNested(body.externalTaskQuery, queryFromBody),
    processInstanceQuery: instanceQueryOf(body),
    historicProcessInstanceQuery: historicQueryOf(body),
  };
  const retries = integer(body.retries);
  if (retries === null) throw new InvalidRequestException(400, 'The number of retries cannot be null.');
  return { selection, retries };
}

/** The fetchAndLock body → the engine request, plus what the answer needs per topic. */
function fetchRequestFromBody(body: Record<string, unknown>) {
  const deserializeValues = new Map<string, boolean>();
  const topics: FetchTopic[] = (Array.isArray(body.topics) ? body.topics : []).map((raw: unknown) => {
    const entry = objectOf(raw);
    const topic = Object.fromEntries(Object.entries(entry).filter(([, value]) => value !== null)) as Partial<FetchTopic>;
    // Missing: null, which the engine refuses ('' is a topic name, as in Camunda).
    const topicName = text(entry.topicName);
    if (entry.variables !== undefined && entry.variables !== null && !Array.isArray(entry.variables)) throw new InvalidRequestException(400, '');
    if (topicName !== null) deserializeValues.set(topicName, flag(entry.deserializeValues));
    return {
      ...topic,
      topicName,
      lockDuration: integer(entry.lockDuration) ?? 0,
      variables: Array.isArray(entry.variables) ? (entry.variables as string[]) : null,
      processVariables: objectOf(entry.processVariables),
    } as FetchTopic;
  });
  const request: FetchAndLockRequest = {
    workerId: text(body.workerId),
    maxTasks: integer(body.maxTasks) ?? 0,
    usePriority: flag(body.usePriority),
    topics,
    sorting: fetchSorting(body.sorting),
  };
  return { request, deserializeValues };
}

/**
 * fetchAndLock sorting (Camunda's SortMapper): only createTime, asc or desc; an entry without a
 * direction fails as its builder does once every entry is applied.
 */
function fetchSorting(sorting: unknown): FetchAndLockRequest['sorting'] {
  if (sorting === undefined || sorting === null) return undefined;
  if (!Array.isArray(sorting)) throw new InvalidRequestException(400, '');
  const entries = sorting.map((raw: unknown) => {
    const entry = objectOf(raw);
    if (entry.sortBy !== 'createTime') throw new InvalidRequestException(400, `Cannot set query sortBy parameter to value ${String(entry.sortBy)}`);
    if (entry.sortOrder === undefined || entry.sortOrder === null) return { sortBy: 'createTime' as const, sortOrder: null };
    if (entry.sortOrder !== 'asc' && entry.sortOrder !== 'desc') {
      throw new InvalidRequestException(400, `Cannot set query sortOrder parameter to value ${String(entry.sortOrder)}`);
    }
    return { sortBy: 'createTime' as const, sortOrder: entry.sortOrder };
  });
  if (entries.some((entry) => entry.sortOrder === null)) throw directionMissing();
  return entries as NonNullable<FetchAndLockRequest['sorting']>;
}
