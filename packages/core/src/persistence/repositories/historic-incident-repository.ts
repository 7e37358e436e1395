import { ProcessEngineException } from '../../errors/exceptions.js';
import type { Selectable, Transaction } from 'kysely';
import type { HistoricIncident, HistoricIncidentQuery, HistoricIncidentSortField } from '../../services/history/historic-incident-types.js';
import type { HistoricIncidentTable, StoreSchema } from '../schema.js';
import { historyAccess, type HistoryReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, likeMatches, nonEmpty, toDate } from './query-support.js';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';

const base = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_incident as i');
type IncidentSelect = ReturnType<typeof base>;

const SORT: Record<HistoricIncidentSortField, string> = {
  incidentId: 'i.id', incidentMessage: 'i.incident_message', createTime: 'i.create_time', endTime: 'i.end_time',
  incidentType: 'i.incident_type', executionId: 'i.execution_id', activityId: 'i.activity_id', processInstanceId: 'i.proc_inst_id',
  processDefinitionId: 'i.proc_def_id', processDefinitionKey: 'i.proc_def_key', causeIncidentId: 'i.cause_incident_id',
  rootCauseIncidentId: 'i.root_cause_incident_id', configuration: 'i.configuration', historyConfiguration: 'i.history_configuration',
  tenantId: 'i.tenant_id', incidentState: 'i.state',
};
const STATES: ReadonlyArray<['open' | 'resolved' | 'deleted', number]> = [['open', 0], ['resolved', 1], ['deleted', 2]];

/** Historic incidents (Camunda's HistoricIncidentQuery), filtered by what the caller may read. */
export class HistoricIncidentRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async find(q: HistoricIncidentQuery, readable: HistoryReadFilter): Promise<HistoricIncident[]> {
    const select = applySorting(this.filtered(q, readable).selectAll('i').select(inheritedRemovalTime('trellis_hi_incident', 'i')), q.sorting, SORT, 'i.id');
    return (await applyPage(q.sorting?.length ? select : select.orderBy('i.create_time'), q).execute()).map(toHistoricIncident);
  }

  async count(q: HistoricIncidentQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.filtered(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async deleteByProcessInstances(ids: readonly string[]): Promise<void> {
    if (ids.length > 0) await this.trx.deleteFrom('trellis_hi_incident').where('proc_inst_id', 'in', ids).execute();
  }

  async deleteByProcessDefinition(processDefinitionId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_hi_incident').where('proc_def_id', '=', processDefinitionId).execute();
  }

  async deleteByJobDefinitions(jobDefinitionIds: readonly string[]): Promise<void> {
    if (jobDefinitionIds.length > 0) await this.trx.deleteFrom('trellis_hi_incident').where('job_def_id', 'in', jobDefinitionIds).execute();
  }

  private filtered(q: HistoricIncidentQuery, readable: HistoryReadFilter): IncidentSelect {
    let s: IncidentSelect = base(this.trx);
    // Camunda's HistoricIncident.xml: an incident of no process definition (a batch job's) passes.
    if (readable) s = s.where(historyAccess(readable, { definitionKey: 'i.proc_def_key', processInstanceId: 'i.proc_inst_id', unchecked: 'i.proc_def_id' }));
    if (q.incidentId !== undefined) s = s.where('i.id', '=', q.incidentId);
    if (q.incidentType !== undefined) s = s.where('i.incident_type', '=', q.incidentType);
    if (q.incidentMessage !== undefined) s = s.where('i.incident_message', '=', q.incidentMessage);
    if (q.incidentMessageLike !== undefined) s = s.where(likeMatches('i.incident_message', q.incidentMessageLike));
    if (q.processDefinitionId !== undefined) s = s.where('i.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) s = s.where('i.proc_def_key', '=', q.processDefinitionKey);
    if (q.processDefinitionKeyIn !== undefined) s = s.where('i.proc_def_key', 'in', nonEmpty(q.processDefinitionKeyIn));
    if (q.processInstanceId !== undefined) s = s.where('i.proc_inst_id', '=', q.processInstanceId);
    if (q.executionId !== undefined) s = s.where('i.execution_id', '=', q.executionId);
    if (q.createTimeBefore !== undefined) s = s.where('i.create_time', '<', q.createTimeBefore.getTime());
    if (q.createTimeAfter !== undefined) s = s.where('i.create_time', '>', q.createTimeAfter.getTime());
    if (q.endTimeBefore !== undefined) s = s.where('i.end_time', '<', q.endTimeBefore.getTime());
    if (q.endTimeAfter !== undefined) s = s.where('i.end_time', '>', q.endTimeAfter.getTime());
    if (q.activityId !== undefined) s = s.where('i.activity_id', '=', q.activityId);
    if (q.failedActivityId !== undefined) s = s.where('i.failed_activity_id', '=', q.failedActivityId);
    if (q.causeIncidentId !== undefined) s = s.where('i.cause_incident_id', '=', q.causeIncidentId);
    if (q.rootCauseIncidentId !== undefined) s = s.where('i.root_cause_incident_id', '=', q.rootCauseIncidentId);
    if (q.configuration !== undefined) s = s.where('i.configuration', '=', q.configuration);
    if (q.historyConfiguration !== undefined) s = s.where('i.history_configuration', '=', q.historyConfiguration);
    // Camunda's HistoricIncidentQueryImpl holds one state: a second is refused, naming the first.
    const asked = STATES.filter(([flag]) => q[flag] === true);
    if (asked.length > 1) throw new ProcessEngineException(`Already querying for incident state <${asked[0]![0]}>`);
    if (asked.length === 1) s = s.where('i.state', '=', asked[0]![1]);
    s = applyTenantCheck(s, q, 'i.tenant_id');
    const tenants = requestedTenants(q, 'i.tenant_id');
    if (tenants) s = s.where(tenants);
    if (q.jobDefinitionIdIn !== undefined) s = s.where('i.job_def_id', 'in', nonEmpty(q.jobDefinitionIdIn));
    return s;
  }
}

function toHistoricIncident(row: Selectable<HistoricIncidentTable> & { inherited_removal_time: number | null }): HistoricIncident {
  const state = Number(row.state);
  return {
    id: row.id,
    processDefinitionKey: row.proc_def_key,
    processDefinitionId: row.proc_def_id,
    processInstanceId: row.proc_inst_id,
    executionId: row.execution_id,
    rootProcessInstanceId: row.root_proc_inst_id,
    createTime: toDate(row.create_time),
    endTime: row.end_time === null ? null : toDate(row.end_time),
    removalTime: row.inherited_removal_time === null ? null : toDate(row.inherited_removal_time),
    incidentType: row.incident_type,
    activityId: row.activity_id,
    failedActivityId: row.failed_activity_id,
    causeIncidentId: row.cause_incident_id,
    rootCauseIncidentId: row.root_cause_incident_id,
    configuration: row.configuration,
    historyConfiguration: row.history_configuration,
    incidentMessage: row.incident_message,
    tenantId: row.tenant_id,
    jobDefinitionId: row.job_def_id,
    open: state === 0,
    resolved: state === 1,
    deleted: state === 2,
    annotation: row.annotation,
  };
}
