import { inject, injectable } from 'inversify';
import type { ResolvedEngineConfig } from '../config.js';
import type { Logger } from '../logger.js';
import { ProcessModelCache } from '../services/process-definition/process-model-cache.js';
import { ENGINE_CONFIG, LOGGER } from '../tokens.js';
import { DelegateRegistry } from './delegates/delegate-registry.js';

/** What running a process needs beyond its command: parsed models, the host's delegates, config. */
@injectable()
export class RuntimeEnvironment {
  readonly delegates = new DelegateRegistry();

  constructor(
    @inject(ProcessModelCache) readonly models: ProcessModelCache,
    @inject(ENGINE_CONFIG) readonly config: ResolvedEngineConfig,
    @inject(LOGGER) readonly logger: Logger,
  ) {}
}
