import type { Selectable, Transaction } from 'kysely';
import type { DelegationState, Task, TaskCandidates, TaskQuery } from '../../services/task/task.js';
import type { StoreSchema, TaskTable } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, fromBoolean, nonEmpty, toBoolean, toDate } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';
import { TaskVariableRepository } from './task-variable-repository.js';

const SORT_COLUMNS = {
  id: 't.id', name: 't.name', assignee: 't.assignee', created: 't.create_time', dueDate: 't.due_date',
  followUpDate: 't.follow_up_date', priority: 't.priority', instanceId: 't.proc_inst_id', executionId: 't.execution_id',
} as const;

/** User tasks and their candidates, within one transaction. */
export class TaskRepository {
  private readonly revisions = new RevisionTracker('TaskEntity');
  /** The tasks' local variables. */
  readonly variables: TaskVariableRepository;

  constructor(private readonly trx: Transaction<StoreSchema>) {
    this.variables = new TaskVariableRepository(trx);
  }

  async insert(task: Task, candidates: TaskCandidates): Promise<void> {
    await this.trx.insertInto('trellis_task').values({ ...toRow(task), rev: 1 }).execute();
    this.revisions.remember(task.id, 1);
    const rows = [
      ...candidates.users.map((user_id) => ({ task_id: task.id, user_id, group_id: null })),
      ...candidates.groups.map((group_id) => ({ task_id: task.id, user_id: null, group_id })),
    ];
    if (rows.length > 0) await this.trx.insertInto('trellis_task_candidate').values(rows).execute();
  }

