import type { ColumnType, Generated } from 'kysely';

/**
 * The table shapes Kysely types its queries with. Column names are snake_case; only repositories
 * translate rows to domain objects. Timestamps are epoch milliseconds (bigint), booleans are 0/1
 * integers and binary data is a Buffer, so both dialects store and return the same values.
 */
export interface StoreSchema {
  trellis_property: PropertyTable;
  trellis_schema_migration: SchemaMigrationTable;
  trellis_deployment: DeploymentTable;
  trellis_resource: ResourceTable;
  trellis_process_definition: ProcessDefinitionTable;
  trellis_camunda_form_definition: CamundaFormDefinitionTable;
  trellis_definition_starter: DefinitionStarterTable;
  trellis_job: JobTable;
  trellis_user: UserTable;
  trellis_group: GroupTable;
  trellis_membership: MembershipTable;
  trellis_authorization: AuthorizationTable;
  trellis_execution: ExecutionTable;
  trellis_activity_instance: ActivityInstanceTable;
  trellis_variable: VariableTable;
  trellis_task: TaskTable;
  trellis_task_candidate: TaskCandidateTable;
  trellis_job_definition: JobDefinitionTable;
  trellis_event_subscription: EventSubscriptionTable;
  trellis_incident: IncidentTable;
  trellis_external_task: ExternalTaskTable;
  trellis_comment: CommentTable;
  trellis_attachment: AttachmentTable;
  trellis_filter: FilterTable;
  trellis_tenant: TenantTable;
  trellis_tenant_member: TenantMemberTable;
  trellis_batch: BatchTable;
  trellis_hi_batch: HistoricBatchTable;
  trellis_meter_log: MeterLogTable;
  trellis_task_meter_log: TaskMeterLogTable;
  trellis_hi_procinst: HistoricProcessInstanceTable;
  trellis_hi_actinst: HistoricActivityInstanceTable;
  trellis_hi_varinst: HistoricVariableInstanceTable;
  trellis_hi_detail: HistoricDetailTable;
  trellis_hi_taskinst: HistoricTaskInstanceTable;
  trellis_hi_identitylink: HistoricIdentityLinkTable;
  trellis_hi_incident: HistoricIncidentTable;
  trellis_hi_job_log: HistoricJobLogTable;
  trellis_hi_ext_task_log: HistoricExternalTaskLogTable;
  trellis_hi_op_log: UserOperationLogTable;
}

export interface PropertyTable {
  name: string;
  value: string | null;
  rev: number;
}

export interface SchemaMigrationTable {
  version: number;
  name: string;
  applied_at: number;
}

export interface DeploymentTable {
  id: string;
  name: string | null;
  source: string | null;
  deploy_time: number;
  tenant_id: string | null;
}

export interface CamundaFormDefinitionTable {
  id: string;
  rev: number;
  /** The form's `id` in its JSON. */
  key: string;
  version: number;
  deployment_id: string;
  resource_name: string;
  tenant_id: string | null;
}

export interface ResourceTable {
  id: string;
  deployment_id: string;
  name: string;
  bytes: Buffer;
  /** Insertion order within the deployment. */
  position: number;
}

export interface ProcessDefinitionTable {
  id: string;
  rev: number;
  key: string;
  name: string | null;
  description: string | null;
  category: string | null;
  version: number;
  version_tag: string | null;
  resource_name: string;
  diagram_resource_name: string | null;
  deployment_id: string;
  deploy_time: number;
  tenant_id: string | null;
  suspended: number;
  history_time_to_live: number | null;
  startable_in_tasklist: number;
  has_start_form_key: number;
}

/** A candidate starter (camunda:candidateStarterUsers / -Groups) of a process definition. */
export interface DefinitionStarterTable {
  process_definition_id: string;
  user_id: string | null;
  group_id: string | null;
}

