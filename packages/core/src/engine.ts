import type { Container } from 'inversify';
import type { Clock } from './clock.js';
import type { ResolvedEngineConfig } from './config.js';
import { EventBus } from './events/event-bus.js';
import { JobExecutor } from './jobs/job-executor.js';
import type { Store } from './persistence/store.js';
import { DeploymentService } from './services/deployment/deployment-service.js';
import { ProcessDefinitionService } from './services/process-definition/process-definition-service.js';
import { CLOCK, ENGINE_CONFIG, STORE } from './tokens.js';

/** A running engine: its services over one store. Close it to release the store and every timer. */
export class ProcessEngine {
  readonly deployment: DeploymentService;
  readonly processDefinition: ProcessDefinitionService;
  readonly events: EventBus;
  readonly jobExecutor: JobExecutor;
  readonly config: ResolvedEngineConfig;
  readonly clock: Clock;
  private closed = false;

  constructor(private readonly container: Container) {
    this.deployment = container.get(DeploymentService);
    this.processDefinition = container.get(ProcessDefinitionService);
    this.events = container.get<EventBus>(EventBus);
    this.jobExecutor = container.get(JobExecutor);
    this.config = container.get<ResolvedEngineConfig>(ENGINE_CONFIG);
    this.clock = container.get<Clock>(CLOCK);
  }

  /** The engine's name, as GET /engine lists it. */
  get name(): string {
    return this.config.engineName;
  }

  /** Which database the engine runs on ('sqlite' or 'postgres'). */
  get databaseDialect(): string {
    return this.container.get<Store>(STORE).dialect.name;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await this.jobExecutor.stop();
    this.events.clear();
    await this.container.get<Store>(STORE).close();
  }
}
