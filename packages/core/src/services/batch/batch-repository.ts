import { sql, type Selectable, type Transaction } from 'kysely';
import type { ReadFilter } from '../../persistence/repositories/authorization-repository.js';
import { OptimisticLockingException } from '../../errors/exceptions.js';
import { applyPage, applySorting, fromBoolean, nonEmpty, toBoolean } from '../../persistence/repositories/query-support.js';
import type { BatchTable, StoreSchema } from '../../persistence/schema.js';
import type { Batch, BatchConfiguration, BatchQuery, BatchStatistics, BatchStatisticsQuery } from './batch.js';
import { applyTenantCheck } from '../../authorization/tenant-check.js';

type Row = Selectable<BatchTable>;

const SORT_COLUMNS = { batchId: 'b.id', tenantId: 'b.tenant_id', startTime: 'b.start_time' } as const;

/** Batches (trellis_batch), within one transaction. */
export class BatchRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(batch: Batch, configuration: BatchConfiguration): Promise<void> {
    await this.trx.insertInto('trellis_batch').values({ ...toRow(batch), rev: 1, configuration: JSON.stringify(configuration) }).execute();
  }

  async findById(id: string): Promise<(Batch & { rev: number }) | null> {
    const row = await this.trx.selectFrom('trellis_batch').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? { ...toBatch(row), rev: row.rev } : null;
  }

  async configuration(id: string): Promise<BatchConfiguration | null> {
    const row = await this.trx.selectFrom('trellis_batch').select('configuration').where('id', '=', id).executeTakeFirst();
    return row?.configuration ? (JSON.parse(row.configuration) as BatchConfiguration) : null;
  }

  /** Revision-checked update of the mutable columns. */
  async update(batch: Batch & { rev: number }): Promise<void> {
    const result = await this.trx
      .updateTable('trellis_batch')
      .set({ jobs_created: batch.jobsCreated, suspended: fromBoolean(batch.suspended), rev: batch.rev + 1 })
      .where('id', '=', batch.id)
      .where('rev', '=', batch.rev)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new OptimisticLockingException(`BatchEntity[${batch.id}] was updated by another transaction concurrently`);
    batch.rev += 1;
  }

  /** Sets the execution start time once (the first execution job). Returns whether it was set now. */
  async markExecutionStarted(id: string, time: Date): Promise<boolean> {
    const result = await this.trx
      .updateTable('trellis_batch')
      .set({ execution_start_time: time.getTime() })
      .where('id', '=', id)
      .where('execution_start_time', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_batch').where('id', '=', id).execute();
  }

  async find(query: BatchQuery, readable: ReadFilter): Promise<Batch[]> {
    const rows = await applyPage(applySorting(this.filtered(query, readable).selectAll('b'), query.sorting, SORT_COLUMNS, 'b.id'), query).execute();
    return rows.map(toBatch);
  }

  async count(query: BatchStatisticsQuery, readable: ReadFilter): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async statistics(query: BatchStatisticsQuery, readable: ReadFilter): Promise<BatchStatistics[]> {
    const select = this.filtered(query, readable)
      .selectAll('b')
      .select((eb) => [
        eb.selectFrom('trellis_job as j').select(eb.fn.countAll<number>().as('c')).whereRef('j.job_definition_id', '=', 'b.batch_job_def_id').as('existing_jobs'),
        eb
          .selectFrom('trellis_job as j')
          .select(eb.fn.countAll<number>().as('c'))
          .whereRef('j.job_definition_id', '=', 'b.batch_job_def_id')
          .where('j.retries', '=', 0)
          .as('failed_jobs'),
      ]);
    const rows = await applyPage(applySorting(select, query.sorting, SORT_COLUMNS, 'b.id'), query).execute();
    return rows.map((row) => {
      const batch = toBatch(row);
      const remainingJobs = Number(row.existing_jobs ?? 0) + (batch.totalJobs - batch.jobsCreated);
      return { ...batch, remainingJobs, completedJobs: batch.totalJobs - remainingJobs, failedJobs: Number(row.failed_jobs ?? 0) };
    });
  }

  private filtered(q: BatchStatisticsQuery, readable: ReadFilter) {
    let select = this.trx.selectFrom('trellis_batch as b');
    if (q.batchId !== undefined) select = select.where('b.id', '=', q.batchId);
    if (q.type !== undefined) select = select.where('b.type', '=', q.type);
    select = applyTenantCheck(select, q, 'b.tenant_id');
    // Camunda's query keeps one tenant criterion, tenantIdIn over withoutTenantId (the DTO sets it last).
    if (q.tenantIdIn !== undefined) select = select.where('b.tenant_id', 'in', nonEmpty(q.tenantIdIn));
    else if (q.withoutTenantId) select = select.where('b.tenant_id', 'is', null);
    if (q.suspended === true) select = select.where('b.suspended', '=', 1);
    if (q.suspended === false) select = select.where('b.suspended', '=', 0);
    if (q.createdBy !== undefined) select = select.where('b.create_user_id', '=', q.createdBy);
    if (q.startedBefore !== undefined) select = select.where('b.start_time', '<=', q.startedBefore.getTime());
    if (q.startedAfter !== undefined) select = select.where('b.start_time', '>=', q.startedAfter.getTime());
    const failed = sql<boolean>`exists (select 1 from trellis_job j where j.job_definition_id = b.batch_job_def_id and j.retries = 0)`;
    // One hasFailure criterion there too: withoutFailures is set last.
    if (q.withoutFailures) select = select.where(sql<boolean>`not ${failed}`);
    else if (q.withFailures) select = select.where(failed);
    if (readable) select = select.where(readable('b.id'));
    return select;
  }
}

function toRow(batch: Batch): Omit<BatchTable, 'rev' | 'configuration'> {
  return {
    id: batch.id,
    type: batch.type,
    total_jobs: batch.totalJobs,
    jobs_created: batch.jobsCreated,
    batch_jobs_per_seed: batch.batchJobsPerSeed,
    invocations_per_batch_job: batch.invocationsPerBatchJob,
    seed_job_def_id: batch.seedJobDefinitionId,
    monitor_job_def_id: batch.monitorJobDefinitionId,
    batch_job_def_id: batch.batchJobDefinitionId,
    tenant_id: batch.tenantId,
    create_user_id: batch.createUserId,
    suspended: fromBoolean(batch.suspended),
    start_time: batch.startTime.getTime(),
    execution_start_time: batch.executionStartTime?.getTime() ?? null,
  };
}

function toBatch(row: Row): Batch {
  return {
    id: row.id,
    type: row.type,
    totalJobs: Number(row.total_jobs),
    jobsCreated: Number(row.jobs_created),
    batchJobsPerSeed: Number(row.batch_jobs_per_seed),
    invocationsPerBatchJob: Number(row.invocations_per_batch_job),
    seedJobDefinitionId: row.seed_job_def_id,
    monitorJobDefinitionId: row.monitor_job_def_id,
    batchJobDefinitionId: row.batch_job_def_id,
    suspended: toBoolean(row.suspended),
    tenantId: row.tenant_id,
    createUserId: row.create_user_id,
    startTime: new Date(Number(row.start_time)),
    executionStartTime: row.execution_start_time === null ? null : new Date(Number(row.execution_start_time)),
  };
}