/** A unit of asynchronous work (Camunda's ACT_RU_JOB): timers, async continuations, batch jobs. */
export interface JobTable {
  id: string;
  rev: number;
  /** 'timer' or 'message'. */
  type: string;
  handler_type: string;
  handler_configuration: string | null;
  due_date: number | null;
  lock_owner: string | null;
  lock_expiration_time: number | null;
  retries: number;
  exception_message: string | null;
  suspended: number;
  priority: number;
  process_definition_id: string | null;
  process_definition_key: string | null;
  deployment_id: string | null;
  tenant_id: string | null;
  create_time: number;
  execution_id: string | null;
  process_instance_id: string | null;
  activity_id: string | null;
  job_definition_id: string | null;
  /** A timer cycle's remaining schedule, for the follow-up timer. */
  repeat_text: string | null;
  repeat_offset: number;
  exception_stack: string | null;
  failed_activity_id: string | null;
  exclusive: number;
}

export interface UserTable {
  id: string;
  rev: number;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  /** `scrypt$<N>$<salt>$<hash>`; never the password itself. */
  password_hash: string | null;
  /** Failed password checks since the last one that passed (Camunda's ATTEMPTS_). */
  attempts: Generated<number>;
  /** Epoch ms until which the user is locked out (Camunda's LOCK_EXP_TIME_). */
  lock_exp_time: number | null;
}

export interface GroupTable {
  id: string;
  rev: number;
  name: string | null;
  type: string | null;
}

export interface MembershipTable {
  user_id: string;
  group_id: string;
}

export interface AuthorizationTable {
  id: string;
  rev: number;
  type: number;
  user_id: string | null;
  group_id: string | null;
  resource_type: number;
  resource_id: string | null;
  perms: number;
  removal_time: number | null;
  root_proc_inst_id: string | null;
}

/** A path of control in a process instance; the instance itself is its root execution (id = instance id). */
export interface ExecutionTable {
  id: string;
  rev: number;
  proc_inst_id: string;
  parent_id: string | null;
  proc_def_id: string;
  proc_def_key: string;
  business_key: string | null;
  activity_id: string | null;
  activity_instance_id: string | null;
  is_active: number;
  is_concurrent: number;
  is_scope: number;
  /** A path running a compensation handler (or compensating a completed sub-process). */
  is_compensating: number;
  suspended: number;
  tenant_id: string | null;
  start_time: number;
  /** For scope executions: the activity whose scope this is (null for the process instance) and its activity instance. */
  scope_activity_id: string | null;
  scope_instance_id: string | null;
  /** For a called process instance: the call activity's execution and its instance. */
  super_execution_id: string | null;
  super_proc_inst_id: string | null;
}

/** One running activity instance (id `activityId:uuid`); the tree is the one REST shows. */
export interface ActivityInstanceTable {
  id: string;
  proc_inst_id: string;
  parent_id: string | null;
  activity_id: string;
  activity_type: string;
  activity_name: string | null;
  execution_id: string;
  start_time: number;
}

export interface VariableTable {
  id: string;
  rev: number;
  name: string;
  type: string;
  execution_id: string | null;
  proc_inst_id: string | null;
  task_id: string | null;
  /** A batch's variable (Camunda's BATCH_ID_): set on insert only, and then no execution, instance or task. */
  batch_id: ColumnType<string | null, string | null | undefined, never>;
  text: string | null;
  text2: string | null;
  long_value: number | null;
  double_value: number | null;
  bytes: Buffer | null;
}

export interface TaskTable {
  id: string;
  rev: number;
  name: string | null;
  description: string | null;
  task_def_key: string | null;
  assignee: string | null;
  owner: string | null;
  priority: number;
  due_date: number | null;
  follow_up_date: number | null;
  create_time: number;
  proc_inst_id: string | null;
  execution_id: string | null;
  proc_def_id: string | null;
  activity_instance_id: string | null;
  form_key: string | null;
  suspended: number;
  tenant_id: string | null;
  delegation_state: string | null;
  /** The task this one is a sub-task of (Camunda's PARENT_TASK_ID_). */
  parent_task_id: string | null;
  /** When an update event last fired (Camunda's LAST_UPDATED_); null before the first. */
  last_updated: number | null;
}

