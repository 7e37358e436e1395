import { sql, type Expression, type RawBuilder, type Selectable, type SelectQueryBuilder, type SqlBool, type Transaction } from 'kysely';
import { Resources } from '../../authorization/resources.js';
import { NullValueException, ProcessEngineException } from '../../errors/exceptions.js';
import type { DelegationState, Task, TaskCandidates, TaskQuery, TaskSortField } from '../../services/task/task.js';
import type { StoreSchema, TaskTable } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, columnIn, fromBoolean, LIKE_ESCAPE, type SortColumn, type Sorting, toBoolean, toDate } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';
import { TaskVariableRepository } from './task-variable-repository.js';
import { variableExists } from './variable-instance-query.js';
import { applyTenantCheck, type TenantChecked } from '../../authorization/tenant-check.js';

/** Tasks the caller may read: by READ on the task, or by READ_TASK on its definition's key (null: no checks). */
export type TaskReadFilter = { task: NonNullable<ReadFilter>; definition: NonNullable<ReadFilter> } | null;

/** The identity link type of candidates (Camunda's IdentityLinkType.CANDIDATE); the candidate criteria read only these. */
const CANDIDATE = 'candidate';

/** The value column Camunda orders a variable of a primitive type by (VariableOrderProperty.typeToQueryProperty). */
const VARIABLE_SORT_VALUES: Record<string, RawBuilder<unknown>> = {
  string: sql`lower(v.text)`, integer: sql`v.long_value`, short: sql`v.long_value`, long: sql`v.long_value`,
  date: sql`v.long_value`, boolean: sql`v.long_value`, double: sql`v.double_value`,
};
const KNOWN_VALUE_TYPES = new Set([...Object.keys(VARIABLE_SORT_VALUES), 'null', 'bytes', 'object', 'file', 'json', 'xml', 'number']);

/**
 * Camunda's orderByProcessVariable / ExecutionVariable / TaskVariable: the value of the variable of
 * that name and type on the task's process instance, execution or the task itself (none sorts as null).
 */
const variableSort = (relation: RawBuilder<SqlBool>) => (entry: Sorting<TaskSortField>) => {
  const name = entry.parameters?.variable ?? null;
  const given = entry.parameters?.type ?? null;
  // VariableValueDto.fromRestApiTypeName: the REST name with a lower-case first letter.
  const type = given === null || given === '' ? null : given.charAt(0).toLowerCase() + given.slice(1);
  if (name === null) throw new NullValueException('variableName is null');
  if (type === null || !KNOWN_VALUE_TYPES.has(type)) throw new NullValueException('valueType is null');
  const value = VARIABLE_SORT_VALUES[type];
  if (!value) throw new ProcessEngineException(`Cannot order by variables of type ${type}`);
  return sql`(select ${value} from trellis_variable v where ${relation} and v.name = ${name} and v.type = ${type} limit 1)`;
};

const SORT_COLUMNS: Record<TaskSortField, SortColumn<TaskSortField>> = {
  id: 't.id', name: 't.name', nameCaseInsensitive: sql`lower(t.name)`, assignee: 't.assignee', created: 't.create_time', dueDate: 't.due_date',
  followUpDate: 't.follow_up_date', priority: 't.priority', instanceId: 't.proc_inst_id', executionId: 't.execution_id',
  description: 't.description', lastUpdated: 't.last_updated', tenantId: 't.tenant_id',
  processVariable: variableSort(sql<SqlBool>`v.task_id is null and v.proc_inst_id = t.proc_inst_id and (v.execution_id = t.proc_inst_id or v.execution_id is null)`),
  executionVariable: variableSort(sql<SqlBool>`v.task_id is null and v.execution_id = t.execution_id`),
  taskVariable: variableSort(sql<SqlBool>`v.task_id = t.id`),
};

/** User tasks and their candidates, within one transaction. */
export class TaskRepository {
  private readonly revisions = new RevisionTracker('TaskEntity');
  /** The tasks' local variables. */
  readonly variables: TaskVariableRepository;
  /** The assignee each task had when read, to tell a new assignment (task metrics) from a rewrite. */
  private readonly assignees = new Map<string, string | null>();

