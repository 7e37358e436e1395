import type { Selectable, Transaction } from 'kysely';
import { fromStorage, toStorage, type TypedValue } from '../../runtime/variables/index.js';
import type { StoreSchema, VariableTable } from '../schema.js';
import { RevisionTracker } from './revision-tracker.js';

/** Where a task's local variables live: the task, its execution and process instance. */
export interface TaskVariableScope {
  id: string;
  executionId: string | null;
  processInstanceId: string | null;
}

/**
 * Task-local variables (rows of trellis_variable with task_id set, Camunda's task variable scope),
 * within one transaction. The runtime's InstanceVariables never loads these rows.
 */
export class TaskVariableRepository {
  private readonly revisions = new RevisionTracker('VariableInstanceEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  /** The task's local variables by name, in creation order. */
  async findByTask(taskId: string): Promise<Map<string, { id: string; value: TypedValue }>> {
    const rows = await this.trx.selectFrom('trellis_variable').selectAll().where('task_id', '=', taskId).orderBy('id').execute();
    return new Map(rows.map((row) => [row.name, { id: row.id, value: fromStorage(this.remember(row)) }]));
  }

  /** Creates or overwrites one local variable; `existingId` is the row found by findByTask. Answers the row's id (null: transient, not stored). */
  async save(task: TaskVariableScope, name: string, value: TypedValue, existingId: string | null, newId: () => string): Promise<string | null> {
    if (value.transient) return null;
    const row = { ...toStorage(value), name, task_id: task.id, execution_id: task.executionId, proc_inst_id: task.processInstanceId };
    if (existingId === null) {
      const id = newId();
      await this.trx.insertInto('trellis_variable').values({ ...row, id, rev: 1 }).execute();
      this.revisions.remember(id, 1);
      return id;
    }
    await this.revisions.update(this.trx, 'trellis_variable', existingId, row);
    return existingId;
  }

  async delete(id: string): Promise<void> {
    const result = await this.trx.deleteFrom('trellis_variable').where('id', '=', id).where('rev', '=', this.revisions.of(id)).executeTakeFirst();
    this.revisions.ensureChanged(id, result.numDeletedRows);
    this.revisions.forget(id);
  }

  private remember(row: Selectable<VariableTable>) {
    this.revisions.remember(row.id, row.rev);
    return {
      ...row,
      bytes: row.bytes ? Buffer.from(row.bytes) : null,
      long_value: row.long_value == null ? null : Number(row.long_value),
      double_value: row.double_value == null ? null : Number(row.double_value),
    };
  }
}