/** A task's identity link (Camunda's ACT_RU_IDENTITYLINK of a task): a candidate, or one of a custom type or none. */
export interface TaskCandidateTable {
  task_id: string;
  user_id: string | null;
  group_id: string | null;
  type: string | null;
}

export interface JobDefinitionTable {
  id: string;
  rev: number;
  proc_def_id: string;
  proc_def_key: string;
  activity_id: string;
  job_type: string;
  job_configuration: string | null;
  job_priority: number | null;
  suspended: number;
  tenant_id: string | null;
  deployment_id: string | null;
}

export interface EventSubscriptionTable {
  id: string;
  rev: number;
  /** 'message', 'signal', 'conditional' or 'compensate'. */
  event_type: string;
  event_name: string | null;
  execution_id: string | null;
  proc_inst_id: string | null;
  activity_id: string | null;
  proc_def_id: string | null;
  configuration: string | null;
  created: number;
  tenant_id: string | null;
}

export interface IncidentTable {
  id: string;
  rev: number;
  incident_timestamp: number;
  incident_type: string;
  incident_message: string | null;
  execution_id: string | null;
  activity_id: string | null;
  failed_activity_id: string | null;
  proc_inst_id: string | null;
  proc_def_id: string | null;
  cause_incident_id: string | null;
  root_cause_incident_id: string | null;
  configuration: string | null;
  tenant_id: string | null;
  job_def_id: string | null;
  annotation: string | null;
}

export interface ExternalTaskTable {
  id: string;
  rev: number;
  topic_name: string;
  worker_id: string | null;
  lock_expiration_time: number | null;
  retries: number | null;
  error_message: string | null;
  error_details: string | null;
  suspended: number;
  execution_id: string;
  proc_inst_id: string;
  proc_def_id: string;
  proc_def_key: string;
  proc_def_version_tag: string | null;
  activity_id: string;
  activity_instance_id: string | null;
  tenant_id: string | null;
  priority: number;
  business_key: string | null;
  create_time: number;
}

/** Camunda's ACT_HI_ATTACHMENT, the content inline. */
export interface TenantTable {
  id: string;
  rev: number;
  name: string | null;
}

/** A user or (exclusive) a group belonging to a tenant. */
export interface TenantMemberTable {
  tenant_id: string;
  user_id: string | null;
  group_id: string | null;
}

export interface FilterTable {
  id: string;
  rev: number;
  resource_type: string;
  name: string;
  owner: string | null;
  /** JSON: the saved query, in the form the REST API reads and answers it. */
  query: string;
  /** JSON: free properties (Tasklist's color, description, priority…); null for none. */
  properties: string | null;
}

export interface AttachmentTable {
  id: string;
  name: string | null;
  description: string | null;
  type: string | null;
  task_id: string | null;
  proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  url: string | null;
  content: Buffer | null;
  create_time: number;
  removal_time: number | null;
}

export interface CommentTable {
  id: string;
  time: number;
  user_id: string | null;
  task_id: string | null;
  proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  /** The message cut to 163 characters with '...', as Camunda shows it in lists; full_message holds all of it. */
  message: string | null;
  full_message: string | null;
  tenant_id: string | null;
  removal_time: number | null;
}

export interface BatchTable {
  id: string;
  rev: number;
  type: string;
  total_jobs: number;
  jobs_created: number;
  batch_jobs_per_seed: number;
  invocations_per_batch_job: number;
  seed_job_def_id: string | null;
  monitor_job_def_id: string | null;
  batch_job_def_id: string | null;
  /** JSON: the items (ids) and the type's settings. */
  configuration: string | null;
  tenant_id: string | null;
  create_user_id: string | null;
  suspended: number;
  start_time: number;
  execution_start_time: number | null;
}

/** One reporter's count of one metric for one reporting period (Camunda's ACT_RU_METER_LOG). */
export interface MeterLogTable {
  id: string;
  name: string;
  reporter: string | null;
  value: number;
  timestamp: number;
}

