import type { Selectable, Transaction } from 'kysely';
import type { ActivityInstance, Execution } from '../../runtime/execution.js';
import type { ActivityInstanceTable, ExecutionTable, StoreSchema } from '../schema.js';
import type { Write } from '../combined-writes.js';
import { deleteEndedInstance } from './instance-cleanup.js';
import type { SnapshotGuard } from './instance-snapshot.js';
import { fromBoolean, toBoolean, toDate } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

/** Executions and activity instances, within one transaction; executions are revision-checked. */
export class ExecutionRepository {
  private readonly revisions = new RevisionTracker('ExecutionEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async findByProcessInstance(processInstanceId: string): Promise<Execution[]> {
    const rows = await this.trx.selectFrom('trellis_execution').selectAll().where('proc_inst_id', '=', processInstanceId).execute();
    return rows.map((row) => this.remember(row));
  }

  async findById(id: string): Promise<Execution | null> {
    const row = await this.trx.selectFrom('trellis_execution').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  /** Called instances of an instance's executions go on as instances of their own (deletion with skipSubprocesses). */
  async detachCalledInstances(superProcessInstanceId: string): Promise<void> {
    await this.trx
      .updateTable('trellis_execution')
      .set((eb) => ({ super_execution_id: null, super_proc_inst_id: null, rev: eb('rev', '+', 1) }))
      .where('super_proc_inst_id', '=', superProcessInstanceId)
      .execute();
  }

  /** An execution and its ancestors up to the process instance, nearest first. */
  async ancestry(processInstanceId: string, executionId: string): Promise<string[]> {
    const rows = await this.trx.selectFrom('trellis_execution').select(['id', 'parent_id']).where('proc_inst_id', '=', processInstanceId).execute();
    const parents = new Map(rows.map((each) => [each.id, each.parent_id]));
    const chain: string[] = [];
    for (let id: string | null | undefined = executionId; id; id = parents.get(id)) chain.push(id);
    return chain;
  }

  /** The process instances a call activity's execution started. */
  async findCalledInstanceIds(superExecutionId: string): Promise<string[]> {
    const rows = await this.trx.selectFrom('trellis_execution').select('id').where('super_execution_id', '=', superExecutionId).execute();
    return rows.map((row) => row.id);
  }

  /** Executions and activity instances read elsewhere (one round trip with the variables), remembered for revision checks. */
  adopt(executions: readonly Selectable<ExecutionTable>[], activityInstances: readonly Selectable<ActivityInstanceTable>[]): { executions: Execution[]; activityInstances: ActivityInstance[] } {
    return { executions: executions.map((row) => this.remember(row)), activityInstances: activityInstances.map(toActivityInstance) };
  }

  async activityInstancesOf(processInstanceId: string): Promise<ActivityInstance[]> {
    const rows = await this.trx.selectFrom('trellis_activity_instance').selectAll().where('proc_inst_id', '=', processInstanceId).execute();
    return rows.map(toActivityInstance);
  }

  /** New executions in one statement. */
  async insertAll(executions: readonly Execution[]): Promise<void> {
    for (const chunk of chunks(executions)) {
      await this.trx.insertInto('trellis_execution').values(chunk.map((execution) => ({ ...toRow(execution), rev: 1 }))).execute();
    }
    for (const execution of executions) this.revisions.remember(execution.id, 1);
  }

  async update(execution: Execution): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_execution', execution.id, toRow(execution));
  }

  async delete(execution: Execution): Promise<void> {
    const result = await this.trx
      .deleteFrom('trellis_execution')
      .where('id', '=', execution.id)
      .where('rev', '=', this.revisions.of(execution.id))
      .executeTakeFirst();
    this.revisions.ensureChanged(execution.id, result.numDeletedRows);
    this.revisions.forget(execution.id);
  }

  /**
   * PostgreSQL: removes an ended instance with everything hanging on it in one statement, which
   * demands that the executions it read are exactly the ones deleted, at the revisions it read.
   */
  async deleteEndedInstance(processInstanceId: string, removed: readonly Execution[], writes: readonly Write[] = [], guard: SnapshotGuard | null = null): Promise<void> {
    const expected = removed.map((execution) => ({ id: execution.id, rev: this.revisions.of(execution.id) }));
    await deleteEndedInstance(this.trx, processInstanceId, expected, writes, guard);
    for (const execution of removed) this.revisions.forget(execution.id);
  }

  /** Removes all executions and activity instances of an instance at once (cascading deletes). */
  async deleteProcessInstance(processInstanceId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_activity_instance').where('proc_inst_id', '=', processInstanceId).execute();
    await this.trx.deleteFrom('trellis_execution').where('proc_inst_id', '=', processInstanceId).where('parent_id', 'is not', null).execute();
    await this.trx.deleteFrom('trellis_execution').where('id', '=', processInstanceId).execute();
  }

