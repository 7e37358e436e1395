import { sql, type Expression, type Selectable, type SqlBool, type Transaction } from 'kysely';
import { historyAccess, type HistoryReadFilter } from './authorization-repository.js';
import type { UserOperationLogEntry, UserOperationLogQuery } from '../../services/history/historic-user-operation-types.js';
import type { StoreSchema, UserOperationLogTable } from '../schema.js';
import { applyPage, nonEmpty, toDate } from './query-support.js';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import { applyTenantCheck } from '../../authorization/tenant-check.js';

const base = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_op_log as o');
type Select = ReturnType<typeof base>;
/**
 * The caller's read rights (null: no restriction): the history filter (READ_HISTORY on the
 * definition; with instance permissions, READ on the historic process instance or task) and READ on
 * the operation log category.
 */
export type OperationLogReadFilter = { history: NonNullable<HistoryReadFilter>; category: (column: string) => Expression<SqlBool> } | null;

/** The user operation log table (Camunda's UserOperationLogQuery and its annotation update). */
export class UserOperationLogRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async find(q: UserOperationLogQuery, readable: OperationLogReadFilter): Promise<UserOperationLogEntry[]> {
    let select = this.select(q, readable).selectAll('o').select(inheritedRemovalTime('trellis_hi_op_log', 'o'));
    const order = q.sorting?.[0]?.sortOrder ?? 'asc';
    // Entries of one operation share their timestamp; the write order keeps them together and stable.
    select = select.orderBy('o.timestamp', order).orderBy('o.sequence_counter', order);
    return (await applyPage(select, q).execute()).map(toEntry);
  }

  async count(q: UserOperationLogQuery, readable: OperationLogReadFilter): Promise<number> {
    const row = await this.select(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The first entry of an operation (Camunda's findOperationLogByOperationId). */
  async firstOfOperation(operationId: string): Promise<UserOperationLogEntry | null> {
    const row = await base(this.trx).selectAll('o').select(inheritedRemovalTime('trellis_hi_op_log', 'o')).where('o.operation_id', '=', operationId).orderBy('o.sequence_counter').limit(1).executeTakeFirst();
    return row ? toEntry(row) : null;
  }

  async setAnnotation(operationId: string, annotation: string | null): Promise<void> {
    await this.trx.updateTable('trellis_hi_op_log').set({ annotation }).where('operation_id', '=', operationId).execute();
  }

  private select(q: UserOperationLogQuery, readable: OperationLogReadFilter): Select {
    let s: Select = base(this.trx);
    s = applyTenantCheck(s, q, 'o.tenant_id');
    // Camunda: an entry of neither a definition nor a category passes unchecked.
    if (readable) {
      const history = historyAccess(readable.history, { definitionKey: 'o.proc_def_key', processInstanceId: 'o.proc_inst_id', taskId: 'o.task_id' });
      s = s.where(sql<SqlBool>`(${history} or ${readable.category('o.category')} or (o.category is null and o.proc_def_key is null))`);
    }
    const equals: ReadonlyArray<[keyof UserOperationLogQuery, keyof UserOperationLogTable]> = [
      ['deploymentId', 'deployment_id'], ['processDefinitionId', 'proc_def_id'], ['processDefinitionKey', 'proc_def_key'],
      ['processInstanceId', 'proc_inst_id'], ['executionId', 'execution_id'], ['caseDefinitionId', 'case_def_id'],
      ['caseInstanceId', 'case_inst_id'], ['caseExecutionId', 'case_execution_id'], ['taskId', 'task_id'],
      ['externalTaskId', 'external_task_id'], ['batchId', 'batch_id'], ['jobId', 'job_id'], ['jobDefinitionId', 'job_def_id'],
      ['userId', 'user_id'], ['operationId', 'operation_id'], ['operationType', 'operation_type'], ['entityType', 'entity_type'],
      ['category', 'category'], ['property', 'property'],
    ];
    for (const [field, column] of equals) {
      const value = q[field];
      if (typeof value === 'string') s = s.where(sql.ref(`o.${column}`), '=', value);
    }
    if (q.entityTypeIn !== undefined) s = s.where('o.entity_type', 'in', nonEmpty(q.entityTypeIn));
    if (q.categoryIn !== undefined) s = s.where('o.category', 'in', nonEmpty(q.categoryIn));
    if (q.afterTimestamp !== undefined) s = s.where('o.timestamp', '>', q.afterTimestamp.getTime());
    if (q.beforeTimestamp !== undefined) s = s.where('o.timestamp', '<', q.beforeTimestamp.getTime());
    return s;
  }
}

function toEntry(row: Selectable<UserOperationLogTable> & { inherited_removal_time: number | null }): UserOperationLogEntry {
  return {
    id: row.id,
    deploymentId: row.deployment_id,
    processDefinitionId: row.proc_def_id,
    processDefinitionKey: row.proc_def_key,
    rootProcessInstanceId: row.root_proc_inst_id,
    processInstanceId: row.proc_inst_id,
    executionId: row.execution_id,
    caseDefinitionId: row.case_def_id,
    caseInstanceId: row.case_inst_id,
    caseExecutionId: row.case_execution_id,
    taskId: row.task_id,
    externalTaskId: row.external_task_id,
    batchId: row.batch_id,
    jobId: row.job_id,
    jobDefinitionId: row.job_def_id,
    userId: row.user_id,
    timestamp: toDate(row.timestamp),
    operationId: row.operation_id,
    operationType: row.operation_type,
    entityType: row.entity_type,
    property: row.property,
    orgValue: row.org_value,
    newValue: row.new_value,
    tenantId: row.tenant_id,
    removalTime: row.inherited_removal_time === null ? null : toDate(row.inherited_removal_time),
    category: row.category,
    annotation: row.annotation,
  };
}
