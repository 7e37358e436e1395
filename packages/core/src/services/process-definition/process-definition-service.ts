import { inject, injectable } from 'inversify';
import type { ProcessModel } from '../../bpmn/index.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { deleteProcessDefinition } from './delete-process-definitions.js';
import type { ProcessDefinition, ProcessDefinitionQuery } from './process-definition.js';
import {
  definitionNotFound,
  negativeHistoryTimeToLive,
  noDefinitionsForKey,
  nullHistoryTimeToLive,
} from './process-definition-messages.js';
import { ProcessModelCache } from './process-model-cache.js';
import { findStaticCalledDefinitions, type CalledProcessDefinition } from './static-called-definitions.js';
import {
  UpdateProcessDefinitionSuspensionStateCmd,
  type SuspensionChange,
  type SuspensionTarget,
} from './update-suspension-state-cmd.js';

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
  ) {}

  findProcessDefinitions(query: ProcessDefinitionQuery = {}): Promise<ProcessDefinition[]> {
    return this.commands.run('ProcessDefinitionQuery', (ctx) => ctx.processDefinitions.find(query));
  }

  countProcessDefinitions(query: ProcessDefinitionQuery = {}): Promise<number> {
    return this.commands.run('ProcessDefinitionQuery', (ctx) => ctx.processDefinitions.count(query));
  }

  /** NotFoundException when there is no definition with this id. */
  getProcessDefinition(id: string): Promise<ProcessDefinition> {
    return this.commands.run('GetDeployedProcessDefinitionCmd', (ctx) => this.load(ctx, id));
  }

  /** The latest version of a key for one tenant (null: definitions without tenant); null when there is none. */
  findLatestByKey(key: string, tenantId: string | null = null): Promise<ProcessDefinition | null> {
    return this.commands.run('GetDeployedProcessDefinitionCmd', (ctx) => ctx.processDefinitions.findLatestByKey(key, tenantId));
  }

  /** The parsed, immutable model of a definition (cached). */
  getProcessModel(id: string): Promise<ProcessModel> {
    return this.commands.run('GetDeploymentProcessModelCmd', async (ctx) => this.models.get(ctx, await this.load(ctx, id)));
  }

  /** The BPMN 2.0 XML the definition was deployed from. */
  getProcessDefinitionXml(id: string): Promise<string> {
    return this.commands.run('GetDeploymentProcessModelCmd', async (ctx) => {
      const definition = await this.load(ctx, id);
      const resource = await ctx.resources.findDataByName(definition.deploymentId, definition.resourceName);
      return resource ? resource.bytes.toString('utf8') : '';
    });
  }

  /** The diagram image deployed beside the definition, or null when there is none. */
  getProcessDiagram(id: string): Promise<{ name: string; bytes: Buffer } | null> {
    return this.commands.run('GetDeploymentProcessDiagramCmd', async (ctx) => {
      const definition = await this.load(ctx, id);
      if (!definition.diagramResourceName) return null;
      return ctx.resources.findDataByName(definition.deploymentId, definition.diagramResourceName);
    });
  }

  getStaticCalledProcessDefinitions(id: string): Promise<CalledProcessDefinition[]> {
    return this.commands.run('GetStaticCalledProcessDefinitionCmd', async (ctx) => {
      const definition = await this.load(ctx, id);
      const model = await this.models.get(ctx, definition);
      return findStaticCalledDefinitions(ctx, definition, model.callActivities);
    });
  }

  /** Suspends or activates now; NotFoundException when nothing matches the target. */
  updateSuspensionState(target: SuspensionTarget, change: SuspensionChange): Promise<ProcessDefinition[]> {
    return this.commands.execute(new UpdateProcessDefinitionSuspensionStateCmd(target, change));
  }

  /** NotValidException for a negative value; NotAllowedException for null while TTL is enforced. */
  updateHistoryTimeToLive(id: string, historyTimeToLive: number | null): Promise<ProcessDefinition> {
    return this.commands.run('UpdateProcessDefinitionHistoryTimeToLiveCmd', async (ctx) => {
      if (historyTimeToLive !== null && historyTimeToLive < 0) throw negativeHistoryTimeToLive();
      if (historyTimeToLive === null && ctx.config.enforceHistoryTimeToLive) throw nullHistoryTimeToLive();
      return ctx.processDefinitions.update(await this.load(ctx, id), { historyTimeToLive });
    });
  }

  deleteProcessDefinition(id: string, options: DeleteProcessDefinitionOptions = {}): Promise<void> {
    return this.commands.run('DeleteProcessDefinitionsByIdsCmd', async (ctx) => {
      const definition = await this.load(ctx, id);
      await deleteProcessDefinition(ctx, definition, { cascade: options.cascade ?? false });
      ctx.afterCommit(() => this.models.evict(definition.id));
    });
  }

  /** Deletes every version of a key (of one tenant, or without tenant when tenantId is null). */
  deleteProcessDefinitionsByKey(key: string, tenantId: string | null, options: DeleteProcessDefinitionOptions = {}): Promise<void> {
    return this.commands.run('DeleteProcessDefinitionsByKeyCmd', async (ctx) => {
      const definitions = await ctx.processDefinitions.findAllByKey(key, tenantId);
      if (definitions.length === 0) throw noDefinitionsForKey(key);
      for (const definition of definitions) {
        await deleteProcessDefinition(ctx, definition, { cascade: options.cascade ?? false });
        ctx.afterCommit(() => this.models.evict(definition.id));
      }
    });
  }

  private async load(ctx: CommandContext, id: string): Promise<ProcessDefinition> {
    const definition = await ctx.processDefinitions.findById(id);
    if (!definition) throw definitionNotFound(id);
    return definition;
  }
}
