import type { Selectable, Transaction } from 'kysely';
import type { IncidentTable, StoreSchema } from '../schema.js';
import type { InstanceReadFilter } from './process-instance-repository.js';
import { applyPage, applySorting, likeMatches, nonEmpty, type Page, type Sorting, toDate } from './query-support.js';
import { applyTenantCheck, type TenantChecked } from '../../authorization/tenant-check.js';

/** A problem an instance cannot get past without help (Camunda's IncidentEntity), e.g. a job out of retries. */
export interface Incident {
  id: string;
  incidentTimestamp: Date;
  incidentType: string;
  incidentMessage: string | null;
  executionId: string | null;
  activityId: string | null;
  failedActivityId: string | null;
  processInstanceId: string | null;
  processDefinitionId: string | null;
  causeIncidentId: string | null;
  rootCauseIncidentId: string | null;
  /** For failedJob: the job id; for failedExternalTask: the external task id; null on the copies up the call chain. */
  configuration: string | null;
  tenantId: string | null;
  jobDefinitionId: string | null;
  annotation: string | null;
}

export type IncidentSortField =
  | 'incidentId'
  | 'incidentMessage'
  | 'incidentTimestamp'
  | 'incidentType'
  | 'executionId'
  | 'activityId'
  | 'processInstanceId'
  | 'processDefinitionId'
  | 'causeIncidentId'
  | 'rootCauseIncidentId'
  | 'configuration'
  | 'tenantId';

/** Camunda's incident query (REST GET /incident); without sorting, oldest first. */
export interface IncidentQuery extends Page, TenantChecked {
  id?: string;
  incidentType?: string;
  incidentMessage?: string;
  /** SQL LIKE pattern. */
  incidentMessageLike?: string;
  processDefinitionId?: string;
  processDefinitionKeyIn?: readonly string[];
  processInstanceId?: string;
  executionId?: string;
  executionIds?: readonly string[];
  /** Strictly before / after. */
  incidentTimestampBefore?: Date;
  incidentTimestampAfter?: Date;
  activityId?: string;
  failedActivityId?: string;
  causeIncidentId?: string;
  rootCauseIncidentId?: string;
  configuration?: string;
  tenantIdIn?: readonly string[];
  jobDefinitionIdIn?: readonly string[];
  sorting?: Sorting<IncidentSortField>[];
}

const SORT_COLUMNS: Record<IncidentSortField, string> = {
  incidentId: 'i.id',
  incidentMessage: 'i.incident_message',
  incidentTimestamp: 'i.incident_timestamp',
  incidentType: 'i.incident_type',
  executionId: 'i.execution_id',
  activityId: 'i.activity_id',
  processInstanceId: 'i.proc_inst_id',
  processDefinitionId: 'i.proc_def_id',
  causeIncidentId: 'i.cause_incident_id',
  rootCauseIncidentId: 'i.root_cause_incident_id',
  configuration: 'i.configuration',
  tenantId: 'i.tenant_id',
};

