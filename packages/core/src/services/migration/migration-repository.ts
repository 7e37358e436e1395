import { sql, type Selectable, type Transaction } from 'kysely';
import type { DialectSeam } from '../../persistence/dialect.js';
import type {
  ActivityInstanceTable,
  EventSubscriptionTable,
  ExecutionTable,
  ExternalTaskTable,
  IncidentTable,
  JobDefinitionTable,
  JobTable,
  StoreSchema,
  TaskTable,
} from '../../persistence/schema.js';

export type ExecutionRow = Selectable<ExecutionTable>;
export type ActivityInstanceRow = Selectable<ActivityInstanceTable>;
export type TaskRow = Selectable<TaskTable>;
export type JobRow = Selectable<JobTable>;
export type SubscriptionRow = Selectable<EventSubscriptionTable>;
export type ExternalTaskRow = Selectable<ExternalTaskTable>;
export type IncidentRow = Selectable<IncidentTable>;
export type JobDefinitionRow = Selectable<JobDefinitionTable>;

/** Everything of one process instance that migration reads and rewrites. */
export interface InstanceRows {
  executions: ExecutionRow[];
  activityInstances: ActivityInstanceRow[];
  tasks: TaskRow[];
  jobs: JobRow[];
  subscriptions: SubscriptionRow[];
  externalTasks: ExternalTaskRow[];
  incidents: IncidentRow[];
  /** Execution variables (not task variables): id, name and owner. */
  variables: Array<{ id: string; name: string; execution_id: string | null }>;
}

/** Raw row access for process instance migration: loads an instance's rows and re-points them to the target definition. */
export class MigrationRepository {
  constructor(
    private readonly trx: Transaction<StoreSchema>,
    private readonly dialect?: DialectSeam,
  ) {}

  async load(processInstanceId: string): Promise<InstanceRows> {
    const trx = this.trx;
    if (this.dialect?.name === 'postgres') {
      // One round trip: every table's rows as a JSON array (none of these columns is binary).
      const { rows } = await sql<InstanceRows>`select
        (select coalesce(json_agg(t), '[]'::json) from trellis_execution t where t.proc_inst_id = ${processInstanceId}) as executions,
        (select coalesce(json_agg(t), '[]'::json) from trellis_activity_instance t where t.proc_inst_id = ${processInstanceId}) as "activityInstances",
        (select coalesce(json_agg(t), '[]'::json) from trellis_task t where t.proc_inst_id = ${processInstanceId}) as tasks,
        (select coalesce(json_agg(t), '[]'::json) from trellis_job t where t.process_instance_id = ${processInstanceId}) as jobs,
        (select coalesce(json_agg(t), '[]'::json) from trellis_event_subscription t where t.proc_inst_id = ${processInstanceId}) as subscriptions,
        (select coalesce(json_agg(t), '[]'::json) from trellis_external_task t where t.proc_inst_id = ${processInstanceId}) as "externalTasks",
        (select coalesce(json_agg(t), '[]'::json) from trellis_incident t where t.proc_inst_id = ${processInstanceId}) as incidents,
        (select coalesce(json_agg(json_build_object('id', t.id, 'name', t.name, 'execution_id', t.execution_id)), '[]'::json)
           from trellis_variable t where t.proc_inst_id = ${processInstanceId} and t.task_id is null) as variables`.execute(trx);
      return rows[0];
    }
    const [executions, activityInstances, tasks, jobs, subscriptions, externalTasks, incidents, variables] = await Promise.all([
      trx.selectFrom('trellis_execution').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
      trx.selectFrom('trellis_activity_instance').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
      trx.selectFrom('trellis_task').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
      trx.selectFrom('trellis_job').selectAll().where('process_instance_id', '=', processInstanceId).execute(),
      trx.selectFrom('trellis_event_subscription').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
      trx.selectFrom('trellis_external_task').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
      trx.selectFrom('trellis_incident').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
      trx.selectFrom('trellis_variable').select(['id', 'name', 'execution_id']).where('proc_inst_id', '=', processInstanceId).where('task_id', 'is', null).execute(),
    ]);
    return { executions, activityInstances, tasks, jobs, subscriptions, externalTasks, incidents, variables };
  }

  jobDefinitionsOf(processDefinitionId: string): Promise<JobDefinitionRow[]> {
    return this.trx.selectFrom('trellis_job_definition').selectAll().where('proc_def_id', '=', processDefinitionId).execute();
  }

