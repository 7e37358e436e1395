import type { CommandContext } from '../command/command-context.js';
import type { Incident } from '../persistence/repositories/incident-repository.js';
import { IncidentHistory } from '../history/incident-history.js';

export type NewIncident = Omit<Incident, 'id' | 'incidentTimestamp' | 'causeIncidentId' | 'rootCauseIncidentId' | 'annotation'>;

/**
 * Opens an incident (its own cause and root cause) and, when its instance was called by a call
 * activity, a copy on each calling execution up the chain: the copy's cause is the incident below
 * it, its root cause the original (Camunda's IncidentEntity.createRecursiveIncidents). A copy only
 * says where the trouble shows and where it comes from: type, execution, activity, definition,
 * tenant and the two causes; no message, configuration, job definition or history configuration.
 * Removing an incident finds its copies through their cause.
 */
export async function openIncident(ctx: CommandContext, fields: NewIncident, historyConfiguration: string | null = null): Promise<Incident> {
  const id = ctx.ids.next();
  const incident: Incident = { ...fields, id, incidentTimestamp: ctx.clock.now(), causeIncidentId: id, rootCauseIncidentId: id, annotation: null };
  await ctx.incidents.insert(incident);
  await IncidentHistory.opened(ctx, incident, historyConfiguration);
  let cause = incident;
  for (let instanceId = incident.processInstanceId; instanceId; ) {
    const root = await ctx.executions.findById(instanceId);
    const caller = root?.superExecutionId ? await ctx.executions.findById(root.superExecutionId) : null;
    if (!caller) break;
    const copyId = ctx.ids.next();
    const copy: Incident = {
      id: copyId,
      incidentTimestamp: incident.incidentTimestamp,
      incidentType: incident.incidentType,
      incidentMessage: null,
      executionId: caller.id,
      activityId: caller.activityId,
      failedActivityId: caller.activityId,
      processInstanceId: caller.processInstanceId,
      processDefinitionId: caller.processDefinitionId,
      tenantId: caller.tenantId,
      causeIncidentId: cause.id,
      rootCauseIncidentId: incident.id,
      configuration: null,
      jobDefinitionId: null,
      annotation: null,
    };
    await ctx.incidents.insert(copy);
    await IncidentHistory.opened(ctx, copy, null);
    cause = copy;
    instanceId = caller.processInstanceId;
  }
  return incident;
}