/** Incidents, within one transaction. */
export class IncidentRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(incident: Incident): Promise<void> {
    await this.trx.insertInto('trellis_incident').values({ ...toRow(incident), rev: 1 }).execute();
  }

  /** The incidents matching the query, limited to the readable ones when `readable` is given. */
  async find(query: IncidentQuery, readable: InstanceReadFilter = null): Promise<Incident[]> {
    let select = this.filtered(query, readable).selectAll('i');
    select = query.sorting?.length ? applySorting(select, query.sorting, SORT_COLUMNS, 'i.id') : select.orderBy('i.incident_timestamp').orderBy('i.id');
    const rows = await applyPage(select, query).execute();
    return rows.map(toIncident);
  }

  async count(query: IncidentQuery, readable: InstanceReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async findById(id: string): Promise<Incident | null> {
    const row = await this.trx.selectFrom('trellis_incident').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toIncident(row) : null;
  }

  async setAnnotation(id: string, annotation: string | null): Promise<void> {
    await this.trx
      .updateTable('trellis_incident')
      .set((eb) => ({ annotation, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Removes an incident with the copies it caused up the call-activity chain; returns the ids removed. */
  async deleteWithCopies(incident: Incident): Promise<string[]> {
    return this.deleteUpChain([incident.id]);
  }

  private filtered(q: IncidentQuery, readable: InstanceReadFilter) {
    let select = this.trx.selectFrom('trellis_incident as i').leftJoin('trellis_process_definition as d', 'd.id', 'i.proc_def_id');
    if (q.id !== undefined) select = select.where('i.id', '=', q.id);
    if (q.incidentType !== undefined) select = select.where('i.incident_type', '=', q.incidentType);
    if (q.incidentMessage !== undefined) select = select.where('i.incident_message', '=', q.incidentMessage);
    if (q.incidentMessageLike !== undefined) select = select.where(likeMatches('i.incident_message', q.incidentMessageLike));
    if (q.processDefinitionId !== undefined) select = select.where('i.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKeyIn !== undefined) select = select.where('d.key', 'in', nonEmpty(q.processDefinitionKeyIn));
    if (q.processInstanceId !== undefined) select = select.where('i.proc_inst_id', '=', q.processInstanceId);
    if (q.executionId !== undefined) select = select.where('i.execution_id', '=', q.executionId);
    if (q.executionIds !== undefined) select = select.where('i.execution_id', 'in', nonEmpty(q.executionIds));
    if (q.incidentTimestampBefore !== undefined) select = select.where('i.incident_timestamp', '<', q.incidentTimestampBefore.getTime());
    if (q.incidentTimestampAfter !== undefined) select = select.where('i.incident_timestamp', '>', q.incidentTimestampAfter.getTime());
    if (q.activityId !== undefined) select = select.where('i.activity_id', '=', q.activityId);
    if (q.failedActivityId !== undefined) select = select.where('i.failed_activity_id', '=', q.failedActivityId);
    if (q.causeIncidentId !== undefined) select = select.where('i.cause_incident_id', '=', q.causeIncidentId);
    if (q.rootCauseIncidentId !== undefined) select = select.where('i.root_cause_incident_id', '=', q.rootCauseIncidentId);
    if (q.configuration !== undefined) select = select.where('i.configuration', '=', q.configuration);
    select = applyTenantCheck(select, q, 'i.tenant_id');
    if (q.tenantIdIn !== undefined) select = select.where('i.tenant_id', 'in', nonEmpty(q.tenantIdIn));
    if (q.jobDefinitionIdIn !== undefined) select = select.where('i.job_def_id', 'in', nonEmpty(q.jobDefinitionIdIn));
    // Camunda's Incident.xml: an incident of no process definition (a failed batch job's) passes the check.
    if (readable) select = select.where((eb) => eb.or([eb('i.proc_def_id', 'is', null), readable('i.proc_inst_id', 'd.key')]));
    return select;
  }

  /**
   * Removes the incident of a job or external task, e.g. when its retries are set again, with its
   * copies; returns the ids removed. Only the original carries the configuration.
   */
  async deleteByConfiguration(incidentType: string, configuration: string): Promise<string[]> {
    const rows = await this.trx.selectFrom('trellis_incident').select('id').where('incident_type', '=', incidentType).where('configuration', '=', configuration).execute();
    return this.deleteUpChain(rows.map((row) => row.id));
  }

  /** Removes the incidents of executions that go, with their copies; returns the ids removed. */
  async deleteByExecutions(executionIds: readonly string[]): Promise<string[]> {
    if (executionIds.length === 0) return [];
    const rows = await this.trx.selectFrom('trellis_incident').select('id').where('execution_id', 'in', executionIds).execute();
    return this.deleteUpChain(rows.map((row) => row.id));
  }

  /**
   * Deletes incidents and, walking up the call chain, every incident they caused, as Camunda's
   * IncidentEntity.remove asks the super execution for the incident whose cause it is: the copies
   * share nothing else with their cause (no configuration, no message).
   */
  private async deleteUpChain(ids: readonly string[]): Promise<string[]> {
    const removed = [...ids];
    for (let causes = ids; causes.length > 0; ) {
      const caused = await this.trx.selectFrom('trellis_incident').select('id').where('cause_incident_id', 'in', causes).where('id', 'not in', removed).execute();
      causes = caused.map((row) => row.id);
      removed.push(...causes);
    }
    if (removed.length > 0) await this.trx.deleteFrom('trellis_incident').where('id', 'in', removed).execute();
    return removed;
  }
}

function toRow(incident: Incident): Omit<IncidentTable, 'rev'> {
  return {
    id: incident.id,
    incident_timestamp: incident.incidentTimestamp.getTime(),
    incident_type: incident.incidentType,
    incident_message: incident.incidentMessage,
    execution_id: incident.executionId,
    activity_id: incident.activityId,
    failed_activity_id: incident.failedActivityId,
    proc_inst_id: incident.processInstanceId,
    proc_def_id: incident.processDefinitionId,
    cause_incident_id: incident.causeIncidentId,
    root_cause_incident_id: incident.rootCauseIncidentId,
    configuration: incident.configuration,
    tenant_id: incident.tenantId,
    job_def_id: incident.jobDefinitionId,
    annotation: incident.annotation,
  };
}

function toIncident(row: Selectable<IncidentTable>): Incident {
  return {
    id: row.id,
    incidentTimestamp: toDate(row.incident_timestamp),
    incidentType: row.incident_type,
    incidentMessage: row.incident_message,
    executionId: row.execution_id,
    activityId: row.activity_id,
    failedActivityId: row.failed_activity_id,
    processInstanceId: row.proc_inst_id,
    processDefinitionId: row.proc_def_id,
    causeIncidentId: row.cause_incident_id,
    rootCauseIncidentId: row.root_cause_incident_id,
    configuration: row.configuration,
    tenantId: row.tenant_id,
    jobDefinitionId: row.job_def_id,
    annotation: row.annotation,
  };
}
