import Router from '@koa/router';
import type { Context } from 'koa';
import type { ProcessInstanceQuery } from '@trellis/core';
import { instructionsFromDto } from '../dto/instructions.js';
import { nestedDto, readJsonObject, text, flag } from '../body.js';
import { toActivityInstanceDto, toCommentDto, toProcessInstanceDto } from '../dto/runtime-dto.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, orQueriesFrom, type QuerySpec, jaxRsFlag } from '../query/parse-query.js';
import { type RestContext } from './context.js';
import { variableRoutes } from './variable-routes.js';
import { historicQueryOf } from './historic-selection.js';
import { variableCriteria, variableRule } from '../query/variable-criteria.js';

const VARIABLE_CRITERIA = { variables: variableRule() };

const INSTANCE_QUERY: QuerySpec = {
  params: {
    processInstanceIds: 'stringList', businessKey: 'string', businessKeyLike: 'string', processDefinitionId: 'string',
    processDefinitionKey: 'string', processDefinitionKeyIn: 'optionalList', deploymentId: 'string', active: 'boolean',
    suspended: 'boolean', tenantIdIn: 'optionalList', withoutTenantId: 'boolean', activityIdIn: 'optionalList',
    processDefinitionKeyNotIn: 'stringList', processDefinitionWithoutTenantId: 'boolean', superProcessInstance: 'string',
    subProcessInstance: 'string', rootProcessInstances: 'boolean', leafProcessInstances: 'boolean', withIncident: 'boolean',
    incidentId: 'string', incidentType: 'string', incidentMessage: 'string', incidentMessageLike: 'string',
    variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean',
  },
  sortBy: ['instanceId', 'definitionKey', 'definitionId', 'tenantId', 'businessKey'],
  // `variables` is read apart (name_op_value conditions); Trellis runs no cases.
  unsupported: ['caseInstanceId', 'superCaseInstance', 'subCaseInstance'],
};

/** A ProcessInstanceQueryDto from a query string (GET /process-instance, /count). */
export function instanceQueryFromQueryString(query: Context['query']): ProcessInstanceQuery {
  const parsed = parseListQuery<ProcessInstanceQuery>(query, INSTANCE_QUERY);
  // Camunda's StringSetConverter reads `processInstanceIds=` as one empty id: no instance, not the empty set's error.
  if (parsed.processInstanceIds?.length === 0) parsed.processInstanceIds = [''];
  return { ...parsed, ...variableCriteria(query, VARIABLE_CRITERIA, 'queryString') };
}

/** A ProcessInstanceQueryDto from a body (POST /process-instance, /count, and the processInstanceQuery of batch and migration bodies). */
export function instanceQueryFromBody(body: Record<string, unknown>): ProcessInstanceQuery {
  const parsed: ProcessInstanceQuery = { ...parseBodyQuery<ProcessInstanceQuery>(body, INSTANCE_QUERY), ...variableCriteria(body, VARIABLE_CRITERIA, 'body') };
  if (body.orQueries !== undefined && body.orQueries !== null) parsed.orQueries = orQueriesFrom(body.orQueries, instanceQueryFromBody);
  return parsed;
}

/** A body's `processInstanceQuery` (batch and suspension selections), or null. */
export const instanceQueryOf = (body: Record<string, unknown>) => {
  const query = nestedDto(body.processInstanceQuery);
  return query && instanceQueryFromBody(query);
};