  jobDefinition(id: string): Promise<JobDefinitionRow | undefined> {
    return this.trx.selectFrom('trellis_job_definition').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async updateExecution(id: string, changes: Partial<Pick<ExecutionRow, 'proc_def_id' | 'proc_def_key' | 'activity_id' | 'scope_activity_id'>>): Promise<void> {
    await this.trx
      .updateTable('trellis_execution')
      .set((eb) => ({ ...changes, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async updateActivityInstance(id: string, changes: Partial<Pick<ActivityInstanceRow, 'activity_id' | 'activity_type' | 'activity_name'>>): Promise<void> {
    await this.trx.updateTable('trellis_activity_instance').set(changes).where('id', '=', id).execute();
  }

  async updateTask(id: string, changes: Partial<Pick<TaskRow, 'proc_def_id' | 'task_def_key'>>): Promise<void> {
    await this.trx
      .updateTable('trellis_task')
      .set((eb) => ({ ...changes, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async updateExternalTask(id: string, changes: Partial<Pick<ExternalTaskRow, 'proc_def_id' | 'proc_def_key' | 'activity_id'>>): Promise<void> {
    await this.trx
      .updateTable('trellis_external_task')
      .set((eb) => ({ ...changes, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async updateJob(
    id: string,
    changes: Partial<
      Pick<JobRow, 'activity_id' | 'handler_configuration' | 'job_definition_id' | 'process_definition_id' | 'process_definition_key' | 'deployment_id' | 'due_date' | 'repeat_text'>
    >,
  ): Promise<void> {
    await this.trx
      .updateTable('trellis_job')
      .set((eb) => ({ ...changes, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** The executions that own these jobs and event subscriptions now. */
  async executionsOf(jobIds: readonly string[], subscriptionIds: readonly string[]): Promise<Map<string, string | null>> {
    const jobs = jobIds.length === 0 ? [] : await this.trx.selectFrom('trellis_job').select(['id', 'execution_id']).where('id', 'in', jobIds).execute();
    const subscriptions =
      subscriptionIds.length === 0 ? [] : await this.trx.selectFrom('trellis_event_subscription').select(['id', 'execution_id']).where('id', 'in', subscriptionIds).execute();
    return new Map([...jobs, ...subscriptions].map((each) => [each.id, each.execution_id]));
  }

  async deleteJob(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_job').where('id', '=', id).execute();
  }

  async updateSubscription(id: string, changes: Partial<Pick<SubscriptionRow, 'proc_def_id' | 'activity_id' | 'event_name' | 'configuration'>>): Promise<void> {
    await this.trx
      .updateTable('trellis_event_subscription')
      .set((eb) => ({ ...changes, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async deleteSubscription(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_event_subscription').where('id', '=', id).execute();
  }

  /** Re-points everything an execution owns (tasks, variables, jobs, subscriptions, external tasks, incidents, activity instances) to another execution. */
  async moveOwnedRows(fromExecutionId: string, toExecutionId: string): Promise<void> {
    const trx = this.trx;
    await trx.updateTable('trellis_task').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_variable').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).where('task_id', 'is', null).execute();
    await trx.updateTable('trellis_job').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_event_subscription').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_external_task').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_incident').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_activity_instance').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
  }

  /** Moves what a non-scope activity's execution owns for its activity (not its variables) to the activity's new scope execution. */
  async moveActivityRows(fromExecutionId: string, toExecutionId: string, activityInstanceId: string): Promise<void> {
    const trx = this.trx;
    await trx.updateTable('trellis_task').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_job').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_event_subscription').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_external_task').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_incident').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId).execute();
    await trx.updateTable('trellis_activity_instance').set({ execution_id: toExecutionId }).where('id', '=', activityInstanceId).execute();
  }

  async moveIncidents(fromExecutionId: string, toExecutionId: string): Promise<void> {
    await this.trx
      .updateTable('trellis_incident')
      .set((eb) => ({ execution_id: toExecutionId, rev: eb('rev', '+', 1) }))
      .where('execution_id', '=', fromExecutionId)
      .execute();
  }

  async setActivityInstanceParent(id: string, parentId: string): Promise<void> {
    await this.trx.updateTable('trellis_activity_instance').set({ parent_id: parentId }).where('id', '=', id).execute();
  }

  async insertExecution(row: ExecutionRow): Promise<void> {
    await this.trx.insertInto('trellis_execution').values(row).execute();
  }

  async setExecutionState(id: string, changes: Partial<Pick<ExecutionRow, 'is_active' | 'activity_id' | 'activity_instance_id'>>): Promise<void> {
    await this.trx
      .updateTable('trellis_execution')
      .set((eb) => ({ ...changes, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  async deleteExecution(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_execution').where('id', '=', id).execute();
  }

  async deleteVariable(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_variable').where('id', '=', id).execute();
  }

  async updateIncident(id: string, changes: Partial<Pick<IncidentRow, 'proc_def_id' | 'activity_id' | 'job_def_id'>>): Promise<void> {
    await this.trx
      .updateTable('trellis_incident')
      .set((eb) => ({ ...changes, rev: eb('rev', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }
}
