import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import type { Job } from '../../jobs/job.js';
import type { JobQuery } from '../../persistence/repositories/job-repository.js';
import type { Incident, IncidentQuery } from '../../persistence/repositories/incident-repository.js';
import type { EventSubscription, EventSubscriptionListQuery, EventSubscriptionQuery } from '../../persistence/repositories/event-subscription-repository.js';
import { Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException } from '../../errors/exceptions.js';
import { checkInstance } from '../runtime/runtime-service.js';

/** Jobs, incidents and event subscriptions (Camunda's ManagementService and its queries). */
@injectable()
export class ManagementService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  findJobs(query: JobQuery = {}): Promise<Job[]> {
    return this.commands.run('JobQuery', (ctx) => ctx.jobs.find(query));
  }

  /** Camunda's incident query: only incidents whose instance the caller may READ (or whose definition READ_INSTANCE). */
  findIncidents(query: IncidentQuery = {}): Promise<Incident[]> {
    return this.commands.run('IncidentQuery', async (ctx) => ctx.incidents.find(query, await readableSubscriptions(ctx)));
  }

  countIncidents(query: IncidentQuery = {}): Promise<number> {
    return this.commands.run('IncidentQuery', async (ctx) => ctx.incidents.count(query, await readableSubscriptions(ctx)));
  }

  /** One incident, or null when it does not exist or is not readable. */
  getIncident(id: string): Promise<Incident | null> {
    return this.commands.run('IncidentQuery', async (ctx) => (await ctx.incidents.find({ id }, await readableSubscriptions(ctx)))[0] ?? null);
  }

  /**
   * Camunda's ResolveIncidentCmd: removes a custom incident (and its copies up the call chain).
   * failedJob / failedExternalTask incidents are resolved by retries, never here.
   */
  resolveIncident(id: string): Promise<void> {
    return this.commands.run('ResolveIncidentCmd', async (ctx) => {
      const incident = await ctx.incidents.findById(id);
      if (!incident) throw new NotFoundException(`Cannot find an incident with id '${id}': incident is null`);
      if (incident.incidentType === 'failedJob' || incident.incidentType === 'failedExternalTask') {
        throw new BadUserRequestException(`Cannot resolve an incident of type ${incident.incidentType}`);
      }
      if (!incident.executionId) throw new BadUserRequestException('executionId is null');
      await checkIncidentUpdate(ctx, incident);
      await ctx.incidents.deleteWithCopies(incident);
    });
  }

  /** Sets (or with null clears) an incident's annotation (Camunda's SetAnnotationForIncidentCmd). */
  setIncidentAnnotation(id: string, annotation: string | null): Promise<void> {
    return this.commands.run('SetAnnotationForIncidentCmd', async (ctx) => {
      const incident = await ctx.incidents.findById(id);
      if (!incident) throw new BadUserRequestException('incident is null');
      await checkIncidentUpdate(ctx, incident);
      await ctx.incidents.setAnnotation(id, annotation);
    });
  }

  clearIncidentAnnotation(id: string): Promise<void> {
    return this.setIncidentAnnotation(id, null);
  }

  findEventSubscriptions(query: EventSubscriptionQuery = {}): Promise<EventSubscription[]> {
    return this.commands.run('EventSubscriptionQuery', (ctx) => ctx.eventSubscriptions.find(query));
  }

  /**
   * Camunda's event subscription query (REST GET /event-subscription): only the subscriptions whose
   * process instance the caller may READ or whose definition (by key) it may READ_INSTANCE; a
   * start-event subscription has no instance, so only the definition grant (or a `*` instance grant) shows it.
   */
  queryEventSubscriptions(query: EventSubscriptionListQuery = {}): Promise<EventSubscription[]> {
    return this.commands.run('EventSubscriptionQuery', async (ctx) => ctx.eventSubscriptions.query(query, await readableSubscriptions(ctx)));
  }

  countEventSubscriptions(query: EventSubscriptionListQuery = {}): Promise<number> {
    return this.commands.run('EventSubscriptionQuery', async (ctx) => ctx.eventSubscriptions.count(query, await readableSubscriptions(ctx)));
  }
}

/** UPDATE on the incident's process instance or UPDATE_INSTANCE on its definition (none needed without an instance). */
async function checkIncidentUpdate(ctx: CommandContext, incident: Incident): Promise<void> {
  if (!incident.processInstanceId) return;
  const definition = incident.processDefinitionId ? await ctx.processDefinitions.findById(incident.processDefinitionId) : null;
  await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', incident.processInstanceId, definition?.key ?? '');
}

const readableSubscriptions = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });
