import { Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import type { CommandExecutor } from '../../command/command-executor.js';
import { NotValidException } from '../../errors/exceptions.js';
import { HistoricReportRepository, type CleanableRule, type FinishedInstanceDuration } from '../../persistence/repositories/historic-report-repository.js';
import type {
  CleanableHistoricProcessInstanceReportQuery,
  CleanableHistoricProcessInstanceReportResult,
  DurationReportResult,
  HistoricActivityStatistics,
  HistoricActivityStatisticsQuery,
  HistoricProcessInstanceReportQuery,
  ReportPeriodUnit,
} from './historic-report-types.js';

/**
 * The history reports (engine.history.reports): Camunda's cleanable process instance report,
 * historic activity statistics and the process instance duration report.
 */
export class HistoricReports {
  constructor(private readonly commands: CommandExecutor) {}

  /** One row per definition the caller has READ and READ_HISTORY on: finished and cleanable instance counts. */
  cleanableProcessInstances(query: CleanableHistoricProcessInstanceReportQuery = {}): Promise<CleanableHistoricProcessInstanceReportResult[]> {
    return this.commands.run('CleanableHistoricProcessInstanceReport', async (ctx) =>
      new HistoricReportRepository(ctx.trx).cleanableProcessInstances(ctx.tenantCheck.query(query), cleanableRule(ctx), await readAndReadHistory(ctx)),
    );
  }

  countCleanableProcessInstances(query: CleanableHistoricProcessInstanceReportQuery = {}): Promise<number> {
    return this.commands.run('CleanableHistoricProcessInstanceReport', async (ctx) =>
      new HistoricReportRepository(ctx.trx).countCleanableProcessInstances(ctx.tenantCheck.query(query), cleanableRule(ctx), await readAndReadHistory(ctx)),
    );
  }

  /** The definition's activities with their instance and incident counts; none without READ_HISTORY on it. */
  activityStatistics(query: HistoricActivityStatisticsQuery): Promise<HistoricActivityStatistics[]> {
    return this.commands.run('HistoricActivityStatisticsQuery', async (ctx) => {
      if (!query.processDefinitionId) throw new NotValidException('No valid process definition id supplied: processDefinitionId is null');
      // Camunda's HistoricStatisticsManager checks READ_HISTORY only; its statistics have no tenant check.
      if (ctx.authz.isActive) {
        const definition = await ctx.processDefinitions.findById(query.processDefinitionId);
        if (!definition) return [];
        const permitted = await ctx.authz.isAuthorized({ permission: 'READ_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key });
        if (!permitted) return [];
      }
      return new HistoricReportRepository(ctx.trx).activityStatistics(query);
    });
  }

  /**
   * Minimum, maximum and average duration of finished instances per month or quarter of their start
   * (years merged, as in Camunda). READ_HISTORY on every named definition, or on all without names.
   */
  durationReport(periodUnit: ReportPeriodUnit | null | undefined, query: HistoricProcessInstanceReportQuery = {}): Promise<DurationReportResult[]> {
    return this.commands.run('HistoricProcessInstanceReport', async (ctx) => {
      if (!periodUnit) throw new NotValidException('periodUnit is null');
      await checkReadHistory(ctx, query);
      if (query.startedAfter && query.startedBefore && query.startedAfter.getTime() > query.startedBefore.getTime()) return [];
      return groupDurations(await new HistoricReportRepository(ctx.trx).finishedDurations(ctx.tenantCheck.query(query)), periodUnit);
    });
  }
}

function cleanableRule(ctx: CommandContext): CleanableRule {
  return { strategy: ctx.config.historyCleanup.strategy, now: ctx.clock.now() };
}

/** Camunda's finished-instance report check: both READ and READ_HISTORY on the definition. */
async function readAndReadHistory(ctx: CommandContext) {
  return [await ctx.authz.readFilter('READ', Resources.PROCESS_DEFINITION), await ctx.authz.readFilter('READ_HISTORY', Resources.PROCESS_DEFINITION)];
}

async function checkReadHistory(ctx: CommandContext, query: HistoricProcessInstanceReportQuery): Promise<void> {
  if (!ctx.authz.isActive) return;
  if (query.processDefinitionIdIn === undefined && query.processDefinitionKeyIn === undefined) {
    // Camunda's checkReadHistoryAnyProcessDefinition: READ_HISTORY on '*'.
    await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: '*' });
    return;
  }
  const keys = [...(query.processDefinitionKeyIn ?? [])];
  for (const id of query.processDefinitionIdIn ?? []) {
    const definition = await ctx.processDefinitions.findById(id);
    if (definition) keys.push(definition.key);
  }
  for (const key of keys) await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: key });
}

/** Groups by the month (1-12) or quarter (1-4) of the start in local time, as the database's MONTH()/QUARTER() would. */
function groupDurations(rows: FinishedInstanceDuration[], unit: ReportPeriodUnit): DurationReportResult[] {
  const groups = new Map<number, { min: number; max: number; sum: number; count: number }>();
  for (const row of rows) {
    const month = row.startTime.getMonth() + 1;
    const period = unit === 'MONTH' ? month : Math.floor((month - 1) / 3) + 1;
    const group = groups.get(period) ?? { min: row.duration, max: row.duration, sum: 0, count: 0 };
    group.min = Math.min(group.min, row.duration);
    group.max = Math.max(group.max, row.duration);
    group.sum += row.duration;
    group.count += 1;
    groups.set(period, group);
  }
  return [...groups.entries()]
    .sort(([a], [b]) => a - b)
    // The database's AVG read as a long: the fraction is dropped.
    .map(([period, group]) => ({ period, periodUnit: unit, minimum: group.min, maximum: group.max, average: Math.trunc(group.sum / group.count) }));
}