  /**
   * `onAssigned` runs in the transaction whenever a task gets an assignee it did not have (Camunda's
   * task meter log). With `withGrants` (authorization enabled) a task's authorizations go with it.
   */
  constructor(
    private readonly trx: Transaction<StoreSchema>,
    private readonly onAssigned: (assignee: string) => Promise<void> = async () => {},
    private readonly withGrants = false,
  ) {
    this.variables = new TaskVariableRepository(trx);
  }

  async insert(task: Task, candidates: TaskCandidates): Promise<void> {
    await this.trx.insertInto('trellis_task').values({ ...toRow(task), rev: 1 }).execute();
    this.revisions.remember(task.id, 1);
    await this.assigned(task);
    const rows = [
      ...candidates.users.map((user_id) => ({ task_id: task.id, user_id, group_id: null, type: CANDIDATE })),
      ...candidates.groups.map((group_id) => ({ task_id: task.id, user_id: null, group_id, type: CANDIDATE })),
    ];
    if (rows.length > 0) await this.trx.insertInto('trellis_task_candidate').values(rows).execute();
  }

  async findById(id: string): Promise<Task | null> {
    const row = await this.trx.selectFrom('trellis_task').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  async find(query: TaskQuery, readable: TaskReadFilter = null): Promise<Task[]> {
    if (query.withCommentAttachmentInfo) {
      const select = this.filtered(query, readable)
        .selectAll('t')
        .select([
          sql<number>`case when exists (select 1 from trellis_comment c where c.task_id = t.id) then 1 else 0 end`.as('has_comment'),
          sql<number>`case when exists (select 1 from trellis_attachment a where a.task_id = t.id) then 1 else 0 end`.as('has_attachment'),
        ]);
      const rows = await applyPage(applySorting(select, query.sorting, SORT_COLUMNS, 't.id'), query).execute();
      return rows.map(({ has_comment, has_attachment, ...row }) => ({
        ...this.remember(row),
        commentAttachmentInfo: { comment: toBoolean(has_comment), attachment: toBoolean(has_attachment) },
      }));
    }
    const sorted = applySorting(this.filtered(query, readable).selectAll('t'), query.sorting, SORT_COLUMNS, 't.id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: TaskQuery, readable: TaskReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async update(task: Task): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_task', task.id, toRow(task));
    await this.assigned(task);
  }

  /** Records an update event of the task (its lastUpdated). */
  async touch(taskId: string, at: Date): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_task', taskId, { last_updated: at.getTime() });
  }

  private async assigned(task: Task): Promise<void> {
    const before = this.assignees.get(task.id) ?? null;
    this.assignees.set(task.id, task.assignee);
    if (task.assignee !== null && task.assignee !== before) await this.onAssigned(task.assignee);
  }

  /** The task's stored identity links (candidates, and links of custom types or none), in the order they were added. */
  async findLinks(taskId: string): Promise<Array<{ userId: string | null; groupId: string | null; type: string | null }>> {
    const rows = await this.trx.selectFrom('trellis_task_candidate').select(['user_id', 'group_id', 'type']).where('task_id', '=', taskId).execute();
    return rows.map((row) => ({ userId: row.user_id, groupId: row.group_id, type: row.type }));
  }

  /**
   * Camunda's task count by candidate group: unassigned tasks per group of their candidate links; a
   * task without links or with candidate users counts under no group (null, listed first as in
   * Camunda's documentation; its ORDER BY leaves that to the database).
   */
  async countByCandidateGroup(tenants: TenantChecked = {}): Promise<{ groupName: string | null; taskCount: number }[]> {
    const rows = await applyTenantCheck(this.trx.selectFrom('trellis_task as t').leftJoin('trellis_task_candidate as c', 'c.task_id', 't.id'), tenants, 't.tenant_id')
      .where('t.assignee', 'is', null)
      .where((eb) => eb.or([eb('c.type', '=', CANDIDATE), eb('c.type', 'is', null)]))
      .groupBy('c.group_id')
      .select((eb) => ['c.group_id', eb.fn.count<number>('t.id').as('task_count')])
      .orderBy((eb) => eb('c.group_id', 'is not', null))
      .orderBy('c.group_id')
      .execute();
    return rows.map((row) => ({ groupName: row.group_id, taskCount: Number(row.task_count) }));
  }

