import { createHash } from 'node:crypto';
import { sql, type Transaction } from 'kysely';
import type { StoreSchema } from '../schema.js';

/** One reported count (a row of the meter log). */
export interface MeterLogEntry {
  id: string;
  name: string;
  reporter: string | null;
  value: number;
  timestamp: Date;
}

/** What the meter log is filtered by: an internal metric name, a reporter, [startDate, endDate). */
export interface MeterLogFilter {
  name?: string | null;
  reporter?: string | null;
  startDate?: Date | null;
  endDate?: Date | null;
}

/** The sum of one metric over one interval (per reporter, or for all reporters: reporter null). */
export interface MeterIntervalRow {
  timestamp: Date;
  name: string;
  reporter: string | null;
  value: number;
}

/** The meter log and the task meter log, within one transaction. */
export class MeterLogRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insertAll(entries: readonly MeterLogEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.trx
      .insertInto('trellis_meter_log')
      .values(entries.map((entry) => ({ ...entry, timestamp: entry.timestamp.getTime() })))
      .execute();
  }

  async sum(filter: MeterLogFilter): Promise<number> {
    const row = await this.filtered(filter)
      .select(sql<number | null>`sum(value)`.as('total'))
      .executeTakeFirst();
    return Number(row?.total ?? 0);
  }

  /**
   * Camunda's selectMeterLogAggregatedByTimeInterval: values summed per metric, reporter (unless
   * aggregated over reporters) and interval of `intervalSeconds` since the epoch, newest first.
   */
  async intervals(
    filter: MeterLogFilter,
    options: { intervalSeconds: number; aggregateByReporter: boolean; firstResult: number; maxResults: number },
  ): Promise<MeterIntervalRow[]> {
    // A whole number checked by the caller, so it goes into the SQL as a literal: integer division on both dialects.
    const width = sql.lit(options.intervalSeconds * 1000);
    const bucket = sql<number>`(${sql.ref('timestamp')} / ${width}) * ${width}`;
    const reporter = options.aggregateByReporter ? sql<string | null>`null` : sql<string | null>`${sql.ref('reporter')}`;
    let query = this.filtered(filter)
      .select(['name', bucket.as('bucket'), reporter.as('reporter'), sql<number>`sum(value)`.as('total')])
      .groupBy(options.aggregateByReporter ? ['name', bucket] : ['name', 'reporter', bucket])
      .orderBy(bucket, 'desc')
      .orderBy('name');
    if (!options.aggregateByReporter) query = query.orderBy('reporter');
    const rows = await query.limit(Math.max(0, options.maxResults)).offset(Math.max(0, options.firstResult)).execute();
    return rows.map((row) => ({ timestamp: new Date(Number(row.bucket)), name: row.name, reporter: row.reporter, value: Number(row.total) }));
  }

  /** A user task got an assignee: one row, the assignee only as a hash. */
  async insertTaskWorker(id: string, assignee: string, timestamp: Date): Promise<void> {
    await this.trx
      .insertInto('trellis_task_meter_log')
      .values({ id, assignee_hash: assigneeHash(assignee), timestamp: timestamp.getTime() })
      .execute();
  }

  /** Distinct assignees in [startDate, endDate) (Camunda's selectUniqueTaskWorkerCount). */
  async uniqueTaskWorkers(startDate: Date | null, endDate: Date | null): Promise<number> {
    let query = this.trx.selectFrom('trellis_task_meter_log').select(sql<number>`count(distinct assignee_hash)`.as('workers'));
    if (startDate) query = query.where('timestamp', '>=', startDate.getTime());
    if (endDate) query = query.where('timestamp', '<', endDate.getTime());
    return Number((await query.executeTakeFirst())?.workers ?? 0);
  }

  /** Removes the task meter log up to and including `date`, or all of it. */
  async deleteTaskWorkers(date: Date | null): Promise<void> {
    let query = this.trx.deleteFrom('trellis_task_meter_log');
    if (date) query = query.where('timestamp', '<=', date.getTime());
    await query.execute();
  }

  private filtered(filter: MeterLogFilter) {
    let query = this.trx.selectFrom('trellis_meter_log');
    // Camunda filters on any name or reporter given, '' too.
    if (filter.name != null) query = query.where('name', '=', filter.name);
    if (filter.reporter != null) query = query.where('reporter', '=', filter.reporter);
    if (filter.startDate) query = query.where('timestamp', '>=', filter.startDate.getTime());
    if (filter.endDate) query = query.where('timestamp', '<', filter.endDate.getTime());
    return query;
  }
}

/**
 * Camunda keeps the first 64 bits of the assignee's MD5; Trellis keeps the first 48, which both
 * dialects return as an exact JS number (two of 10,000 assignees collide with a chance of about 1 in 5 million).
 */
export function assigneeHash(assignee: string): number {
  return createHash('md5').update(assignee, 'utf8').digest().readUIntBE(0, 6);
}