/** The Process Instance group: query, get, delete, activity instances and variables. */
export function processInstanceRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/process-instance', async (ctx) => {
    ctx.body = (await engine.runtime.findProcessInstances(instanceQueryFromQueryString(ctx.query))).map((instance) => toProcessInstanceDto(instance));
  });

  const fromBody = async (ctx: Context) => ({
    ...instanceQueryFromBody(await readJsonObject(ctx, rest.bodyLimit)),
    ...parsePage(ctx.query),
  });

  router.post('/process-instance', async (ctx) => {
    ctx.body = (await engine.runtime.findProcessInstances(await fromBody(ctx))).map((instance) => toProcessInstanceDto(instance));
  });

  router.post('/process-instance/count', async (ctx) => {
    const query = countCriteria(await fromBody(ctx));
    ctx.body = { count: await engine.runtime.countProcessInstances(query) };
  });

  router.get('/process-instance/count', async (ctx) => {
    ctx.body = { count: await engine.runtime.countProcessInstances(countCriteria(instanceQueryFromQueryString(ctx.query))) };
  });

  router.get('/process-instance/:id', async (ctx) => {
    const instance = await engine.runtime.getProcessInstance(ctx.params.id);
    if (!instance) throw new InvalidRequestException(404, `Process instance with id ${ctx.params.id} does not exist`);
    ctx.body = toProcessInstanceDto(instance);
  });

  // Camunda's ProcessInstanceSuspensionStateDto: a definition (by id or key) or a group of instances (ids, queries), not both.
  router.put('/process-instance/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const given = (...values: unknown[]) => values.filter((value) => value !== undefined && value !== null).length;
    const definitions = given(body.processDefinitionId, body.processDefinitionKey);
    const group = given(body.processInstanceIds, body.processInstanceQuery, body.historicProcessInstanceQuery);
    if (definitions >= 1 && group >= 1) {
      throw new InvalidRequestException(
        400,
        'Choose either a single processInstance with processDefinitionId or processDefinitionKey or a group of processInstances with processInstanceIds, procesInstanceQuery or historicProcessInstanceQuery.',
      );
    }
    if (definitions > 1) throw new InvalidRequestException(400, 'Only one of processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    if (definitions === 0 && group === 0) throw new InvalidRequestException(400, 'Either processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    if (body.processInstanceIds !== undefined && body.processInstanceIds !== null && !Array.isArray(body.processInstanceIds)) {
      throw new InvalidRequestException(400, "Cannot set 'processInstanceIds': not a list");
    }
    const target = definitions === 1
      ? {
          processDefinitionId: text(body.processDefinitionId) ?? undefined,
          processDefinitionKey: text(body.processDefinitionKey) ?? undefined,
          processDefinitionTenantId: text(body.processDefinitionTenantId) ?? undefined,
          processDefinitionWithoutTenantId: flag(body.processDefinitionWithoutTenantId),
        }
      : {
          processInstanceIds: (body.processInstanceIds as Array<string | null> | undefined) ?? null,
          processInstanceQuery: instanceQueryOf(body),
          historicProcessInstanceQuery: historicQueryOf(body),
        };
    await engine.runtime.updateSuspensionState(target, flag(body.suspended));
    ctx.status = 204;
  });

  // Camunda's SuspensionStateDto: `suspended` is a primitive boolean (absent: activate); an unknown instance changes nothing.
  router.put('/process-instance/:id/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await engine.runtime.updateSuspensionState({ processInstanceIds: [ctx.params.id] }, flag(body.suspended));
    ctx.status = 204;
  });

  // Camunda's ProcessInstanceResourceImpl.modifyProcessInstance: no instructions, nothing to do (not even a
  // lookup); the engine's errors pass as they are.
  router.post('/process-instance/:id/modification', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    if (body.instructions === undefined || body.instructions === null || (Array.isArray(body.instructions) && body.instructions.length === 0)) {
      ctx.status = 204;
      return;
    }
    const instructions = instructionsFromDto(body.instructions, { allowCancel: true });
    await engine.runtime.modifyProcessInstance(ctx.params.id, instructions, {
      skipCustomListeners: flag(body.skipCustomListeners),
      skipIoMappings: flag(body.skipIoMappings),
      annotation: text(body.annotation),
      // Camunda's ProcessInstanceResourceImpl.modifyProcessInstance: an emptied instance is externally terminated.
      cancellationSourceExternal: true,
    });
    ctx.status = 204;
  });

  // Camunda's ProcessInstanceCommentResourceImpl: none without history; the instance must be in history (as the caller may read it).
  router.get('/process-instance/:id/comment', async (ctx) => {
    if (engine.config.historyLevel === 'none') {
      ctx.body = [];
      return;
    }
    if (!(await engine.history.getHistoricProcessInstance(ctx.params.id))) throw new InvalidRequestException(404, `No process instance found for id ${ctx.params.id}`);
    ctx.body = (await engine.task.getProcessInstanceComments(ctx.params.id)).map((comment) => toCommentDto(comment));
  });

  // Camunda's ProcessInstanceResource takes primitive booleans: JAX-RS reads "true" in any case as true, anything
  // else as false (failIfNotExists is true when absent); an unknown instance is a 404 with the engine's text.
  router.delete('/process-instance/:id', async (ctx) => {
    const options = {
      skipCustomListeners: jaxRsFlag(ctx.query, 'skipCustomListeners', false),
      skipIoMappings: jaxRsFlag(ctx.query, 'skipIoMappings', false),
      skipSubprocesses: jaxRsFlag(ctx.query, 'skipSubprocesses', false),
      failIfNotExists: jaxRsFlag(ctx.query, 'failIfNotExists', true),
    };
    await notFoundAs404(() => engine.runtime.deleteProcessInstance(ctx.params.id, options));
    ctx.status = 204;
  });

  router.get('/process-instance/:id/activity-instances', async (ctx) => {
    const tree = await engine.runtime.getActivityInstanceTree(ctx.params.id);
    if (!tree) throw new InvalidRequestException(404, `Process instance with id ${ctx.params.id} does not exist`);
    ctx.body = toActivityInstanceDto(tree);
  });

  // Camunda's ExecutionVariablesResource for a process instance.
  variableRoutes(router, rest, '/process-instance/:id/variables', 'process instance', {
    all: (id) => engine.runtime.getVariables(id),
    update: (id, modifications, deletions, operation) => engine.runtime.modifyVariables(id, modifications, deletions, operation),
    remove: (id, names) => engine.runtime.modifyVariables(id, {}, names),
  });
}
