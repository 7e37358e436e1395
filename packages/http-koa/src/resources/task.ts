import Router from '@koa/router';
import type { TaskQuery } from '@trellis/core';
import { readJsonBody, readJsonObject, text } from '../body.js';
import { toTaskDto } from '../dto/runtime-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { parseListQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

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
    ctx.body = (await engine.task.findTasks(parseListQuery<TaskQuery>(ctx.query, TASK_QUERY))).map(toTaskDto);
  });

  router.get('/task/count', async (ctx) => {
    ctx.body = { count: await engine.task.countTasks(parseListQuery<TaskQuery>(ctx.query, TASK_QUERY)) };
  });

  router.get('/task/:id', async (ctx) => {
    const task = await engine.task.getTask(ctx.params.id);
    if (!task) throw new InvalidRequestException(404, `No matching task with id ${ctx.params.id}`);
    ctx.body = toTaskDto(task);
  });

  router.post('/task/:id/claim', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await notFoundAs404(() => engine.task.claim(ctx.params.id, text(body.userId) ?? ''), notFound(ctx.params.id));
    ctx.status = 204;
  });

  router.post('/task/:id/unclaim', async (ctx) => {
    await notFoundAs404(() => engine.task.setAssignee(ctx.params.id, null), notFound(ctx.params.id));
    ctx.status = 204;
  });

  router.post('/task/:id/assignee', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    await notFoundAs404(() => engine.task.setAssignee(ctx.params.id, text(body.userId)), notFound(ctx.params.id));
    ctx.status = 204;
  });

  router.post('/task/:id/complete', async (ctx) => {
    const body = ((await readJsonBody(ctx, rest.bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
    const variables = variablesFromDto(body.variables, `Cannot complete task ${ctx.params.id}`);
    const result = await notFoundAs404(() => engine.task.complete(ctx.params.id, variables), notFound(ctx.params.id));
    if (body.withVariablesInReturn === true) ctx.body = variablesToDto(result, false);
    else ctx.status = 204;
  });
}

// Camunda's TaskResourceImpl turns an unknown task into a 404 with this text.
const notFound = (taskId: string) => `Cannot find task with id ${taskId}`;
