import { sql, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { Job } from '../../jobs/job.js';
import type { DialectSeam } from '../dialect.js';
import type { JobTable, StoreSchema } from '../schema.js';
import type { InstanceReadFilter } from './process-instance-repository.js';
import { applyPage, applySorting, fromBoolean, nonEmpty, toBoolean, toDate, type Page, type Sorting } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';
import { applyTenantCheck, requestedTenants, type TenantChecked } from '../../authorization/tenant-check.js';

type Row = Selectable<JobTable>;

export interface JobQuery {
  jobIds?: readonly string[];
  processInstanceId?: string;
  executionId?: string;
  processDefinitionId?: string;
  activityId?: string;
  timers?: boolean;
  messages?: boolean;
  withRetriesLeft?: boolean;
  noRetriesLeft?: boolean;
  withException?: boolean;
}

export type JobSortField =
  | 'jobId'
  | 'executionId'
  | 'processInstanceId'
  | 'processDefinitionId'
  | 'processDefinitionKey'
  | 'jobPriority'
  | 'jobRetries'
  | 'jobDueDate'
  | 'tenantId';

const JOB_SORT_COLUMNS: Record<JobSortField, string> = {
  jobId: 'id',
  executionId: 'execution_id',
  processInstanceId: 'process_instance_id',
  processDefinitionId: 'process_definition_id',
  processDefinitionKey: 'process_definition_key',
  jobPriority: 'priority',
  jobRetries: 'retries',
  jobDueDate: 'due_date',
  tenantId: 'tenant_id',
};

/** Camunda's job query (REST GET /job); without sorting, by id. Date bounds are strict. */
export interface JobListQuery extends Page, TenantChecked {
  jobId?: string;
  jobIds?: readonly string[];
  jobDefinitionId?: string;
  processInstanceId?: string;
  processInstanceIds?: readonly string[];
  executionId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  activityId?: string;
  withRetriesLeft?: boolean;
  /** Retries left and due (no due date, or due at `now`). */
  executable?: boolean;
  timers?: boolean;
  messages?: boolean;
  dueDateAfter?: Date;
  dueDateBefore?: Date;
  createdAfter?: Date;
  createdBefore?: Date;
  withException?: boolean;
  exceptionMessage?: string;
  failedActivityId?: string;
  noRetriesLeft?: boolean;
  active?: boolean;
  suspended?: boolean;
  priorityLowerThanOrEquals?: number;
  priorityHigherThanOrEquals?: number;
  tenantIdIn?: readonly string[];
  withoutTenantId?: boolean;
  includeJobsWithoutTenantId?: boolean;
  sorting?: Sorting<JobSortField>[];
}

/** Which jobs a bulk suspension or activation touches (exactly one criterion is set). */
export interface JobSuspensionSelector {
  jobId?: string;
  jobDefinitionId?: string;
  processInstanceId?: string;
  processDefinitionId?: string;
  processDefinitionKey?: string;
  /** With processDefinitionKey: only that tenant's definitions (null: no tenant). */
  processDefinitionTenantId?: string | null;
}

/** Jobs, within one transaction. Updates and deletes check the revision read in this transaction. */
export class JobRepository {
  private readonly revisions = new RevisionTracker('JobEntity');

  constructor(
    private readonly trx: Transaction<StoreSchema>,
    private readonly dialect: DialectSeam,
  ) {}

  async insert(job: Job): Promise<void> {
    await this.trx.insertInto('trellis_job').values({ ...toRow(job), rev: 1 }).execute();
    this.revisions.remember(job.id, 1);
  }

  async findById(id: string): Promise<Job | null> {
    const row = await this.trx.selectFrom('trellis_job').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  /**
   * Locks up to `limit` due, unlocked (or expired) jobs for `owner`. On PostgreSQL rows another
   * node is locking right now are skipped, so nodes never wait for each other here.
   */
  async acquire(owner: string, now: Date, lockUntil: Date, limit: number, options: { skipHandlerType?: string } = {}): Promise<Job[]> {
    let select = this.trx
      .selectFrom('trellis_job as j')
      .select('j.id')
      .where('j.retries', '>', 0)
      .where('j.suspended', '=', 0)
      .where((eb) => eb.or([eb('j.due_date', 'is', null), eb('j.due_date', '<=', now.getTime())]))
      .where((eb) => eb.or([eb('j.lock_owner', 'is', null), eb('j.lock_expiration_time', '<', now.getTime())]))
      // Exclusive jobs of one process instance never run at the same time: not while another node holds one of them.
      .where((eb) =>
        eb.or([
          eb('j.exclusive', '=', 0),
          eb('j.process_instance_id', 'is', null),
          eb.not(
            eb.exists(
              eb
                .selectFrom('trellis_job as other')
                .select('other.id')
                .whereRef('other.process_instance_id', '=', 'j.process_instance_id')
                .whereRef('other.id', '<>', 'j.id')
                .where('other.exclusive', '=', 1)
                .where('other.lock_owner', '<>', owner)
                .where('other.lock_expiration_time', '>=', now.getTime()),
            ),
          ),
        ]),
      )
      .orderBy('j.priority', 'desc')
      .orderBy('j.due_date', 'asc')
      .limit(limit);
    if (options.skipHandlerType !== undefined) select = select.where('j.handler_type', '<>', options.skipHandlerType);
    if (this.dialect.name === 'postgres') select = select.forUpdate('j').skipLocked();
    const ids = (await select.execute()).map((row) => row.id);
    if (ids.length === 0) return [];
    await this.trx
      .updateTable('trellis_job')
      .set((eb) => ({ lock_owner: owner, lock_expiration_time: lockUntil.getTime(), rev: eb('rev', '+', 1) }))
      .where('id', 'in', ids)
      .execute();
    const rows = await this.trx.selectFrom('trellis_job').selectAll().where('id', 'in', ids).execute();
    return rows.map((row) => this.remember(row));
  }

  /** Records a failed attempt: the retries left, the error kept, the lock released, the next attempt's due date. */
  async fail(job: Job, failure: { message: string; stacktrace: string | null; retries: number; dueDate: Date | null; failedActivityId?: string | null }): Promise<void> {
    await this.updateChecked(job.id, {
      ...(failure.failedActivityId !== undefined ? { failed_activity_id: failure.failedActivityId } : {}),
      retries: Math.max(0, failure.retries),
      exception_message: failure.message.slice(0, 4000),
      exception_stack: failure.stacktrace,
      due_date: failure.dueDate?.getTime() ?? null,
      lock_owner: null,
      lock_expiration_time: null,
    });
  }

  /** A failed repeating timer whose next firing is scheduled already: its retries only retry this one. */
  async stopRepeating(job: Job): Promise<void> {
    await this.updateChecked(job.id, { repeat_text: null });
  }

  /** Releases a job's lock so that it is acquired again. */
  async unlock(job: Job): Promise<void> {
    await this.updateChecked(job.id, { lock_owner: null, lock_expiration_time: null });
  }

  /** New retries for a job (its error stays until it runs again). */
  async setRetries(job: Job, retries: number): Promise<void> {
    await this.updateChecked(job.id, { retries });
  }

  /** New retries and, when `dueDate` is given (null included), a new due date; a stale lock is released. */
  async setRetriesAndDueDate(job: Job, retries: number, dueDate?: Date | null): Promise<void> {
    const changes: Partial<JobTable> = { retries };
    if (dueDate !== undefined) changes.due_date = dueDate?.getTime() ?? null;
    await this.updateChecked(job.id, changes);
  }

  /** An ever-living job (history cleanup) set anew: unlocked, its failure cleared, its retries reset when given. */
  async reschedule(job: Job, changes: { dueDate: Date | null; handlerConfiguration: string | null; suspended: boolean; retries?: number }): Promise<void> {
    await this.updateChecked(job.id, {
      ...(changes.retries === undefined ? {} : { retries: changes.retries }),
      due_date: changes.dueDate?.getTime() ?? null,
      handler_configuration: changes.handlerConfiguration,
      suspended: fromBoolean(changes.suspended),
      lock_owner: null,
      lock_expiration_time: null,
      exception_message: null,
      exception_stack: null,
    });
  }

  async setDueDate(job: Job, dueDate: Date | null, repeatOffset = job.repeatOffset): Promise<void> {
    await this.updateChecked(job.id, { due_date: dueDate?.getTime() ?? null, repeat_offset: repeatOffset });
  }

  async setPriority(job: Job, priority: number): Promise<void> {
    await this.updateChecked(job.id, { priority });
  }

  async setSuspended(job: Job, suspended: boolean): Promise<void> {
    await this.updateChecked(job.id, { suspended: fromBoolean(suspended) });
  }

  /** The jobs a suspension selector matches (for the permission checks before the update). */
  async findBySuspensionSelector(selector: JobSuspensionSelector): Promise<Job[]> {
    let select = this.trx.selectFrom('trellis_job').selectAll();
    if (selector.jobId !== undefined) select = select.where('id', '=', selector.jobId);
    if (selector.jobDefinitionId !== undefined) select = select.where('job_definition_id', '=', selector.jobDefinitionId);
    if (selector.processInstanceId !== undefined) select = select.where('process_instance_id', '=', selector.processInstanceId);
    if (selector.processDefinitionId !== undefined) select = select.where('process_definition_id', '=', selector.processDefinitionId);
    if (selector.processDefinitionKey !== undefined) select = select.where('process_definition_key', '=', selector.processDefinitionKey);
    if (selector.processDefinitionTenantId !== undefined) {
      select = selector.processDefinitionTenantId === null ? select.where('tenant_id', 'is', null) : select.where('tenant_id', '=', selector.processDefinitionTenantId);
    }
    const rows = await select.orderBy('id').execute();
    return rows.map((row) => this.remember(row));
  }

  /** Camunda's job query: the matching jobs, limited to the readable ones when `readable` is given. */
  async query(query: JobListQuery, now: Date, readable: InstanceReadFilter = null): Promise<Job[]> {
    const select = applySorting(this.filtered(query, now, readable).selectAll(), query.sorting, JOB_SORT_COLUMNS, 'id');
    const rows = await applyPage(select, query).execute();
    return rows.map((row) => this.remember(row));
  }

  async count(query: JobListQuery, now: Date, readable: InstanceReadFilter = null): Promise<number> {
    const row = await this.filtered(query, now, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private filtered(q: JobListQuery, now: Date, readable: InstanceReadFilter) {
    let select = this.trx.selectFrom('trellis_job');
    if (q.jobId !== undefined) select = select.where('id', '=', q.jobId);
    if (q.jobIds !== undefined) select = select.where('id', 'in', nonEmpty(q.jobIds));
    if (q.jobDefinitionId !== undefined) select = select.where('job_definition_id', '=', q.jobDefinitionId);
    if (q.processInstanceId !== undefined) select = select.where('process_instance_id', '=', q.processInstanceId);
    if (q.processInstanceIds !== undefined) select = select.where('process_instance_id', 'in', nonEmpty(q.processInstanceIds));
    if (q.executionId !== undefined) select = select.where('execution_id', '=', q.executionId);
    if (q.processDefinitionId !== undefined) select = select.where('process_definition_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) select = select.where('process_definition_key', '=', q.processDefinitionKey);
    if (q.activityId !== undefined) select = select.where('activity_id', '=', q.activityId);
    if (q.withRetriesLeft) select = select.where('retries', '>', 0);
    if (q.noRetriesLeft) select = select.where('retries', '<=', 0);
    if (q.executable) {
      // Camunda's Job.xml also leaves out the jobs of suspended process instances.
      select = select
        .where('retries', '>', 0)
        .where((eb) => eb.or([eb('due_date', 'is', null), eb('due_date', '<=', now.getTime())]))
        .where(sql<SqlBool>`(execution_id is null or not exists (select 1 from trellis_execution pi where pi.id = trellis_job.process_instance_id and pi.suspended = 1))`);
    }
    if (q.timers) select = select.where('type', '=', 'timer');
    if (q.messages) select = select.where('type', '=', 'message');
    if (q.dueDateAfter !== undefined) select = select.where('due_date', '>', q.dueDateAfter.getTime());
    if (q.dueDateBefore !== undefined) select = select.where('due_date', '<', q.dueDateBefore.getTime());
    if (q.createdAfter !== undefined) select = select.where('create_time', '>', q.createdAfter.getTime());
    // Camunda's Job.xml: CREATE_TIME_ <= createdBefore (createdAfter stays strict).
    if (q.createdBefore !== undefined) select = select.where('create_time', '<=', q.createdBefore.getTime());
    if (q.withException) select = select.where((eb) => eb.or([eb('exception_message', 'is not', null), eb('exception_stack', 'is not', null)]));
    if (q.exceptionMessage !== undefined) select = select.where('exception_message', '=', q.exceptionMessage);
    if (q.failedActivityId !== undefined) select = select.where('failed_activity_id', '=', q.failedActivityId);
    // One suspension state, as Camunda keeps it: suspended, set after active, wins.
    if (q.suspended) select = select.where('suspended', '=', 1);
    else if (q.active) select = select.where('suspended', '=', 0);
    if (q.priorityLowerThanOrEquals !== undefined) select = select.where('priority', '<=', q.priorityLowerThanOrEquals);
    if (q.priorityHigherThanOrEquals !== undefined) select = select.where('priority', '>=', q.priorityHigherThanOrEquals);
    select = applyTenantCheck(select, q, 'tenant_id');
    const tenants = requestedTenants(q, 'tenant_id', q.includeJobsWithoutTenantId === true);
    if (tenants) select = select.where(tenants);
    // Camunda's Job.xml: a job of no process definition (a batch job) passes the check.
    if (readable) select = select.where((eb) => eb.or([eb('process_definition_key', 'is', null), readable('process_instance_id', 'process_definition_key')]));
    return select;
  }

  async delete(job: Job): Promise<void> {
    const rev = this.revisions.of(job.id);
    const result = await this.trx.deleteFrom('trellis_job').where('id', '=', job.id).where('rev', '=', rev).executeTakeFirst();
    // Gone already is fine: the job's own execution may have removed it (a boundary timer cancelling its scope).
    if (Number(result.numDeletedRows) === 0 && (await this.trx.selectFrom('trellis_job').select('id').where('id', '=', job.id).executeTakeFirst())) {
      this.revisions.ensureChanged(job.id, 0);
    }
    this.revisions.forget(job.id);
  }

  async find(query: JobQuery): Promise<Job[]> {
    let select = this.trx.selectFrom('trellis_job').selectAll();
    if (query.jobIds !== undefined) select = select.where('id', 'in', nonEmpty(query.jobIds));
    if (query.processInstanceId !== undefined) select = select.where('process_instance_id', '=', query.processInstanceId);
    if (query.executionId !== undefined) select = select.where('execution_id', '=', query.executionId);
    if (query.processDefinitionId !== undefined) select = select.where('process_definition_id', '=', query.processDefinitionId);
    if (query.activityId !== undefined) select = select.where('activity_id', '=', query.activityId);
    if (query.timers) select = select.where('type', '=', 'timer');
    if (query.messages) select = select.where('type', '=', 'message');
    if (query.withRetriesLeft) select = select.where('retries', '>', 0);
    if (query.noRetriesLeft) select = select.where('retries', '=', 0);
    if (query.withException) select = select.where('exception_message', 'is not', null);
    const rows = await select.orderBy('create_time').orderBy('id').execute();
    return rows.map((row) => this.remember(row));
  }

  async findByExecution(executionId: string): Promise<Job[]> {
    const rows = await this.trx.selectFrom('trellis_job').selectAll().where('execution_id', '=', executionId).execute();
    return rows.map((row) => this.remember(row));
  }

  /** Hands an execution's jobs to another one, except those of the given activities (the execution tree expanded). */
  async moveExecution(fromExecutionId: string, toExecutionId: string, exceptActivityIds: readonly string[]): Promise<void> {
    let update = this.trx.updateTable('trellis_job').set((eb) => ({ execution_id: toExecutionId, rev: eb('rev', '+', 1) })).where('execution_id', '=', fromExecutionId);
    if (exceptActivityIds.length > 0) update = update.where((eb) => eb.or([eb('activity_id', 'is', null), eb('activity_id', 'not in', [...exceptActivityIds])]));
    await update.execute();
  }

  /** Removes an execution's jobs except those of the given activities; returns the removed jobs (for the job log, same round trip). */
  async deleteByExecutionExcept(executionId: string, exceptActivityIds: readonly string[]): Promise<Job[]> {
    let del = this.trx.deleteFrom('trellis_job').where('execution_id', '=', executionId);
    if (exceptActivityIds.length > 0) del = del.where((eb) => eb.or([eb('activity_id', 'is', null), eb('activity_id', 'not in', [...exceptActivityIds])]));
    return (await del.returningAll().execute()).map(toJob);
  }

  /** Removes an execution's jobs of one handler type (a completed task's timeout listener timers); returns them. */
  async deleteByExecutionAndHandler(executionId: string, handlerType: string): Promise<Job[]> {
    return (await this.trx.deleteFrom('trellis_job').where('execution_id', '=', executionId).where('handler_type', '=', handlerType).returningAll().execute()).map(toJob);
  }

  /** Removes the jobs of executions that end or are cancelled; returns them (for the job log, same round trip). */
  async deleteByExecutions(executionIds: readonly string[]): Promise<Job[]> {
    if (executionIds.length === 0) return [];
    return (await this.trx.deleteFrom('trellis_job').where('execution_id', 'in', executionIds).returningAll().execute()).map(toJob);
  }

  /** Removes the jobs of these job definitions, except one (a batch's job being executed); returns them. */
  async deleteByJobDefinitions(jobDefinitionIds: readonly string[], exceptJobId?: string): Promise<Job[]> {
    if (jobDefinitionIds.length === 0) return [];
    let del = this.trx.deleteFrom('trellis_job').where('job_definition_id', 'in', jobDefinitionIds);
    if (exceptJobId) del = del.where('id', '!=', exceptJobId);
    return (await del.returningAll().execute()).map(toJob);
  }

  /** Timer start events of a definition (replaced when a newer version is deployed). */
  async deleteTimerStartJobs(processDefinitionId: string): Promise<void> {
    await this.trx
      .deleteFrom('trellis_job')
      .where('process_definition_id', '=', processDefinitionId)
      .where('handler_type', '=', 'timer-start-event')
      .execute();
  }

  async deleteByProcessDefinition(processDefinitionId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_job').where('process_definition_id', '=', processDefinitionId).execute();
  }

  /** The earliest due date among jobs waiting to run, for the executor's next wake-up. */
  async nextDueDate(): Promise<Date | null> {
    const row = await this.trx
      .selectFrom('trellis_job')
      .select((eb) => eb.fn.min('due_date').as('due'))
      .where('retries', '>', 0)
      .where('suspended', '=', 0)
      .executeTakeFirst();
    return row?.due == null ? null : toDate(Number(row.due));
  }

  private async updateChecked(id: string, changes: Partial<JobTable>): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_job', id, changes);
  }

  private remember(row: Row): Job {
    this.revisions.remember(row.id, row.rev);
    return toJob(row);
  }
}

function toRow(job: Job): Omit<JobTable, 'rev'> {
  return {
    id: job.id,
    type: job.type,
    handler_type: job.handlerType,
    handler_configuration: job.handlerConfiguration,
    due_date: job.dueDate?.getTime() ?? null,
    lock_owner: job.lockOwner,
    lock_expiration_time: job.lockExpirationTime?.getTime() ?? null,
    retries: job.retries,
    exception_message: job.exceptionMessage,
    suspended: fromBoolean(job.suspended),
    priority: job.priority,
    process_definition_id: job.processDefinitionId,
    process_definition_key: job.processDefinitionKey,
    deployment_id: job.deploymentId,
    tenant_id: job.tenantId,
    create_time: job.createTime.getTime(),
    execution_id: job.executionId,
    process_instance_id: job.processInstanceId,
    activity_id: job.activityId,
    job_definition_id: job.jobDefinitionId,
    repeat_text: job.repeat,
    repeat_offset: job.repeatOffset,
    exception_stack: job.exceptionStacktrace,
    failed_activity_id: job.failedActivityId,
    exclusive: fromBoolean(job.exclusive),
  };
}

function toJob(row: Row): Job {
  return {
    id: row.id,
    type: row.type as Job['type'],
    handlerType: row.handler_type,
    handlerConfiguration: row.handler_configuration,
    dueDate: row.due_date == null ? null : toDate(row.due_date),
    lockOwner: row.lock_owner,
    lockExpirationTime: row.lock_expiration_time == null ? null : toDate(row.lock_expiration_time),
    retries: Number(row.retries),
    exceptionMessage: row.exception_message,
    suspended: toBoolean(row.suspended),
    priority: Number(row.priority),
    processDefinitionId: row.process_definition_id,
    processDefinitionKey: row.process_definition_key,
    deploymentId: row.deployment_id,
    tenantId: row.tenant_id,
    createTime: toDate(row.create_time),
    executionId: row.execution_id,
    processInstanceId: row.process_instance_id,
    activityId: row.activity_id,
    jobDefinitionId: row.job_definition_id,
    repeat: row.repeat_text,
    repeatOffset: Number(row.repeat_offset ?? 0),
    exceptionStacktrace: row.exception_stack,
    failedActivityId: row.failed_activity_id,
    exclusive: toBoolean(row.exclusive),
  };
}
