import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import type { Job } from '../../jobs/job.js';
import type { JobQuery } from '../../persistence/repositories/job-repository.js';
import type { Incident, IncidentQuery } from '../../persistence/repositories/incident-repository.js';
import type { EventSubscription, EventSubscriptionQuery } from '../../persistence/repositories/event-subscription-repository.js';

/** Jobs, incidents and event subscriptions (Camunda's ManagementService and its queries). */
@injectable()
export class ManagementService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  findJobs(query: JobQuery = {}): Promise<Job[]> {
    return this.commands.run('JobQuery', (ctx) => ctx.jobs.find(query));
  }

  findIncidents(query: IncidentQuery = {}): Promise<Incident[]> {
    return this.commands.run('IncidentQuery', (ctx) => ctx.incidents.find(query));
  }

  findEventSubscriptions(query: EventSubscriptionQuery = {}): Promise<EventSubscription[]> {
    return this.commands.run('EventSubscriptionQuery', (ctx) => ctx.eventSubscriptions.find(query));
  }
}
