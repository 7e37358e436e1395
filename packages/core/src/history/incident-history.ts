import { sql } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import type { Incident } from '../persistence/repositories/incident-repository.js';
import { historicRootOf } from './history-roots.js';
import { isHistoryEventProduced } from './history-level.js';
import type { Write } from './history-writer.js';
import { updateRows } from '../persistence/combined-writes.js';
import { sqlText } from '../persistence/sql-text.js';
import { batchRemovalTimeOf } from '../services/batch/historic-batch-events.js';

/** Camunda's IncidentState: what ended a historic incident. */
export const IncidentState = { open: 0, resolved: 1, deleted: 2 } as const;

/**
 * Historic incidents (Camunda's HistoricIncidentEventEntity), written at level full as Camunda's
 * HistoryLevelFull does: a row when an incident opens, its end time and state when it is resolved
 * (retries back, a job that succeeds, a resolved custom incident) or deleted (its job, task or
 * instance went). Written directly, not queued: the updates must find the rows.
 */
export const IncidentHistory = {
  /**
   * historyConfiguration: the log entry of the failure that opened the incident (Camunda's
   * lastFailureLogId of the job or external task), null when none was written (history below full,
   * retries set to 0 by hand) and on the copies up the call chain.
   */
  async opened(ctx: CommandContext, incident: Incident, historyConfiguration: string | null): Promise<void> {
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
        // The instance's, inherited (inheritedRemovalTime); a batch job's under strategy start its batch's.
        removal_time: batchRemovalTimeOf(ctx, incident.jobDefinitionId, incident.processInstanceId),
        incident_type: incident.incidentType,
        incident_message: incident.incidentMessage,
        activity_id: incident.activityId,
        failed_activity_id: incident.failedActivityId,
        cause_incident_id: incident.causeIncidentId,
        root_cause_incident_id: incident.rootCauseIncidentId,
        configuration: incident.configuration,
        history_configuration: historyConfiguration,
        state: IncidentState.open,
        tenant_id: incident.tenantId,
        job_def_id: incident.jobDefinitionId,
        annotation: incident.annotation,
      })
      .execute();
  },

  /** Incidents removed from the runtime (originals and copies alike, as the repository returned them), resolved or deleted. */
  async ended(ctx: CommandContext, incidentIds: readonly string[], state: typeof IncidentState.resolved | typeof IncidentState.deleted): Promise<void> {
    if (incidentIds.length === 0 || !isHistoryEventProduced(ctx.config.historyLevel, 'incident-resolve')) return;
    const now = ctx.clock.now().getTime();
    await ctx.trx.updateTable('trellis_hi_incident').set({ end_time: now, state }).where('id', 'in', incidentIds).where('end_time', 'is', null).execute();
  },

  /** An instance written in an earlier command ended: its open incidents went with it (a write for the instance's history statement). */
  instanceEnded(ctx: CommandContext, processInstanceId: string): Write[] {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'incident-delete')) return [];
    const now = ctx.clock.now().getTime();
    return [updateRows('trellis_hi_incident', { end_time: now, state: IncidentState.deleted }, sqlText`proc_inst_id = ${processInstanceId} and end_time is null`)];
  },

  /** A migrated incident (Camunda's createHistoricIncidentMigrateEvt): its activity, definition and job definition follow. */
  async migrated(
    ctx: CommandContext,
    incidentId: string,
    changes: { proc_def_id: string; proc_def_key: string; activity_id: string | null; job_def_id: string | null },
  ): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'incident-migrate')) return;
    await ctx.trx.updateTable('trellis_hi_incident').set(changes).where('id', '=', incidentId).execute();
  },

  async annotated(ctx: CommandContext, incidentId: string, annotation: string | null): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'incident-create')) return;
    await ctx.trx.updateTable('trellis_hi_incident').set({ annotation }).where('id', '=', incidentId).execute();
  },
};
