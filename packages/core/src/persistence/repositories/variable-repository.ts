import type { Selectable, Transaction } from 'kysely';
import type { StoreSchema, VariableTable } from '../schema.js';
import type { DialectName } from '../dialect.js';
import { joinText, sqlText } from '../sql-text.js';
import { RevisionTracker } from './revision-tracker.js';

/** A stored variable of a process instance: its scope and its value columns (Camunda's ACT_RU_VARIABLE). */
export type VariableRow = Omit<Selectable<VariableTable>, 'rev' | 'batch_id'>;

/** Variables, within one transaction; updates and deletes are revision-checked. */
export class VariableRepository {
  private readonly revisions = new RevisionTracker('VariableInstanceEntity');

  constructor(
    private readonly trx: Transaction<StoreSchema>,
    private readonly dialect: DialectName,
  ) {}

  async findByProcessInstance(processInstanceId: string): Promise<VariableRow[]> {
    const rows = await this.trx.selectFrom('trellis_variable').selectAll().where('proc_inst_id', '=', processInstanceId).execute();
    return rows.map((row) => this.remember(row));
  }

  /** SQL text, not the query builder: every fetch of external tasks reads their instances' variables. */
  async findByProcessInstances(processInstanceIds: readonly string[]): Promise<VariableRow[]> {
    if (processInstanceIds.length === 0) return [];
    const { rows } = await sqlText`select * from trellis_variable where proc_inst_id in (${joinText(processInstanceIds)})`.execute(this.trx, this.dialect);
    return (rows as Selectable<VariableTable>[]).map((row) => this.remember(row));
  }

  /** Rows read elsewhere (one round trip with the execution tree), remembered for revision checks. */
  adopt(rows: readonly Selectable<VariableTable>[]): VariableRow[] {
    return rows.map((row) => this.remember(row));
  }

  /** A batch's variable (Camunda's BATCH_ID_): no execution, instance or task. */
  async insertForBatch(batchId: string, row: Omit<VariableRow, 'execution_id' | 'proc_inst_id' | 'task_id'>): Promise<void> {
    await this.trx.insertInto('trellis_variable').values({ ...row, execution_id: null, proc_inst_id: null, task_id: null, batch_id: batchId, rev: 1 }).execute();
  }

  async findByBatch(batchId: string): Promise<VariableRow[]> {
    const rows = await this.trx.selectFrom('trellis_variable').selectAll().where('batch_id', '=', batchId).execute();
    return rows.map((row) => this.remember(row));
  }

  async deleteByBatch(batchId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_variable').where('batch_id', '=', batchId).execute();
  }

  async insert(row: VariableRow): Promise<void> {
    await this.trx.insertInto('trellis_variable').values({ ...row, rev: 1 }).execute();
    this.revisions.remember(row.id, 1);
  }

  async update(row: VariableRow): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_variable', row.id, row);
  }

  async delete(id: string): Promise<void> {
    const result = await this.trx.deleteFrom('trellis_variable').where('id', '=', id).where('rev', '=', this.revisions.of(id)).executeTakeFirst();
    this.revisions.ensureChanged(id, result.numDeletedRows);
    this.revisions.forget(id);
  }

  private remember(row: Selectable<VariableTable>): VariableRow {
    this.revisions.remember(row.id, row.rev);
    // Leaving the batch column out keeps an instance's row fit for the history tables.
    const { rev: _rev, batch_id: _batchId, ...rest } = row;
    return { ...rest, bytes: rest.bytes ? Buffer.from(rest.bytes) : null, long_value: rest.long_value == null ? null : Number(rest.long_value), double_value: rest.double_value == null ? null : Number(rest.double_value) };
  }
}
