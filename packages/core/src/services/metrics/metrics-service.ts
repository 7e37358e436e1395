import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, ProcessEngineException } from '../../errors/exceptions.js';
import type { MeterIntervalRow, MeterLogFilter } from '../../persistence/repositories/meter-log-repository.js';
import { EngineMetrics, type TelemetryMetric } from '../telemetry/engine-metrics.js';
import { internalMetricName, publicMetricName, TASK_USERS, UNIQUE_TASK_WORKERS, METER_NAMES } from './metric-names.js';
import { MetricsReporter } from './metrics-reporter.js';
import { OperationLogCategory, UserOperationLog } from '../../history/user-operation-log.js';

/** Camunda's MetricsQueryImpl: DEFAULT_SELECT_INTERVAL (15 minutes) and DEFAULT_LIMIT_SELECT_INTERVAL. */
export const DEFAULT_METRICS_INTERVAL = 15 * 60;
export const METRICS_INTERVAL_ROW_LIMIT = 200;

/** Which meter log rows a metrics query reads: [startDate, endDate), by metric (internal or public name) and reporter. */
export interface MetricsRange {
  startDate?: Date | null;
  endDate?: Date | null;
}

export interface MetricsIntervalQuery extends MetricsRange {
  name?: string | null;
  reporter?: string | null;
  /** Interval length in seconds; default 900. */
  interval?: number;
  /** One row per metric and interval, summed over every reporter (reporter null). */
  aggregateByReporter?: boolean;
  firstResult?: number;
  /** At most 200 (the default). */
  maxResults?: number;
}

/** A metric's sum over one interval starting at `timestamp`; the name is the public one where there is one. */
export type MetricIntervalValue = MeterIntervalRow;

/**
 * The Metrics group (Camunda's MetricsQuery and ManagementService metric methods): interval
 * aggregation and sums over the meter log, unique task workers, and this engine's live counters.
 * Reading metrics needs no permission, as in Camunda; deleting task metrics does.
 */
@injectable()
export class MetricsService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(EngineMetrics) private readonly counters: EngineMetrics,
    @inject(MetricsReporter) private readonly reporter: MetricsReporter,
  ) {}

  /** Sums per interval, newest first. Counts not reported yet join the newest interval, as Camunda's MeterLogManager adds them. */
  async interval(query: MetricsIntervalQuery = {}): Promise<MetricIntervalValue[]> {
    const intervalSeconds = query.interval ?? DEFAULT_METRICS_INTERVAL;
    if (!Number.isSafeInteger(intervalSeconds) || intervalSeconds <= 0) {
      throw new BadUserRequestException(`Metrics interval must be a whole number of seconds greater than 0, got ${intervalSeconds}`);
    }
    const maxResults = query.maxResults ?? METRICS_INTERVAL_ROW_LIMIT;
    if (maxResults > METRICS_INTERVAL_ROW_LIMIT) {
      throw new ProcessEngineException(`Metrics interval query row limit can't be set larger than ${METRICS_INTERVAL_ROW_LIMIT}.`);
    }
    const filter = filterOf(query);
    return this.commands.run('MetricsQueryImpl', async (ctx) => {
      const rows = await ctx.meterLog.intervals(filter, {
        intervalSeconds,
        aggregateByReporter: query.aggregateByReporter === true,
        firstResult: query.firstResult ?? 0,
        maxResults,
      });
      if (rows.length > 0 && this.includesUnreported(ctx, filter)) this.addUnreported(rows, filter.name ?? null);
      return rows.map((row) => ({ ...row, name: publicMetricName(row.name) }));
    });
  }

  /**
   * The sum of a metric (internal or public name) over the range; an unknown name sums to 0.
   * unique-task-workers / task-users count distinct assignees in the task meter log instead.
   */
  sum(name: string, range: MetricsRange = {}): Promise<number> {
    if (name === UNIQUE_TASK_WORKERS || name === TASK_USERS) return this.uniqueTaskWorkerCount(range);
    const filter = filterOf({ ...range, name });
    return this.commands.run('MetricsQueryImpl', async (ctx) => {
      const logged = await ctx.meterLog.sum(filter);
      return this.includesUnreported(ctx, filter) ? logged + this.counters.unreported(filter.name!) : logged;
    });
  }

  /** Distinct users who were assigned a task in the range (Camunda's getUniqueTaskWorkerCount). */
  uniqueTaskWorkerCount(range: MetricsRange = {}): Promise<number> {
    return this.commands.run('GetUniqueTaskWorkerCountCmd', (ctx) => ctx.meterLog.uniqueTaskWorkers(range.startDate ?? null, range.endDate ?? null));
  }

  /** Removes the task meter log up to and including `date` (all of it without). camunda-admin or DELETE on System. */
  deleteTaskMetrics(date: Date | null = null): Promise<void> {
    return this.commands.run('DeleteTaskMetricsCmd', async (ctx) => {
      await ctx.authz.requireAdminOrSystem('DELETE');
      // Camunda's DeleteTaskMetricsCmd logs the deletion, with the timestamp when one is given.
      UserOperationLog.write(ctx, {
        operationType: 'Delete',
        entityType: 'TaskMetrics',
        category: OperationLogCategory.operator,
        changes: date === null ? [] : [{ property: 'timestamp', newValue: date }],
      });
      await ctx.meterLog.deleteTaskWorkers(date);
    });
  }

  /** Reports the counts since the last report to the meter log now (Camunda's reportDbMetricsNow). */
  flush(): Promise<void> {
    return this.reporter.report();
  }

  /** The id this engine reports its metrics under. */
  get reporterId(): string {
    return this.reporter.reporterId;
  }

  /** When the live counters started (the engine's start). */
  get since(): Date {
    return this.counters.since;
  }

  /** Committed commands by name since the engine started. */
  commandCounts(): Record<string, number> {
    return this.counters.commandCounts();
  }

  /** The telemetry metrics since the engine started. */
  metricCounts(): Record<TelemetryMetric, number> {
    return this.counters.metricCounts();
  }

  // Camunda: MeterLogManager.isEndTimeAfterLastReportInterval — a range reaching into the last reporting period.
  private includesUnreported(ctx: CommandContext, filter: MeterLogFilter): boolean {
    if (!filter.endDate) return true;
    return filter.endDate.getTime() >= ctx.clock.now().getTime() - this.reporter.intervalSeconds * 1000;
  }

  /**
   * Adds this engine's unreported counts to its rows (or the rows over all reporters) of the newest
   * interval. Camunda adds a named metric's count to whichever row comes first, even another reporter's.
   */
  private addUnreported(rows: MeterIntervalRow[], name: string | null): void {
    const newest = rows[0].timestamp.getTime();
    for (const meter of name === null ? METER_NAMES : [name]) {
      const row = rows.find(
        (candidate) =>
          candidate.name === meter && candidate.timestamp.getTime() === newest && (candidate.reporter === this.reporterId || candidate.reporter === null),
      );
      if (row) row.value += this.counters.unreported(meter);
    }
  }
}

function filterOf(query: MetricsIntervalQuery): MeterLogFilter {
  return {
    name: query.name != null ? internalMetricName(query.name) : null,
    reporter: query.reporter ?? null,
    startDate: query.startDate ?? null,
    endDate: query.endDate ?? null,
  };
}