  /**
   * Adds an identity link (a candidate user or group, or a link of another type or none); one the
   * task has already is added again, as Camunda's TaskEntity.addIdentityLink does.
   */
  async addLink(taskId: string, userId: string | null, groupId: string | null, type: string | null): Promise<void> {
    await this.trx.insertInto('trellis_task_candidate').values({ task_id: taskId, user_id: userId, group_id: groupId, type }).execute();
  }

  /** Removes the task's links of this user or group and type; how many there were. */
  async deleteLink(taskId: string, userId: string | null, groupId: string | null, type: string | null): Promise<number> {
    let remove = this.trx.deleteFrom('trellis_task_candidate').where('task_id', '=', taskId);
    remove = userId === null ? remove.where('user_id', 'is', null) : remove.where('user_id', '=', userId);
    remove = groupId === null ? remove.where('group_id', 'is', null) : remove.where('group_id', '=', groupId);
    remove = type === null ? remove.where('type', 'is', null) : remove.where('type', '=', type);
    return Number((await remove.executeTakeFirst()).numDeletedRows);
  }

  async delete(task: Task): Promise<void> {
    if (this.withGrants) await this.deleteGrants([task.id]);
    await this.trx.deleteFrom('trellis_variable').where('task_id', '=', task.id).execute();
    await this.trx.deleteFrom('trellis_task_candidate').where('task_id', '=', task.id).execute();
    const result = await this.trx.deleteFrom('trellis_task').where('id', '=', task.id).where('rev', '=', this.revisions.of(task.id)).executeTakeFirst();
    this.revisions.ensureChanged(task.id, result.numDeletedRows);
  }

  /** Hands an execution's tasks to another one (the execution tree expanded). */
  async moveExecution(fromExecutionId: string, toExecutionId: string): Promise<void> {
    const ids = this.trx.selectFrom('trellis_task').select('id').where('execution_id', '=', fromExecutionId);
    await this.trx.updateTable('trellis_variable').set((eb) => ({ execution_id: toExecutionId, rev: eb('rev', '+', 1) })).where('task_id', 'in', ids).execute();
    await this.trx.updateTable('trellis_task').set((eb) => ({ execution_id: toExecutionId, rev: eb('rev', '+', 1) })).where('execution_id', '=', fromExecutionId).execute();
  }

  /** Removes the tasks of executions that end or are cancelled (a scope left, a boundary event fired); returns their ids. */
  async deleteByExecutions(executionIds: readonly string[]): Promise<string[]> {
    if (executionIds.length === 0) return [];
    const ids = this.trx.selectFrom('trellis_task').select('id').where('execution_id', 'in', executionIds);
    if (this.withGrants) await this.deleteGrants(ids);
    await this.trx.deleteFrom('trellis_variable').where('task_id', 'in', ids).execute();
    await this.trx.deleteFrom('trellis_task_candidate').where('task_id', 'in', ids).execute();
    const deleted = await this.trx.deleteFrom('trellis_task').where('execution_id', 'in', executionIds).returning('id').execute();
    return deleted.map((row) => row.id);
  }

  /** Camunda's TaskManager.deleteTask: the authorizations on the tasks go with them. */
  private async deleteGrants(ids: readonly string[] | SelectQueryBuilder<StoreSchema, 'trellis_task', { id: string }>): Promise<void> {
    await this.trx.deleteFrom('trellis_authorization').where('resource_type', '=', Resources.TASK.code).where('resource_id', 'in', ids).execute();
  }

