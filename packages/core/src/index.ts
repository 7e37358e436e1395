export { createEngine } from './create-engine.js';
export { ProcessEngine } from './engine.js';
export type { EngineConfig, ResolvedEngineConfig } from './config.js';
export type { StoreConfig } from './persistence/store.js';
export { FixedClock, systemClock, type Clock } from './clock.js';
export { consoleLogger, isLogLevel, type Logger, type LogLevel } from './logger.js';
export type { IdGenerator } from './id-generator.js';
export type { EngineEvents } from './events/event-bus.js';
export * from './errors/index.js';
export type { Page, Sorting, SortOrder } from './persistence/repositories/query-support.js';
export type * from './services/deployment/deployment.js';
export type { DeploymentRequest, DeploymentWithDefinitions, NewResource } from './services/deployment/deploy-cmd.js';
export type { RedeployRequest } from './services/deployment/redeploy-cmd.js';
export type { DeleteDeploymentOptions } from './services/deployment/delete-deployment-cmd.js';
export type { DeploymentService } from './services/deployment/deployment-service.js';
export type * from './services/process-definition/process-definition.js';
export type { ProcessDefinitionService, DeleteProcessDefinitionOptions } from './services/process-definition/process-definition-service.js';
export type { CalledProcessDefinition } from './services/process-definition/static-called-definitions.js';
export type { SuspensionTarget, SuspensionChange } from './services/process-definition/update-suspension-state-cmd.js';
export type { StartFormService, DeployedForm } from './services/process-definition/start-form-service.js';
export { FormFieldValidationException, type StartFormData, type FormFieldDefinition, type CamundaFormRef } from './services/process-definition/start-form.js';
export type { StatisticsService, StatisticsOptions, ActivityStatistics, ProcessDefinitionStatistics, IncidentCount } from './services/process-definition/statistics-service.js';
export type { ProcessModel } from './bpmn/index.js';
export type { ResolvedAuthorizationConfig } from './config.js';
export type { Authentication, Authorization, AuthorizationInput, AuthorizationQuery, AuthorizationSortField } from './authorization/authorization.js';
export { AuthorizationType } from './authorization/authorization.js';
export { Resources, resourceByCode, ALL_RESOURCE_TYPES, ANY, CAMUNDA_ADMIN, type ResourceType } from './authorization/resources.js';
export { ALL_BITS, permissionsOf, permissionByName, type Permission } from './authorization/permissions.js';
export { namesFromBits, permissionsFromNames } from './authorization/permission-converter.js';
export type { AuthorizationService, AuthorizationCheckRequest } from './services/authorization/authorization-service.js';
export type { IdentityService } from './services/identity/identity-service.js';
export type { User, Group, UserQuery, GroupQuery } from './services/identity/identity.js';
export type { RuntimeService, InstanceSuspensionTarget } from './services/runtime/runtime-service.js';
export type { TaskService, NewAttachment } from './services/task/task-service.js';
export { TASK_QUERY_EXPRESSIONS, type TaskQueryExpression } from './services/task/query-expressions.js';
export type { FilterService } from './services/filter/filter-service.js';
export type { Filter, FilterFields, FilterQuery, FilterSortField } from './services/filter/filter.js';
export type { ProcessInstance, ProcessInstanceQuery, ActivityInstanceNode, TransitionInstanceNode, InstanceIncident } from './services/runtime/process-instance.js';
export type { StartProcessInstanceRequest, StartedProcessInstance } from './services/runtime/start-process-instance-cmd.js';
export type { StartConditionEvaluation } from './services/runtime/evaluate-start-condition-cmd.js';
export type { Task, TaskQuery, TaskCandidates, DelegationState, TaskIdentityLink, TaskUpdate } from './services/task/task.js';
export * from './runtime/variables/index.js';
export type { MessageService, MessageCorrelation, MessageCorrelationResult } from './services/message/message-service.js';
export { MismatchingMessageCorrelationException } from './services/message/message-service.js';
export type { SignalThrow } from './runtime/events/signals.js';
export { BpmnError } from './runtime/bpmn-error.js';
export type { DelegateRegistry, DelegateExecution, JavaDelegate, ExecutionListener } from './runtime/delegates/delegate-registry.js';
export type { ScriptingConfig } from './config.js';
export type { ManagementService } from './services/management/management-service.js';
export type { SchemaLogEntry, SchemaLogQuery } from './services/management/schema-log.js';
export type { Job } from './jobs/job.js';
export type { JobQuery } from './persistence/repositories/job-repository.js';
export type { JobListQuery, JobSortField, JobSuspensionSelector } from './persistence/repositories/job-repository.js';
export type { Incident, IncidentQuery, IncidentSortField } from './persistence/repositories/incident-repository.js';
export type { EventSubscription, EventSubscriptionQuery } from './persistence/repositories/event-subscription-repository.js';
export type { ExecutionService } from './services/runtime/execution-service.js';
export type { ExecutionInfo, ExecutionQuery, ExecutionSortField } from './services/runtime/execution.js';
export type { ModificationInstruction } from './runtime/modification.js';
export type { EventSubscriptionListQuery, EventSubscriptionSortField } from './persistence/repositories/event-subscription-repository.js';
export type { ExternalTaskService, ExternalTaskFailure } from './services/external-task/external-task-service.js';
export type * from './services/external-task/external-task.js';
export type { VariableInstanceService } from './services/variable-instance/variable-instance-service.js';
export type { HistoryService } from './services/history/history-service.js';
export type * from './services/history/historic-instances.js';
export type * from './services/history/historic-tasks.js';
export type { HistoricTaskState } from './history/task-history.js';
export type * from './services/history/historic-variable-types.js';
export type * from './services/history/historic-incident-types.js';
export type * from './services/history/historic-log-types.js';
export type * from './services/history/historic-report-types.js';
export type * from './services/history/historic-user-operation-types.js';
export { HISTORY_LEVELS, isHistoryEventProduced, type HistoryLevel, type HistoryEventType } from './history/history-level.js';
export type {
  VariableInstance, VariableInstanceQuery, VariableInstanceSortField, VariableValueCondition, VariableComparisonOperator,
} from './services/variable-instance/variable-instance.js';
export type { JobDefinitionService, JobDefinitionSuspensionTarget, JobDefinitionSuspensionChange } from './services/job-definition/job-definition-service.js';
export type * from './services/job-definition/job-definition.js';
export type { MigrationService, GenerateMigrationPlanRequest } from './services/migration/migration-service.js';
export { MigrationPlanValidationException, MigratingProcessInstanceValidationException } from './services/migration/migration-plan.js';
export type * from './services/migration/migration-plan.js';
export type { BatchService, CreateBatchOptions } from './services/batch/batch-service.js';
export type { RetriesAndSuspensionBatches, JobRetriesSelection, InstanceSelection } from './services/batch/async-operations.js';
export type { InstanceBatchService, ProcessInstanceSelection, DeleteProcessInstancesOptions } from './services/batch/instance-batches.js';
export type { ModificationBatches, InstanceModification, BatchModificationInstruction } from './services/batch/modification-batches.js';
export type { RestartBatches, InstanceRestart, RestartInstruction } from './services/batch/restart-batches.js';
export type { ExternalTaskSelection } from './services/external-task/external-task-selection.js';
export { BatchTypes, BATCH_DEFAULTS, BATCH_SEED_JOB, BATCH_MONITOR_JOB } from './services/batch/batch.js';
export type { Batch, BatchStatistics, BatchQuery, BatchStatisticsQuery, BatchSortField } from './services/batch/batch.js';
export type {
  HistoricBatchService,
  HistoricBatch,
  HistoricBatchQuery,
  HistoricBatchSortField,
  CleanableHistoricBatchReportResult,
  CleanableHistoricBatchReportQuery,
  SetRemovalTimeToHistoricBatches,
} from './services/batch/historic-batches.js';
export { HistoryCleanupService, type HistoryCleanupConfiguration, type SetRemovalTimeToHistoricProcessInstances } from './services/history/history-cleanup.js';
export { HISTORY_CLEANUP } from './history/history-cleanup-job.js';
export { PROCESS_SET_REMOVAL_TIME } from './history/process-set-removal-time.js';
export { BATCH_SET_REMOVAL_TIME } from './services/batch/types/batch-set-removal-time.js';
export { HISTORIC_INSTANCE_DELETION } from './services/batch/types/historic-instance-deletion.js';
export { batchIdOfJob } from './services/batch/batch-job.js';
export type { Comment } from './persistence/repositories/comment-repository.js';
export type { Attachment } from './persistence/repositories/attachment-repository.js';
export type { TelemetryService, TelemetryData } from './services/telemetry/telemetry-service.js';
export type { EngineMetrics, TelemetryMetric } from './services/telemetry/engine-metrics.js';
export type { MetricsService, MetricsIntervalQuery, MetricIntervalValue, MetricsRange } from './services/metrics/metrics-service.js';
export { METER_NAMES, type MeterName } from './services/metrics/metric-names.js';