  /** Suspends or activates every instance of a definition, with their tasks and jobs. */
  async setSuspendedByDefinition(processDefinitionId: string, suspended: boolean): Promise<void> {
    const value = suspended ? 1 : 0;
    await this.trx.updateTable('trellis_execution').set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) })).where('proc_def_id', '=', processDefinitionId).execute();
    await this.trx.updateTable('trellis_task').set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) })).where('proc_def_id', '=', processDefinitionId).execute();
    await this.trx
      .updateTable('trellis_job')
      .set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) }))
      .where('process_definition_id', '=', processDefinitionId)
      .where('process_instance_id', 'is not', null)
      .execute();
    await this.trx.updateTable('trellis_external_task').set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) })).where('proc_def_id', '=', processDefinitionId).execute();
  }

  /** Suspends or activates one process instance: its executions, tasks and jobs. */
  async setSuspendedByProcessInstance(processInstanceId: string, suspended: boolean): Promise<void> {
    const value = suspended ? 1 : 0;
    await this.trx.updateTable('trellis_execution').set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) })).where('proc_inst_id', '=', processInstanceId).execute();
    await this.trx.updateTable('trellis_task').set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) })).where('proc_inst_id', '=', processInstanceId).execute();
    await this.trx.updateTable('trellis_job').set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) })).where('process_instance_id', '=', processInstanceId).execute();
    await this.trx.updateTable('trellis_external_task').set((eb) => ({ suspended: value, rev: eb('rev', '+', 1) })).where('proc_inst_id', '=', processInstanceId).execute();
  }

  /** New activity instances in one statement. */
  async insertActivityInstances(instances: readonly ActivityInstance[]): Promise<void> {
    for (const chunk of chunks(instances)) {
      const rows = chunk.map((instance) => ({
        id: instance.id,
        proc_inst_id: instance.processInstanceId,
        parent_id: instance.parentId,
        activity_id: instance.activityId,
        activity_type: instance.activityType,
        activity_name: instance.activityName,
        execution_id: instance.executionId,
        start_time: instance.startTime.getTime(),
      }));
      await this.trx.insertInto('trellis_activity_instance').values(rows).execute();
    }
  }

  async updateActivityInstanceExecution(id: string, executionId: string): Promise<void> {
    await this.trx.updateTable('trellis_activity_instance').set({ execution_id: executionId }).where('id', '=', id).execute();
  }

  async deleteActivityInstances(ids: readonly string[]): Promise<void> {
    for (const chunk of chunks(ids)) await this.trx.deleteFrom('trellis_activity_instance').where('id', 'in', chunk).execute();
  }

  private remember(row: Selectable<ExecutionTable>): Execution {
    this.revisions.remember(row.id, row.rev);
    return {
      id: row.id,
      processInstanceId: row.proc_inst_id,
      parentId: row.parent_id,
      processDefinitionId: row.proc_def_id,
      processDefinitionKey: row.proc_def_key,
      businessKey: row.business_key,
      activityId: row.activity_id,
      activityInstanceId: row.activity_instance_id,
      isActive: toBoolean(row.is_active),
      isConcurrent: toBoolean(row.is_concurrent),
      isScope: toBoolean(row.is_scope),
      isCompensating: toBoolean(row.is_compensating),
      suspended: toBoolean(row.suspended),
      tenantId: row.tenant_id,
      startTime: toDate(row.start_time),
      scopeActivityId: row.scope_activity_id,
      scopeInstanceId: row.scope_instance_id,
      superExecutionId: row.super_execution_id,
      superProcessInstanceId: row.super_proc_inst_id,
    };
  }
}

/** Multi-row statements in slices that stay far below SQLite's bound-parameter limit. */
function chunks<T>(items: readonly T[], size = 500): T[][] {
  const result: T[][] = [];
  for (let i = 0; i < items.length; i += size) result.push(items.slice(i, i + size));
  return result;
}

function toRow(execution: Execution): Omit<ExecutionTable, 'rev'> {
  return {
    id: execution.id,
    proc_inst_id: execution.processInstanceId,
    parent_id: execution.parentId,
    proc_def_id: execution.processDefinitionId,
    proc_def_key: execution.processDefinitionKey,
    business_key: execution.businessKey,
    activity_id: execution.activityId,
    activity_instance_id: execution.activityInstanceId,
    is_active: fromBoolean(execution.isActive),
    is_concurrent: fromBoolean(execution.isConcurrent),
    is_scope: fromBoolean(execution.isScope),
    is_compensating: fromBoolean(execution.isCompensating ?? false),
    suspended: fromBoolean(execution.suspended),
    tenant_id: execution.tenantId,
    start_time: execution.startTime.getTime(),
    scope_activity_id: execution.scopeActivityId,
    scope_instance_id: execution.scopeInstanceId,
    super_execution_id: execution.superExecutionId,
    super_proc_inst_id: execution.superProcessInstanceId,
  };
}

function toActivityInstance(row: Selectable<ActivityInstanceTable>): ActivityInstance {
  return {
    id: row.id,
    processInstanceId: row.proc_inst_id,
    parentId: row.parent_id,
    activityId: row.activity_id,
    activityType: row.activity_type,
    activityName: row.activity_name,
    executionId: row.execution_id,
    startTime: toDate(row.start_time),
  };
}