  private filtered(q: TaskQuery, readable: TaskReadFilter) {
    let select = this.trx.selectFrom('trellis_task as t');
    for (const criterion of taskCriteria(q, false)) select = select.where(criterion);
    // Camunda's or(): each or-query holds when any of its criteria does (one without criteria always holds).
    for (const orQuery of q.orQueries ?? []) {
      const any = taskCriteria(orQuery, true);
      if (any.length > 0) select = select.where(sql<SqlBool>`(${sql.join(any, sql` or `)})`);
    }
    select = applyTenantCheck(select, q, 't.tenant_id');
    if (readable) {
      const { task, definition } = readable;
      select = select.where((eb) =>
        eb.or([
          task('t.id'),
          eb.exists(eb.selectFrom('trellis_process_definition as pd').select('pd.id').whereRef('pd.id', '=', 't.proc_def_id').where(definition('pd.key'))),
        ]),
      );
    }
    return select;
  }

  private remember(row: Selectable<TaskTable>): Task {
    this.revisions.remember(row.id, row.rev);
    this.assignees.set(row.id, row.assignee);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      taskDefinitionKey: row.task_def_key,
      assignee: row.assignee,
      owner: row.owner,
      priority: Number(row.priority),
      due: row.due_date == null ? null : toDate(row.due_date),
      followUp: row.follow_up_date == null ? null : toDate(row.follow_up_date),
      created: toDate(row.create_time),
      processInstanceId: row.proc_inst_id,
      executionId: row.execution_id,
      processDefinitionId: row.proc_def_id,
      activityInstanceId: row.activity_instance_id,
      formKey: row.form_key,
      suspended: toBoolean(row.suspended),
      tenantId: row.tenant_id,
      delegationState: (row.delegation_state as DelegationState | null) ?? null,
      parentTaskId: row.parent_task_id ?? null,
      lastUpdated: row.last_updated == null ? null : toDate(row.last_updated),
    };
  }
}

/**
 * The criteria of a task query (Camunda's Task.xml selectTaskByQueryCriteriaSql, on `t`), each a
 * condition: all must hold for the query, any for one of its or-queries. The tenant check and the
 * read permission are the caller's.
 */
/**
 * Camunda's TaskQueryImpl setters refuse contradicting criteria as the query is built (a filter's
 * saved query when it is saved): building the criteria here throws the same errors.
 */
export function checkTaskQueryCriteria(q: TaskQuery): void {
  taskCriteria(q, false);
  for (const orQuery of q.orQueries ?? []) taskCriteria(orQuery, true);
}

