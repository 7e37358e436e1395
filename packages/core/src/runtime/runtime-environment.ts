import { inject, injectable } from 'inversify';
import type { ResolvedEngineConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { ProcessModelCache } from '../services/process-definition/process-model-cache.js';
import { ENGINE_CONFIG, LOGGER } from '../tokens.js';
import { DelegateRegistry } from './delegates/delegate-registry.js';
import { EngineMetrics } from '../services/telemetry/engine-metrics.js';
import type { CommandContext } from '../command/command-context.js';
import type { ProcessDefinition } from '../services/process-definition/process-definition.js';

/** What running a process needs beyond its command: parsed models, the host's delegates, config. */
@injectable()
export class RuntimeEnvironment {
  readonly delegates = new DelegateRegistry();
  /**
   * Definitions by id for loading instances. Only their immutable fields are read through here
   * (id, key, tenant, deployment, version tag, name); suspension is always read from the store.
   */
  private readonly definitions = new Map<string, ProcessDefinition>();

  /** The definition of a running instance (cached: what the runtime reads of it never changes). */
  async definition(ctx: CommandContext, id: string): Promise<ProcessDefinition | null> {
    const cached = this.definitions.get(id);
    if (cached) return cached;
    const definition = await ctx.processDefinitions.findById(id);
    if (definition) this.definitions.set(id, definition);
    return definition;
  }

  constructor(
    @inject(ProcessModelCache) readonly models: ProcessModelCache,
    @inject(ENGINE_CONFIG) readonly config: ResolvedEngineConfig,
    @inject(LOGGER) readonly logger: Logger,
    @inject(EngineMetrics) readonly metrics: EngineMetrics,
  ) {}
}
