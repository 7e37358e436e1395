import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { NullValueException } from '../../errors/exceptions.js';
import {
  StatisticsRepository,
  type IncidentCount,
  type IncidentSelection,
} from '../../persistence/repositories/statistics-repository.js';
import type { ProcessDefinition } from './process-definition.js';

export type { IncidentCount } from '../../persistence/repositories/statistics-repository.js';

/** What a statistics query counts besides running instances (Camunda's include* flags). */
export interface StatisticsOptions {
  failedJobs?: boolean;
  /** Count incidents of every type. */
  incidents?: boolean;
  /** Count only incidents of this type. */
  incidentsForType?: string;
  /** Count only root incidents (definition statistics). */
  rootIncidents?: boolean;
}

/** Camunda's ActivityStatistics. */
export interface ActivityStatistics {
  id: string;
  instances: number;
  failedJobs: number;
  incidents: IncidentCount[];
}

/** Camunda's ProcessDefinitionStatistics. */
export interface ProcessDefinitionStatistics {
  id: string;
  instances: number;
  failedJobs: number;
  incidents: IncidentCount[];
  definition: ProcessDefinition;
}

/**
 * Statistics over the running state (Camunda's ManagementService statistics queries). With authorization
 * enabled, the statistics of a definition need READ on it and count only instances the caller may read
 * (READ on the instance or READ_INSTANCE on its definition); the per-definition statistics list the
 * readable definitions with all their instances, as Camunda's do.
 */
@injectable()
export class StatisticsService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /** One row per activity of the definition with running instances (or, when asked, failed jobs / incidents). */
  getActivityStatistics(processDefinitionId: string, options: StatisticsOptions = {}): Promise<ActivityStatistics[]> {
    return this.commands.run('ActivityStatisticsQuery', async (ctx) => {
      const definition = ctx.authz.isActive || ctx.tenantCheck.isActive ? await ctx.processDefinitions.findById(processDefinitionId) : null;
      // Camunda's StatisticsManager.checkReadProcessDefinition, with authorization on only.
      if (ctx.authz.isActive) {
        if (!definition) throw new NullValueException(`no deployed process definition found with id '${processDefinitionId}': processDefinition is null`);
        await ctx.authz.check(readDefinition(definition.key));
      }
      // Camunda's statistics queries are tenant-checked: a definition of another tenant has no rows.
      if (definition && !ctx.tenantCheck.isAuthenticatedTenant(definition.tenantId)) return [];
      const failedJobs = options.failedJobs === true;
      const counts = await new StatisticsRepository(ctx.trx).activityCounts(
        processDefinitionId,
        { failedJobs, incidents: incidentSelection(options) },
        await readableInstances(ctx),
      );
      const ids = new Set([...counts.instances.keys(), ...counts.failedJobs.keys(), ...counts.incidents.keys()]);
      return [...ids].sort().map((id) => ({
        id,
        instances: counts.instances.get(id) ?? 0,
        failedJobs: counts.failedJobs.get(id) ?? 0,
        incidents: counts.incidents.get(id) ?? [],
      }));
    });
  }

  /** One row for every (readable) process definition, ordered by id. */
  getProcessDefinitionStatistics(options: StatisticsOptions = {}): Promise<ProcessDefinitionStatistics[]> {
    return this.commands.run('ProcessDefinitionStatisticsQuery', async (ctx) => {
      const definitions = await ctx.processDefinitions.find(
        ctx.tenantCheck.query({ sorting: [{ sortBy: 'id', sortOrder: 'asc' }] }),
        await ctx.authz.readFilter('READ', Resources.PROCESS_DEFINITION),
      );
      // Camunda's configureProcessDefinitionStatisticsQuery checks READ on the definition only: its counts are whole.
      const counts = await new StatisticsRepository(ctx.trx).definitionCounts({ failedJobs: options.failedJobs === true, incidents: incidentSelection(options) }, null);
      return definitions.map((definition) => ({
        id: definition.id,
        instances: counts.instances.get(definition.id) ?? 0,
        failedJobs: counts.failedJobs.get(definition.id) ?? 0,
        incidents: counts.incidents.get(definition.id) ?? [],
        definition,
      }));
    });
  }
}

function incidentSelection(options: StatisticsOptions): IncidentSelection {
  if (options.incidents === true) return { kind: 'all' };
  if (options.rootIncidents === true) return { kind: 'root' };
  if (options.incidentsForType !== undefined) return { kind: 'type', incidentType: options.incidentsForType };
  return { kind: 'none' };
}

const readDefinition = (key: string) => ({ permission: 'READ', resource: Resources.PROCESS_DEFINITION, resourceId: key });

const readableInstances = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });
