import Router from '@koa/router';
import type { Context } from 'koa';
import {
  AuthorizationException,
  NotFoundException,
  NullValueException,
  ProcessEngineException,
  type JobListQuery,
  type JobSuspensionSelector,
} from '@trellis/core';
import { readJsonObject, text, flag, integer, dateValue } from '../body.js';
import { parseRestDate } from '../dto/dates.js';
import { toJobDto } from '../dto/job-dto.js';
import { engineErrorAs500, InvalidRequestException } from '../errors/rest-exception.js';
import { converterError, countCriteria, javaSplit, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { plainText } from '../plain-text.js';
import type { RestContext } from './context.js';

const JOB_QUERY: QuerySpec = {
  params: {
    jobId: 'string', jobIds: 'optionalList', jobDefinitionId: 'string', processInstanceId: 'string', processInstanceIds: 'optionalList',
    executionId: 'string', processDefinitionId: 'string', processDefinitionKey: 'string', activityId: 'string', withRetriesLeft: 'boolean',
    executable: 'boolean', timers: 'boolean', messages: 'boolean', withException: 'boolean', exceptionMessage: 'string',
    failedActivityId: 'string', noRetriesLeft: 'boolean', active: 'boolean', suspended: 'boolean', priorityLowerThanOrEquals: 'long',
    priorityHigherThanOrEquals: 'long', tenantIdIn: 'optionalList', withoutTenantId: 'boolean', includeJobsWithoutTenantId: 'boolean',
  },
  sortBy: ['jobId', 'executionId', 'processInstanceId', 'processDefinitionId', 'processDefinitionKey', 'jobPriority', 'jobRetries', 'jobDueDate', 'tenantId'],
};

interface Condition {
  operator: string;
  value: string;
}

/**
 * The Job group: query, count, get, delete, execute, retries, due date, priority, suspension (one and
 * many) and the stack trace. POST /job/retries (a batch) is in batch-retries-suspension.ts.
 */
export function jobRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;

  const fromQueryString = (query: Record<string, unknown>): JobListQuery => {
    const parsed = parseListQuery<JobListQuery>(query, JOB_QUERY);
    return withConditions(parsed, conditionsFromText('dueDates', query.dueDates), conditionsFromText('createTimes', query.createTimes));
  };
  const fromBody = async (ctx: Context): Promise<JobListQuery> => {
    return { ...jobQueryFromObject(await readJsonObject(ctx, bodyLimit)), ...parsePage(ctx.query) };
  };

  router.get('/job', async (ctx) => {
    ctx.body = (await engine.management.queryJobs(fromQueryString(ctx.query))).map(toJobDto);
  });
  router.post('/job', async (ctx) => {
    ctx.body = (await engine.management.queryJobs(await fromBody(ctx))).map(toJobDto);
  });
  router.get('/job/count', async (ctx) => {
    const query = countCriteria(fromQueryString(ctx.query));
    ctx.body = { count: await engine.management.countJobs(query) };
  });
  router.post('/job/count', async (ctx) => {
    const query = countCriteria(await fromBody(ctx));
    ctx.body = { count: await engine.management.countJobs(query) };
  });

  router.put('/job/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    if (body.jobId !== undefined && body.jobId !== null) {
      throw new InvalidRequestException(400, 'Either jobDefinitionId, processInstanceId, processDefinitionId or processDefinitionKey can be set to update the suspension state.');
    }
    await engine.management.updateJobSuspensionState(suspensionSelector(body, null), suspendedOf(body));
    ctx.status = 204;
  });

  router.get('/job/:id', async (ctx) => {
    const job = await engine.management.getJob(ctx.params.id);
    if (!job) throw new InvalidRequestException(404, `Job with id ${ctx.params.id} does not exist`);
    ctx.body = toJobDto(job);
  });

  router.delete('/job/:id', async (ctx) => {
    try {
      await engine.management.deleteJob(ctx.params.id);
    } catch (error) {
      // Camunda's JobResourceImpl.deleteJob: null value → 404, another engine error → 500 RestException.
      if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
      if (error instanceof NullValueException) throw new InvalidRequestException(404, error.message);
      throw new InvalidRequestException(500, error.message, 'RestException');
    }
    ctx.status = 204;
  });

  router.post('/job/:id/execute', async (ctx) => {
    try {
      await engine.management.executeJob(ctx.params.id);
    } catch (error) {
      // Camunda's JobResourceImpl.executeJob: an engine error → 404, anything else the job threw → 500 RestException.
      if (error instanceof AuthorizationException) throw error;
      if (ProcessEngineException.is(error)) throw new InvalidRequestException(404, error.message);
      throw new InvalidRequestException(500, error instanceof Error ? error.message : String(error), 'RestException');
    }
    ctx.status = 204;
  });

  router.put('/job/:id/retries', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const retries = integer(body.retries);
    let dueDate: Date | null | undefined;
    if ('dueDate' in body) dueDate = dateValue(body.dueDate);
    await engineErrorAs500(() => {
      if (retries === null) throw new NullValueException('retries is null');
      return engine.management.setJobRetries(ctx.params.id, retries, dueDate);
    });
    ctx.status = 204;
  });

  router.put('/job/:id/duedate', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const dueDate = dateValue(body.duedate);
    await engineErrorAs500(() => engine.management.setJobDuedate(ctx.params.id, dueDate, flag(body.cascade)));
    ctx.status = 204;
  });

  router.post('/job/:id/duedate/recalculate', async (ctx) => {
    const { creationDateBased } = parseListQuery<{ creationDateBased?: boolean }>(ctx.query, { params: { creationDateBased: 'boolean' } });
    // Camunda's JobResourceImpl: an unknown job is a 404, any other engine error a 500.
    await engineErrorAs500(async () => {
      try {
        await engine.management.recalculateJobDuedate(ctx.params.id, creationDateBased ?? false);
      } catch (error) {
        if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message, 'InvalidRequestException', error.code);
        throw error;
      }
    });
    ctx.status = 204;
  });

  router.put('/job/:id/priority', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const priority = integer(body.priority);
    if (priority === null) throw new InvalidRequestException(400, `Priority for job '${ctx.params.id}' cannot be null.`, 'RestException');
    try {
      await engine.management.setJobPriority(ctx.params.id, priority);
    } catch (error) {
      if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
      if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message);
      throw new InvalidRequestException(500, error.message, 'RestException');
    }
    ctx.status = 204;
  });

  router.put('/job/:id/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    await engine.management.updateJobSuspensionState(suspensionSelector(body, ctx.params.id), suspendedOf(body));
    ctx.status = 204;
  });

  router.get('/job/:id/stacktrace', (ctx) => plainText(ctx, () => engine.management.getJobExceptionStacktrace(ctx.params.id)));
}

