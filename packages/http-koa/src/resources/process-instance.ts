import Router from '@koa/router';
import type { ProcessInstanceQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { toActivityInstanceDto, toProcessInstanceDto } from '../dto/runtime-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { type RestContext } from './context.js';

const INSTANCE_QUERY: QuerySpec = {
  params: {
    processInstanceIds: 'stringList', businessKey: 'string', businessKeyLike: 'string', processDefinitionId: 'string',
    processDefinitionKey: 'string', processDefinitionKeyIn: 'stringList', deploymentId: 'string', active: 'boolean',
    suspended: 'boolean', tenantIdIn: 'stringList', withoutTenantId: 'boolean', activityIdIn: 'stringList',
  },
  sortBy: ['instanceId', 'definitionKey', 'definitionId', 'tenantId', 'businessKey'],
  unsupported: [
    'caseInstanceId', 'processDefinitionKeyNotIn', 'superProcessInstance', 'subProcessInstance', 'superCaseInstance', 'subCaseInstance',
    'withIncident', 'incidentId', 'incidentType', 'incidentMessage', 'incidentMessageLike', 'processDefinitionWithoutTenantId',
    'rootProcessInstances', 'leafProcessInstances', 'variables', 'variableNamesIgnoreCase', 'variableValuesIgnoreCase',
  ],
};

/** The Process Instance group: query, get, delete, activity instances and variables. */
export function processInstanceRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/process-instance', async (ctx) => {
    ctx.body = (await engine.runtime.findProcessInstances(parseListQuery<ProcessInstanceQuery>(ctx.query, INSTANCE_QUERY))).map((instance) => toProcessInstanceDto(instance));
  });

  router.get('/process-instance/count', async (ctx) => {
    ctx.body = { count: await engine.runtime.countProcessInstances(parseListQuery<ProcessInstanceQuery>(ctx.query, INSTANCE_QUERY)) };
  });

  router.get('/process-instance/:id', async (ctx) => {
    const instance = await engine.runtime.getProcessInstance(ctx.params.id);
    if (!instance) throw new InvalidRequestException(404, `Process instance with id ${ctx.params.id} does not exist`);
    ctx.body = toProcessInstanceDto(instance);
  });

  router.delete('/process-instance/:id', async (ctx) => {
    await notFoundAs404(() => engine.runtime.deleteProcessInstance(ctx.params.id));
    ctx.status = 204;
  });

  router.get('/process-instance/:id/activity-instances', async (ctx) => {
    const tree = await engine.runtime.getActivityInstanceTree(ctx.params.id);
    if (!tree) throw new InvalidRequestException(404, `Process instance with id ${ctx.params.id} does not exist`);
    ctx.body = toActivityInstanceDto(tree);
  });

  router.get('/process-instance/:id/variables', async (ctx) => {
    const variables = await notFoundAs404(() => engine.runtime.getVariables(ctx.params.id));
    ctx.body = variablesToDto(variables, ctx.query.deserializeValues !== 'false');
  });

  router.post('/process-instance/:id/variables', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const modifications = variablesFromDto(body.modifications, `Cannot modify variables for process instance ${ctx.params.id}`);
    const deletions = Array.isArray(body.deletions) ? body.deletions.filter((name): name is string => typeof name === 'string') : [];
    await notFoundAs404(() => engine.runtime.modifyVariables(ctx.params.id, modifications, deletions));
    ctx.status = 204;
  });
}
