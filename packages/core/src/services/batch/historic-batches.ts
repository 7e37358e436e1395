import { sql, type Selectable, type Transaction } from 'kysely';
import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException } from '../../errors/exceptions.js';
import type { ReadFilter } from '../../persistence/repositories/authorization-repository.js';
import { applyPage, applySorting, nonEmpty, type Page, type Sorting } from '../../persistence/repositories/query-support.js';
import type { HistoricBatchTable, StoreSchema } from '../../persistence/schema.js';
import type { Batch } from './batch.js';
import { createBatch, type CreateBatchOptions } from './batch-service.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { batchTimeToLive, deleteHistoricBatch } from './historic-batch-events.js';
import { DAY_MS } from '../../history/removal-time.js';
import { BATCH_SET_REMOVAL_TIME, type SetRemovalTimeSettings } from './types/batch-set-removal-time.js';
import { applyTenantCheck, type TenantChecked } from '../../authorization/tenant-check.js';
import type { ResolvedEngineConfig } from '../../config.js';
import { checkCreateBatch } from './async-operations.js';

/** A batch as history keeps it (Camunda's HistoricBatch): no jobsCreated, no suspension state. */
export interface HistoricBatch {
  id: string;
  type: string;
  totalJobs: number;
  batchJobsPerSeed: number;
  invocationsPerBatchJob: number;
  seedJobDefinitionId: string | null;
  monitorJobDefinitionId: string | null;
  batchJobDefinitionId: string | null;
  tenantId: string | null;
  createUserId: string | null;
  startTime: Date;
  endTime: Date | null;
  removalTime: Date | null;
  executionStartTime: Date | null;
}

export type HistoricBatchSortField = 'batchId' | 'startTime' | 'endTime' | 'tenantId';

/** Camunda's HistoricBatchQuery. */
export interface HistoricBatchQuery extends Page, TenantChecked {
  batchId?: string;
  type?: string;
  /** true: ended batches (end time set); false: running ones. */
  completed?: boolean;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  sorting?: Sorting<HistoricBatchSortField>[];
}

/** One row of the cleanable historic batch report: per batch type. */
export interface CleanableHistoricBatchReportResult {
  batchType: string;
  historyTimeToLive: number | null;
  finishedBatchesCount: number;
  cleanableBatchesCount: number;
}

export interface CleanableHistoricBatchReportQuery extends Page {
  sorting?: Sorting<'finished'>[];
}

/** POST /history/batch/set-removal-time: exactly one mode, and the union of ids and a query. */
export interface SetRemovalTimeToHistoricBatches {
  absoluteRemovalTime?: Date | null;
  clearedRemovalTime?: boolean | null;
  calculatedRemovalTime?: boolean | null;
  historicBatchIds?: readonly string[] | null;
  historicBatchQuery?: HistoricBatchQuery | null;
}

const SORT_COLUMNS: Record<HistoricBatchSortField, string> = { batchId: 'h.id', startTime: 'h.start_time', endTime: 'h.end_time', tenantId: 'h.tenant_id' };

/**
 * History of batches (Camunda's HistoryService batch part): query, delete, the cleanable report and
 * setting removal times by a `batch-set-removal-time` batch. Reading needs READ_HISTORY on BATCH
 * (the list keeps what the caller may read), deleting DELETE_HISTORY.
 */