/**
 * Camunda's JobSuspensionStateDto: exactly one of the job (the path's), a job definition, a process
 * instance, a process definition id or key, each counted when given at all; by key, the tenant id
 * when given, else without tenant when asked.
 */
function suspensionSelector(body: Record<string, unknown>, jobId: string | null): JobSuspensionSelector {
  const selector: JobSuspensionSelector = jobId === null ? {} : { jobId };
  for (const name of ['jobDefinitionId', 'processInstanceId', 'processDefinitionId', 'processDefinitionKey'] as const) {
    const value = text(body[name]);
    if (value !== null) selector[name] = value;
  }
  const given = Object.keys(selector).length;
  if (given > 1) {
    throw new InvalidRequestException(400, 'Only one of jobId, jobDefinitionId, processInstanceId, processDefinitionId or processDefinitionKey should be set to update the suspension state.');
  }
  if (given === 0) {
    throw new InvalidRequestException(400, 'Either jobId, jobDefinitionId, processInstanceId, processDefinitionId or processDefinitionKey should be set to update the suspension state.');
  }
  if (selector.processDefinitionKey !== undefined) {
    const tenantId = text(body.processDefinitionTenantId);
    if (tenantId !== null) selector.processDefinitionTenantId = tenantId;
    else if (flag(body.processDefinitionWithoutTenantId)) selector.processDefinitionTenantId = null;
  }
  return selector;
}

/** Camunda's SuspensionStateDto: `suspended` is a primitive boolean, absent means false (activate). */
function suspendedOf(body: Record<string, unknown>): boolean {
  return flag(body.suspended);
}

/** A JobQueryDto given as JSON (POST /job, and `jobQuery` of POST /job/retries) → the engine query. */
export function jobQueryFromObject(body: Record<string, unknown>): JobListQuery {
  return withConditions(parseBodyQuery<JobListQuery>(body, JOB_QUERY), conditionsFromBody(body.dueDates), conditionsFromBody(body.createTimes));
}

/** Camunda's ConditionListConverter: `gt_<date>,lt_<date>`, split as Java splits; its error wrapped as the DTO wraps it. */
function conditionsFromText(param: string, raw: unknown): Condition[] | undefined {
  const value = Array.isArray(raw) ? raw[0] : raw;
  if (value === undefined) return undefined;
  const text = String(value);
  return text.split(',').map((expression) => {
    const tuple = javaSplit(expression, '_');
    if (tuple.length !== 2) throw converterError(param, text, 'condition query parameter has to have format OPERATOR_VALUE.');
    return { operator: tuple[0]!, value: tuple[1]! };
  });
}

function conditionsFromBody(raw: unknown): Condition[] | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (!Array.isArray(raw)) throw new InvalidRequestException(400, '');
  return raw.map((entry: { operator?: unknown; value?: unknown }) => ({ operator: String(entry?.operator), value: String(entry?.value) }));
}

/** dueDates / createTimes as JobQueryDto.applyFilters reads them: gt → strictly after, lt → strictly before. */
function withConditions(query: JobListQuery, dueDates: Condition[] | undefined, createTimes: Condition[] | undefined): JobListQuery {
  const result: JobListQuery = { ...query };
  // JobQueryDto.applyFilters reads timers and messages before the date conditions.
  if (result.timers && result.messages) throw new InvalidRequestException(400, 'Parameter timers cannot be used together with parameter messages.');
  for (const { operator, value } of dueDates ?? []) {
    const date = conditionDate(value, 'Invalid due date format');
    if (operator === 'gt') result.dueDateAfter = date;
    else if (operator === 'lt') result.dueDateBefore = date;
    else throw new InvalidRequestException(400, `Invalid due date comparator specified: ${operator}`);
  }
  for (const { operator, value } of createTimes ?? []) {
    const date = conditionDate(value, 'Invalid create time format');
    if (operator === 'gt') result.createdAfter = date;
    else if (operator === 'lt') result.createdBefore = date;
    else throw new InvalidRequestException(400, `Invalid create time comparator specified: ${operator}`);
  }
  return result;
}

function conditionDate(value: string, prefix: string): Date {
  const date = parseRestDate(value);
  if (!date) throw new InvalidRequestException(400, `${prefix}: Cannot convert value "${value}" to java type java.util.Date`);
  return date;
}