  async findById(id: string): Promise<Task | null> {
    const row = await this.trx.selectFrom('trellis_task').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  async find(query: TaskQuery, readable: ReadFilter = null): Promise<Task[]> {
    const sorted = applySorting(this.filtered(query, readable).selectAll('t'), query.sorting, SORT_COLUMNS, 't.id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: TaskQuery, readable: ReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async update(task: Task): Promise<void> {
    const rev = this.revisions.of(task.id);
    const result = await this.trx
      .updateTable('trellis_task')
      .set({ ...toRow(task), rev: rev + 1 })
      .where('id', '=', task.id)
      .where('rev', '=', rev)
      .executeTakeFirst();
    this.revisions.ensureChanged(task.id, result.numUpdatedRows);
    this.revisions.remember(task.id, rev + 1);
  }

  /** The task's candidate users and groups, in the order they were added. */
  async findCandidates(taskId: string): Promise<Array<{ userId: string | null; groupId: string | null }>> {
    const rows = await this.trx.selectFrom('trellis_task_candidate').select(['user_id', 'group_id']).where('task_id', '=', taskId).execute();
    return rows.map((row) => ({ userId: row.user_id, groupId: row.group_id }));
  }

  /** Adds a candidate user or group unless the task has it already. */
  async addCandidate(taskId: string, userId: string | null, groupId: string | null): Promise<void> {
    const existing = await this.findCandidates(taskId);
    if (existing.some((each) => each.userId === userId && each.groupId === groupId)) return;
    await this.trx.insertInto('trellis_task_candidate').values({ task_id: taskId, user_id: userId, group_id: groupId }).execute();
  }

  async deleteCandidate(taskId: string, userId: string | null, groupId: string | null): Promise<void> {
    let remove = this.trx.deleteFrom('trellis_task_candidate').where('task_id', '=', taskId);
    remove = userId === null ? remove.where('user_id', 'is', null) : remove.where('user_id', '=', userId);
    remove = groupId === null ? remove.where('group_id', 'is', null) : remove.where('group_id', '=', groupId);
    await remove.execute();
  }

  async delete(task: Task): Promise<void> {
    await this.trx.deleteFrom('trellis_variable').where('task_id', '=', task.id).execute();
    await this.trx.deleteFrom('trellis_task_candidate').where('task_id', '=', task.id).execute();
    const result = await this.trx.deleteFrom('trellis_task').where('id', '=', task.id).where('rev', '=', this.revisions.of(task.id)).executeTakeFirst();
    this.revisions.ensureChanged(task.id, result.numDeletedRows);
  }

  async deleteByProcessInstance(processInstanceId: string): Promise<void> {
    const ids = this.trx.selectFrom('trellis_task').select('id').where('proc_inst_id', '=', processInstanceId);
    await this.trx.deleteFrom('trellis_variable').where('task_id', 'in', ids).execute();
    await this.trx.deleteFrom('trellis_task_candidate').where('task_id', 'in', ids).execute();
    await this.trx.deleteFrom('trellis_task').where('proc_inst_id', '=', processInstanceId).execute();
  }

  /** Hands an execution's tasks to another one (the execution tree expanded). */
  async moveExecution(fromExecutionId: string, toExecutionId: string): Promise<void> {
    const ids = this.trx.selectFrom('trellis_task').select('id').where('execution_id', '=', fromExecutionId);
    await this.trx.updateTable('trellis_variable').set((eb) => ({ execution_id: toExecutionId, rev: eb('rev', '+', 1) })).where('task_id', 'in', ids).execute();
    await this.trx.updateTable('trellis_task').set((eb) => ({ execution_id: toExecutionId, rev: eb('rev', '+', 1) })).where('execution_id', '=', fromExecutionId).execute();
  }

  /** Removes the tasks of executions that end or are cancelled (a scope left, a boundary event fired). */
  async deleteByExecutions(executionIds: readonly string[]): Promise<void> {
    if (executionIds.length === 0) return;
    const ids = this.trx.selectFrom('trellis_task').select('id').where('execution_id', 'in', executionIds);
    await this.trx.deleteFrom('trellis_variable').where('task_id', 'in', ids).execute();
    await this.trx.deleteFrom('trellis_task_candidate').where('task_id', 'in', ids).execute();
    await this.trx.deleteFrom('trellis_task').where('execution_id', 'in', executionIds).execute();
  }

  private filtered(q: TaskQuery, readable: ReadFilter) {
    let select = this.trx.selectFrom('trellis_task as t');
    if (q.taskId !== undefined) select = select.where('t.id', '=', q.taskId);
    if (q.taskIdIn !== undefined) select = select.where('t.id', 'in', nonEmpty(q.taskIdIn));
    if (q.processInstanceId !== undefined) select = select.where('t.proc_inst_id', '=', q.processInstanceId);
    if (q.processInstanceIdIn !== undefined) select = select.where('t.proc_inst_id', 'in', nonEmpty(q.processInstanceIdIn));
    if (q.processDefinitionId !== undefined) select = select.where('t.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) {
      const key = q.processDefinitionKey;
      select = select.where('t.proc_def_id', 'in', (eb) => eb.selectFrom('trellis_process_definition').select('id').where('key', '=', key));
    }
    if (q.executionId !== undefined) select = select.where('t.execution_id', '=', q.executionId);
    if (q.taskDefinitionKey !== undefined) select = select.where('t.task_def_key', '=', q.taskDefinitionKey);
    if (q.name !== undefined) select = select.where('t.name', '=', q.name);
    if (q.nameLike !== undefined) select = select.where('t.name', 'like', q.nameLike);
    if (q.assignee !== undefined) select = select.where('t.assignee', '=', q.assignee);
    if (q.assigneeLike !== undefined) select = select.where('t.assignee', 'like', q.assigneeLike);
    if (q.unassigned) select = select.where('t.assignee', 'is', null);
    if (q.assigned) select = select.where('t.assignee', 'is not', null);
    if (q.active) select = select.where('t.suspended', '=', 0);
    if (q.suspended) select = select.where('t.suspended', '=', 1);
    if (q.withoutTenantId) select = select.where('t.tenant_id', 'is', null);
    if (q.tenantIdIn !== undefined) select = select.where('t.tenant_id', 'in', nonEmpty(q.tenantIdIn));
    for (const [column, value] of [['user_id', q.candidateUser], ['group_id', q.candidateGroup]] as const) {
      if (value === undefined) continue;
      // Camunda: candidate queries find only unassigned tasks.
      select = select.where('t.assignee', 'is', null).where((eb) =>
        eb.exists(eb.selectFrom('trellis_task_candidate as c').select('c.task_id').whereRef('c.task_id', '=', 't.id').where(`c.${column}`, '=', value)),
      );
    }
    if (readable) select = select.where(readable('t.id'));
    return select;
  }

  private remember(row: Selectable<TaskTable>): Task {
    this.revisions.remember(row.id, row.rev);
    return {
      id: row.id,
      name: row.name,
      description: row.description,
      taskDefinitionKey: row.task_def_key,
      assignee: row.assignee,
      owner: row.owner,
      priority: Number(row.priority),
      due: row.due_date == null ? null : toDate(row.due_date),
      followUp: row.follow_up_date == null ? null : toDate(row.follow_up_date),
      created: toDate(row.create_time),
      processInstanceId: row.proc_inst_id,
      executionId: row.execution_id,
      processDefinitionId: row.proc_def_id,
      activityInstanceId: row.activity_instance_id,
      formKey: row.form_key,
      suspended: toBoolean(row.suspended),
      tenantId: row.tenant_id,
      delegationState: (row.delegation_state as DelegationState | null) ?? null,
    };
  }
}

function toRow(task: Task): Omit<TaskTable, 'rev'> {
  return {
    id: task.id,
    name: task.name,
    description: task.description,
    task_def_key: task.taskDefinitionKey,
    assignee: task.assignee,
    owner: task.owner,
    priority: task.priority,
    due_date: task.due?.getTime() ?? null,
    follow_up_date: task.followUp?.getTime() ?? null,
    create_time: task.created.getTime(),
    proc_inst_id: task.processInstanceId,
    execution_id: task.executionId,
    proc_def_id: task.processDefinitionId,
    activity_instance_id: task.activityInstanceId,
    form_key: task.formKey,
    suspended: fromBoolean(task.suspended),
    tenant_id: task.tenantId,
    delegation_state: task.delegationState ?? null,
  };
}
