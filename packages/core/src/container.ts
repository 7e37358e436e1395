import 'reflect-metadata';
import { Container } from 'inversify';
import type { Clock } from './clock.js';
import { CallScope } from './command/call-scope.js';
import { CommandExecutor } from './command/command-executor.js';
import type { ResolvedEngineConfig } from './config.js';
import { EventBus } from './events/event-bus.js';
import type { IdGenerator } from './id-generator.js';
import type { Logger } from './logger.js';
import type { Store } from './persistence/store.js';
import { AuthorizationService } from './services/authorization/authorization-service.js';
import { IdentityService } from './services/identity/identity-service.js';
import { RuntimeService } from './services/runtime/runtime-service.js';
import { TaskService } from './services/task/task-service.js';
import { FilterService } from './services/filter/filter-service.js';
import { MessageService } from './services/message/message-service.js';
import { ManagementService } from './services/management/management-service.js';
import { ExecutionService } from './services/runtime/execution-service.js';
import { EngineMetrics } from './services/telemetry/engine-metrics.js';
import { TelemetryService } from './services/telemetry/telemetry-service.js';
import { MetricsReporter } from './services/metrics/metrics-reporter.js';
import { MetricsService } from './services/metrics/metrics-service.js';
import { VariableInstanceService } from './services/variable-instance/variable-instance-service.js';
import { HistoryService } from './services/history/history-service.js';
import { ExternalTaskService } from './services/external-task/external-task-service.js';
import { ActivateJobDefinitionHandler, JobDefinitionService, SuspendJobDefinitionHandler } from './services/job-definition/job-definition-service.js';
import { DeploymentService } from './services/deployment/deployment-service.js';
import { ProcessDefinitionService } from './services/process-definition/process-definition-service.js';
import { ProcessModelCache } from './services/process-definition/process-model-cache.js';
import { StartFormService } from './services/process-definition/start-form-service.js';
import { StatisticsService } from './services/process-definition/statistics-service.js';
import { JobExecutor } from './jobs/job-executor.js';
import { MigrationService } from './services/migration/migration-service.js';
import { BatchMonitorJobHandler, BatchSeedJobHandler, BatchService, MigrationBatchJobHandler } from './services/batch/batch-service.js';
import { RetriesAndSuspensionBatches } from './services/batch/async-operations.js';
import { SetExternalTaskRetriesJobHandler } from './services/batch/types/set-external-task-retries.js';
import { SetJobRetriesJobHandler } from './services/batch/types/set-job-retries.js';
import { InstanceSuspensionJobHandler } from './services/batch/types/instance-update-suspension-state.js';
import { InstanceBatchService } from './services/batch/instance-batches.js';
import { InstanceDeletionJobHandler } from './services/batch/types/instance-deletion.js';
import { SetVariablesJobHandler } from './services/batch/types/set-variables.js';
import { CorrelateMessageJobHandler } from './services/batch/types/correlate-message.js';
import { ModificationBatches } from './services/batch/modification-batches.js';
import { InstanceModificationJobHandler } from './services/batch/types/instance-modification.js';
import { RestartBatches } from './services/batch/restart-batches.js';
import { InstanceRestartJobHandler } from './services/batch/types/instance-restart.js';
import { HistoricBatchService } from './services/batch/historic-batches.js';
import { BatchSetRemovalTimeJobHandler } from './services/batch/types/batch-set-removal-time.js';
import { HistoryCleanupService } from './services/history/history-cleanup.js';
import { HistoryCleanupJobHandler } from './history/history-cleanup-job.js';
import { ProcessSetRemovalTimeJobHandler } from './history/process-set-removal-time.js';
import { HistoricInstanceDeletionJobHandler } from './services/batch/types/historic-instance-deletion.js';
import { RuntimeEnvironment } from './runtime/runtime-environment.js';
import {
  AsyncContinuationJobHandler,
  SignalEventJobHandler,
  BoundaryTimerJobHandler,
  EventSubProcessTimerJobHandler,
  IntermediateTimerJobHandler,
  TaskListenerTimerJobHandler,
  TimerStartEventJobHandler,
} from './runtime/job-handlers.js';
import { JOB_HANDLER } from './jobs/job-handler.js';
import {
  TimerActivateProcessDefinitionHandler,
  TimerSuspendProcessDefinitionHandler,
} from './services/process-definition/timer-suspension-handlers.js';
import { CLOCK, ENGINE_CONFIG, ID_GENERATOR, LOGGER, STORE } from './tokens.js';

