import { sql, type Expression, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import { BadUserRequestException } from '../../errors/exceptions.js';
import { fromStorage } from '../../runtime/variables/index.js';
import type {
  HistoricDetail,
  HistoricDetailQuery,
  HistoricDetailSortField,
  HistoricVariableInstance,
  HistoricVariableInstanceQuery,
  HistoricVariableInstanceSortField,
  HistoricVariableUpdate,
} from '../../services/history/historic-variable-types.js';
import type { StoreSchema } from '../schema.js';
import { historyAccess, type HistoryReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, LIKE_ESCAPE, toDate, type SortColumn } from './query-support.js';
import { serializerName, valueCondition } from './variable-instance-query.js';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';

/** The detail kinds as Camunda's ACT_HI_DETAIL.TYPE_ names them. */
export const VARIABLE_UPDATE = 'VariableUpdate';
export const FORM_PROPERTY = 'FormProperty';

const INSTANCE_SORT: Record<HistoricVariableInstanceSortField, string> = { instanceId: 'v.proc_inst_id', variableName: 'v.name', tenantId: 'v.tenant_id' };
const DETAIL_SORT: Record<HistoricDetailSortField | 'sequence', SortColumn<HistoricDetailSortField | 'sequence'>> = {
  processInstanceId: 'v.proc_inst_id', variableName: 'v.name', variableType: serializerName('v.var_type', 'v.text2'), variableRevision: 'v.rev',
  formPropertyId: 'v.name', time: 'v.time', occurrence: 'v.time', tenantId: 'v.tenant_id', sequence: 'v.sequence_counter',
};

interface ValueColumns {
  text: string | null;
  text2: string | null;
  long_value: number | null;
  double_value: number | null;
  bytes: Buffer | null;
}

/** Historic variable instances and details (Camunda's HistoricVariableInstanceQuery and HistoricDetailQuery). */
export class HistoricVariableRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  /** `withBinary`: load Bytes values and File contents (Camunda's lists leave them out). */
  async findInstances(q: HistoricVariableInstanceQuery, readable: HistoryReadFilter, withBinary: boolean): Promise<HistoricVariableInstance[]> {
    const select = this.instanceSelect(q, readable).selectAll('v').select(inheritedRemovalTime('trellis_hi_varinst', 'v')).select(withBinary ? 'v.bytes as data' : sql<Buffer | null>`null`.as('data'));
    const rows = await applyPage(applySorting(select, q.sorting, INSTANCE_SORT, 'v.id'), q).execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      value: valueOf(row.type, { ...row, bytes: row.data }),
      processDefinitionKey: row.proc_def_key,
      processDefinitionId: row.proc_def_id,
      processInstanceId: row.proc_inst_id,
      rootProcessInstanceId: row.root_proc_inst_id,
      executionId: row.execution_id,
      activityInstanceId: row.act_inst_id,
      taskId: row.task_id,
      tenantId: row.tenant_id,
      state: row.state as HistoricVariableInstance['state'],
      createTime: toDate(row.create_time),
      removalTime: row.inherited_removal_time === null ? null : toDate(row.inherited_removal_time),
    }));
  }

  async countInstances(q: HistoricVariableInstanceQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.instanceSelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Variable updates only (whatever the query asks about form fields). */
  async findDetails(q: HistoricDetailQuery, readable: HistoryReadFilter, withBinary: boolean): Promise<HistoricVariableUpdate[]> {
    return (await this.findAnyDetails({ ...q, variableUpdates: true }, readable, withBinary)) as HistoricVariableUpdate[];
  }

  /** Variable updates and form fields, as the query's formFields and variableUpdates choose. */
  async findAnyDetails(q: HistoricDetailQuery, readable: HistoryReadFilter, withBinary: boolean): Promise<HistoricDetail[]> {
    const select = this.detailSelect(q, readable).selectAll('v').select(inheritedRemovalTime('trellis_hi_detail', 'v')).select(withBinary ? 'v.bytes as data' : sql<Buffer | null>`null`.as('data'));
    // Details of one command share their time: the sequence keeps them in the order they happened.
    const sorting = q.sorting?.flatMap((each) => (each.sortBy === 'time' || each.sortBy === 'occurrence' ? [each, { sortBy: 'sequence' as const, sortOrder: each.sortOrder }] : [each]));
    const rows = await applyPage(applySorting(select, sorting, DETAIL_SORT, 'v.id'), q).execute();
    return rows.map((row): HistoricDetail => {
      const common = {
        id: row.id,
        time: toDate(row.time),
        processDefinitionKey: row.proc_def_key,
        processDefinitionId: row.proc_def_id,
        processInstanceId: row.proc_inst_id,
        rootProcessInstanceId: row.root_proc_inst_id,
        executionId: row.execution_id,
        activityInstanceId: row.act_inst_id,
        taskId: row.task_id,
        tenantId: row.tenant_id,
        userOperationId: row.operation_id,
        removalTime: row.inherited_removal_time === null ? null : toDate(row.inherited_removal_time),
      };
      if (row.type === FORM_PROPERTY) return { ...common, type: 'formField', fieldId: row.name, fieldValue: row.text };
      return {
        ...common,
        type: 'variableUpdate',
        variableName: row.name,
        variableInstanceId: row.var_inst_id,
        value: valueOf(row.var_type ?? 'null', { ...row, bytes: row.data }),
        revision: Number(row.rev),
        initial: Number(row.initial) === 1,
      };
    });
  }

  async countDetails(q: HistoricDetailQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.detailSelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Removes historic variable instances and their details: one, those of a process instance, or of a definition. */
  async deleteInstances(target: { id: string } | { processInstanceId: string } | { processDefinitionId: string }): Promise<void> {
    const [column, value] = 'id' in target
      ? (['id', target.id] as const)
      : 'processInstanceId' in target ? (['proc_inst_id', target.processInstanceId] as const) : (['proc_def_id', target.processDefinitionId] as const);
    await this.trx.deleteFrom('trellis_hi_detail').where(column === 'id' ? 'var_inst_id' : column, '=', value).execute();
    await this.trx.deleteFrom('trellis_hi_varinst').where(column, '=', value).execute();
  }

  private instanceSelect(q: HistoricVariableInstanceQuery, readable: HistoryReadFilter) {
    let s = this.trx.selectFrom('trellis_hi_varinst as v');
    if (readable) s = s.where(variableAccess(readable));
    if (q.variableId !== undefined) s = s.where('v.id', '=', q.variableId);
    if (!q.includeDeleted) s = s.where('v.state', '=', 'CREATED');
    if (q.variableName !== undefined) s = s.where(q.variableNamesIgnoreCase ? sql<SqlBool>`lower(v.name) = lower(${q.variableName})` : sql<SqlBool>`v.name = ${q.variableName}`);
    if (q.variableNameLike !== undefined) {
      s = s.where(q.variableNamesIgnoreCase ? sql<SqlBool>`lower(v.name) like lower(${q.variableNameLike}) ${LIKE_ESCAPE}` : sql<SqlBool>`v.name like ${q.variableNameLike} ${LIKE_ESCAPE}`);
    }
    if (q.variableNameIn !== undefined) s = s.where(isIn(sql.ref('v.name'), q.variableNameIn));
    if (q.variableValue !== undefined) {
      // Camunda: QueryVariableValue needs the name it compares the value of.
      if (q.variableName === undefined) throw new BadUserRequestException('Only a single name and value combination is supported: variableName is null');
      s = s.where(valueCondition({ name: q.variableName, operator: 'eq', value: q.variableValue }, q.variableNamesIgnoreCase === true, q.variableValuesIgnoreCase === true));
    }
    if (q.variableTypeIn !== undefined) s = s.where(isIn(serializerName('v.type', 'v.text2'), q.variableTypeIn.map((each) => each.toLowerCase())));
    if (q.processInstanceId !== undefined) s = s.where('v.proc_inst_id', '=', q.processInstanceId);
    if (q.processInstanceIdIn !== undefined) s = s.where(isIn(sql.ref('v.proc_inst_id'), q.processInstanceIdIn));
    if (q.processDefinitionId !== undefined) s = s.where('v.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) s = s.where('v.proc_def_key', '=', q.processDefinitionKey);
    if (q.executionIdIn !== undefined) s = s.where(isIn(sql.ref('v.execution_id'), q.executionIdIn));
    if (q.taskIdIn !== undefined) s = s.where(isIn(sql.ref('v.task_id'), q.taskIdIn));
    if (q.activityInstanceIdIn !== undefined) s = s.where(isIn(sql.ref('v.act_inst_id'), q.activityInstanceIdIn));
    s = applyTenantCheck(s, q, 'v.tenant_id');
    const tenants = requestedTenants(q, 'v.tenant_id');
    if (tenants) s = s.where(tenants);
    return s;
  }

  private detailSelect(q: HistoricDetailQuery, readable: HistoryReadFilter) {
    let s = this.trx.selectFrom('trellis_hi_detail as v');
    if (readable) s = s.where(variableAccess(readable));
    if (q.detailId !== undefined) s = s.where('v.id', '=', q.detailId);
    if (q.processInstanceId !== undefined) s = s.where('v.proc_inst_id', '=', q.processInstanceId);
    if (q.processInstanceIdIn !== undefined) s = s.where(isIn(sql.ref('v.proc_inst_id'), q.processInstanceIdIn));
    if (q.executionId !== undefined) s = s.where('v.execution_id', '=', q.executionId);
    if (q.taskId !== undefined) s = s.where('v.task_id', '=', q.taskId);
    if (q.activityInstanceId !== undefined) s = s.where('v.act_inst_id', '=', q.activityInstanceId);
    if (q.variableInstanceId !== undefined) s = s.where('v.var_inst_id', '=', q.variableInstanceId);
    if (q.variableTypeIn !== undefined) s = s.where(isIn(serializerName('v.var_type', 'v.text2'), q.variableTypeIn.map((each) => each.toLowerCase())));
    if (q.variableNameLike !== undefined) s = s.where(sql<SqlBool>`upper(v.name) like upper(${q.variableNameLike}) ${LIKE_ESCAPE}`);
    s = applyTenantCheck(s, q, 'v.tenant_id');
    const tenants = requestedTenants(q, 'v.tenant_id');
    if (tenants) s = s.where(tenants);
    if (q.userOperationId !== undefined) s = s.where('v.operation_id', '=', q.userOperationId);
    // Camunda: variableUpdates wins when both are asked for.
    if (q.variableUpdates) s = s.where('v.type', '=', VARIABLE_UPDATE);
    else if (q.formFields) s = s.where('v.type', '=', FORM_PROPERTY);
    // Camunda's mapping chooses: a taskId wins over excludeTaskDetails.
    if (q.excludeTaskDetails && q.taskId === undefined) s = s.where('v.task_id', 'is', null);
    if (q.initial) s = s.where('v.initial', '=', 1);
    if (q.occurredBefore) s = s.where('v.time', '<=', q.occurredBefore.getTime());
    if (q.occurredAfter) s = s.where('v.time', '>=', q.occurredAfter.getTime());
    return s;
  }
}

/** `column in (…)`; an empty list matches nothing. */
function isIn(column: Expression<unknown>, values: readonly string[]): Expression<SqlBool> {
  return values.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`${column} in (${sql.join([...values])})`;
}

function valueOf(type: string, row: ValueColumns) {
  return fromStorage({
    type,
    text: row.text,
    text2: row.text2,
    long_value: row.long_value == null ? null : Number(row.long_value),
    double_value: row.double_value == null ? null : Number(row.double_value),
    bytes: row.bytes == null ? null : Buffer.from(row.bytes),
  });
}

/**
 * Camunda's historic variable and detail check: a standalone task's values (no execution) pass
 * unchecked unless instance permissions are on; with them, also READ on the historic process
 * instance, or the task permission on any historic task of that instance or on the value's own task.
 */
function variableAccess(readable: NonNullable<HistoryReadFilter>): RawBuilder<SqlBool> {
  const access = historyAccess(readable, { definitionKey: 'v.proc_def_key', processInstanceId: 'v.proc_inst_id', standaloneTask: 'v.execution_id' });
  if (!readable.task) return access;
  return sql<SqlBool>`(${access} or exists (select 1 from trellis_hi_taskinst vt where (vt.proc_inst_id = v.proc_inst_id or vt.id = v.task_id) and ${readable.task(sql.ref('vt.id'))}))`;
}