function taskCriteria(q: TaskQuery, orQuery: boolean): Expression<SqlBool>[] {
  const criteria: Expression<SqlBool>[] = [];
  const where = (condition: Expression<SqlBool>) => void criteria.push(condition);
  const equals = (column: string, value: unknown) => where(sql<SqlBool>`${sql.ref(column)} = ${value}`);
  if (q.taskId !== undefined) equals('t.id', q.taskId);
  if (q.taskIdIn !== undefined) where(columnIn('t.id', q.taskIdIn));
  if (q.parentTaskId !== undefined) equals('t.parent_task_id', q.parentTaskId);
  if (q.processInstanceId !== undefined) equals('t.proc_inst_id', q.processInstanceId);
  if (q.processInstanceIdIn !== undefined) where(columnIn('t.proc_inst_id', q.processInstanceIdIn));
  if (q.processDefinitionId !== undefined) equals('t.proc_def_id', q.processDefinitionId);
  if (q.processDefinitionKey !== undefined) where(sql<SqlBool>`t.proc_def_id in (select d.id from trellis_process_definition d where d.key = ${q.processDefinitionKey})`);
  if (q.executionId !== undefined) equals('t.execution_id', q.executionId);
  if (q.taskDefinitionKey !== undefined) equals('t.task_def_key', q.taskDefinitionKey);
  // Camunda compares names and descriptions ignoring case (CAM-6363, CAM-6165, CAM-12186).
  if (q.name !== undefined) where(sql<SqlBool>`upper(t.name) = upper(${q.name})`);
  if (q.nameLike !== undefined) where(sql<SqlBool>`upper(t.name) like upper(${q.nameLike}) ${LIKE_ESCAPE}`);
  if (q.assignee !== undefined) equals('t.assignee', q.assignee);
  if (q.assigneeLike !== undefined) where(sql<SqlBool>`t.assignee like ${q.assigneeLike} ${LIKE_ESCAPE}`);
  if (q.unassigned) where(sql<SqlBool>`t.assignee is null`);
  if (q.assigned) where(sql<SqlBool>`t.assignee is not null`);
  // One suspension state, as Camunda's query keeps it: suspended, set after active, wins.
  if (q.suspended) where(sql<SqlBool>`t.suspended = 1`);
  else if (q.active) where(sql<SqlBool>`t.suspended = 0`);
  if (!orQuery && q.withoutTenantId && q.tenantIdIn !== undefined) {
    throw new ProcessEngineException('Invalid query usage: cannot set both tenantIdIn and withoutTenantId filters.');
  }
  if (q.withoutTenantId) where(sql<SqlBool>`t.tenant_id is null`);
  if (q.tenantIdIn !== undefined) where(columnIn('t.tenant_id', q.tenantIdIn));
  const inList = (column: string, values: readonly string[] | undefined) => {
    if (values !== undefined && values.length > 0) where(sql<SqlBool>`${sql.ref(column)} in (${sql.join([...values])})`);
  };
  const rootExecution = (condition: Expression<SqlBool>) =>
    where(sql<SqlBool>`t.proc_inst_id in (select e.id from trellis_execution e where e.id = e.proc_inst_id and ${condition})`);
  const definition = (condition: Expression<SqlBool>) =>
    where(sql<SqlBool>`t.proc_def_id in (select d.id from trellis_process_definition d where ${condition})`);

  if (q.processInstanceBusinessKey !== undefined) rootExecution(sql<SqlBool>`e.business_key = ${q.processInstanceBusinessKey}`);
  if (q.processInstanceBusinessKeyIn !== undefined && q.processInstanceBusinessKeyIn.length > 0) {
    rootExecution(sql<SqlBool>`e.business_key in (${sql.join(q.processInstanceBusinessKeyIn)})`);
  }
  if (q.processInstanceBusinessKeyLike !== undefined) rootExecution(sql<SqlBool>`e.business_key like ${q.processInstanceBusinessKeyLike} ${LIKE_ESCAPE}`);
  if (q.processDefinitionKeyIn !== undefined && q.processDefinitionKeyIn.length > 0) definition(sql<SqlBool>`d.key in (${sql.join(q.processDefinitionKeyIn)})`);
  if (q.processDefinitionName !== undefined) definition(sql<SqlBool>`d.name = ${q.processDefinitionName}`);
  if (q.processDefinitionNameLike !== undefined) definition(sql<SqlBool>`d.name like ${q.processDefinitionNameLike} ${LIKE_ESCAPE}`);
  inList('t.task_def_key', q.taskDefinitionKeyIn);
  if (q.taskDefinitionKeyLike !== undefined) where(sql<SqlBool>`t.task_def_key like ${q.taskDefinitionKeyLike} ${LIKE_ESCAPE}`);
  inList('t.assignee', q.assigneeIn);
  if (q.assigneeNotIn !== undefined && q.assigneeNotIn.length > 0) where(sql<SqlBool>`t.assignee not in (${sql.join(q.assigneeNotIn)})`);
  if (q.owner !== undefined) where(sql<SqlBool>`t.owner = ${q.owner}`);
  if (q.nameNotEqual !== undefined) where(sql<SqlBool>`upper(t.name) <> upper(${q.nameNotEqual})`);
  if (q.nameNotLike !== undefined) where(sql<SqlBool>`upper(t.name) not like upper(${q.nameNotLike}) ${LIKE_ESCAPE}`);
  if (q.description !== undefined) where(sql<SqlBool>`upper(t.description) = upper(${q.description})`);
  if (q.descriptionLike !== undefined) where(sql<SqlBool>`upper(t.description) like upper(${q.descriptionLike}) ${LIKE_ESCAPE}`);
  if (q.priority !== undefined) where(sql<SqlBool>`t.priority = ${q.priority}`);
  if (q.minPriority !== undefined) where(sql<SqlBool>`t.priority >= ${q.minPriority}`);
  if (q.maxPriority !== undefined) where(sql<SqlBool>`t.priority <= ${q.maxPriority}`);
  const dates: Array<[string, Date | undefined, string]> = [
    ['t.due_date', q.dueDate, '='], ['t.due_date', q.dueAfter, '>'], ['t.due_date', q.dueBefore, '<'],
    // followUpBeforeOrNotExistent sets Camunda's one followUpBefore field after followUpBefore: it wins.
    ['t.follow_up_date', q.followUpDate, '='], ['t.follow_up_date', q.followUpAfter, '>'],
    ['t.follow_up_date', q.followUpBeforeOrNotExistent === undefined ? q.followUpBefore : undefined, '<'],
    ['t.create_time', q.createdOn, '='], ['t.create_time', q.createdAfter, '>'], ['t.create_time', q.createdBefore, '<'],
  ];
  for (const [column, date, op] of dates) {
    if (date !== undefined) where(sql<SqlBool>`${sql.ref(column)} ${sql.raw(op)} ${date.getTime()}`);
  }
  if (!orQuery && q.withoutDueDate && (q.dueDate !== undefined || q.dueBefore !== undefined || q.dueAfter !== undefined)) {
    throw new ProcessEngineException('Invalid query usage: cannot set both due date (equal to, before, or after) and withoutDueDate filters.');
  }
  if (q.withoutDueDate) where(sql<SqlBool>`t.due_date is null`);
  if (q.updatedAfter !== undefined) {
    const after = q.updatedAfter.getTime();
    where(sql<SqlBool>`(t.last_updated > ${after} or (t.last_updated is null and t.create_time > ${after}))`);
  }
  if (q.followUpBeforeOrNotExistent !== undefined) {
    where(sql<SqlBool>`(t.follow_up_date is null or t.follow_up_date < ${q.followUpBeforeOrNotExistent.getTime()})`);
  }
  if (q.delegationState !== undefined) where(sql<SqlBool>`t.delegation_state = ${q.delegationState}`);
  inList('t.activity_instance_id', q.activityInstanceIdIn);

  const candidates = candidateCriterion(q, orQuery);
  if (candidates) where(candidates);
  if (q.involvedUser !== undefined) {
    const user = q.involvedUser;
    where(sql<SqlBool>`(t.assignee = ${user} or t.owner = ${user} or exists (select 1 from trellis_task_candidate c where c.task_id = t.id and c.user_id = ${user}))`);
  }

  for (const condition of q.taskVariables ?? []) where(variableExists('trellis_variable', sql<SqlBool>`v.task_id = t.id`, condition, q));
  for (const condition of q.processVariables ?? []) {
    where(variableExists('trellis_variable', sql<SqlBool>`v.task_id is null and v.proc_inst_id = t.proc_inst_id`, condition, q));
  }
  return criteria;
}

