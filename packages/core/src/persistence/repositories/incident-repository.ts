import type { Selectable, Transaction } from 'kysely';
import type { IncidentTable, StoreSchema } from '../schema.js';
import { nonEmpty, toDate } from './query-support.js';

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
  /** For failedJob: the job id; for failedExternalTask: the external task id. */
  configuration: string | null;
  tenantId: string | null;
  jobDefinitionId: string | null;
  annotation: string | null;
}

export interface IncidentQuery {
  id?: string;
  incidentType?: string;
  processInstanceId?: string;
  executionIds?: readonly string[];
  configuration?: string;
}

/** Incidents, within one transaction. */
export class IncidentRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(incident: Incident): Promise<void> {
    await this.trx.insertInto('trellis_incident').values({ ...toRow(incident), rev: 1 }).execute();
  }

  async find(query: IncidentQuery): Promise<Incident[]> {
    let select = this.trx.selectFrom('trellis_incident').selectAll();
    if (query.id !== undefined) select = select.where('id', '=', query.id);
    if (query.incidentType !== undefined) select = select.where('incident_type', '=', query.incidentType);
    if (query.processInstanceId !== undefined) select = select.where('proc_inst_id', '=', query.processInstanceId);
    if (query.executionIds !== undefined) select = select.where('execution_id', 'in', nonEmpty(query.executionIds));
    if (query.configuration !== undefined) select = select.where('configuration', '=', query.configuration);
    const rows = await select.orderBy('incident_timestamp').orderBy('id').execute();
    return rows.map(toIncident);
  }

  /** Resolves (removes) the incidents of a job or external task, e.g. when its retries are set again. */
  async deleteByConfiguration(incidentType: string, configuration: string): Promise<void> {
    await this.trx.deleteFrom('trellis_incident').where('incident_type', '=', incidentType).where('configuration', '=', configuration).execute();
  }

  async deleteByExecutions(executionIds: readonly string[]): Promise<void> {
    if (executionIds.length === 0) return;
    await this.trx.deleteFrom('trellis_incident').where('execution_id', 'in', executionIds).execute();
  }

  async deleteByProcessInstance(processInstanceId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_incident').where('proc_inst_id', '=', processInstanceId).execute();
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
