import { sql, type Expression, type SqlBool, type Transaction } from 'kysely';
import type {
  CleanableHistoricProcessInstanceReportQuery,
  CleanableHistoricProcessInstanceReportResult,
  HistoricActivityStatistics,
  HistoricActivityStatisticsQuery,
  HistoricProcessInstanceReportQuery,
} from '../../services/history/historic-report-types.js';
import type { StoreSchema } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyTenantCheck } from '../../authorization/tenant-check.js';
import { applyPage, applySorting, nonEmpty } from './query-support.js';

const DAY_MILLIS = 86_400_000;

/** What the cleanable report counts as cleanable, following the engine's history cleanup strategy. */
export interface CleanableRule {
  strategy: 'removalTimeBased' | 'endTimeBased';
  now: Date;
}

/** A row of the duration report before grouping: one finished instance. */
export interface FinishedInstanceDuration {
  startTime: Date;
  duration: number;
}

/** The history reports' SQL: the cleanable instance report, activity statistics and duration rows. */
export class HistoricReportRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async cleanableProcessInstances(
    q: CleanableHistoricProcessInstanceReportQuery,
    rule: CleanableRule,
    readable: ReadFilter[],
  ): Promise<CleanableHistoricProcessInstanceReportResult[]> {
    let select = this.cleanableSelect(q, rule, readable).selectAll('r');
    select = applySorting(select, q.sorting, { finished: 'r.finished' }, 'r.id');
    const rows = await applyPage(select, q).execute();
    return rows.map((row) => ({
      processDefinitionId: row.id,
      processDefinitionKey: row.key,
      processDefinitionName: row.name,
      processDefinitionVersion: Number(row.version),
      historyTimeToLive: row.history_time_to_live === null ? null : Number(row.history_time_to_live),
      finishedProcessInstanceCount: Number(row.finished),
      cleanableProcessInstanceCount: Number(row.cleanable),
      tenantId: row.tenant_id,
    }));
  }

  async countCleanableProcessInstances(q: CleanableHistoricProcessInstanceReportQuery, rule: CleanableRule, readable: ReadFilter[]): Promise<number> {
    const row = await this.cleanableSelect(q, rule, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Per activity of the definition: running, finished, canceled and scope-completing instances, and (asked for) incidents by state. */
  async activityStatistics(q: HistoricActivityStatisticsQuery): Promise<HistoricActivityStatistics[]> {
    const byId = new Map<string, HistoricActivityStatistics>();
    const entry = (id: string) => {
      let found = byId.get(id);
      if (!found) {
        found = { id, instances: 0, finished: 0, canceled: 0, completeScope: 0, openIncidents: 0, resolvedIncidents: 0, deletedIncidents: 0 };
        byId.set(id, found);
      }
      return found;
    };
    for (const row of await this.activityCounts(q)) {
      const stats = entry(row.activity_id);
      stats.instances += Number(row.instances);
      if (q.finished) stats.finished += Number(row.finished);
      if (q.canceled) stats.canceled += Number(row.canceled);
      if (q.completeScope) stats.completeScope += Number(row.complete_scope);
    }
    if (q.incidents) {
      for (const row of await this.incidentCounts(q)) {
        // Incidents without an activity still form a row, as Camunda's union keeps them (id null).
        const stats = entry(row.activity_id as string);
        stats.openIncidents += Number(row.open);
        stats.resolvedIncidents += Number(row.resolved);
        stats.deletedIncidents += Number(row.deleted);
      }
    }
    const descending = q.sorting?.[0]?.sortOrder === 'desc';
    return [...byId.values()].sort((a, b) => (descending ? -1 : 1) * String(a.id).localeCompare(String(b.id)));
  }

  /** Start times and durations of the finished instances the duration report groups. */
  async finishedDurations(q: HistoricProcessInstanceReportQuery): Promise<FinishedInstanceDuration[]> {
    let s = this.trx.selectFrom('trellis_hi_procinst as p').select(['p.start_time', 'p.duration', 'p.end_time']).where('p.end_time', 'is not', null);
    if (q.processDefinitionIdIn && q.processDefinitionIdIn.length > 0) s = s.where('p.proc_def_id', 'in', q.processDefinitionIdIn);
    if (q.processDefinitionKeyIn && q.processDefinitionKeyIn.length > 0) s = s.where('p.proc_def_key', 'in', q.processDefinitionKeyIn);
    if (q.startedBefore) s = s.where('p.start_time', '<=', q.startedBefore.getTime());
    if (q.startedAfter) s = s.where('p.start_time', '>=', q.startedAfter.getTime());
    const rows = await applyTenantCheck(s, q, 'p.tenant_id').execute();
    return rows.map((row) => ({
      startTime: new Date(Number(row.start_time)),
      duration: row.duration === null ? Number(row.end_time) - Number(row.start_time) : Number(row.duration),
    }));
  }

  private cleanableSelect(q: CleanableHistoricProcessInstanceReportQuery, rule: CleanableRule, readable: ReadFilter[]) {
    const now = rule.now.getTime();
    const cleanable: Expression<SqlBool> = rule.strategy === 'removalTimeBased'
      ? sql<SqlBool>`p.removal_time is not null and p.removal_time <= ${now}`
      : sql<SqlBool>`d.history_time_to_live is not null and p.end_time is not null and (d.history_time_to_live = 0 or p.end_time + cast(d.history_time_to_live as bigint) * ${sql.raw(String(DAY_MILLIS))} <= ${now})`;
    let definitions = this.trx
      .selectFrom('trellis_process_definition as d')
      .select(['d.id', 'd.key', 'd.name', 'd.version', 'd.history_time_to_live', 'd.tenant_id'])
      .select((eb) => [
        eb.selectFrom('trellis_hi_procinst as p').select(eb.fn.countAll<number>().as('c')).whereRef('p.proc_def_id', '=', 'd.id').where('p.end_time', 'is not', null).as('finished'),
        eb.selectFrom('trellis_hi_procinst as p').select(eb.fn.countAll<number>().as('c')).whereRef('p.proc_def_id', '=', 'd.id').where(cleanable).as('cleanable'),
      ]);
    if (q.processDefinitionIdIn && q.processDefinitionIdIn.length > 0) definitions = definitions.where('d.id', 'in', q.processDefinitionIdIn);
    if (q.processDefinitionKeyIn && q.processDefinitionKeyIn.length > 0) definitions = definitions.where('d.key', 'in', q.processDefinitionKeyIn);
    // As Camunda's report: a tenant list wins over withoutTenantId, and an empty one filters nothing.
    if (q.tenantIdIn && q.tenantIdIn.length > 0) definitions = definitions.where('d.tenant_id', 'in', q.tenantIdIn);
    else if (q.withoutTenantId) definitions = definitions.where('d.tenant_id', 'is', null);
    definitions = applyTenantCheck(definitions, q, 'd.tenant_id');
    for (const filter of readable) if (filter) definitions = definitions.where(filter('d.key'));
    let select = this.trx.selectFrom(definitions.as('r'));
    if (q.compact) {
      select = rule.strategy === 'removalTimeBased'
        ? select.where((eb) => eb.or([eb('r.cleanable', '>', 0), eb('r.finished', '>', 0)]))
        : select.where('r.finished', '>', 0);
    }
    return select;
  }

  private activityCounts(q: HistoricActivityStatisticsQuery) {
    let s = this.trx
      .selectFrom('trellis_hi_actinst as a')
      .leftJoin('trellis_hi_procinst as p', 'p.id', 'a.proc_inst_id')
      .select('a.activity_id')
      .select([
        sql<number>`sum(case when a.end_time is null then 1 else 0 end)`.as('instances'),
        sql<number>`sum(case when a.end_time is not null then 1 else 0 end)`.as('finished'),
        sql<number>`sum(case when a.canceled = 1 then 1 else 0 end)`.as('canceled'),
        sql<number>`sum(case when a.complete_scope = 1 then 1 else 0 end)`.as('complete_scope'),
      ])
      .where('a.proc_def_id', '=', q.processDefinitionId)
      .groupBy('a.activity_id');
    if (!q.finished) {
      // Without finished ones, an activity counts through its running instances and the kinds asked for.
      s = s.where((eb) => eb.or([
        eb('a.end_time', 'is', null),
        ...(q.canceled ? [eb('a.canceled', '=', 1)] : []),
        ...(q.completeScope ? [eb('a.complete_scope', '=', 1)] : []),
      ]));
    }
    if (q.processInstanceIdIn !== undefined) s = s.where('a.proc_inst_id', 'in', nonEmpty(q.processInstanceIdIn));
    return this.instanceBounds(s, q).execute();
  }

  private incidentCounts(q: HistoricActivityStatisticsQuery) {
    let s = this.trx
      .selectFrom('trellis_hi_incident as i')
      .leftJoin('trellis_hi_procinst as p', 'p.id', 'i.proc_inst_id')
      .select('i.activity_id')
      .select([
        sql<number>`sum(case when i.state = 0 then 1 else 0 end)`.as('open'),
        sql<number>`sum(case when i.state = 1 then 1 else 0 end)`.as('resolved'),
        sql<number>`sum(case when i.state = 2 then 1 else 0 end)`.as('deleted'),
      ])
      .where('i.proc_def_id', '=', q.processDefinitionId)
      .groupBy('i.activity_id');
    if (q.processInstanceIdIn !== undefined) s = s.where('i.proc_inst_id', 'in', nonEmpty(q.processInstanceIdIn));
    return this.instanceBounds(s, q).execute();
  }

  /** The statistics' bounds on the process instance (aliased `p`). */
  private instanceBounds<S extends { where: (...args: any[]) => S }>(s: S, q: HistoricActivityStatisticsQuery): S {
    const bounds: Array<[string, '<=' | '>=', Date | undefined]> = [
      ['p.start_time', '<=', q.startedBefore], ['p.start_time', '>=', q.startedAfter],
      ['p.end_time', '<=', q.finishedBefore], ['p.end_time', '>=', q.finishedAfter],
    ];
    for (const [column, op, date] of bounds) if (date) s = s.where(sql<SqlBool>`${sql.ref(column)} ${sql.raw(op)} ${date.getTime()}`);
    return s;
  }
}
