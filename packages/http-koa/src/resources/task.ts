import Router from '@koa/router';
import { NotFoundException, type TaskQuery } from '@trellis/core';
import { readJsonBody, readJsonObject } from '../body.js';
import { toTaskDto } from '../dto/runtime-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { parseQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';
import { text } from './user.js';

const TASK_QUERY: QuerySpec = {
  params: {
    taskId: 'string', taskIdIn: 'stringList', processInstanceId: 'string', processInstanceIdIn: 'stringList',
    processDefinitionId: 'string', processDefinitionKey: 'string', executionId: 'string', taskDefinitionKey: 'string',
    name: 'string', nameLike: 'string', assignee: 'string', assigneeLike: 'string', unassigned: 'boolean', assigned: 'boolean',
    candidateUser: 'string', candidateGroup: 'string', active: 'boolean', suspended: 'boolean', tenantIdIn: 'stringList',
    withoutTenantId: 'boolean',
  },
  sortBy: ['id', 'name', 'assignee', 'created', 'dueDate', 'followUpDate', 'priority', 'instanceId', 'executionId'],
  unsupported: [
    'processInstanceBusinessKey', 'processInstanceBusinessKeyExpression', 'processInstanceBusinessKeyIn', 'processInstanceBusinessKeyLike',
    'processInstanceBusinessKeyLikeExpression', 'processDefinitionKeyIn', 'processDefinitionName', 'processDefinitionNameLike',
    'caseInstanceId', 'caseInstanceBusinessKey', 'caseInstanceBusinessKeyLike', 'caseDefinitionId', 'caseDefinitionKey', 'caseDefinitionName',
    'caseDefinitionNameLike', 'caseExecutionId', 'activityInstanceIdIn', 'assigneeExpression', 'assigneeLikeExpression', 'assigneeIn',
    'assigneeNotIn', 'owner', 'ownerExpression', 'candidateGroupLike', 'candidateGroupExpression', 'candidateUserExpression',
    'includeAssignedTasks', 'involvedUser', 'involvedUserExpression', 'taskDefinitionKeyIn', 'taskDefinitionKeyLike', 'nameNotEqual',
    'nameNotLike', 'description', 'descriptionLike', 'priority', 'maxPriority', 'minPriority', 'dueDate', 'dueDateExpression', 'dueAfter',
    'dueAfterExpression', 'dueBefore', 'dueBeforeExpression', 'withoutDueDate', 'followUpDate', 'followUpDateExpression', 'followUpAfter',
    'followUpAfterExpression', 'followUpBefore', 'followUpBeforeExpression', 'followUpBeforeOrNotExistent',
    'followUpBeforeOrNotExistentExpression', 'createdOn', 'createdOnExpression', 'createdAfter', 'createdAfterExpression', 'createdBefore',
    'createdBeforeExpression', 'updatedAfter', 'updatedAfterExpression', 'delegationState', 'candidateGroups', 'candidateGroupsExpression',
    'withCandidateGroups', 'withoutCandidateGroups', 'withCandidateUsers', 'withoutCandidateUsers', 'taskVariables', 'processVariables',
    'caseInstanceVariables', 'variableNamesIgnoreCase', 'variableValuesIgnoreCase', 'parentTaskId', 'withCommentAttachmentInfo',
  ],
};

/** The core of the Task group: query, get, claim, unclaim, assignee and complete. */
export function taskRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/task', async (ctx) => {
    ctx.body = (await engine.task.findTasks(taskQuery(ctx.query))).map(toTaskDto);
  });

  router.get('/task/count', async (ctx) => {
    ctx.body = { count: await engine.task.countTasks(taskQuery(ctx.query)) };
  });

  router.get('/task/:id', async (ctx) => {
    const task = await engine.task.getTask(ctx.params.id);
    if (!task) throw new InvalidRequestException(404, `No matching task with id ${ctx.params.id}`);
    ctx.body = toTaskDto(task);
  });

  router.post('/task/:id/claim', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await taskCall(ctx.params.id, () => engine.task.claim(ctx.params.id, text(body.userId) ?? ''));
    ctx.status = 204;
  });

  router.post('/task/:id/unclaim', async (ctx) => {
    await taskCall(ctx.params.id, () => engine.task.setAssignee(ctx.params.id, null));
    ctx.status = 204;
  });

  router.post('/task/:id/assignee', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await taskCall(ctx.params.id, () => engine.task.setAssignee(ctx.params.id, text(body.userId)));
    ctx.status = 204;
  });

  router.post('/task/:id/complete', async (ctx) => {
    const body = ((await readJsonBody(ctx, rest.bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
    const variables = variablesFromDto(body.variables, `Cannot complete task ${ctx.params.id}`);
    const result = await taskCall(ctx.params.id, () => engine.task.complete(ctx.params.id, variables));
    if (body.withVariablesInReturn === true) ctx.body = variablesToDto(result, false);
    else ctx.status = 204;
  });
}

// Camunda's TaskResourceImpl turns an unknown task into a 404 InvalidRequestException.
async function taskCall<T>(taskId: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof NotFoundException) throw new InvalidRequestException(404, `Cannot find task with id ${taskId}`);
    throw error;
  }
}

function taskQuery(query: Record<string, unknown>): TaskQuery {
  const { params, sorting, page } = parseQuery(query, TASK_QUERY);
  return { ...params, sorting, ...page } as TaskQuery;
}
