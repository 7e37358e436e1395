import Router from '@koa/router';
import type { Context } from 'koa';
import { AuthorizationException, ProcessEngineException, type ProcessInstanceQuery, type TypedValue } from '@trellis/core';
import { namedVariable, readBinaryVariable, writeBinaryVariable } from '../dto/binary-variable.js';
import { instructionsFromDto } from '../dto/instructions.js';
import { readJsonObject, text, flag, nullableFlag } from '../body.js';
import { toActivityInstanceDto, toCommentDto, toProcessInstanceDto } from '../dto/runtime-dto.js';
import { toVariableValueDto } from '../dto/variable-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, orQueriesFrom, type QuerySpec } from '../query/parse-query.js';
import { type RestContext } from './context.js';
import { variableCriteria, variableRule } from '../query/variable-criteria.js';

const VARIABLE_CRITERIA = { variables: variableRule() };

const INSTANCE_QUERY: QuerySpec = {
  params: {
    processInstanceIds: 'stringList', businessKey: 'string', businessKeyLike: 'string', processDefinitionId: 'string',
    processDefinitionKey: 'string', processDefinitionKeyIn: 'stringList', deploymentId: 'string', active: 'boolean',
    suspended: 'boolean', tenantIdIn: 'stringList', withoutTenantId: 'boolean', activityIdIn: 'stringList',
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
  return { ...parseListQuery<ProcessInstanceQuery>(query, INSTANCE_QUERY), ...variableCriteria(query, VARIABLE_CRITERIA, 'queryString') };
}

/** A ProcessInstanceQueryDto from a body (POST /process-instance, /count, and the processInstanceQuery of batch and migration bodies). */
export function instanceQueryFromBody(body: Record<string, unknown>): ProcessInstanceQuery {
  const parsed: ProcessInstanceQuery = { ...parseBodyQuery<ProcessInstanceQuery>(body, INSTANCE_QUERY), ...variableCriteria(body, VARIABLE_CRITERIA, 'body') };
  if (body.orQueries !== undefined && body.orQueries !== null) parsed.orQueries = orQueriesFrom(body.orQueries, instanceQueryFromBody);
  return parsed;
}

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

  router.put('/process-instance/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const suspended = nullableFlag(body.suspended);
    if (suspended === null) throw new InvalidRequestException(400, 'suspended is null');
    const definitionId = text(body.processDefinitionId);
    const definitionKey = text(body.processDefinitionKey);
    const instanceIds = Array.isArray(body.processInstanceIds) ? body.processInstanceIds.filter((id): id is string => typeof id === 'string') : null;
    if (definitionId && definitionKey) {
      throw new InvalidRequestException(400, 'Only one of processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    }
    if (!definitionId && !definitionKey && !instanceIds) {
      throw new InvalidRequestException(400, 'Either processInstanceIds, processInstanceQuery or historicProcessInstanceQuery should be set to update the suspension state.');
    }
    if (body.processInstanceQuery !== undefined || body.historicProcessInstanceQuery !== undefined) {
      throw new InvalidRequestException(400, 'Trellis does not support processInstanceQuery or historicProcessInstanceQuery here yet');
    }
    await notFoundAs404(() =>
      engine.runtime.updateSuspensionState(
        {
          processInstanceIds: instanceIds ?? undefined,
          processDefinitionId: definitionId ?? undefined,
          processDefinitionKey: definitionKey ?? undefined,
          processDefinitionTenantId: text(body.processDefinitionTenantId) ?? undefined,
          processDefinitionWithoutTenantId: flag(body.processDefinitionWithoutTenantId),
        },
        suspended,
      ),
    );
    ctx.status = 204;
  });

  router.put('/process-instance/:id/suspended', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const suspended = nullableFlag(body.suspended);
    if (suspended === null) throw new InvalidRequestException(400, 'suspended is null');
    await notFoundAs404(
      () => engine.runtime.updateSuspensionState({ processInstanceIds: [ctx.params.id] }, suspended),
      `Process instance with id ${ctx.params.id} does not exist`,
    );
    ctx.status = 204;
  });

  router.post('/process-instance/:id/modification', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const instructions = instructionsFromDto(body.instructions, { allowCancel: true });
    try {
      await engine.runtime.modifyProcessInstance(ctx.params.id, instructions, { skipCustomListeners: flag(body.skipCustomListeners), skipIoMappings: flag(body.skipIoMappings) });
    } catch (error) {
      // Camunda answers a modification the engine refuses with 400 and the engine's message.
      if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
      throw new InvalidRequestException(400, error.message);
    }
    ctx.status = 204;
  });

  router.get('/process-instance/:id/comment', async (ctx) => {
    ctx.body = (await engine.task.getProcessInstanceComments(ctx.params.id)).map((comment) => toCommentDto(comment));
  });

  router.delete('/process-instance/:id', async (ctx) => {
    const options = parseListQuery<{ skipCustomListeners?: boolean; skipIoMappings?: boolean; skipSubprocesses?: boolean; failIfNotExists?: boolean }>(ctx.query, {
      params: { skipCustomListeners: 'boolean', skipIoMappings: 'boolean', skipSubprocesses: 'boolean', failIfNotExists: 'boolean' },
    });
    await notFoundAs404(() => engine.runtime.deleteProcessInstance(ctx.params.id, options));
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

  // Camunda's ExecutionVariablesResource for a process instance: resource type name "process instance".
  const variable = async (id: string, name: string) => namedVariable(await notFoundAs404(() => engine.runtime.getVariables(id)), name, 'process instance');
  const setVariable = (id: string, name: string, value: TypedValue) => notFoundAs404(() => engine.runtime.modifyVariables(id, { [name]: value }));
  router.get('/process-instance/:id/variables/:varName', async (ctx) => {
    const value = await variable(ctx.params.id, ctx.params.varName);
    ctx.body = toVariableValueDto(value, { deserializeValues: ctx.query.deserializeValue !== 'false' });
  });
  router.put('/process-instance/:id/variables/:varName', async (ctx) => {
    const { id, varName } = ctx.params;
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await setVariable(id, varName, variablesFromDto({ [varName]: body }, `Cannot put process instance variable ${varName}`)[varName]!);
    ctx.status = 204;
  });
  router.delete('/process-instance/:id/variables/:varName', async (ctx) => {
    await notFoundAs404(() => engine.runtime.modifyVariables(ctx.params.id, {}, [ctx.params.varName]));
    ctx.status = 204;
  });
  router.get('/process-instance/:id/variables/:varName/data', async (ctx) => {
    writeBinaryVariable(ctx, await variable(ctx.params.id, ctx.params.varName), ctx.params.id);
  });
  router.post('/process-instance/:id/variables/:varName/data', async (ctx) => {
    await setVariable(ctx.params.id, ctx.params.varName, await readBinaryVariable(ctx, rest.bodyLimit));
    ctx.status = 204;
  });
}
