import Router from '@koa/router';
import type { Context } from 'koa';
import type { ExecutionInfo, ExecutionQuery } from '@trellis/core';
import { readJsonObject, text } from '../body.js';
import { toIncidentDto } from '../dto/external-task-dto.js';
import { variablesFromDto } from '../dto/variables-map.js';
import { asRestException, badUserRequestAs400, InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import { type RestContext } from './context.js';
import { variableRoutes } from './variable-routes.js';
import { toEventSubscriptionDto } from './event-subscription.js';
import { variableCriteria, variableRule } from '../query/variable-criteria.js';

const EXECUTION_QUERY: QuerySpec = {
  params: {
    businessKey: 'string', processDefinitionId: 'string', processDefinitionKey: 'string', processInstanceId: 'string', activityId: 'string',
    signalEventSubscriptionName: 'string', messageEventSubscriptionName: 'string', active: 'boolean', suspended: 'boolean',
    incidentId: 'string', incidentType: 'string', incidentMessage: 'string', incidentMessageLike: 'string', tenantIdIn: 'optionalList',
    variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean',
  },
  sortBy: ['instanceId', 'definitionKey', 'definitionId', 'tenantId'],
};
/** The execution's own variables, and its process instance's. */
// Camunda's ExecutionQueryDto: the instance's variables only by (in)equality.
const VARIABLE_CRITERIA = { variables: variableRule(), processVariables: variableRule('process variable', ['eq', 'neq']) };

const toExecutionDto = (execution: ExecutionInfo) => ({ ...execution });

/** The Execution group: query, get, local variables, signal, message subscriptions and custom incidents. */
export function executionRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  const fromBody = async (ctx: Context): Promise<ExecutionQuery> => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    return { ...parseBodyQuery<ExecutionQuery>(body, EXECUTION_QUERY), ...variableCriteria(body, VARIABLE_CRITERIA, 'body'), ...parsePage(ctx.query) };
  };
  const fromQueryString = (ctx: Context): ExecutionQuery => ({ ...parseListQuery<ExecutionQuery>(ctx.query, EXECUTION_QUERY), ...variableCriteria(ctx.query, VARIABLE_CRITERIA, 'queryString') });

  router.get('/execution', async (ctx) => {
    ctx.body = (await engine.execution.findExecutions(fromQueryString(ctx))).map(toExecutionDto);
  });
  router.post('/execution', async (ctx) => {
    ctx.body = (await engine.execution.findExecutions(await fromBody(ctx))).map(toExecutionDto);
  });
  router.get('/execution/count', async (ctx) => {
    ctx.body = { count: await engine.execution.countExecutions(countCriteria(fromQueryString(ctx))) };
  });
  router.post('/execution/count', async (ctx) => {
    const query = countCriteria(await fromBody(ctx));
    ctx.body = { count: await engine.execution.countExecutions(query) };
  });

  router.get('/execution/:id', async (ctx) => {
    const execution = await engine.execution.getExecution(ctx.params.id);
    if (!execution) throw new InvalidRequestException(404, `Execution with id ${ctx.params.id} does not exist`);
    ctx.body = toExecutionDto(execution);
  });

  router.post('/execution/:id/signal', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const variables = variablesFromDto(body.variables, `Cannot signal execution ${ctx.params.id}`);
    // Camunda's ExecutionResourceImpl.signalExecution: every engine error a 500 RestException with the prefix.
    await asRestException(`Cannot signal execution ${ctx.params.id}`, () => engine.execution.signal(ctx.params.id, variables));
    ctx.status = 204;
  });

  // Camunda's LocalExecutionVariablesResource.
  variableRoutes(router, rest, '/execution/:id/localVariables', 'execution', {
    all: (id) => engine.execution.getLocalVariables(id),
    update: (id, modifications, deletions) => engine.execution.modifyLocalVariables(id, modifications, deletions),
    remove: (id, names) => engine.execution.modifyLocalVariables(id, {}, names),
  });

  router.get('/execution/:id/messageSubscriptions/:messageName', async (ctx) => {
    const { id, messageName } = ctx.params;
    const subscription = await engine.execution.getMessageSubscription(id, messageName);
    if (!subscription) throw new InvalidRequestException(404, `Message event subscription for execution ${id} named ${messageName} does not exist`);
    ctx.body = toEventSubscriptionDto(subscription);
  });
  router.post('/execution/:id/messageSubscriptions/:messageName/trigger', async (ctx) => {
    const { id, messageName } = ctx.params;
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const variables = variablesFromDto(body.variables, `Cannot trigger message ${messageName} for execution ${id}`);
    try {
      await engine.execution.messageEventReceived(messageName, id, variables);
    } catch (error) {
      if (error instanceof Error && error.name !== 'AuthorizationException') {
        throw new InvalidRequestException(500, `Cannot trigger message ${messageName} for execution ${id}: ${error.message}`, 'RestException', 0);
      }
      throw error;
    }
    ctx.status = 204;
  });

  router.post('/execution/:id/create-incident', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const incident = await badUserRequestAs400(() => engine.execution.createIncident(ctx.params.id, text(body.incidentType), text(body.configuration), text(body.message)));
    ctx.body = toIncidentDto(incident);
  });
}
