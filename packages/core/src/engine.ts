import type { Container } from 'inversify';
import type { Clock } from './clock.js';
import type { ResolvedEngineConfig } from './config.js';
import { EventBus } from './events/event-bus.js';
import { JobExecutor } from './jobs/job-executor.js';
import { CallScope } from './command/call-scope.js';
import type { Authentication } from './authorization/authorization.js';
import { AuthorizationService } from './services/authorization/authorization-service.js';
import { RuntimeService } from './services/runtime/runtime-service.js';
import { TaskService } from './services/task/task-service.js';
import { FilterService } from './services/filter/filter-service.js';
import { MessageService } from './services/message/message-service.js';
import { ManagementService } from './services/management/management-service.js';
import { ExecutionService } from './services/runtime/execution-service.js';
import { VariableInstanceService } from './services/variable-instance/variable-instance-service.js';
import { HistoryService } from './services/history/history-service.js';
import { ExternalTaskService } from './services/external-task/external-task-service.js';
import { JobDefinitionService } from './services/job-definition/job-definition-service.js';
import { TelemetryService } from './services/telemetry/telemetry-service.js';
import { MetricsService } from './services/metrics/metrics-service.js';
import { RuntimeEnvironment } from './runtime/runtime-environment.js';
import type { DelegateRegistry } from './runtime/delegates/delegate-registry.js';
import { IdentityService } from './services/identity/identity-service.js';
import type { Store } from './persistence/store.js';
import { DeploymentService } from './services/deployment/deployment-service.js';
import { ProcessDefinitionService } from './services/process-definition/process-definition-service.js';
import { StartFormService } from './services/process-definition/start-form-service.js';
import { StatisticsService } from './services/process-definition/statistics-service.js';
import { MigrationService } from './services/migration/migration-service.js';
import { BatchService } from './services/batch/batch-service.js';
import { RetriesAndSuspensionBatches } from './services/batch/async-operations.js';
import { InstanceBatchService } from './services/batch/instance-batches.js';
import { ModificationBatches } from './services/batch/modification-batches.js';
import { RestartBatches } from './services/batch/restart-batches.js';
import { HistoricBatchService } from './services/batch/historic-batches.js';
import { HistoryCleanupService } from './services/history/history-cleanup.js';
import { CLOCK, ENGINE_CONFIG, STORE } from './tokens.js';

/** A running engine: its services over one store. Close it to release the store and every timer. */
export class ProcessEngine {
  readonly deployment: DeploymentService;
  readonly processDefinition: ProcessDefinitionService;
  /** Start forms: form data, form variables, rendered and deployed forms, submit. */
  readonly startForm: StartFormService;
  /** Statistics of running instances, failed jobs and incidents per definition and per activity. */
  readonly statistics: StatisticsService;
  readonly events: EventBus;
  readonly jobExecutor: JobExecutor;
  readonly identity: IdentityService;
  readonly authorization: AuthorizationService;
  readonly runtime: RuntimeService;
  readonly task: TaskService;
  /** Saved task queries (Camunda's FilterService). */
  readonly filter: FilterService;
  readonly message: MessageService;
  readonly management: ManagementService;
  readonly execution: ExecutionService;
  readonly variableInstance: VariableInstanceService;
  /** History: historic process and activity instances (what the history level wrote). */
  readonly history: HistoryService;
  readonly externalTask: ExternalTaskService;
  readonly jobDefinition: JobDefinitionService;
  readonly telemetry: TelemetryService;
  /**
   * Engine metrics: the meter log (interval sums, sums, unique task workers) and what this engine
   * did since it started (committed commands, telemetry metrics).
   */
  readonly metrics: MetricsService;
  /** Process instance migration: generate, validate and execute migration plans. */
  readonly migration: MigrationService;
  /** Batches: asynchronous operations run by seed, execution and monitor jobs. */
  readonly batch: BatchService;
  /** Batches setting external-task or job retries, or suspending/activating process instances. */
  readonly asyncRetries: RetriesAndSuspensionBatches;
  /** Batches deleting process instances, setting their variables or correlating a message to them. */
  readonly instanceBatches: InstanceBatchService;
  /** Process instance modification of many instances of a definition, at once or as a batch. */
  readonly modification: ModificationBatches;
  /** Restart of finished process instances from their history, at once or as a batch. */
  readonly restart: RestartBatches;
  /** Historic batches: query, delete, the cleanable report and removal times. */
  readonly historicBatches: HistoricBatchService;
  /** History cleanup (the cleanup job, its batch window) and removal times of historic process instances. */
  readonly historyCleanup: HistoryCleanupService;
  /** JavaScript implementations of what models name as Java classes or beans (camunda:class, ${bean}). */
  readonly delegates: DelegateRegistry;
  private readonly scope: CallScope;
  readonly config: ResolvedEngineConfig;
  readonly clock: Clock;
  private closed = false;
  private readonly closeHooks: Array<() => Promise<void>> = [];

  constructor(private readonly container: Container) {
    this.deployment = container.get(DeploymentService);
    this.processDefinition = container.get(ProcessDefinitionService);
    this.startForm = container.get(StartFormService);
    this.statistics = container.get(StatisticsService);
    this.events = container.get<EventBus>(EventBus);
    this.jobExecutor = container.get(JobExecutor);
    this.identity = container.get(IdentityService);
    this.authorization = container.get(AuthorizationService);
    this.runtime = container.get(RuntimeService);
    this.task = container.get(TaskService);
    this.filter = container.get(FilterService);
    this.message = container.get(MessageService);
    this.management = container.get(ManagementService);
    this.execution = container.get(ExecutionService);
    this.variableInstance = container.get(VariableInstanceService);
    this.history = container.get(HistoryService);
    this.externalTask = container.get(ExternalTaskService);
    this.jobDefinition = container.get(JobDefinitionService);
    this.telemetry = container.get(TelemetryService);
    this.metrics = container.get(MetricsService);
    this.migration = container.get(MigrationService);
    this.batch = container.get(BatchService);
    this.asyncRetries = container.get(RetriesAndSuspensionBatches);
    this.instanceBatches = container.get(InstanceBatchService);
    this.modification = container.get(ModificationBatches);
    this.restart = container.get(RestartBatches);
    this.historicBatches = container.get(HistoricBatchService);
    this.historyCleanup = container.get(HistoryCleanupService);
    this.delegates = container.get(RuntimeEnvironment).delegates;
    this.scope = container.get(CallScope);
    this.config = container.get<ResolvedEngineConfig>(ENGINE_CONFIG);
    this.clock = container.get<Clock>(CLOCK);
  }

  /**
   * Runs `work` as the given user: every service call inside it (across awaits) is checked against
   * that user's permissions when authorization is enabled. null runs it unauthenticated.
   */
  runAs<T>(authentication: Authentication | null, work: () => T): T {
    return this.scope.runAs(authentication, work);
  }

  /** The authentication of the code running now, if any. */
  currentAuthentication(): Authentication | null {
    return this.scope.authentication();
  }

  /** The engine's name, as GET /engine lists it. */
  get name(): string {
    return this.config.engineName;
  }

  /** Which database the engine runs on ('sqlite' or 'postgres'). */
  get databaseDialect(): string {
    return this.container.get<Store>(STORE).dialect.name;
  }

  /** Registers work to do when the engine closes (before the store is released). */
  onClose(hook: () => Promise<void>): void {
    this.closeHooks.push(hook);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.events.emit('engine.closing', {});
    await this.jobExecutor.stop();
    for (const hook of this.closeHooks.splice(0)) await hook();
    this.events.clear();
    await this.container.get<Store>(STORE).close();
  }
}
