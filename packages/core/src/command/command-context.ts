import type { Transaction } from 'kysely';
import type { Clock } from '../clock.js';
import type { ResolvedEngineConfig } from '../config.js';
import type { EngineEvents, EventBus } from '../events/event-bus.js';
import type { IdGenerator } from '../id-generator.js';
import type { DialectSeam } from '../persistence/dialect.js';
import { DeploymentRepository } from '../persistence/repositories/deployment-repository.js';
import { JobRepository } from '../persistence/repositories/job-repository.js';
import { ProcessDefinitionRepository } from '../persistence/repositories/process-definition-repository.js';
import { ResourceRepository } from '../persistence/repositories/resource-repository.js';
import type { StoreSchema } from '../persistence/schema.js';

/** What a command may touch: repositories bound to its transaction, the clock, ids, config and after-commit hooks. */
export class CommandContext {
  readonly deployments: DeploymentRepository;
  readonly resources: ResourceRepository;
  readonly processDefinitions: ProcessDefinitionRepository;
  readonly jobs: JobRepository;
  private readonly afterCommitHooks: Array<() => void> = [];

  constructor(
    readonly trx: Transaction<StoreSchema>,
    readonly dialect: DialectSeam,
    readonly clock: Clock,
    readonly ids: IdGenerator,
    readonly config: ResolvedEngineConfig,
    private readonly events: EventBus<EngineEvents>,
  ) {
    this.deployments = new DeploymentRepository(trx);
    this.resources = new ResourceRepository(trx);
    this.processDefinitions = new ProcessDefinitionRepository(trx);
    this.jobs = new JobRepository(trx, dialect);
  }

  /** Runs `hook` once the transaction committed; never when it rolled back. */
  afterCommit(hook: () => void): void {
    this.afterCommitHooks.push(hook);
  }

  /** Publishes an engine event after commit. */
  emitAfterCommit<K extends keyof EngineEvents>(event: K, payload: EngineEvents[K]): void {
    this.afterCommit(() => this.events.emit(event, payload));
  }

  /** Called by the executor once the transaction is committed. */
  runAfterCommitHooks(onError: (error: unknown) => void): void {
    for (const hook of this.afterCommitHooks) {
      try {
        hook();
      } catch (error) {
        onError(error);
      }
    }
  }
}
