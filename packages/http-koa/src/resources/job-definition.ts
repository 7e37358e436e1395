import Router from '@koa/router';
import type { JobDefinition, JobDefinitionQuery } from '@trellis/core';
import type { Context } from 'koa';
import { AuthorizationException, NotFoundException, ProcessEngineException } from '@trellis/core';
import { readJsonObject, text, flag, integer, dateValue } from '../body.js';
import { engineErrorAs500, InvalidRequestException } from '../errors/rest-exception.js';
import { suspensionDateOf } from './process-definition-suspension.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { type RestContext } from './context.js';

const JOB_DEFINITION_QUERY: QuerySpec = {
  params: {
    jobDefinitionId: 'string', activityIdIn: 'stringArray', processDefinitionId: 'string', processDefinitionKey: 'string', jobType: 'string',
    jobConfiguration: 'string', active: 'boolean', suspended: 'boolean', withOverridingJobPriority: 'boolean', tenantIdIn: 'optionalList',
    withoutTenantId: 'boolean', includeJobDefinitionsWithoutTenantId: 'boolean',
  },
  sortBy: ['jobDefinitionId', 'activityId', 'processDefinitionId', 'processDefinitionKey', 'jobType', 'jobConfiguration', 'tenantId'],
};

const toJobDefinitionDto = (definition: JobDefinition) => ({
  id: definition.id,
  processDefinitionId: definition.processDefinitionId,
  processDefinitionKey: definition.processDefinitionKey,
  activityId: definition.activityId,
  jobType: definition.jobType,
  jobConfiguration: definition.jobConfiguration,
  overridingJobPriority: definition.overridingJobPriority,
  suspended: definition.suspended,
  tenantId: definition.tenantId,
  deploymentId: definition.deploymentId,
});

/** The Job Definition group: query, get, suspension (one and many, now or at a date), overriding priority, retries. */
export function jobDefinitionRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const fromBody = async (ctx: Context) => ({
    ...parseBodyQuery<JobDefinitionQuery>(await readJsonObject(ctx, rest.bodyLimit), JOB_DEFINITION_QUERY),
    ...parsePage(ctx.query),
  });

  router.get('/job-definition', async (ctx) => {
    ctx.body = (await engine.jobDefinition.findJobDefinitions(parseListQuery<JobDefinitionQuery>(ctx.query, JOB_DEFINITION_QUERY))).map(toJobDefinitionDto);
  });
  router.post('/job-definition', async (ctx) => {
    ctx.body = (await engine.jobDefinition.findJobDefinitions(await fromBody(ctx))).map(toJobDefinitionDto);
  });
  router.get('/job-definition/count', async (ctx) => {
    ctx.body = { count: await engine.jobDefinition.countJobDefinitions(parseListQuery<JobDefinitionQuery>(ctx.query, JOB_DEFINITION_QUERY)) };
  });
  router.post('/job-definition/count', async (ctx) => {
    const query = countCriteria(await fromBody(ctx));
    ctx.body = { count: await engine.jobDefinition.countJobDefinitions(query) };
  });

  router.put('/job-definition/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    if (body.jobDefinitionId != null) {
      throw new InvalidRequestException(400, 'Either processDefinitionId or processDefinitionKey can be set to update the suspension state.');
    }
    await suspend(ctx, body, null, (reason) => `Could not update the suspension state of Job Definitions due to: ${reason}`);
  });

  router.get('/job-definition/:id', async (ctx) => {
    const definition = await engine.jobDefinition.getJobDefinition(ctx.params.id);
    if (!definition) throw new InvalidRequestException(404, `Job Definition with id ${ctx.params.id} does not exist`);
    ctx.body = toJobDefinitionDto(definition);
  });

  router.put('/job-definition/:id/suspended', async (ctx) => {
    const id = ctx.params.id;
    await suspend(ctx, await readJsonObject(ctx, rest.bodyLimit), id, (reason) => `The suspension state of Job Definition with id ${id} could not be updated due to: ${reason}`);
  });

  // Camunda's JobDefinitionResourceImpl.setJobPriority: resetting with includeJobs is the resource's own 400,
  // an unknown definition a 404, any other engine error a 500 RestException.
  router.put('/job-definition/:id/jobPriority', async (ctx) => {
    const id = ctx.params.id;
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const priority = integer(body.priority);
    const includeJobs = flag(body.includeJobs);
    if (priority === null && includeJobs) throw new InvalidRequestException(400, `Cannot reset priority for job definition ${id} with includeJobs=true`);
    try {
      await engine.jobDefinition.setOverridingJobPriority(id, priority, includeJobs);
    } catch (error) {
      if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
      throw new InvalidRequestException(error instanceof NotFoundException ? 404 : 500, error.message, error instanceof NotFoundException ? 'InvalidRequestException' : 'RestException');
    }
    ctx.status = 204;
  });

  router.put('/job-definition/:id/retries', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const retries = integer(body.retries);
    if (retries === null) throw new InvalidRequestException(400, 'The number of retries cannot be null.');
    // Camunda's RetriesDto: a dueDate given (also null) is set on the jobs too.
    const dueDate = 'dueDate' in body ? dateValue(body.dueDate) : undefined;
    await engineErrorAs500(() => engine.jobDefinition.setJobRetries(ctx.params.id, retries, dueDate));
    ctx.status = 204;
  });

  /**
   * Camunda's JobDefinitionSuspensionStateDto: exactly one of the job definition (the path's), a process
   * definition id or key, each counted when given at all; `suspended` a primitive boolean (absent: activate).
   */
  async function suspend(ctx: Context, body: Record<string, unknown>, jobDefinitionId: string | null, dateError: (reason: string) => string) {
    const processDefinitionId = text(body.processDefinitionId);
    const processDefinitionKey = text(body.processDefinitionKey);
    const given = [jobDefinitionId, processDefinitionId, processDefinitionKey].filter((each) => each !== null).length;
    if (given > 1) throw new InvalidRequestException(400, 'Only one of jobDefinitionId, processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    if (given === 0) throw new InvalidRequestException(400, 'Either jobDefinitionId, processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    const target = jobDefinitionId !== null
      ? { jobDefinitionId }
      : processDefinitionId !== null
        ? { processDefinitionId }
        : { processDefinitionKey: processDefinitionKey!, ...tenantOf(body) };
    const executionDate = suspensionDateOf(body, dateError);
    await engine.jobDefinition.updateSuspensionState(target, { suspended: flag(body.suspended), includeJobs: flag(body.includeJobs), executionDate });
    ctx.status = 204;
  }
}

/** The key's tenant: Camunda's builder takes the tenant id when given, else without tenant when asked. */
function tenantOf(body: Record<string, unknown>): { processDefinitionTenantId?: string; processDefinitionWithoutTenantId?: boolean } {
  const tenantId = text(body.processDefinitionTenantId);
  if (tenantId !== null) return { processDefinitionTenantId: tenantId };
  return flag(body.processDefinitionWithoutTenantId) ? { processDefinitionWithoutTenantId: true } : {};
}
