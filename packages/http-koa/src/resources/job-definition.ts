import Router from '@koa/router';
import type { JobDefinition, JobDefinitionQuery } from '@trellis/core';
import type { Context } from 'koa';
import { readJsonObject, text, flag, integer, nullableFlag } from '../body.js';
import { parseRestDate } from '../dto/dates.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { type RestContext } from './context.js';

const JOB_DEFINITION_QUERY: QuerySpec = {
  params: {
    jobDefinitionId: 'string', activityIdIn: 'stringList', processDefinitionId: 'string', processDefinitionKey: 'string', jobType: 'string',
    jobConfiguration: 'string', active: 'boolean', suspended: 'boolean', withOverridingJobPriority: 'boolean', tenantIdIn: 'stringList',
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
    const processDefinitionId = text(body.processDefinitionId);
    const processDefinitionKey = text(body.processDefinitionKey);
    if (processDefinitionId && processDefinitionKey) {
      throw new InvalidRequestException(400, 'Only one of processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    }
    if (!processDefinitionId && !processDefinitionKey) {
      throw new InvalidRequestException(400, 'Either processDefinitionId or processDefinitionKey can be set to update the suspension state.');
    }
    await suspend(ctx, body, {
      processDefinitionId: processDefinitionId ?? undefined,
      processDefinitionKey: processDefinitionKey ?? undefined,
      processDefinitionTenantId: text(body.processDefinitionTenantId),
      processDefinitionWithoutTenantId: flag(body.processDefinitionWithoutTenantId),
    });
  });

  router.get('/job-definition/:id', async (ctx) => {
    const definition = await engine.jobDefinition.getJobDefinition(ctx.params.id);
    if (!definition) throw new InvalidRequestException(404, `Job Definition with id ${ctx.params.id} does not exist`);
    ctx.body = toJobDefinitionDto(definition);
  });

  router.put('/job-definition/:id/suspended', async (ctx) => {
    await suspend(ctx, await readJsonObject(ctx, rest.bodyLimit), { jobDefinitionId: ctx.params.id });
  });

  router.put('/job-definition/:id/jobPriority', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const priority = integer(body.priority);
    await notFoundAs404(() => engine.jobDefinition.setOverridingJobPriority(ctx.params.id, priority, flag(body.includeJobs)));
    ctx.status = 204;
  });

  router.put('/job-definition/:id/retries', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const retries = integer(body.retries);
    if (retries === null) throw new InvalidRequestException(400, 'The number of retries cannot be null.');
    await notFoundAs404(() => engine.jobDefinition.setJobRetries(ctx.params.id, retries));
    ctx.status = 204;
  });

  async function suspend(ctx: Context, body: Record<string, unknown>, target: Parameters<typeof engine.jobDefinition.updateSuspensionState>[0]) {
    const suspended = nullableFlag(body.suspended);
    if (suspended === null) throw new InvalidRequestException(400, 'suspended is null');
    const dateText = text(body.executionDate);
    const executionDate = dateText === null ? null : parseRestDate(dateText);
    if (dateText !== null && !executionDate) throw new InvalidRequestException(400, `Cannot parse executionDate '${dateText}'`);
    await notFoundAs404(() => engine.jobDefinition.updateSuspensionState(target, { suspended, includeJobs: flag(body.includeJobs), executionDate }));
    ctx.status = 204;
  }
}
