import { inject, injectable } from 'inversify';
import { sql, type SqlBool } from 'kysely';
import type { ReadFilter } from '../../persistence/repositories/authorization-repository.js';
import type { ProcessModel } from '../../bpmn/index.js';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { deleteProcessDefinition } from './delete-process-definitions.js';
import type { ProcessDefinition, ProcessDefinitionQuery } from './process-definition.js';
import {
  definitionNotFound,
  noDeployedDefinition,
  negativeHistoryTimeToLive,
  noDefinitionsForKey,
  nullHistoryTimeToLive,
} from './process-definition-messages.js';
import { ProcessModelCache } from './process-model-cache.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { findStaticCalledDefinitions, type CalledProcessDefinition } from './static-called-definitions.js';
import {
  UpdateProcessDefinitionSuspensionStateCmd,
  type SuspensionChange,
  type SuspensionTarget,
} from './update-suspension-state-cmd.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

export interface DeleteProcessDefinitionOptions {
  cascade?: boolean;
  skipCustomListeners?: boolean;
  skipIoMappings?: boolean;
}

/** Process definitions: queries, model access, suspension, history time to live and deletion. */
@injectable()
export class ProcessDefinitionService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(ProcessModelCache) private readonly models: ProcessModelCache,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  findProcessDefinitions(query: ProcessDefinitionQuery = {}): Promise<ProcessDefinition[]> {
    return this.commands.run('ProcessDefinitionQuery', async (ctx) => ctx.processDefinitions.find(ctx.tenantCheck.query(query), await readable(ctx, query)));
  }

  countProcessDefinitions(query: ProcessDefinitionQuery = {}): Promise<number> {
    return this.commands.run('ProcessDefinitionQuery', async (ctx) => ctx.processDefinitions.count(ctx.tenantCheck.query(query), await readable(ctx, query)));
  }

  /** NotFoundException when there is no definition with this id; AuthorizationException without READ on its key. */
  getProcessDefinition(id: string): Promise<ProcessDefinition> {
    return this.commands.run('GetDeployedProcessDefinitionCmd', (ctx) => this.loadReadable(ctx, id));
  }

  /** The latest version of a key for one tenant (null: definitions without tenant); null when there is none. */
  findLatestByKey(key: string, tenantId: string | null = null): Promise<ProcessDefinition | null> {
    return this.commands.run('GetDeployedProcessDefinitionCmd', async (ctx) => {
      const definition = await ctx.processDefinitions.findLatestByKey(key, tenantId);
      // REST looks it up with a (tenant-checked) definition query.
      return definition && ctx.tenantCheck.isAuthenticatedTenant(definition.tenantId) ? definition : null;
    });
  }

  /** The parsed, immutable model of a definition (cached). */
  getProcessModel(id: string): Promise<ProcessModel> {
    return this.commands.run('GetDeploymentProcessModelCmd', async (ctx) => this.models.get(ctx, await this.loadReadable(ctx, id)));
  }

  /** The BPMN 2.0 XML the definition was deployed from. */
  getProcessDefinitionXml(id: string): Promise<string> {
    return this.commands.run('GetDeploymentProcessModelCmd', async (ctx) => {
      const definition = await this.loadReadable(ctx, id);
      const resource = await ctx.resources.findDataByName(definition.deploymentId, definition.resourceName);
      return resource ? resource.bytes.toString('utf8') : '';
    });
  }

  /** The diagram image deployed beside the definition, or null when there is none. */
  getProcessDiagram(id: string): Promise<{ name: string; bytes: Buffer } | null> {
    return this.commands.run('GetDeploymentProcessDiagramCmd', async (ctx) => {
      const definition = await this.loadReadable(ctx, id);
      if (!definition.diagramResourceName) return null;
      return ctx.resources.findDataByName(definition.deploymentId, definition.diagramResourceName);
    });
  }

  getStaticCalledProcessDefinitions(id: string): Promise<CalledProcessDefinition[]> {
    return this.commands.run('GetStaticCalledProcessDefinitionCmd', async (ctx) => {
      const definition = await this.loadReadable(ctx, id);
      const model = await this.models.get(ctx, definition);
      const called = await findStaticCalledDefinitions(ctx, definition, model.callActivities);
      const visible = [];
      for (const target of called) if (!ctx.authz.isActive || (await ctx.authz.isAuthorized(readDefinition(target.key)))) visible.push(target);
      return visible;
    });
  }

  /** Suspends or activates now (or schedules it); an unknown id or key changes nothing, as in Camunda. */
  updateSuspensionState(target: SuspensionTarget, change: SuspensionChange): Promise<ProcessDefinition[]> {
    return this.commands.execute(new UpdateProcessDefinitionSuspensionStateCmd(target, change));
  }

  /** BadUserRequestException for a negative value; NotAllowedException for null while TTL is enforced. */
  updateHistoryTimeToLive(id: string, historyTimeToLive: number | null): Promise<ProcessDefinition> {
    return this.commands.run('UpdateProcessDefinitionHistoryTimeToLiveCmd', async (ctx) => {
      // Camunda's order: the permission (where the definition exists), the value, then the definition
      // (an unknown id fails there in Camunda with a NullPointerException; a NotFoundException here).
      const definition = await ctx.processDefinitions.findById(id);
      if (definition) ctx.tenantCheck.require(definition.tenantId, `update the process definition '${id}'`);
      if (definition) await ctx.authz.check({ permission: 'UPDATE', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key });
      if (historyTimeToLive !== null && historyTimeToLive < 0) throw negativeHistoryTimeToLive();
      if (historyTimeToLive === null && ctx.config.enforceHistoryTimeToLive) throw nullHistoryTimeToLive();
      if (!definition) throw definitionNotFound(id);
      OperationLogEntries.historyTimeToLiveUpdated(ctx, definition, historyTimeToLive);
      return ctx.processDefinitions.update(definition, { historyTimeToLive });
    });
  }

  deleteProcessDefinition(id: string, options: DeleteProcessDefinitionOptions = {}): Promise<void> {
    return this.commands.run('DeleteProcessDefinitionsByIdsCmd', async (ctx) => {
      const definition = await this.load(ctx, id);
      ctx.tenantCheck.require(definition.tenantId, `delete the process definition '${id}'`);
      await ctx.authz.check(deleteDefinition(definition.key));
      OperationLogEntries.processDefinitionDeleted(ctx, definition, options.cascade ?? false);
      await deleteProcessDefinition(ctx, definition, { ...options, cascade: options.cascade ?? false, env: this.env });
      ctx.afterCommit(() => this.models.evict(definition.id));
    });
  }

  /** Deletes every version of a key (of one tenant, or without tenant when tenantId is null). */
  deleteProcessDefinitionsByKey(key: string, tenantId: string | null, options: DeleteProcessDefinitionOptions = {}): Promise<void> {
    return this.commands.run('DeleteProcessDefinitionsByKeyCmd', async (ctx) => {
      // Camunda finds them with a (tenant-checked) definition query.
      const definitions = (await ctx.processDefinitions.findAllByKey(key, tenantId)).filter((each) => ctx.tenantCheck.isAuthenticatedTenant(each.tenantId));
      if (definitions.length === 0) throw noDefinitionsForKey(key);
      await ctx.authz.check(deleteDefinition(key));
      for (const definition of definitions) {
        OperationLogEntries.processDefinitionDeleted(ctx, definition, options.cascade ?? false);
        await deleteProcessDefinition(ctx, definition, { ...options, cascade: options.cascade ?? false, env: this.env });
        ctx.afterCommit(() => this.models.evict(definition.id));
      }
    });
  }

  /** A definition from the deployment cache (Camunda's message for an unknown id), checked for READ. */
  private async loadReadable(ctx: CommandContext, id: string): Promise<ProcessDefinition> {
    const definition = await this.load(ctx, id, noDeployedDefinition);
    ctx.tenantCheck.require(definition.tenantId, `get the process definition '${id}'`);
    await ctx.authz.check(readDefinition(definition.key));
    return definition;
  }

  private async load(ctx: CommandContext, id: string, missing: (id: string) => Error = definitionNotFound): Promise<ProcessDefinition> {
    const definition = await ctx.processDefinitions.findById(id);
    if (!definition) throw missing(id);
    return definition;
  }
}

/** Camunda's configureProcessDefinitionQuery: READ on the key, and with startablePermissionCheck also CREATE_INSTANCE. */
async function readable(ctx: CommandContext, query: ProcessDefinitionQuery = {}): Promise<ReadFilter> {
  const read = await ctx.authz.readFilter('READ', Resources.PROCESS_DEFINITION);
  if (!read || !query.startablePermissionCheck) return read;
  const startable = (await ctx.authz.readFilter('CREATE_INSTANCE', Resources.PROCESS_DEFINITION))!;
  return (keyColumn) => sql<SqlBool>`(${read(keyColumn)} and ${startable(keyColumn)})`;
}
const readDefinition = (key: string) => ({ permission: 'READ', resource: Resources.PROCESS_DEFINITION, resourceId: key });
const deleteDefinition = (key: string) => ({ permission: 'DELETE', resource: Resources.PROCESS_DEFINITION, resourceId: key });