export interface ContainerPorts {
  config: ResolvedEngineConfig;
  store: Store;
  clock: Clock;
  idGenerator: IdGenerator;
  logger: Logger;
}

/** The one place where the engine's parts are bound. Every service is a singleton of its engine. */
export function createContainer(ports: ContainerPorts): Container {
  const container = new Container({ defaultScope: 'Singleton' });
  container.bind(ENGINE_CONFIG).toConstantValue(ports.config);
  container.bind(STORE).toConstantValue(ports.store);
  container.bind(CLOCK).toConstantValue(ports.clock);
  container.bind(ID_GENERATOR).toConstantValue(ports.idGenerator);
  container.bind(LOGGER).toConstantValue(ports.logger);
  container.bind(EventBus).toSelf();
  container.bind(EngineMetrics).toSelf();
  container.bind(TelemetryService).toSelf();
  container.bind(MetricsReporter).toSelf();
  container.bind(MetricsService).toSelf();
  container.bind(CallScope).toSelf();
  container.bind(CommandExecutor).toSelf();
  container.bind(ProcessModelCache).toSelf();
  container.bind(RuntimeEnvironment).toSelf();
  container.bind(DeploymentService).toSelf();
  container.bind(ProcessDefinitionService).toSelf();
  container.bind(StartFormService).toSelf();
  container.bind(StatisticsService).toSelf();
  container.bind(IdentityService).toSelf();
  container.bind(AuthorizationService).toSelf();
  container.bind(RuntimeService).toSelf();
  container.bind(TaskService).toSelf();
  container.bind(FilterService).toSelf();
  container.bind(MessageService).toSelf();
  container.bind(ManagementService).toSelf();
  container.bind(ExecutionService).toSelf();
  container.bind(VariableInstanceService).toSelf();
  container.bind(HistoryService).toSelf();
  container.bind(ExternalTaskService).toSelf();
  container.bind(JobDefinitionService).toSelf();
  container.bind(MigrationService).toSelf();
  container.bind(BatchService).toSelf();
  container.bind(JOB_HANDLER).to(BatchSeedJobHandler);
  container.bind(JOB_HANDLER).to(BatchMonitorJobHandler);
  container.bind(JOB_HANDLER).to(MigrationBatchJobHandler);
  container.bind(RetriesAndSuspensionBatches).toSelf();
  container.bind(JOB_HANDLER).to(SetExternalTaskRetriesJobHandler);
  container.bind(JOB_HANDLER).to(SetJobRetriesJobHandler);
  container.bind(JOB_HANDLER).to(InstanceSuspensionJobHandler);
  container.bind(InstanceBatchService).toSelf();
  container.bind(JOB_HANDLER).to(InstanceDeletionJobHandler);
  container.bind(JOB_HANDLER).to(SetVariablesJobHandler);
  container.bind(JOB_HANDLER).to(CorrelateMessageJobHandler);
  container.bind(ModificationBatches).toSelf();
  container.bind(JOB_HANDLER).to(InstanceModificationJobHandler);
  container.bind(RestartBatches).toSelf();
  container.bind(JOB_HANDLER).to(InstanceRestartJobHandler);
  container.bind(HistoricBatchService).toSelf();
  container.bind(JOB_HANDLER).to(BatchSetRemovalTimeJobHandler);
  container.bind(HistoryCleanupService).toSelf();
  container.bind(JOB_HANDLER).to(HistoryCleanupJobHandler);
  container.bind(JOB_HANDLER).to(ProcessSetRemovalTimeJobHandler);
  container.bind(JOB_HANDLER).to(HistoricInstanceDeletionJobHandler);
  container.bind(JOB_HANDLER).to(SuspendJobDefinitionHandler);
  container.bind(JOB_HANDLER).to(ActivateJobDefinitionHandler);
  container.bind(JOB_HANDLER).to(TimerActivateProcessDefinitionHandler);
  container.bind(JOB_HANDLER).to(TimerSuspendProcessDefinitionHandler);
  container.bind(JOB_HANDLER).to(AsyncContinuationJobHandler);
  container.bind(JOB_HANDLER).to(IntermediateTimerJobHandler);
  container.bind(JOB_HANDLER).to(TaskListenerTimerJobHandler);
  container.bind(JOB_HANDLER).to(BoundaryTimerJobHandler);
  container.bind(JOB_HANDLER).to(TimerStartEventJobHandler);
  container.bind(JOB_HANDLER).to(SignalEventJobHandler);
  container.bind(JOB_HANDLER).to(EventSubProcessTimerJobHandler);
  container.bind(JobExecutor).toSelf();
  return container;
}
