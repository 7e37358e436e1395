import type { Selectable, Transaction } from 'kysely';
import type { Job } from '../../jobs/job.js';
import type { DialectSeam } from '../dialect.js';
import type { JobTable, StoreSchema } from '../schema.js';
import { fromBoolean, toBoolean, toDate } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

type Row = Selectable<JobTable>;

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
  async acquire(owner: string, now: Date, lockUntil: Date, limit: number): Promise<Job[]> {
    let select = this.trx
      .selectFrom('trellis_job')
      .select('id')
      .where('retries', '>', 0)
      .where('suspended', '=', 0)
      .where((eb) => eb.or([eb('due_date', 'is', null), eb('due_date', '<=', now.getTime())]))
      .where((eb) => eb.or([eb('lock_owner', 'is', null), eb('lock_expiration_time', '<', now.getTime())]))
      .orderBy('priority', 'desc')
      .orderBy('due_date', 'asc')
      .limit(limit);
    if (this.dialect.name === 'postgres') select = select.forUpdate().skipLocked();
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

  /** Records a failed attempt: one retry less, the error kept, the lock released. */
  async fail(job: Job, message: string): Promise<void> {
    await this.updateChecked(job.id, { retries: Math.max(0, job.retries - 1), exception_message: message.slice(0, 4000), lock_owner: null, lock_expiration_time: null });
  }

  async delete(job: Job): Promise<void> {
    const rev = this.revisions.of(job.id);
    const result = await this.trx.deleteFrom('trellis_job').where('id', '=', job.id).where('rev', '=', rev).executeTakeFirst();
    this.revisions.ensureChanged(job.id, result.numDeletedRows);
    this.revisions.forget(job.id);
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
    const rev = this.revisions.of(id);
    const result = await this.trx
      .updateTable('trellis_job')
      .set({ ...changes, rev: rev + 1 })
      .where('id', '=', id)
      .where('rev', '=', rev)
      .executeTakeFirst();
    this.revisions.ensureChanged(id, result.numUpdatedRows);
    this.revisions.remember(id, rev + 1);
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
  };
}
