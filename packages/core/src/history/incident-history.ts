import { sql } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import type { Incident } from '../persistence/repositories/incident-repository.js';
import { historicRootOf } from './history-roots.js';
import { isHistoryEventProduced } from './history-level.js';
import type { Write } from './history-writer.js';
import { JobLog } from './job-log.js';
import { updateRows } from '../persistence/combined-writes.js';
import { sqlText } from '../persistence/sql-text.js';

/** Camunda's IncidentState: what ended a historic incident. */
export const IncidentState = { open: 0, resolved: 1, deleted: 2 } as const;

type Ending = { incidentType: string; configuration: string } | { executionIds: readonly string[] } | { incidentId: string } | { processInstanceId: string };

/**
 * Historic incidents (Camunda's HistoricIncidentEventEntity), written at level full as Camunda's
 * HistoryLevelFull does: a row when an incident opens, its end time and state when it is resolved
 * (retries back, a job that succeeds, a resolved custom incident) or deleted (its job, task or
 * instance went). Written directly, not queued: the updates must find the rows.
 */
export const IncidentHistory = {
  async opened(ctx: CommandContext, incident: Incident): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'incident-create')) return;
    const definitionKey = incident.processDefinitionId
      ? sql<string | null>`(select d.key from trellis_process_definition d where d.id = ${incident.processDefinitionId})`
      : null;
    await ctx.trx
      .insertInto('trellis_hi_incident')
      .values({
        id: incident.id,
        proc_def_key: definitionKey,
        proc_def_id: incident.processDefinitionId,
        proc_inst_id: incident.processInstanceId,
        root_proc_inst_id: historicRootOf(incident.processInstanceId),
        execution_id: incident.executionId,
        create_time: incident.incidentTimestamp.getTime(),
        end_time: null,
        // The instance's, inherited (inheritedRemovalTime).
        removal_time: null,
        incident_type: incident.incidentType,
        incident_message: incident.incidentMessage,
        activity_id: incident.activityId,
        failed_activity_id: incident.failedActivityId,
        cause_incident_id: incident.causeIncidentId,
        root_cause_incident_id: incident.rootCauseIncidentId,
        configuration: incident.configuration,
        // Camunda: a failedJob incident points at the job log entry of the failure that opened it.
        history_configuration: incident.incidentType === 'failedJob' && incident.configuration ? JobLog.lastFailureOf(ctx, incident.configuration) : null,
        state: IncidentState.open,
        tenant_id: incident.tenantId,
        job_def_id: incident.jobDefinitionId,
        annotation: incident.annotation,
      })
      .execute();
  },

  /** Open incidents (with their copies up the call chain) ended, resolved or deleted. */
  async ended(ctx: CommandContext, which: Ending, state: typeof IncidentState.resolved | typeof IncidentState.deleted): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'incident-resolve')) return;
    const now = ctx.clock.now().getTime();
    let update = ctx.trx.updateTable('trellis_hi_incident').set({ end_time: now, state }).where('end_time', 'is', null);
    if ('incidentType' in which) {
      // The copies up the call chain carry the same type and configuration.
      update = update.where('incident_type', '=', which.incidentType).where('configuration', '=', which.configuration);
    } else if ('executionIds' in which) {
      if (which.executionIds.length === 0) return;
      update = update.where('execution_id', 'in', which.executionIds);
    } else if ('incidentId' in which) {
      update = update.where((eb) => eb.or([eb('id', '=', which.incidentId), eb('root_cause_incident_id', '=', which.incidentId)]));
    } else {
      update = update.where('proc_inst_id', '=', which.processInstanceId);
    }
    await update.execute();
  },

  /** An instance written in an earlier command ended: its open incidents went with it (a write for the instance's history statement). */
  instanceEnded(ctx: CommandContext, processInstanceId: string): Write[] {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'incident-delete')) return [];
    const now = ctx.clock.now().getTime();
    return [updateRows('trellis_hi_incident', { end_time: now, state: IncidentState.deleted }, sqlText`proc_inst_id = ${processInstanceId} and end_time is null`)];
  },

  async annotated(ctx: CommandContext, incidentId: string, annotation: string | null): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'incident-create')) return;
    await ctx.trx.updateTable('trellis_hi_incident').set({ annotation }).where('id', '=', incidentId).execute();
  },
};