@injectable()
export class HistoricBatchService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  find(query: HistoricBatchQuery = {}): Promise<HistoricBatch[]> {
    return this.commands.run('HistoricBatchQuery', async (ctx) => findHistoricBatches(ctx, query));
  }

  count(query: HistoricBatchQuery = {}): Promise<number> {
    return this.commands.run('HistoricBatchQuery', async (ctx) => {
      const row = await filtered(ctx.trx, ctx.tenantCheck.query(query), await readable(ctx)).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
      return Number(row.count);
    });
  }

  /** The historic batch, or NotFoundException `Historic batch with id '<id>' does not exist`. */
  get(id: string): Promise<HistoricBatch> {
    return this.commands.run('HistoricBatchQuery', async (ctx) => {
      const [batch] = await findHistoricBatches(ctx, { batchId: id });
      if (!batch) throw new NotFoundException(`Historic batch with id '${id}' does not exist`);
      return batch;
    });
  }

  /** Camunda's DeleteHistoricBatchCmd. Unknown: NotFoundException; needs DELETE_HISTORY on the batch. */
  delete(id: string): Promise<void> {
    return this.commands.run('DeleteHistoricBatchCmd', async (ctx) => {
      const row = await ctx.trx.selectFrom('trellis_hi_batch').select(['id', 'tenant_id']).where('id', '=', id).executeTakeFirst();
      if (!row) throw new NotFoundException(`Historic batch for id '${id}' cannot be found: historic batch is null`);
      ctx.tenantCheck.require(row.tenant_id, `delete historic batch '${id}'`);
      await ctx.authz.check({ permission: 'DELETE_HISTORY', resource: Resources.BATCH, resourceId: id });
      OperationLogEntries.batch(ctx, 'DeleteHistory', id, row.tenant_id, []);
      await deleteHistoricBatch(ctx, id);
    });
  }

  /**
   * Per batch type: finished batches, cleanable ones (removal time reached) and the configured time
   * to live. Without any batch time to live configured, only types with finished batches are listed.
   */
  cleanableReport(query: CleanableHistoricBatchReportQuery = {}): Promise<CleanableHistoricBatchReportResult[]> {
    return this.commands.run('CleanableHistoricBatchReport', async (ctx) => {
      const rows = await cleanableReportRows(ctx);
      const order = query.sorting?.[0]?.sortOrder;
      if (order) rows.sort((a, b) => (order === 'asc' ? 1 : -1) * (a.finishedBatchesCount - b.finishedBatchesCount) || compare(a.batchType, b.batchType));
      const first = Math.max(0, query.firstResult ?? 0);
      return rows.slice(first, query.maxResults === undefined ? undefined : first + Math.max(0, query.maxResults));
    });
  }

  cleanableReportCount(): Promise<number> {
    return this.commands.run('CleanableHistoricBatchReport', async (ctx) => (await cleanableReportRows(ctx)).length);
  }

  /** Camunda's SetRemovalTimeToHistoricBatchesCmd: a `batch-set-removal-time` batch over the selected historic batches. */
  setRemovalTimeAsync(request: SetRemovalTimeToHistoricBatches, sizing: Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'> = {}): Promise<Batch> {
    return this.commands.run('SetRemovalTimeToHistoricBatchesCmd', async (ctx) => {
      const mode = removalTimeMode(request);
      const { historicBatchIds, historicBatchQuery } = request;
      if (!historicBatchQuery && !historicBatchIds) throw new BadUserRequestException('Neither query nor ids provided.');
      const ids = new Set<string>();
      if (historicBatchQuery) {
        const { firstResult: _first, maxResults: _max, ...unpaged } = historicBatchQuery;
        for (const batch of await findHistoricBatches(ctx, unpaged)) ids.add(batch.id);
      }
      if (historicBatchIds && historicBatchIds.length > 0) {
        // Camunda finds each by a tenant-checked query.
        const rows = await filtered(ctx.trx, ctx.tenantCheck.query({}), await readable(ctx))
          .select('h.id')
          .where('h.id', 'in', nonEmpty(historicBatchIds.filter((id): id is string => typeof id === 'string')))
          .execute();
        for (const row of rows) ids.add(row.id);
      }
      if (mode === null) throw new BadUserRequestException('removalTime is null');
      if (ids.size === 0) throw new BadUserRequestException('historicBatches is empty');
      await checkCreateBatch(ctx, 'CREATE_BATCH_SET_REMOVAL_TIME');
      const settings: SetRemovalTimeSettings =
        mode === 'calculated' ? { hasRemovalTime: false, removalTime: null } : { hasRemovalTime: true, removalTime: mode === 'absolute' ? request.absoluteRemovalTime!.toISOString() : null };
      const batch = await createBatch(ctx, BATCH_SET_REMOVAL_TIME, [...ids], settings, sizing);
      // Camunda's SetRemovalTimeToHistoricBatchesCmd logs a batch operation without a batch id.
      OperationLogEntries.batch(ctx, 'SetRemovalTime', null, null, [
        { property: 'mode', newValue: REMOVAL_TIME_MODES[mode] },
        { property: 'removalTime', newValue: mode === 'absolute' ? request.absoluteRemovalTime : null },
        { property: 'nrOfInstances', newValue: ids.size },
        { property: 'async', newValue: true },
      ]);
      return batch;
    });
  }
}

/** The removal-time modes of a set-removal-time request (historic batches, historic process instances). */
export interface RemovalTimeModes {
  absoluteRemovalTime?: Date | null;
  clearedRemovalTime?: boolean | null;
  calculatedRemovalTime?: boolean | null;
}

/** Camunda's removal time builders' Mode names, as the operation log writes them. */
export const REMOVAL_TIME_MODES = { calculated: 'CALCULATED_REMOVAL_TIME', absolute: 'ABSOLUTE_REMOVAL_TIME', cleared: 'CLEARED_REMOVAL_TIME' } as const;

/** The builder's mode selection, in the order the REST resource applies it (at most one mode). */
export function removalTimeMode(request: RemovalTimeModes): 'calculated' | 'absolute' | 'cleared' | null {
  const modes = [
    request.calculatedRemovalTime === true ? ('calculated' as const) : null,
    request.absoluteRemovalTime ? ('absolute' as const) : null,
    request.clearedRemovalTime === true ? ('cleared' as const) : null,
  ].filter((mode) => mode !== null);
  if (modes.length > 1) throw new BadUserRequestException('The removal time modes are mutually exclusive: mode is not null');
  return modes[0] ?? null;
}

// ---- queries

const readable = (ctx: CommandContext) => ctx.authz.readFilter('READ_HISTORY', Resources.BATCH);

