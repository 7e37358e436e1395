import { Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import type { CommandExecutor } from '../../command/command-executor.js';
import type { HistoricTaskState } from '../../history/task-history.js';
import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import { HistoricTaskRepository, type CompletedWindow } from '../../persistence/repositories/historic-task-repository.js';
import type { TenantChecked } from '../../authorization/tenant-check.js';
import type { VariableValueCondition } from '../variable-instance/variable-instance.js';

/** A user task as history keeps it (Camunda's HistoricTaskInstance). */
export interface HistoricTaskInstance {
  id: string;
  processDefinitionKey: string | null;
  processDefinitionId: string | null;
  processInstanceId: string | null;
  rootProcessInstanceId: string | null;
  executionId: string | null;
  activityInstanceId: string | null;
  name: string | null;
  description: string | null;
  deleteReason: string | null;
  owner: string | null;
  assignee: string | null;
  startTime: Date;
  endTime: Date | null;
  durationInMillis: number | null;
  taskDefinitionKey: string | null;
  priority: number | null;
  due: Date | null;
  followUp: Date | null;
  parentTaskId: string | null;
  tenantId: string | null;
  removalTime: Date | null;
  taskState: HistoricTaskState | null;
}

export type HistoricTaskInstanceSortField =
  | 'taskId' | 'activityInstanceId' | 'processDefinitionId' | 'processInstanceId' | 'executionId' | 'duration' | 'endTime'
  | 'startTime' | 'taskName' | 'taskDescription' | 'assignee' | 'owner' | 'dueDate' | 'followUpDate' | 'deleteReason'
  | 'taskDefinitionKey' | 'priority' | 'caseDefinitionId' | 'caseInstanceId' | 'caseExecutionId' | 'tenantId';

/** Camunda's HistoricTaskInstanceQuery; the involvement and candidate criteria read the identity link log (level full). */
export interface HistoricTaskInstanceQuery extends Page, TenantChecked {
  taskId?: string;
  taskParentTaskId?: string;
  processInstanceId?: string;
  processInstanceIdIn?: string[];
  rootProcessInstanceId?: string;
  processInstanceBusinessKey?: string;
  processInstanceBusinessKeyIn?: string[];
  processInstanceBusinessKeyLike?: string;
  executionId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  processDefinitionName?: string;
  activityInstanceIdIn?: string[];
  taskName?: string;
  taskNameLike?: string;
  taskDescription?: string;
  taskDescriptionLike?: string;
  taskDefinitionKey?: string;
  taskDefinitionKeyIn?: string[];
  taskDeleteReason?: string;
  taskDeleteReasonLike?: string;
  taskAssignee?: string;
  taskAssigneeLike?: string;
  taskOwner?: string;
  taskOwnerLike?: string;
  taskPriority?: number;
  assigned?: boolean;
  unassigned?: boolean;
  finished?: boolean;
  unfinished?: boolean;
  processFinished?: boolean;
  processUnfinished?: boolean;
  taskDueDate?: Date;
  taskDueDateBefore?: Date;
  taskDueDateAfter?: Date;
  withoutTaskDueDate?: boolean;
  taskFollowUpDate?: Date;
  taskFollowUpDateBefore?: Date;
  taskFollowUpDateAfter?: Date;
  startedBefore?: Date;
  startedAfter?: Date;
  finishedBefore?: Date;
  finishedAfter?: Date;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  taskInvolvedUser?: string;
  taskInvolvedGroup?: string;
  taskHadCandidateUser?: string;
  taskHadCandidateGroup?: string;
  withCandidateGroups?: boolean;
  withoutCandidateGroups?: boolean;
  sorting?: Sorting<HistoricTaskInstanceSortField>[];
  /** Conditions on the task's own historic variables. */
  taskVariables?: VariableValueCondition[];
  /** Conditions on its process instance's historic variables (no task's). */
  processVariables?: VariableValueCondition[];
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
  /** Camunda's or(): each holds when any of its criteria does (one without criteria always holds). */
  orQueries?: Array<Omit<HistoricTaskInstanceQuery, 'orQueries' | 'sorting'>>;
}

/** One add or delete of a task's identity link (Camunda's HistoricIdentityLinkLog). */
export interface HistoricIdentityLinkLog {
  id: string;
  time: Date;
  type: string | null;
  userId: string | null;
  groupId: string | null;
  taskId: string | null;
  processDefinitionId: string | null;
  processDefinitionKey: string | null;
  operationType: string | null;
  assignerId: string | null;
  tenantId: string | null;
  removalTime: Date | null;
  rootProcessInstanceId: string | null;
}

export type HistoricIdentityLinkLogSortField =
  | 'time' | 'type' | 'userId' | 'groupId' | 'taskId' | 'processDefinitionId' | 'processDefinitionKey' | 'operationType' | 'assignerId' | 'tenantId';

export interface HistoricIdentityLinkLogQuery extends Page, TenantChecked {
  type?: string;
  userId?: string;
  groupId?: string;
  dateBefore?: Date;
  dateAfter?: Date;
  taskId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  operationType?: string;
  assignerId?: string;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  sorting?: Sorting<HistoricIdentityLinkLogSortField>[];
}

/** One row of the task count report (Camunda's HistoricTaskInstanceReportResult); taskName only when grouped by it. */
export interface HistoricTaskReportCount {
  count: number;
  taskName: string | null;
  processDefinitionKey: string;
  processDefinitionId: string;
  processDefinitionName: string | null;
  tenantId: string | null;
}

/** One period of the task duration report (Camunda's DurationReportResult), in milliseconds. */
export interface HistoricTaskDurationReport {
  period: number;
  periodUnit: 'MONTH' | 'QUARTER';
  minimum: number;
  maximum: number;
  average: number;
}

/**
 * Historic task instances and the identity link log (engine.history.tasks). Lists show what belongs
 * to definitions the caller has READ_HISTORY on (by key), as Camunda's queries do without historic
 * instance permissions.
 */
export class HistoricTasks {
  constructor(private readonly commands: CommandExecutor) {}

  findTasks(query: HistoricTaskInstanceQuery = {}): Promise<HistoricTaskInstance[]> {
    return this.commands.run('HistoricTaskInstanceQuery', async (ctx) => new HistoricTaskRepository(ctx.trx).findTasks(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  countTasks(query: HistoricTaskInstanceQuery = {}): Promise<number> {
    return this.commands.run('HistoricTaskInstanceQuery', async (ctx) => new HistoricTaskRepository(ctx.trx).countTasks(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  findIdentityLinkLogs(query: HistoricIdentityLinkLogQuery = {}): Promise<HistoricIdentityLinkLog[]> {
    return this.commands.run('HistoricIdentityLinkLogQuery', async (ctx) => new HistoricTaskRepository(ctx.trx).findIdentityLinkLogs(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  countIdentityLinkLogs(query: HistoricIdentityLinkLogQuery = {}): Promise<number> {
    return this.commands.run('HistoricIdentityLinkLogQuery', async (ctx) => new HistoricTaskRepository(ctx.trx).countIdentityLinkLogs(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  /** The count report over finished tasks; READ_HISTORY on any process definition and any task, as Camunda checks. */
  countFinishedTasks(groupBy: 'taskName' | 'processDefinition', completed: CompletedWindow = {}): Promise<HistoricTaskReportCount[]> {
    return this.commands.run('HistoricTaskInstanceReport', async (ctx) => {
      await checkReport(ctx);
      return new HistoricTaskRepository(ctx.trx).countFinishedTasks(groupBy, ctx.tenantCheck.query(completed));
    });
  }

  /** The duration report over finished tasks by month or quarter of their end. */
  finishedTaskDurations(periodUnit: 'MONTH' | 'QUARTER', completed: CompletedWindow = {}): Promise<HistoricTaskDurationReport[]> {
    return this.commands.run('HistoricTaskInstanceReport', async (ctx) => {
      await checkReport(ctx);
      return new HistoricTaskRepository(ctx.trx).finishedTaskDurations(periodUnit, ctx.tenantCheck.query(completed), ctx.dialect.name === 'postgres' ? 'postgres' : 'sqlite');
    });
  }
}

const readableHistory = (ctx: CommandContext) => ctx.authz.historyFilter();

async function checkReport(ctx: CommandContext): Promise<void> {
  await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: '*' });
  await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.TASK, resourceId: '*' });
}