/** One assignment of a user task (Camunda's ACT_RU_TASK_METER_LOG); the assignee only as a hash. */
export interface TaskMeterLogTable {
  id: string;
  assignee_hash: number;
  timestamp: number;
}

/** A process instance as history keeps it (Camunda's ACT_HI_PROCINST); state ACTIVE, SUSPENDED, COMPLETED, EXTERNALLY_ or INTERNALLY_TERMINATED. */
export interface HistoricProcessInstanceTable {
  id: string;
  business_key: string | null;
  proc_def_id: string;
  proc_def_key: string;
  proc_def_name: string | null;
  proc_def_version: number | null;
  start_time: number;
  end_time: number | null;
  removal_time: number | null;
  duration: number | null;
  start_user_id: string | null;
  start_act_id: string | null;
  end_act_id: string | null;
  super_proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  delete_reason: string | null;
  tenant_id: string | null;
  state: string;
  restarted_proc_inst_id: string | null;
}

/** An activity instance as history keeps it (Camunda's ACT_HI_ACTINST). */
export interface HistoricActivityInstanceTable {
  id: string;
  parent_act_inst_id: string | null;
  proc_def_id: string;
  proc_def_key: string;
  proc_inst_id: string;
  root_proc_inst_id: string | null;
  execution_id: string;
  activity_id: string;
  activity_name: string | null;
  activity_type: string;
  task_id: string | null;
  assignee: string | null;
  called_proc_inst_id: string | null;
  start_time: number;
  end_time: number | null;
  duration: number | null;
  canceled: number;
  complete_scope: number;
  sequence_counter: number;
  tenant_id: string | null;
  removal_time: number | null;
}

/** A batch as history keeps it (Camunda's ACT_HI_BATCH); end_time is set when the runtime batch ends. */
export interface HistoricBatchTable {
  id: string;
  type: string;
  total_jobs: number;
  batch_jobs_per_seed: number;
  invocations_per_batch_job: number;
  seed_job_def_id: string | null;
  monitor_job_def_id: string | null;
  batch_job_def_id: string | null;
  tenant_id: string | null;
  create_user_id: string | null;
  start_time: number;
  end_time: number | null;
  removal_time: number | null;
  execution_start_time: number | null;
}

export interface HistoricIncidentTable {
  id: string;
  proc_def_key: string | null;
  proc_def_id: string | null;
  proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  execution_id: string | null;
  create_time: number;
  end_time: number | null;
  removal_time: number | null;
  incident_type: string;
  incident_message: string | null;
  activity_id: string | null;
  failed_activity_id: string | null;
  cause_incident_id: string | null;
  root_cause_incident_id: string | null;
  configuration: string | null;
  history_configuration: string | null;
  /** 0 open, 1 resolved, 2 deleted (Camunda's IncidentState). */
  state: number;
  tenant_id: string | null;
  job_def_id: string | null;
  annotation: string | null;
}

export interface HistoricJobLogTable {
  id: string;
  timestamp: number;
  job_id: string;
  job_due_date: number | null;
  job_retries: number | null;
  job_priority: number;
  job_exception_msg: string | null;
  job_exception_stack: string | null;
  /** 0 created, 1 failed, 2 successful, 3 deleted (Camunda's JobState). */
  state: number;
  job_def_id: string | null;
  job_def_type: string | null;
  job_def_configuration: string | null;
  activity_id: string | null;
  failed_activity_id: string | null;
  execution_id: string | null;
  root_proc_inst_id: string | null;
  process_instance_id: string | null;
  process_def_id: string | null;
  process_def_key: string | null;
  deployment_id: string | null;
  sequence_counter: number;
  tenant_id: string | null;
  hostname: string | null;
  batch_id: string | null;
  removal_time: number | null;
}