/**
 * Camunda's candidate criteria: candidateUser (the user, or one of their groups), candidateGroup and
 * candidateGroups (both given: the groups in both), withCandidateGroups/-Users need a candidate link of
 * that kind, withoutCandidateGroups/-Users none; all of them find only unassigned tasks unless
 * includeAssignedTasks.
 */
function candidateCriterion(q: TaskQuery, orQuery: boolean): Expression<SqlBool> | null {
  // Camunda's TaskQueryImpl refuses these in an or-query (the first one its DTO sets names the error).
  if (orQuery) {
    for (const flag of ['withCandidateGroups', 'withoutCandidateGroups', 'withCandidateUsers', 'withoutCandidateUsers'] as const) {
      if (q[flag]) throw new ProcessEngineException(`Invalid query usage: cannot set ${flag}() within 'or' query`);
    }
  }
  if (q.candidateGroups !== undefined && q.candidateGroups.length === 0) throw new ProcessEngineException('Candidate group list is empty');
  let groups = q.candidateGroups;
  if (q.candidateGroup !== undefined) groups = groups === undefined || orQuery ? [...(groups ?? []), q.candidateGroup] : groups.filter((group) => group === q.candidateGroup);
  // In an or-query the candidate user and groups are alternatives.
  if (q.candidateUser !== undefined && groups !== undefined && !orQuery) {
    throw new ProcessEngineException(
      q.candidateGroup !== undefined
        ? 'Invalid query usage: cannot set both candidateUser and candidateGroup'
        : 'Invalid query usage: cannot set both candidateGroupIn and candidateUser',
    );
  }
  const withCandidates =
    q.candidateUser !== undefined || groups !== undefined || q.candidateGroupLike !== undefined || q.withCandidateGroups === true || q.withCandidateUsers === true;
  const withoutCandidates = q.withoutCandidateGroups === true || q.withoutCandidateUsers === true;
  if (q.includeAssignedTasks && !withCandidates && !withoutCandidates) {
    throw new ProcessEngineException(
      "Invalid query usage: candidateUser, candidateGroup, candidateGroupLike, candidateGroupIn, withCandidateGroups, withoutCandidateGroups, withCandidateUsers, withoutCandidateUsers has to be called before 'includeAssignedTasks'.",
    );
  }
  if (!withCandidates && !withoutCandidates) return null;
  // One condition (Camunda's parenthesized candidate clause), so that an or-query keeps its parts together.
  const parts: Expression<SqlBool>[] = [];
  if (!q.includeAssignedTasks) parts.push(sql<SqlBool>`t.assignee is null`);
  if (withCandidates) {
    // The candidate user (directly or through a group), the groups and the group pattern are alternatives.
    const alternatives: Expression<SqlBool>[] = [];
    if (q.candidateUser !== undefined) {
      const user = q.candidateUser;
      alternatives.push(sql<SqlBool>`c.user_id = ${user} or c.group_id in (select m.group_id from trellis_membership m where m.user_id = ${user})`);
    }
    if (groups !== undefined) alternatives.push(groups.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`c.group_id in (${sql.join(groups)})`);
    if (q.candidateGroupLike !== undefined) alternatives.push(sql<SqlBool>`c.group_id like ${q.candidateGroupLike} ${LIKE_ESCAPE}`);
    const link: Expression<SqlBool>[] = alternatives.length > 0 ? [sql<SqlBool>`(${sql.join(alternatives, sql` or `)})`] : [];
    if (q.withCandidateGroups) link.push(sql<SqlBool>`c.group_id is not null`);
    if (q.withCandidateUsers) link.push(sql<SqlBool>`c.user_id is not null`);
    parts.push(sql<SqlBool>`exists (select 1 from trellis_task_candidate c where c.task_id = t.id and c.type = ${CANDIDATE}${sql.join(link.map((each) => sql` and ${each}`), sql``)})`);
  }
  // One NOT EXISTS per kind, as Camunda's Task.xml has them: both asked for, the task has no candidate at all.
  if (q.withoutCandidateGroups) parts.push(sql<SqlBool>`not exists (select 1 from trellis_task_candidate c where c.task_id = t.id and c.type = ${CANDIDATE} and c.group_id is not null)`);
  if (q.withoutCandidateUsers) parts.push(sql<SqlBool>`not exists (select 1 from trellis_task_candidate c where c.task_id = t.id and c.type = ${CANDIDATE} and c.user_id is not null)`);
  return sql<SqlBool>`(${sql.join(parts, sql` and `)})`;
}

function toRow(task: Task): Omit<TaskTable, 'rev'> {
  return {
    id: task.id,
    name: task.name,
    description: task.description,
    task_def_key: task.taskDefinitionKey,
    assignee: task.assignee,
    owner: task.owner,
    priority: task.priority,
    due_date: task.due?.getTime() ?? null,
    follow_up_date: task.followUp?.getTime() ?? null,
    create_time: task.created.getTime(),
    proc_inst_id: task.processInstanceId,
    execution_id: task.executionId,
    proc_def_id: task.processDefinitionId,
    activity_instance_id: task.activityInstanceId,
    form_key: task.formKey,
    suspended: fromBoolean(task.suspended),
    tenant_id: task.tenantId,
    delegation_state: task.delegationState ?? null,
    parent_task_id: task.parentTaskId ?? null,
    last_updated: task.lastUpdated?.getTime() ?? null,
  };
}
