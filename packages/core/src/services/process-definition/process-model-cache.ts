import { injectable } from 'inversify';
import { parseBpmnResource, type ProcessModel } from '../../bpmn/index.js';
import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ProcessDefinition } from './process-definition.js';

/** Parsed models of deployed definitions: a definition never changes, so each is parsed once per engine. */
@injectable()
export class ProcessModelCache {
  private readonly models = new Map<string, ProcessModel>();

  async get(ctx: CommandContext, definition: ProcessDefinition): Promise<ProcessModel> {
    const cached = this.models.get(definition.id);
    if (cached) return cached;
    const resource = await ctx.resources.findDataByName(definition.deploymentId, definition.resourceName);
    if (!resource) throw new ProcessEngineException(`Resource '${definition.resourceName}' of process definition '${definition.id}' is missing`);
    const parsed = await parseBpmnResource(resource.name, resource.bytes.toString('utf8'), {
      historyTimeToLive: null,
      enforceHistoryTimeToLive: false,
      deployed: true,
    });
    const model = parsed.processes.find((process) => process.key === definition.key);
    if (!model) throw new ProcessEngineException(`Process '${definition.key}' is missing in resource '${resource.name}'`);
    this.models.set(definition.id, model);
    return model;
  }

  evict(definitionId: string): void {
    this.models.delete(definitionId);
  }
}