export interface HistoricExternalTaskLogTable {
  id: string;
  timestamp: number;
  ext_task_id: string;
  retries: number | null;
  topic_name: string | null;
  worker_id: string | null;
  priority: number;
  error_msg: string | null;
  error_details: string | null;
  activity_id: string | null;
  activity_inst_id: string | null;
  execution_id: string | null;
  proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  proc_def_id: string | null;
  proc_def_key: string | null;
  tenant_id: string | null;
  /** 0 created, 1 failed, 2 successful, 3 deleted (Camunda's ExternalTaskState). */
  state: number;
  removal_time: number | null;
}

/** A user task as history keeps it (Camunda's ACT_HI_TASKINST); task_state Created, Updated, Completed or Deleted. */
export interface HistoricTaskInstanceTable {
  id: string;
  task_def_key: string | null;
  proc_def_key: string | null;
  proc_def_id: string | null;
  root_proc_inst_id: string | null;
  proc_inst_id: string | null;
  execution_id: string | null;
  act_inst_id: string | null;
  name: string | null;
  parent_task_id: string | null;
  description: string | null;
  owner: string | null;
  assignee: string | null;
  start_time: number;
  end_time: number | null;
  duration: number | null;
  delete_reason: string | null;
  priority: number | null;
  due_date: number | null;
  follow_up_date: number | null;
  tenant_id: string | null;
  removal_time: number | null;
  task_state: string | null;
}

/** One add or delete of a task's identity link (Camunda's ACT_HI_IDENTITYLINK); type candidate, assignee or owner. */
export interface HistoricIdentityLinkTable {
  id: string;
  timestamp: number;
  type: string | null;
  user_id: string | null;
  group_id: string | null;
  task_id: string | null;
  proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  proc_def_id: string | null;
  proc_def_key: string | null;
  operation_type: string | null;
  assigner_id: string | null;
  tenant_id: string | null;
  removal_time: number | null;
}

/** Value columns as trellis_variable has them (the runtime's typed-value storage). */
interface StoredValueColumns {
  text: string | null;
  text2: string | null;
  long_value: number | null;
  double_value: number | null;
  bytes: Buffer | null;
}

export interface HistoricVariableInstanceTable extends StoredValueColumns {
  id: string;
  rev: number;
  name: string;
  type: string;
  proc_def_id: string | null;
  proc_def_key: string | null;
  proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  execution_id: string | null;
  act_inst_id: string | null;
  task_id: string | null;
  tenant_id: string | null;
  /** CREATED or DELETED. */
  state: string;
  create_time: number;
  removal_time: number | null;
}

export interface HistoricDetailTable extends StoredValueColumns {
  id: string;
  /** VariableUpdate (form fields are not written by Trellis). */
  type: string;
  var_inst_id: string | null;
  name: string;
  var_type: string | null;
  rev: number;
  time: number;
  sequence_counter: number;
  initial: number;
  proc_def_id: string | null;
  proc_def_key: string | null;
  proc_inst_id: string | null;
  root_proc_inst_id: string | null;
  execution_id: string | null;
  act_inst_id: string | null;
  task_id: string | null;
  tenant_id: string | null;
  operation_id: string | null;
  removal_time: number | null;
}

export interface UserOperationLogTable {
  id: string;
  deployment_id: string | null;
  proc_def_id: string | null;
  proc_def_key: string | null;
  root_proc_inst_id: string | null;
  proc_inst_id: string | null;
  execution_id: string | null;
  case_def_id: string | null;
  case_inst_id: string | null;
  case_execution_id: string | null;
  task_id: string | null;
  job_id: string | null;
  job_def_id: string | null;
  batch_id: string | null;
  external_task_id: string | null;
  user_id: string | null;
  timestamp: number;
  operation_type: string;
  operation_id: string;
  entity_type: string;
  property: string | null;
  org_value: string | null;
  new_value: string | null;
  tenant_id: string | null;
  removal_time: number | null;
  category: string | null;
  annotation: string | null;
  /** The order entries of equal timestamp were written in. */
  sequence_counter: number;
}