async function findHistoricBatches(ctx: CommandContext, query: HistoricBatchQuery): Promise<HistoricBatch[]> {
  const select = filtered(ctx.trx, ctx.tenantCheck.query(query), await readable(ctx)).selectAll('h');
  const rows = await applyPage(applySorting(select, query.sorting, SORT_COLUMNS, 'h.id'), query).execute();
  return rows.map(toHistoricBatch);
}

function filtered(trx: Transaction<StoreSchema>, q: HistoricBatchQuery, readFilter: ReadFilter) {
  let select = trx.selectFrom('trellis_hi_batch as h');
  if (q.batchId !== undefined) select = select.where('h.id', '=', q.batchId);
  if (q.type !== undefined) select = select.where('h.type', '=', q.type);
  if (q.completed === true) select = select.where('h.end_time', 'is not', null);
  if (q.completed === false) select = select.where('h.end_time', 'is', null);
  select = applyTenantCheck(select, q, 'h.tenant_id');
  // As for batches: one tenant criterion, tenantIdIn over withoutTenantId.
  if (q.tenantIdIn !== undefined) select = select.where('h.tenant_id', 'in', nonEmpty(q.tenantIdIn));
  else if (q.withoutTenantId) select = select.where('h.tenant_id', 'is', null);
  if (readFilter) select = select.where(readFilter('h.id'));
  return select;
}

/**
 * Camunda's selectFinishedBatchesReportEntities, ordered by type: a row for each type of batch in
 * history (finished or not), with the time to live configured for it (or none) and its finished
 * batches; cleanable are those whose removal time has passed (removal-time-based cleanup), or, with
 * end-time-based cleanup, the finished ones older than the type's time to live (none without one;
 * without any batch time to live configured, only the types with finished batches are listed).
 */
async function cleanableReportRows(ctx: CommandContext): Promise<CleanableHistoricBatchReportResult[]> {
  await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.BATCH });
  const now = ctx.clock.now().getTime();
  const endTimeBased = ctx.config.historyCleanup.strategy === 'endTimeBased';
  const rows = await ctx.trx
    .selectFrom('trellis_hi_batch')
    .select((eb) => [
      'type',
      sql<number>`sum(case when ${eb.ref('end_time')} is not null then 1 else 0 end)`.as('finished'),
      (endTimeBased
        ? sql<number>`sum(case when ${eb.ref('end_time')} is not null and ${eb.ref('end_time')} <= ${endedBeforeCutoff(ctx.config, now)} then 1 else 0 end)`
        : sql<number>`sum(case when ${eb.ref('removal_time')} is not null and ${eb.ref('removal_time')} <= ${now} then 1 else 0 end)`
      ).as('cleanable'),
    ])
    .groupBy('type')
    .execute();
  const configured = ctx.config.batchOperationHistoryTimeToLive !== null || Object.keys(ctx.config.batchOperationsForHistoryCleanup ?? {}).length > 0;
  const report: CleanableHistoricBatchReportResult[] = [];
  for (const row of rows) {
    // End-time-based without any batch time to live: Camunda's selectOnlyFinishedBatchesReportEntities.
    if (endTimeBased && !configured && Number(row.finished ?? 0) === 0) continue;
    const historyTimeToLive = batchTimeToLive(ctx.config, row.type);
    report.push({ batchType: row.type, historyTimeToLive, finishedBatchesCount: Number(row.finished ?? 0), cleanableBatchesCount: Number(row.cleanable ?? 0) });
  }
  return report.sort((a, b) => compare(a.batchType, b.batchType));
}

/**
 * End-time-based cleanup: the latest end time a finished batch of its type may have to be cleanable,
 * as one SQL expression over the row's type (null, so none, for a type without a time to live).
 */
function endedBeforeCutoff(config: ResolvedEngineConfig, now: number) {
  const cutoff = (type: string | null) => {
    const days = type === null ? (config.batchOperationHistoryTimeToLive ?? null) : batchTimeToLive(config, type);
    return sql`cast(${days === null ? null : now - days * DAY_MS} as bigint)`;
  };
  const byType = Object.keys(config.batchOperationsForHistoryCleanup ?? {});
  if (byType.length === 0) return cutoff(null);
  return sql`(case ${sql.join(byType.map((type) => sql`when type = ${type} then ${cutoff(type)}`), sql` `)} else ${cutoff(null)} end)`;
}

const compare = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function toHistoricBatch(row: Selectable<HistoricBatchTable>): HistoricBatch {
  const date = (value: number | null) => (value === null ? null : new Date(Number(value)));
  return {
    id: row.id,
    type: row.type,
    totalJobs: Number(row.total_jobs),
    batchJobsPerSeed: Number(row.batch_jobs_per_seed),
    invocationsPerBatchJob: Number(row.invocations_per_batch_job),
    seedJobDefinitionId: row.seed_job_def_id,
    monitorJobDefinitionId: row.monitor_job_def_id,
    batchJobDefinitionId: row.batch_job_def_id,
    tenantId: row.tenant_id,
    createUserId: row.create_user_id,
    startTime: new Date(Number(row.start_time)),
    endTime: date(row.end_time),
    removalTime: date(row.removal_time),
    executionStartTime: date(row.execution_start_time),
  };
}
