import type { Transaction } from 'kysely';
import type { StoreSchema } from '../schema.js';
import type { InstanceReadFilter } from './process-instance-repository.js';

/** How many incidents of one type (Camunda's IncidentStatistics). */
export interface IncidentCount {
  incidentType: string;
  incidentCount: number;
}

/** Which incidents a statistics query counts: none, all, only root incidents, or those of one type. */
export type IncidentSelection = { kind: 'none' } | { kind: 'all' } | { kind: 'root' } | { kind: 'type'; incidentType: string };

/** A count grouped by one key (an activity id or a process definition id). */
export interface GroupedCounts {
  instances: Map<string, number>;
  failedJobs: Map<string, number>;
  incidents: Map<string, IncidentCount[]>;
}

/**
 * Counts over the running state for Camunda's statistics queries (MAP/Statistics.xml): running activity
 * instances, failed jobs (retries 0) and incidents. Every count is limited to process instances the
 * caller may read when `readable` is given (it is applied to the instance's root execution).
 */
export class StatisticsRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  /**
   * Per activity of one definition: its active executions (Camunda's selectActivityStatisticsSql):
   * the leaves where something runs or waits, asynchronous continuations included; scopes around
   * them (a sub-process, a multi-instance body) and paths waiting at a join are not active.
   */
  async activityCounts(
    processDefinitionId: string,
    options: { failedJobs: boolean; incidents: IncidentSelection },
    readable: InstanceReadFilter = null,
  ): Promise<GroupedCounts> {
    let active = this.trx
      .selectFrom('trellis_execution as x')
      .innerJoin('trellis_execution as e', 'e.id', 'x.proc_inst_id')
      .where('x.proc_def_id', '=', processDefinitionId)
      .where('x.is_active', '=', 1)
      .where('x.activity_id', 'is not', null);
    if (readable) active = active.where(readable('e.id', 'e.proc_def_key'));
    const activeRows = await active
      .select((eb) => ['x.activity_id as groupId', eb.fn.countAll<number>().as('count')])
      .groupBy('x.activity_id')
      .execute();

    return {
      instances: new Map(activeRows.map((row) => [row.groupId!, Number(row.count)])),
      failedJobs: options.failedJobs ? await this.failedJobs('activity', processDefinitionId, readable) : new Map(),
      incidents: await this.incidents('activity', options.incidents, processDefinitionId, readable),
    };
  }

  /** Per process definition: running process instances (suspended ones included), failed jobs and incidents. */
  async definitionCounts(
    options: { failedJobs: boolean; incidents: IncidentSelection },
    readable: InstanceReadFilter = null,
  ): Promise<GroupedCounts> {
    let roots = this.trx.selectFrom('trellis_execution as e').where('e.parent_id', 'is', null);
    if (readable) roots = roots.where(readable('e.id', 'e.proc_def_key'));
    const rows = await roots
      .select((eb) => ['e.proc_def_id as groupId', eb.fn.countAll<number>().as('count')])
      .groupBy('e.proc_def_id')
      .execute();
    return {
      instances: new Map(rows.map((row) => [row.groupId, Number(row.count)])),
      failedJobs: options.failedJobs ? await this.failedJobs('definition', null, readable) : new Map(),
      incidents: await this.incidents('definition', options.incidents, null, readable),
    };
  }

  private async failedJobs(by: 'activity' | 'definition', processDefinitionId: string | null, readable: InstanceReadFilter): Promise<Map<string, number>> {
    let jobs = this.trx
      .selectFrom('trellis_job as j')
      .innerJoin('trellis_execution as e', 'e.id', 'j.process_instance_id')
      .where('j.retries', '=', 0);
    if (processDefinitionId !== null) jobs = jobs.where('j.process_definition_id', '=', processDefinitionId);
    if (readable) jobs = jobs.where(readable('e.id', 'e.proc_def_key'));
    const column = by === 'activity' ? 'j.activity_id' : 'j.process_definition_id';
    const rows = await jobs
      .select((eb) => [`${column} as groupId` as 'j.activity_id as groupId', eb.fn.countAll<number>().as('count')])
      .groupBy(column)
      .execute();
    const counts = new Map<string, number>();
    for (const row of rows) if (row.groupId !== null) counts.set(row.groupId, Number(row.count));
    return counts;
  }

  private async incidents(
    by: 'activity' | 'definition',
    selection: IncidentSelection,
    processDefinitionId: string | null,
    readable: InstanceReadFilter,
  ): Promise<Map<string, IncidentCount[]>> {
    const result = new Map<string, IncidentCount[]>();
    if (selection.kind === 'none') return result;
    let incidents = this.trx.selectFrom('trellis_incident as i').innerJoin('trellis_execution as e', 'e.id', 'i.proc_inst_id');
    if (processDefinitionId !== null) incidents = incidents.where('i.proc_def_id', '=', processDefinitionId);
    if (selection.kind === 'type') incidents = incidents.where('i.incident_type', '=', selection.incidentType);
    if (selection.kind === 'root') incidents = incidents.whereRef('i.id', '=', 'i.root_cause_incident_id');
    if (readable) incidents = incidents.where(readable('e.id', 'e.proc_def_key'));
    const column = by === 'activity' ? 'i.activity_id' : 'i.proc_def_id';
    const rows = await incidents
      .select((eb) => [`${column} as groupId` as 'i.activity_id as groupId', 'i.incident_type', eb.fn.countAll<number>().as('count')])
      .groupBy([column, 'i.incident_type'])
      .orderBy('i.incident_type')
      .execute();
    for (const row of rows) {
      if (row.groupId === null) continue;
      const list = result.get(row.groupId) ?? [];
      list.push({ incidentType: row.incident_type, incidentCount: Number(row.count) });
      result.set(row.groupId, list);
    }
    return result;
  }
}
