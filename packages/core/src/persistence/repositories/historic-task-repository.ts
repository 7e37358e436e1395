import { sql, type RawBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { HistoricTaskState } from '../../history/task-history.js';
import type {
  HistoricIdentityLinkLog,
  HistoricIdentityLinkLogQuery,
  HistoricIdentityLinkLogSortField,
  HistoricTaskInstance,
  HistoricTaskInstanceQuery,
  HistoricTaskInstanceSortField,
  HistoricTaskDurationReport,
  HistoricTaskReportCount,
} from '../../services/history/historic-tasks.js';
import type { HistoricIdentityLinkTable, HistoricTaskInstanceTable, StoreSchema } from '../schema.js';
import { historyAccess, type HistoryReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, columnIn, LIKE_ESCAPE, likeMatches, toDate } from './query-support.js';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import { applyTenantCheck, requestedTenants, tenantCondition, type TenantChecked } from '../../authorization/tenant-check.js';
import { variableExists } from './variable-instance-query.js';
import { ProcessEngineException } from '../../errors/exceptions.js';

const taskBase = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_taskinst as t');
const linkBase = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_identitylink as l');
type TaskSelect = ReturnType<typeof taskBase>;
type LinkSelect = ReturnType<typeof linkBase>;

// Trellis has no case instances: the case sorts order by nothing in particular, so by id.
const TASK_SORT: Record<HistoricTaskInstanceSortField, string> = {
  taskId: 't.id', activityInstanceId: 't.act_inst_id', processDefinitionId: 't.proc_def_id', processInstanceId: 't.proc_inst_id',
  executionId: 't.execution_id', duration: 't.duration', endTime: 't.end_time', startTime: 't.start_time', taskName: 't.name',
  taskDescription: 't.description', assignee: 't.assignee', owner: 't.owner', dueDate: 't.due_date', followUpDate: 't.follow_up_date',
  deleteReason: 't.delete_reason', taskDefinitionKey: 't.task_def_key', priority: 't.priority', caseDefinitionId: 't.id',
  caseInstanceId: 't.id', caseExecutionId: 't.id', tenantId: 't.tenant_id',
};
const LINK_SORT: Record<HistoricIdentityLinkLogSortField, string> = {
  time: 'l.timestamp', type: 'l.type', userId: 'l.user_id', groupId: 'l.group_id', taskId: 'l.task_id', processDefinitionId: 'l.proc_def_id',
  processDefinitionKey: 'l.proc_def_key', operationType: 'l.operation_type', assignerId: 'l.assigner_id', tenantId: 'l.tenant_id',
};

/** Historic task instances and the identity link log: Camunda's history queries, filtered by what the caller may read. */
export class HistoricTaskRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async findTasks(q: HistoricTaskInstanceQuery, readable: HistoryReadFilter): Promise<HistoricTaskInstance[]> {
    const select = applySorting(this.taskSelect(q, readable).selectAll('t').select(inheritedRemovalTime('trellis_hi_taskinst', 't')), q.sorting, TASK_SORT, 't.id');
    return (await applyPage(select, q).execute()).map(toTask);
  }

  async countTasks(q: HistoricTaskInstanceQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.taskSelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async findIdentityLinkLogs(q: HistoricIdentityLinkLogQuery, readable: HistoryReadFilter): Promise<HistoricIdentityLinkLog[]> {
    const select = applySorting(this.linkSelect(q, readable).selectAll('l').select(inheritedRemovalTime('trellis_hi_identitylink', 'l')), q.sorting, LINK_SORT, 'l.id');
    return (await applyPage(select, q).execute()).map(toLink);
  }

  async countIdentityLinkLogs(q: HistoricIdentityLinkLogQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.linkSelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /**
   * Camunda's HistoricTaskInstanceReport count: finished tasks per task name or per definition key
   * (and tenant), shown with the latest version of the definition (tasks without a deployed
   * definition do not count); by name without nameless tasks.
   */
  async countFinishedTasks(groupBy: 'taskName' | 'processDefinition', completed: CompletedWindow): Promise<HistoricTaskReportCount[]> {
    const byName = groupBy === 'taskName';
    const { rows } = await sql<{ count: number; task_name: string | null; proc_def_key: string; proc_def_id: string; proc_def_name: string | null; tenant_id: string | null }>`
      select counts.count, counts.task_name, counts.proc_def_key, d.id as proc_def_id, d.name as proc_def_name, counts.tenant_id
      from (
        select count(*) as count, ${byName ? sql`t.name` : sql`null`} as task_name, t.proc_def_key, latest.tenant_id, latest.version
        from trellis_hi_taskinst t
        join (select key, tenant_id, max(version) as version from trellis_process_definition group by key, tenant_id) latest
          on latest.key = t.proc_def_key and (latest.tenant_id = t.tenant_id or (latest.tenant_id is null and t.tenant_id is null))
        where ${finishedWithin(completed)}
        group by ${byName ? sql`t.name, ` : sql``}t.proc_def_key, latest.version, latest.tenant_id
      ) counts
      join trellis_process_definition d
        on d.key = counts.proc_def_key and d.version = counts.version and (d.tenant_id = counts.tenant_id or (d.tenant_id is null and counts.tenant_id is null))
      ${byName ? sql`where counts.task_name is not null and counts.task_name <> '' order by counts.task_name asc, counts.count desc` : sql`order by d.name asc, d.key asc, counts.count desc`}`.execute(this.trx);
    return rows.map((row) => ({
      count: Number(row.count),
      taskName: row.task_name,
      processDefinitionKey: row.proc_def_key,
      processDefinitionId: row.proc_def_id,
      processDefinitionName: row.proc_def_name,
      tenantId: row.tenant_id,
    }));
  }

  /** Camunda's HistoricTaskInstanceReport duration: minimum, maximum and average duration of finished tasks per month or quarter (UTC) of their end. */
  async finishedTaskDurations(periodUnit: 'MONTH' | 'QUARTER', completed: CompletedWindow, dialect: 'sqlite' | 'postgres'): Promise<HistoricTaskDurationReport[]> {
    const month = dialect === 'postgres'
      ? sql`extract(month from to_timestamp(t.end_time / 1000.0) at time zone 'UTC')::integer`
      : sql`cast(strftime('%m', t.end_time / 1000, 'unixepoch') as integer)`;
    const period = periodUnit === 'MONTH' ? month : sql`((${month} - 1) / 3 + 1)`;
    const { rows } = await sql<{ period: number; minimum: number; maximum: number; average: number }>`
      select r.period, min(r.duration) as minimum, max(r.duration) as maximum, avg(r.duration) as average
      from (select ${period} as period, t.duration from trellis_hi_taskinst t where ${finishedWithin(completed)}) r
      group by r.period order by r.period`.execute(this.trx);
    return rows.map((row) => ({
      period: Number(row.period),
      periodUnit,
      minimum: Number(row.minimum),
      maximum: Number(row.maximum),
      average: Math.round(Number(row.average)),
    }));
  }

  private taskSelect(q: HistoricTaskInstanceQuery, readable: HistoryReadFilter): TaskSelect {
    let s: TaskSelect = taskBase(this.trx);
    // Camunda skips the check for standalone tasks unless instance permissions are on.
    if (readable) s = s.where(historyAccess(readable, { definitionKey: 't.proc_def_key', processInstanceId: 't.proc_inst_id', taskId: 't.id', standaloneTask: 't.execution_id' }));
    // Camunda joins the historic process instance outer when an or-query is given: a task without one then is "process unfinished".
    const outerJoin = (q.orQueries?.length ?? 0) > 0;
    for (const criterion of historicTaskCriteria(q, false, outerJoin)) s = s.where(criterion);
    for (const orQuery of q.orQueries ?? []) {
      // Camunda's or-query: its criteria joined by OR; one without criteria matches all.
      const any = historicTaskCriteria(orQuery, true, outerJoin);
      if (any.length > 0) s = s.where(sql<SqlBool>`(${sql.join(any, sql` or `)})`);
    }
    const tenants = tenantCondition(q, 't.tenant_id');
    return tenants ? s.where(tenants) : s;
  }

  private linkSelect(q: HistoricIdentityLinkLogQuery, readable: HistoryReadFilter): LinkSelect {
    let s: LinkSelect = linkBase(this.trx);
    if (readable) s = s.where(linkAccess(readable));
    if (q.type !== undefined) s = s.where('l.type', '=', q.type);
    if (q.userId !== undefined) s = s.where('l.user_id', '=', q.userId);
    if (q.groupId !== undefined) s = s.where('l.group_id', '=', q.groupId);
    if (q.dateBefore !== undefined) s = s.where('l.timestamp', '<=', q.dateBefore.getTime());
    if (q.dateAfter !== undefined) s = s.where('l.timestamp', '>=', q.dateAfter.getTime());
    if (q.taskId !== undefined) s = s.where('l.task_id', '=', q.taskId);
    if (q.processDefinitionId !== undefined) s = s.where('l.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) s = s.where('l.proc_def_key', '=', q.processDefinitionKey);
    if (q.operationType !== undefined) s = s.where('l.operation_type', '=', q.operationType);
    if (q.assignerId !== undefined) s = s.where('l.assigner_id', '=', q.assignerId);
    s = applyTenantCheck(s, q, 'l.tenant_id');
    const tenants = requestedTenants(q, 'l.tenant_id');
    if (tenants) s = s.where(tenants);
    return s;
  }
}

const dateOrNull = (millis: number | null) => (millis === null ? null : toDate(millis));
const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

function toTask(row: Selectable<HistoricTaskInstanceTable> & { inherited_removal_time: number | null }): HistoricTaskInstance {
  return {
    id: row.id,
    processDefinitionKey: row.proc_def_key,
    processDefinitionId: row.proc_def_id,
    processInstanceId: row.proc_inst_id,
    rootProcessInstanceId: row.root_proc_inst_id,
    executionId: row.execution_id,
    activityInstanceId: row.act_inst_id,
    name: row.name,
    description: row.description,
    deleteReason: row.delete_reason,
    owner: row.owner,
    assignee: row.assignee,
    startTime: toDate(row.start_time),
    endTime: dateOrNull(row.end_time),
    durationInMillis: numberOrNull(row.duration),
    taskDefinitionKey: row.task_def_key,
    priority: numberOrNull(row.priority),
    due: dateOrNull(row.due_date),
    followUp: dateOrNull(row.follow_up_date),
    parentTaskId: row.parent_task_id,
    tenantId: row.tenant_id,
    removalTime: dateOrNull(row.inherited_removal_time),
    taskState: row.task_state as HistoricTaskState | null,
  };
}

function toLink(row: Selectable<HistoricIdentityLinkTable> & { inherited_removal_time: number | null }): HistoricIdentityLinkLog {
  return {
    id: row.id,
    time: toDate(row.timestamp),
    type: row.type,
    userId: row.user_id,
    groupId: row.group_id,
    taskId: row.task_id,
    processDefinitionId: row.proc_def_id,
    processDefinitionKey: row.proc_def_key,
    operationType: row.operation_type,
    assignerId: row.assigner_id,
    tenantId: row.tenant_id,
    removalTime: dateOrNull(row.inherited_removal_time),
    rootProcessInstanceId: row.root_proc_inst_id,
  };
}

/**
 * The criteria of a historic task query (Camunda's HistoricTaskInstance.xml), each one condition: all
 * must hold, or for an or-query any. Names and descriptions compare ignoring case (CAM-12186); the
 * identity link criteria of a query are one subquery, so in an and-query one link must match them all.
 */
function historicTaskCriteria(q: Omit<HistoricTaskInstanceQuery, 'orQueries'>, orQuery: boolean, outerJoin: boolean): RawBuilder<SqlBool>[] {
  const criteria: RawBuilder<SqlBool>[] = [];
  const where = (condition: RawBuilder<SqlBool>) => criteria.push(condition);
  if (orQuery && q.withCandidateGroups) throw new ProcessEngineException("Invalid query usage: cannot set withCandidateGroups() within 'or' query");
  if (orQuery && q.withoutCandidateGroups) throw new ProcessEngineException("Invalid query usage: cannot set withoutCandidateGroups() within 'or' query");
  const due = [q.taskDueDate, q.taskDueDateBefore, q.taskDueDateAfter];
  if (!orQuery && q.withoutTaskDueDate && due.some((date) => date !== undefined)) {
    throw new ProcessEngineException('Invalid query usage: cannot set both task due date (equal to, before, or after) and withoutTaskDueDate filters.');
  }
  const equal = (column: string, value: string | number | undefined) => {
    if (value !== undefined) where(sql<SqlBool>`${sql.ref(column)} = ${value}`);
  };
  const like = (column: string, value: string | undefined) => {
    if (value !== undefined) where(likeMatches(column, value));
  };
  const equalIgnoringCase = (column: string, value: string | undefined) => {
    if (value !== undefined) where(sql<SqlBool>`upper(${sql.ref(column)}) = upper(${value})`);
  };
  const likeIgnoringCase = (column: string, value: string | undefined) => {
    if (value !== undefined) where(sql<SqlBool>`upper(${sql.ref(column)}) like upper(${value}) ${LIKE_ESCAPE}`);
  };
  const inList = (column: string, values: readonly string[] | undefined) => {
    if (values !== undefined) where(columnIn(column, values));
  };
  const compare = (column: string, date: Date | undefined, op: '<' | '>' | '<=' | '>=') => {
    if (date !== undefined) where(sql<SqlBool>`${sql.ref(column)} ${sql.raw(op)} ${date.getTime()}`);
  };
  // Camunda: `(due = x or due < y or due > z and due is not null)` in an or-query, all of them in an and-query.
  const dates = (column: string, at: Date | undefined, before: Date | undefined, after: Date | undefined) => {
    const parts = [
      ...(at ? [sql<SqlBool>`${sql.ref(column)} = ${at.getTime()}`] : []),
      ...(before ? [sql<SqlBool>`${sql.ref(column)} < ${before.getTime()}`] : []),
      ...(after ? [sql<SqlBool>`${sql.ref(column)} > ${after.getTime()}`] : []),
    ];
    if (parts.length > 0) where(sql<SqlBool>`(${sql.join(parts, orQuery ? sql` or ` : sql` and `)})`);
  };
  const historicInstance = (condition: RawBuilder<SqlBool>) => where(sql<SqlBool>`t.proc_inst_id in (select p.id from trellis_hi_procinst p where ${condition})`);
  const definition = (condition: RawBuilder<SqlBool>) => where(sql<SqlBool>`t.proc_def_id in (select d.id from trellis_process_definition d where ${condition})`);

  const links: RawBuilder<SqlBool>[] = [];
  if (q.taskInvolvedUser !== undefined) links.push(sql<SqlBool>`l.user_id = ${q.taskInvolvedUser}`);
  if (q.taskInvolvedGroup !== undefined) links.push(sql<SqlBool>`l.group_id = ${q.taskInvolvedGroup}`);
  if (q.taskHadCandidateUser !== undefined) links.push(sql<SqlBool>`(l.type = 'candidate' and l.user_id = ${q.taskHadCandidateUser})`);
  if (q.taskHadCandidateGroup !== undefined) links.push(sql<SqlBool>`(l.type = 'candidate' and l.group_id = ${q.taskHadCandidateGroup})`);
  if (q.withCandidateGroups) links.push(sql<SqlBool>`(l.type = 'candidate' and l.group_id is not null)`);
  if (links.length > 0) where(sql<SqlBool>`t.id in (select l.task_id from trellis_hi_identitylink l where ${sql.join(links, orQuery ? sql` or ` : sql` and `)})`);
  if (q.withoutCandidateGroups) {
    where(sql<SqlBool>`not exists (select 1 from trellis_hi_identitylink l where l.task_id = t.id and l.type = 'candidate' and l.group_id is not null)`);
  }
  equal('t.id', q.taskId);
  equal('t.proc_def_id', q.processDefinitionId);
  if (q.processDefinitionKey !== undefined) definition(sql<SqlBool>`d.key = ${q.processDefinitionKey}`);
  if (q.processDefinitionName !== undefined) definition(sql<SqlBool>`d.name = ${q.processDefinitionName}`);
  equal('t.proc_inst_id', q.processInstanceId);
  inList('t.proc_inst_id', q.processInstanceIdIn);
  equal('t.root_proc_inst_id', q.rootProcessInstanceId);
  if (q.processInstanceBusinessKey !== undefined) historicInstance(sql<SqlBool>`p.business_key = ${q.processInstanceBusinessKey}`);
  if (q.processInstanceBusinessKeyIn !== undefined) historicInstance(columnIn('p.business_key', q.processInstanceBusinessKeyIn));
  if (q.processInstanceBusinessKeyLike !== undefined) historicInstance(sql<SqlBool>`p.business_key like ${q.processInstanceBusinessKeyLike} ${LIKE_ESCAPE}`);
  // Camunda's taskDefinitionKey sets the key list that taskDefinitionKeyIn replaces.
  inList('t.task_def_key', q.taskDefinitionKeyIn ?? (q.taskDefinitionKey === undefined ? undefined : [q.taskDefinitionKey]));
  equal('t.execution_id', q.executionId);
  inList('t.act_inst_id', q.activityInstanceIdIn);
  equalIgnoringCase('t.name', q.taskName);
  likeIgnoringCase('t.name', q.taskNameLike);
  equal('t.parent_task_id', q.taskParentTaskId);
  equalIgnoringCase('t.description', q.taskDescription);
  likeIgnoringCase('t.description', q.taskDescriptionLike);
  equal('t.delete_reason', q.taskDeleteReason);
  like('t.delete_reason', q.taskDeleteReasonLike);
  equal('t.owner', q.taskOwner);
  like('t.owner', q.taskOwnerLike);
  if (q.assigned) where(sql<SqlBool>`t.assignee is not null`);
  if (q.unassigned) where(sql<SqlBool>`t.assignee is null`);
  equal('t.assignee', q.taskAssignee);
  like('t.assignee', q.taskAssigneeLike);
  equal('t.priority', q.taskPriority);
  if (q.unfinished) where(sql<SqlBool>`t.end_time is null`);
  if (q.finished) where(sql<SqlBool>`t.end_time is not null`);
  if (q.processFinished) historicInstance(sql<SqlBool>`p.end_time is not null`);
  if (q.processUnfinished) {
    if (outerJoin) where(sql<SqlBool>`not exists (select 1 from trellis_hi_procinst p where p.id = t.proc_inst_id and p.end_time is not null)`);
    else historicInstance(sql<SqlBool>`p.end_time is null`);
  }
  compare('t.start_time', q.startedAfter, '>=');
  compare('t.start_time', q.startedBefore, '<=');
  compare('t.end_time', q.finishedBefore, '<=');
  compare('t.end_time', q.finishedAfter, '>=');
  dates('t.due_date', q.taskDueDate, q.taskDueDateBefore, q.taskDueDateAfter);
  if (q.withoutTaskDueDate) where(sql<SqlBool>`t.due_date is null`);
  dates('t.follow_up_date', q.taskFollowUpDate, q.taskFollowUpDateBefore, q.taskFollowUpDateAfter);
  // Camunda's withoutTenantId clears the tenant list that tenantIdIn set.
  if (q.withoutTenantId) where(sql<SqlBool>`t.tenant_id is null`);
  else inList('t.tenant_id', q.tenantIdIn);
  for (const condition of q.taskVariables ?? []) where(variableExists('trellis_hi_varinst', sql<SqlBool>`v.task_id = t.id`, condition, q));
  for (const condition of q.processVariables ?? []) {
    where(variableExists('trellis_hi_varinst', sql<SqlBool>`v.proc_inst_id = t.proc_inst_id and v.task_id is null`, condition, q));
  }
  return criteria;
}

/** The completedBefore/completedAfter window of a task report. */
export interface CompletedWindow extends TenantChecked {
  completedBefore?: Date;
  completedAfter?: Date;
}

function finishedWithin(completed: CompletedWindow) {
  const conditions = [sql`t.end_time is not null`];
  if (completed.completedBefore) conditions.push(sql`t.end_time <= ${completed.completedBefore.getTime()}`);
  if (completed.completedAfter) conditions.push(sql`t.end_time >= ${completed.completedAfter.getTime()}`);
  const tenants = tenantCondition(completed, 't.tenant_id');
  if (tenants) conditions.push(tenants);
  return sql.join(conditions, sql` and `);
}

/**
 * Camunda's identity link log check: a standalone task's entries (no definition) pass unchecked;
 * with instance permissions on, only entries of a historic task count (Camunda joins the task
 * inner), through the definition, the task's process instance or the task.
 */
function linkAccess(readable: NonNullable<HistoryReadFilter>): RawBuilder<SqlBool> {
  if (!readable.instance) return historyAccess(readable, { definitionKey: 'l.proc_def_key', standaloneTask: 'l.proc_def_key' });
  const access = historyAccess(readable, { definitionKey: 'l.proc_def_key', processInstanceId: 'lt.proc_inst_id', taskId: 'l.task_id' });
  return sql<SqlBool>`exists (select 1 from trellis_hi_taskinst lt where lt.id = l.task_id and ${access})`;
}
