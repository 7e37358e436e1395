import Router from '@koa/router';
import type { Context } from 'koa';
import type { HistoricTaskInstance, HistoricTaskInstanceQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { countCriteria, orQueriesFrom, parseBodyQuery, parseListQuery, parsePage, parseQuery, type QuerySpec } from '../query/parse-query.js';
import { COMPARISONS, variableCriteria, variableRule } from '../query/variable-criteria.js';
import type { RestContext } from './context.js';

const HISTORIC_TASK_QUERY: QuerySpec = {
  params: {
    taskId: 'string', taskParentTaskId: 'string', processInstanceId: 'string', rootProcessInstanceId: 'string',
    processInstanceBusinessKey: 'string', processInstanceBusinessKeyIn: 'stringArray', processInstanceBusinessKeyLike: 'string',
    executionId: 'string', processDefinitionId: 'string', processDefinitionKey: 'string', processDefinitionName: 'string',
    activityInstanceIdIn: 'stringArray', taskName: 'string', taskNameLike: 'string', taskDescription: 'string', taskDescriptionLike: 'string',
    taskDefinitionKey: 'string', taskDefinitionKeyIn: 'stringArray', taskDeleteReason: 'string', taskDeleteReasonLike: 'string',
    taskAssignee: 'string', taskAssigneeLike: 'string', taskOwner: 'string', taskOwnerLike: 'string', taskPriority: 'integer',
    assigned: 'boolean', unassigned: 'boolean', finished: 'boolean', unfinished: 'boolean', processFinished: 'boolean', processUnfinished: 'boolean',
    taskDueDate: 'date', taskDueDateBefore: 'date', taskDueDateAfter: 'date', withoutTaskDueDate: 'boolean',
    taskFollowUpDate: 'date', taskFollowUpDateBefore: 'date', taskFollowUpDateAfter: 'date',
    startedBefore: 'date', startedAfter: 'date', finishedBefore: 'date', finishedAfter: 'date', tenantIdIn: 'stringList', withoutTenantId: 'boolean',
    taskInvolvedUser: 'string', taskInvolvedGroup: 'string', taskHadCandidateUser: 'string', taskHadCandidateGroup: 'string',
    withCandidateGroups: 'boolean', withoutCandidateGroups: 'boolean', variableNamesIgnoreCase: 'boolean', variableValuesIgnoreCase: 'boolean',
  },
  sortBy: [
    'taskId', 'activityInstanceId', 'processDefinitionId', 'processInstanceId', 'executionId', 'duration', 'endTime', 'startTime', 'taskName',
    'taskDescription', 'assignee', 'owner', 'dueDate', 'followUpDate', 'deleteReason', 'taskDefinitionKey', 'priority', 'caseDefinitionId',
    'caseInstanceId', 'caseExecutionId', 'tenantId',
  ],
  // `taskVariables`, `processVariables` and `orQueries` are read apart; Trellis runs no cases.
  unsupported: ['caseInstanceId', 'caseExecutionId', 'caseDefinitionId', 'caseDefinitionKey', 'caseDefinitionName'],
};
// Camunda's HistoricTaskInstanceQueryDto: task variables only by equality, process variables also by notLike.
const VARIABLE_CRITERIA = { taskVariables: variableRule('variable', ['eq']), processVariables: variableRule('process variable', [...COMPARISONS, 'notLike']) };

/** A HistoricTaskInstanceQueryDto body: criteria, variable conditions and `orQueries` (each such a body, sorting aside). */
function historicTaskQueryFromBody(body: Record<string, unknown>): HistoricTaskInstanceQuery {
  const query: HistoricTaskInstanceQuery = { ...parseBodyQuery<HistoricTaskInstanceQuery>(body, HISTORIC_TASK_QUERY), ...variableCriteria(body, VARIABLE_CRITERIA, 'body') };
  if (body.orQueries !== undefined && body.orQueries !== null) query.orQueries = orQueriesFrom(body.orQueries, historicTaskQueryFromBody);
  return query;
}

const TASK_REPORT_QUERY: QuerySpec = {
  params: { reportType: 'string', periodUnit: 'string', groupBy: 'string', completedBefore: 'date', completedAfter: 'date' },
};

const dateOrNull = (date: Date | null) => (date ? formatRestDate(date) : null);

/** Camunda's HistoricTaskInstanceDto. */
export function toHistoricTaskInstanceDto(task: HistoricTaskInstance) {
  return {
    id: task.id,
    processDefinitionKey: task.processDefinitionKey,
    processDefinitionId: task.processDefinitionId,
    processInstanceId: task.processInstanceId,
    executionId: task.executionId,
    caseDefinitionKey: null,
    caseDefinitionId: null,
    caseInstanceId: null,
    caseExecutionId: null,
    activityInstanceId: task.activityInstanceId,
    name: task.name,
    description: task.description,
    deleteReason: task.deleteReason,
    owner: task.owner,
    assignee: task.assignee,
    startTime: formatRestDate(task.startTime),
    endTime: dateOrNull(task.endTime),
    duration: task.durationInMillis,
    taskDefinitionKey: task.taskDefinitionKey,
    priority: task.priority,
    due: dateOrNull(task.due),
    parentTaskId: task.parentTaskId,
    followUp: dateOrNull(task.followUp),
    tenantId: task.tenantId,
    removalTime: dateOrNull(task.removalTime),
    rootProcessInstanceId: task.rootProcessInstanceId,
    // Camunda's DTO sends it, though the 7.22 OpenAPI document leaves it out.
    taskState: task.taskState,
  };
}

/** The Historic Task Instance group: query and count (GET and POST), and the count and duration reports. */
export function historyTaskRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;
  const fromQueryString = (ctx: Context): HistoricTaskInstanceQuery => ({
    ...parseListQuery<HistoricTaskInstanceQuery>(ctx.query, HISTORIC_TASK_QUERY),
    ...variableCriteria(ctx.query, VARIABLE_CRITERIA, 'queryString'),
  });
  const fromBody = async (ctx: Context): Promise<HistoricTaskInstanceQuery> => {
    return { ...historicTaskQueryFromBody(await readJsonObject(ctx, rest.bodyLimit)), ...parsePage(ctx.query) };
  };
  // Camunda's HistoricTaskInstanceRestServiceImpl.getHistoricTaskInstanceReport and its HistoricTaskInstanceReportQueryDto.
  const report = async (raw: Record<string, unknown>) => {
    const { params } = parseQuery(raw, TASK_REPORT_QUERY);
    const { reportType, periodUnit, groupBy, completedBefore, completedAfter } = params as Record<string, string | Date | undefined>;
    const completed = { completedBefore: completedBefore as Date | undefined, completedAfter: completedAfter as Date | undefined };
    if (reportType !== undefined && reportType !== 'duration' && reportType !== 'count') {
      throw new InvalidRequestException(400, `reportType parameter has invalid value: ${String(reportType)}`);
    }
    const unit = typeof periodUnit === 'string' ? periodUnit.toUpperCase() : undefined;
    if (unit !== undefined && unit !== 'MONTH' && unit !== 'QUARTER') {
      throw new InvalidRequestException(400, `Cannot set query parameter 'periodUnit' to value '${String(periodUnit)}'`);
    }
    if (reportType === 'duration') {
      if (unit === undefined) throw new InvalidRequestException(400, 'periodUnit is null');
      return engine.history.tasks.finishedTaskDurations(unit, completed);
    }
    if (reportType === 'count') {
      if (groupBy !== 'taskName' && groupBy !== 'processDefinition') throw new InvalidRequestException(400, `groupBy parameter has invalid value: ${String(groupBy ?? null)}`);
      return engine.history.tasks.countFinishedTasks(groupBy, completed);
    }
    throw new InvalidRequestException(400, 'Parameter reportType is not set.');
  };
  const list = async (query: HistoricTaskInstanceQuery) => (await engine.history.tasks.findTasks(query)).map(toHistoricTaskInstanceDto);
  const count = async (listQuery: HistoricTaskInstanceQuery) => ({
    count: await engine.history.tasks.countTasks(countCriteria(listQuery)),
  });

  router.get('/history/task', async (ctx) => {
    ctx.body = await list(fromQueryString(ctx));
  });
  router.post('/history/task', async (ctx) => {
    ctx.body = await list(await fromBody(ctx));
  });
  router.get('/history/task/report', async (ctx) => {
    ctx.body = await report(ctx.query);
  });
  router.get('/history/task/count', async (ctx) => {
    ctx.body = await count(fromQueryString(ctx));
  });
  router.post('/history/task/count', async (ctx) => {
    ctx.body = await count(await fromBody(ctx));
  });
}
