import { sql, type Expression, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { ExternalTask, ExternalTaskQuery, FetchTopic } from '../../services/external-task/external-task.js';
import type { DialectSeam } from '../dialect.js';
import type { ExternalTaskTable, StoreSchema } from '../schema.js';
import type { InstanceReadFilter } from './process-instance-repository.js';
import { applyPage, applySorting, fromBoolean, LIKE_ESCAPE_SQL, nonEmpty, toBoolean, toDate } from './query-support.js';
import { fromInstanceRowsJson, instanceRowsJson, loadRowWithInstanceRows, type InstanceRows, type InstanceRowsJson } from './instance-rows.js';
import { RevisionTracker } from './revision-tracker.js';
import { SOLITARY } from '../dialects/pg.js';
import { fromCompiled, joinText, rawText, sqlText, type SqlText } from '../sql-text.js';
import { applyTenantCheck, type TenantChecked } from '../../authorization/tenant-check.js';
import { typedValueEquals, valueCondition } from './variable-instance-query.js';
import { untypedValue } from '../../runtime/variables/index.js';

type Row = Selectable<ExternalTaskTable>;

/** A locked task's row and its instance's rows, as the fetch that locked it read them. */
export interface LockedTaskSnapshot {
  row: Row;
  instance: InstanceRows;
}

/** Characters and bytes of an instance's values up to which a fetch reads them with the task it locks (see lockFetchable). */
const MAX_SNAPSHOT_VALUES = 16_384;

/** How fetchAndLock orders candidates: by priority (usePriority), then by create time when asked. */
export interface FetchOrder {
  usePriority: boolean;
  createTime?: 'asc' | 'desc';
}

function createTimeOrder(a: Row, b: Row, direction: 'asc' | 'desc' | undefined): number {
  if (!direction) return 0;
  return direction === 'asc' ? a.create_time - b.create_time : b.create_time - a.create_time;
}

const SORT_COLUMNS = {
  id: 't.id',
  lockExpirationTime: 't.lock_expiration_time',
  processInstanceId: 't.proc_inst_id',
  processDefinitionId: 't.proc_def_id',
  processDefinitionKey: 't.proc_def_key',
  tenantId: 't.tenant_id',
  taskPriority: 't.priority',
  createTime: 't.create_time',
} as const;

/**
 * A fetch's LIMIT as a literal, not a parameter: with `limit $n` PostgreSQL's generic plan assumes a
 * tenth of the topic's tasks, so the prepared fetch was planned anew each time (a third of a
 * millisecond); with the number in the text the generic plan is as good and is kept.
 */
function limitText(limit: number): SqlText {
  return rawText(String(Math.max(0, Math.min(Math.trunc(limit), 2 ** 31 - 1))));
}

/** Each task's lock expiration: now plus its topic's lock duration (one value when one topic is fetched). */
function lockExpirationTimes(topics: readonly FetchTopic[], now: Date): SqlText {
  const expiration = (topic: FetchTopic) => now.getTime() + topic.lockDuration;
  if (topics.length === 1) return sqlText`${expiration(topics[0])}`;
  return sqlText`case topic_name ${joinText(topics.map((topic) => sqlText`when ${topic.topicName} then cast(${expiration(topic)} as bigint)`), ' ')} end`;
}

/**
 * A fetch's process variable filter (Camunda's TopicFetchInstruction.filterVariables): the variable
 * equals the value as Jackson read it from the request, so a whole number is an Integer (a Long
 * beyond that range), another number a Double, and only variables of that type match; an object
 * or a list fails as in Camunda's SingleQueryVariableValueCondition.
 */
function processVariableEquals(name: string, value: unknown): Expression<SqlBool> {
  return valueCondition(typedValueEquals(name, untypedValue(value)), false, false);
}

/** External tasks, within one transaction; changes are revision-checked. */
export class ExternalTaskRepository {
  private readonly revisions = new RevisionTracker('ExternalTaskEntity');

  constructor(
    private readonly trx: Transaction<StoreSchema>,
    private readonly dialect: DialectSeam,
  ) {}

  async insert(task: ExternalTask): Promise<void> {
    await this.trx.insertInto('trellis_external_task').values({ ...toRow(task), rev: 1 }).execute();
    this.revisions.remember(task.id, 1);
  }

  /** PostgreSQL: the task and the rows of its process instance in one round trip (the instance rows are null elsewhere). */
  async findByIdWithInstance(id: string): Promise<{ task: ExternalTask; instance: InstanceRows | null } | null> {
    if (this.dialect.name !== 'postgres') {
      const task = await this.findById(id);
      return task && { task, instance: null };
    }
    const found = await loadRowWithInstanceRows(this.trx, 'trellis_external_task', id);
    return found ? { task: this.remember(found.row), instance: found.instance } : null;
  }

  async findById(id: string): Promise<ExternalTask | null> {
    const row = await this.trx.selectFrom('trellis_external_task').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  async update(task: ExternalTask): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_external_task', task.id, toRow(task));
  }

  async delete(task: ExternalTask): Promise<void> {
    await this.trx.deleteFrom('trellis_external_task').where('id', '=', task.id).execute();
    this.revisions.forget(task.id);
  }

  /** Hands an execution's external tasks to another one (a concurrent path merged into its parent). */
  async moveExecution(fromExecutionId: string, toExecutionId: string): Promise<void> {
    await this.trx
      .updateTable('trellis_external_task')
      .set((eb) => ({ execution_id: toExecutionId, rev: eb('rev', '+', 1) }))
      .where('execution_id', '=', fromExecutionId)
      .execute();
  }

  /** Returns the removed tasks (for the external task log, same round trip). */
  async deleteByExecutions(executionIds: readonly string[]): Promise<ExternalTask[]> {
    if (executionIds.length === 0) return [];
    const rows = await this.trx.deleteFrom('trellis_external_task').where('execution_id', 'in', executionIds).returningAll().execute();
    return rows.map((row) => this.remember(row));
  }

  /**
   * Tasks a worker may lock now for the topics: unlocked or expired, active, with retries left,
   * matching a topic's filters. On PostgreSQL rows another node is locking are skipped.
   */
  async fetchable(topics: readonly FetchTopic[], now: Date, limit: number, order: FetchOrder, readable: InstanceReadFilter): Promise<ExternalTask[]> {
    const locking = rawText(this.dialect.name === 'postgres' ? ' for update skip locked' : '');
    const { rows } = await sqlText`select t.* ${this.fetchableFrom(topics, now, order, readable)} limit ${limit}${locking}`.execute(this.trx, this.dialect.name);
    return (rows as Row[]).map((row) => this.remember(row));
  }

  /**
   * PostgreSQL only: picks and locks up to `limit` fetchable tasks of the topics for the worker, each
   * for its topic's lock duration, in one statement (UPDATE … WHERE id IN (SELECT … FOR UPDATE SKIP
   * LOCKED) RETURNING), the hot path of every worker and the caller's only write. Returns them in the
   * fetch order, and with each its instance's rows as this statement read them (`snapshots`: the
   * payloads and completing the task can take them instead of reading, see snapshotGuard) — except
   * for instances whose values are larger than MAX_SNAPSHOT_VALUES, so a fetch is usually one round trip.
   */
  async lockFetchable(
    topics: readonly FetchTopic[],
    now: Date,
    limit: number,
    order: FetchOrder,
    readable: InstanceReadFilter,
    workerId: string,
  ): Promise<{ tasks: ExternalTask[]; snapshots: LockedTaskSnapshot[] }> {
    const statement = sqlText`with locked as (update trellis_external_task set worker_id = ${workerId}, lock_expiration_time = ${lockExpirationTimes(topics, now)}, rev = rev + 1
      where id in (select t.id ${this.fetchableFrom(topics, now, order, readable)} limit ${limitText(limit)} for update skip locked) returning *)
      select locked.*, ${instanceRowsJson(rawText('locked.proc_inst_id'), MAX_SNAPSHOT_VALUES)} from locked`;
    const { rows } = (await statement.execute(this.trx, 'postgres', SOLITARY)) as { rows: Array<Row & InstanceRowsJson> };
    if (order.usePriority) rows.sort((a, b) => b.priority - a.priority || createTimeOrder(a, b, order.createTime));
    else if (order.createTime) rows.sort((a, b) => createTimeOrder(a, b, order.createTime));
    const snapshots: LockedTaskSnapshot[] = [];
    for (const { executions, activity_instances, variables, ...row } of rows) {
      const instance = fromInstanceRowsJson({ executions, activity_instances, variables });
      if (instance) snapshots.push({ row, instance });
    }
    return { tasks: rows.map((row) => this.remember(row)), snapshots };
  }

  /** A task row read by an earlier command (a snapshot of the fetch that locked it), as if this one had read it. */
  adopt(row: Row): ExternalTask {
    return this.remember(row);
  }

  /**
   * `from … where … order by …` of the tasks a worker may lock now for the topics: unlocked or
   * expired, active, with retries left, matching the criteria of one of the topics — Camunda's
   * selectExternalTasksForTopics, one query for all topics, so that the order (priority, create
   * time) and the limit apply across them. SQL text: every fetch builds it.
   */
  private fetchableFrom(topics: readonly FetchTopic[], now: Date, order: FetchOrder, readable: InstanceReadFilter): SqlText {
    const byTopic = topics.map((topic) => joinText(this.topicCriteria(topic), ' and '));
    const conditions: SqlText[] = [
      byTopic.length === 1 ? byTopic[0] : sqlText`(${joinText(byTopic.map((criteria) => sqlText`(${criteria})`), ' or ')})`,
      sqlText`(t.lock_expiration_time is null or t.lock_expiration_time <= ${now.getTime()})`,
      rawText('t.suspended = 0'),
      rawText('(t.retries is null or t.retries > 0)'),
    ];
    if (readable) conditions.push(fromCompiled(sql`${readable('t.proc_inst_id', 't.proc_def_key')}`.compile(this.trx), this.dialect.name));
    const orderBy = [...(order.usePriority ? ['t.priority desc'] : []), ...(order.createTime ? [`t.create_time ${order.createTime === 'desc' ? 'desc' : 'asc'}`] : [])];
    return sqlText`from trellis_external_task as t where ${joinText(conditions, ' and ')}${rawText(orderBy.length > 0 ? ` order by ${orderBy.join(', ')}` : '')}`;
  }

  /** One topic's criteria of a fetch: its name, its filters, the caller's tenants. */
  private topicCriteria(topic: FetchTopic): SqlText[] {
    const criteria: SqlText[] = [sqlText`t.topic_name = ${topic.topicName}`];
    const equal = (column: string, value: string | undefined) => value !== undefined && criteria.push(sqlText`${rawText(column)} = ${value}`);
    const among = (column: string, values: readonly string[] | undefined) => values !== undefined && criteria.push(sqlText`${rawText(column)} in (${joinText(nonEmpty(values))})`);
    equal('t.business_key', topic.businessKey);
    equal('t.proc_def_id', topic.processDefinitionId);
    among('t.proc_def_id', topic.processDefinitionIdIn);
    equal('t.proc_def_key', topic.processDefinitionKey);
    among('t.proc_def_key', topic.processDefinitionKeyIn);
    if (topic.processDefinitionVersionTag !== undefined) criteria.push(sqlText`t.proc_def_version_tag like ${topic.processDefinitionVersionTag} ${rawText(LIKE_ESCAPE_SQL)}`);
    if (topic.withoutTenantId) criteria.push(rawText('t.tenant_id is null'));
    among('t.tenant_id', topic.tenantIdIn);
    const variables = Object.entries(topic.processVariables ?? {});
    if (variables.length > 0) {
      // Camunda's filterVariables: a variable of the instance's own execution equals one of the values.
      const matches = sql.join(variables.map(([name, value]) => processVariableEquals(name, value)), sql` or `);
      criteria.push(fromCompiled(sql`exists (select 1 from trellis_variable v where v.execution_id = t.proc_inst_id and (${matches}))`.compile(this.trx), this.dialect.name));
    }
    const tenants = topic.authTenantIds;
    if (tenants !== undefined) {
      criteria.push(tenants.length === 0 ? rawText('t.tenant_id is null') : sqlText`(t.tenant_id is null or t.tenant_id in (${joinText([...tenants])}))`);
    }
    return criteria;
  }

  /** `now` decides what counts as locked (the engine clock; wall-clock time when not given). */
  async find(query: ExternalTaskQuery, readable: InstanceReadFilter = null, now: Date = new Date()): Promise<ExternalTask[]> {
    const rows = await applyPage(applySorting(this.filtered(query, readable, now).selectAll('t'), query.sorting, SORT_COLUMNS, 't.id'), query).execute();
    return rows.map((row) => this.remember(row));
  }

  async count(query: ExternalTaskQuery, readable: InstanceReadFilter = null, now: Date = new Date()): Promise<number> {
    const row = await this.filtered(query, readable, now).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async topicNames(
    options: { withLockedTasks?: boolean; withUnlockedTasks?: boolean; withRetriesLeft?: boolean } & TenantChecked,
    now: Date,
    readable: InstanceReadFilter = null,
  ): Promise<string[]> {
    let select = applyTenantCheck(this.trx.selectFrom('trellis_external_task as t').select('t.topic_name').distinct(), options, 't.tenant_id');
    if (readable) select = select.where(readable('t.proc_inst_id', 't.proc_def_key'));
    if (options.withLockedTasks) select = select.where('t.lock_expiration_time', '>', now.getTime());
    // Camunda's GetTopicNamesCmd runs the task query's notLocked: a lock expiring this very moment still counts.
    if (options.withUnlockedTasks) select = select.where((eb) => eb.or([eb('t.lock_expiration_time', 'is', null), eb('t.lock_expiration_time', '<', now.getTime())]));
    if (options.withRetriesLeft) select = select.where((eb) => eb.or([eb('t.retries', 'is', null), eb('t.retries', '>', 0)]));
    const rows = await select.orderBy('t.topic_name').execute();
    return rows.map((row) => row.topic_name);
  }

  private filtered(q: ExternalTaskQuery, readable: InstanceReadFilter, at: Date) {
    const now = at.getTime();
    let select = this.trx.selectFrom('trellis_external_task as t');
    if (q.externalTaskId !== undefined) select = select.where('t.id', '=', q.externalTaskId);
    if (q.externalTaskIdIn !== undefined) select = select.where('t.id', 'in', nonEmpty(q.externalTaskIdIn));
    if (q.topicName !== undefined) select = select.where('t.topic_name', '=', q.topicName);
    if (q.workerId !== undefined) select = select.where('t.worker_id', '=', q.workerId);
    if (q.locked) select = select.where('t.lock_expiration_time', '>', now);
    // Camunda's notLocked: a lock expiring this very moment still counts (a fetch takes such a task).
    if (q.notLocked) select = select.where((eb) => eb.or([eb('t.lock_expiration_time', 'is', null), eb('t.lock_expiration_time', '<', now)]));
    // One retries criterion, as Camunda's query keeps it: noRetriesLeft, which its DTO sets after withRetriesLeft, wins.
    if (q.noRetriesLeft) select = select.where('t.retries', '=', 0);
    else if (q.withRetriesLeft) select = select.where((eb) => eb.or([eb('t.retries', 'is', null), eb('t.retries', '>', 0)]));
    if (q.lockExpirationAfter !== undefined) select = select.where('t.lock_expiration_time', '>', q.lockExpirationAfter.getTime());
    if (q.lockExpirationBefore !== undefined) select = select.where('t.lock_expiration_time', '<', q.lockExpirationBefore.getTime());
    if (q.activityId !== undefined) select = select.where('t.activity_id', '=', q.activityId);
    if (q.activityIdIn !== undefined) select = select.where('t.activity_id', 'in', nonEmpty(q.activityIdIn));
    if (q.executionId !== undefined) select = select.where('t.execution_id', '=', q.executionId);
    if (q.processInstanceId !== undefined) select = select.where('t.proc_inst_id', '=', q.processInstanceId);
    if (q.processInstanceIdIn !== undefined) select = select.where('t.proc_inst_id', 'in', nonEmpty(q.processInstanceIdIn));
    if (q.processDefinitionId !== undefined) select = select.where('t.proc_def_id', '=', q.processDefinitionId);
    select = applyTenantCheck(select, q, 't.tenant_id');
    if (q.tenantIdIn !== undefined) select = select.where('t.tenant_id', 'in', nonEmpty(q.tenantIdIn));
    // One suspension state, as Camunda's query keeps it: suspended, set after active, wins.
    if (q.suspended) select = select.where('t.suspended', '=', 1);
    else if (q.active) select = select.where('t.suspended', '=', 0);
    if (q.priorityHigherThanOrEquals !== undefined) select = select.where('t.priority', '>=', q.priorityHigherThanOrEquals);
    if (q.priorityLowerThanOrEquals !== undefined) select = select.where('t.priority', '<=', q.priorityLowerThanOrEquals);
    if (readable) select = select.where(readable('t.proc_inst_id', 't.proc_def_key'));
    return select;
  }

  private remember(row: Row): ExternalTask {
    this.revisions.remember(row.id, row.rev);
    return {
      id: row.id,
      topicName: row.topic_name,
      workerId: row.worker_id,
      lockExpirationTime: row.lock_expiration_time == null ? null : toDate(row.lock_expiration_time),
      retries: row.retries == null ? null : Number(row.retries),
      errorMessage: row.error_message,
      errorDetails: row.error_details,
      suspended: toBoolean(row.suspended),
      executionId: row.execution_id,
      processInstanceId: row.proc_inst_id,
      processDefinitionId: row.proc_def_id,
      processDefinitionKey: row.proc_def_key,
      processDefinitionVersionTag: row.proc_def_version_tag,
      activityId: row.activity_id,
      activityInstanceId: row.activity_instance_id,
      tenantId: row.tenant_id,
      priority: Number(row.priority),
      businessKey: row.business_key,
      createTime: toDate(row.create_time),
    };
  }
}

function toRow(task: ExternalTask): Omit<ExternalTaskTable, 'rev'> {
  return {
    id: task.id,
    topic_name: task.topicName,
    worker_id: task.workerId,
    lock_expiration_time: task.lockExpirationTime?.getTime() ?? null,
    retries: task.retries,
    error_message: task.errorMessage,
    error_details: task.errorDetails,
    suspended: fromBoolean(task.suspended),
    execution_id: task.executionId,
    proc_inst_id: task.processInstanceId,
    proc_def_id: task.processDefinitionId,
    proc_def_key: task.processDefinitionKey,
    proc_def_version_tag: task.processDefinitionVersionTag,
    activity_id: task.activityId,
    activity_instance_id: task.activityInstanceId,
    tenant_id: task.tenantId,
    priority: task.priority,
    business_key: task.businessKey,
    create_time: task.createTime.getTime(),
  };
}
