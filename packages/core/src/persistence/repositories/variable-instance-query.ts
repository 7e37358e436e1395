import { sql, type Expression, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import { NotValidException, ProcessEngineException } from '../../errors/exceptions.js';
import { fromStorage, type TypedValue } from '../../runtime/variables/index.js';
import type {
  VariableInstance,
  VariableInstanceQuery,
  VariableInstanceSortField,
  VariableValueCondition,
} from '../../services/variable-instance/variable-instance.js';
import type { StoreSchema } from '../schema.js';
import { applyPage, applySorting, LIKE_ESCAPE, likeMatches, type SortColumn } from './query-support.js';
import { applyTenantCheck } from '../../authorization/tenant-check.js';

/** Variables the caller may read: by their process instance, its definition's key, or their task (null: no checks). */
export type VariableReadFilter = ((instanceColumn: string, definitionKeyColumn: string, taskColumn: string) => Expression<SqlBool>) | null;

/** A variable's tenant (Camunda's TENANT_ID_ of the variable): its process instance's, or its standalone task's. */
const TENANT = sql<string | null>`coalesce(p.tenant_id, t.tenant_id)`;

/**
 * A stored variable's type as Camunda names its serializer (ACT_RU_VARIABLE.TYPE_), which its
 * `variableType` sorting orders by: an Object is `serializable` in Java's format (Camunda's default
 * format when none is given), else `spin://<format>`; every other type has the name Trellis stores.
 */
export function serializerName(typeColumn: string, text2Column: string): RawBuilder<string> {
  const type = sql.ref(typeColumn);
  const text2 = sql.ref(text2Column);
  const format = (name: string) => sql.lit(`%"serializationDataFormat":${JSON.stringify(name)}%`);
  return sql<string>`(case when ${type} <> 'object' then ${type}
    when ${text2} like ${format('application/json')} then 'spin://application/json'
    when ${text2} like ${format('application/xml')} then 'spin://application/xml'
    when ${text2} like ${format('application/x-java-serialized-object')} or ${text2} like ${sql.lit('%"serializationDataFormat":null%')} then 'serializable'
    else 'spin://' end)`;
}

const SORT_COLUMNS: Record<VariableInstanceSortField, SortColumn<VariableInstanceSortField>> = {
  variableName: 'v.name', variableType: serializerName('v.type', 'v.text2'), activityInstanceId: 'act_inst_id', tenantId: TENANT,
};

/**
 * The variable's activity instance (Camunda's actInstIdColumn): a task variable's is its task's; the
 * process instance's own variables have its id; a scope execution's, the instance of its scope; any
 * other execution's (a concurrent path, say), the activity instance it is in.
 */
const ACTIVITY_INSTANCE = sql<string | null>`(case when v.task_id is not null then tx.activity_instance_id when x.scope_instance_id is not null then x.scope_instance_id when x.parent_id is null then v.proc_inst_id else coalesce(x.activity_instance_id, v.proc_inst_id) end)`;

/** The SQL operator of each positive comparison; `neq` and `notLike` negate `eq` and `like`. */
const OPERATORS = { eq: '=', neq: '=', gt: '>', gteq: '>=', lt: '<', lteq: '<=', like: 'like', notLike: 'like' } as const;
/** The integer variable types and the values each holds (Java's short, int and long). */
const INTEGER_RANGES: ReadonlyArray<[type: string, min: number, max: number]> = [
  ['short', -32_768, 32_767],
  ['integer', -2_147_483_648, 2_147_483_647],
  ['long', -(2 ** 63), 2 ** 63],
];
const OPERATOR_NAMES = { gt: 'greater than', gteq: 'greater than or equal', lt: 'less than', lteq: 'less than or equal', like: 'like', notLike: 'not like' } as const;

/** Camunda's VariableInstanceQuery over trellis_variable, joined with its executions for definition, tenant and activity instance. */
export class VariableInstanceQueryRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  /** `withBinary`: load Bytes values and File contents (Camunda's list and single reads leave them out). */
  async find(query: VariableInstanceQuery, readable: VariableReadFilter = null, withBinary = false): Promise<VariableInstance[]> {
    const select = this.filtered(query, readable).select([
      'v.id', 'v.name', 'v.type', 'v.execution_id', 'v.proc_inst_id', 'v.task_id', 'v.batch_id', 'v.text', 'v.text2', 'v.long_value', 'v.double_value',
      'p.proc_def_id', TENANT.as('tenant_id'), ACTIVITY_INSTANCE.as('act_inst_id'),
      withBinary ? 'v.bytes' : sql<Buffer | null>`null`.as('bytes'),
    ]);
    const rows = await applyPage(applySorting(select, query.sorting, SORT_COLUMNS, 'v.id'), query).execute();
    return rows.map((row) => ({
      id: row.id,
      name: row.name,
      value: fromStorage({
        type: row.type,
        text: row.text,
        text2: row.text2,
        long_value: row.long_value == null ? null : Number(row.long_value),
        double_value: row.double_value == null ? null : Number(row.double_value),
        bytes: row.bytes == null ? null : Buffer.from(row.bytes),
      }),
      processDefinitionId: row.proc_def_id ?? null,
      processInstanceId: row.proc_inst_id,
      executionId: row.execution_id,
      taskId: row.task_id,
      batchId: row.batch_id,
      activityInstanceId: row.act_inst_id ?? null,
      tenantId: row.tenant_id ?? null,
    }));
  }

  async count(query: VariableInstanceQuery, readable: VariableReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private filtered(q: VariableInstanceQuery, readable: VariableReadFilter) {
    let select = this.trx
      .selectFrom('trellis_variable as v')
      .leftJoin('trellis_execution as x', 'x.id', 'v.execution_id')
      .leftJoin('trellis_execution as p', 'p.id', 'v.proc_inst_id')
      .leftJoin('trellis_task as t', 't.id', 'v.task_id')
      .leftJoin('trellis_execution as tx', 'tx.id', 't.execution_id');
    if (q.variableId !== undefined) select = select.where('v.id', '=', q.variableId);
    if (q.variableName !== undefined) select = select.where('v.name', '=', q.variableName);
    if (q.variableNameIn !== undefined) select = select.where(isIn(sql.ref('v.name'), q.variableNameIn));
    if (q.variableNameLike !== undefined) select = select.where(likeMatches('v.name', q.variableNameLike));
    if (q.processInstanceIdIn !== undefined) select = select.where(isIn(sql.ref('v.proc_inst_id'), q.processInstanceIdIn));
    if (q.executionIdIn !== undefined) select = select.where(isIn(sql.ref('v.execution_id'), q.executionIdIn));
    if (q.taskIdIn !== undefined) select = select.where(isIn(sql.ref('v.task_id'), q.taskIdIn));
    if (q.batchIdIn !== undefined) select = select.where(isIn(sql.ref('v.batch_id'), q.batchIdIn));
    if (q.variableScopeIdIn !== undefined) {
      const scopes = q.variableScopeIdIn;
      // Camunda's VAR_SCOPE_: a task's variable belongs to the task, not to its execution; a batch's to the batch.
      select = select.where(isIn(sql`coalesce(v.task_id, v.batch_id, v.execution_id)`, scopes));
    }
    // No case instances or case executions in Trellis: asking for some finds none.
    for (const ids of [q.caseInstanceIdIn, q.caseExecutionIdIn]) {
      if (ids !== undefined) select = select.where(sql<SqlBool>`1 = 0`);
    }
    if (q.activityInstanceIdIn !== undefined) select = select.where(isIn(ACTIVITY_INSTANCE, q.activityInstanceIdIn));
    select = applyTenantCheck(select, q, TENANT);
    if (q.tenantIdIn !== undefined) select = select.where(isIn(TENANT, q.tenantIdIn));
    if (q.withoutTenantId) select = select.where(sql<SqlBool>`${TENANT} is null`);
    for (const condition of q.variableValues ?? []) {
      select = select.where(valueCondition(condition, q.variableNamesIgnoreCase === true, q.variableValuesIgnoreCase === true));
    }
    if (readable) select = select.where(readable('v.proc_inst_id', 'p.proc_def_key', 'v.task_id'));
    return select;
  }
}

/** `column in (…)`; an empty list matches nothing (query-support's NUL placeholder is refused by PostgreSQL). */
function isIn(column: Expression<unknown>, values: readonly string[]): Expression<SqlBool> {
  return values.length === 0 ? sql<SqlBool>`1 = 0` : sql<SqlBool>`${column} in (${sql.join([...values])})`;
}

/** Whether a query's variable names and string values compare ignoring case (Camunda's matchVariableNamesIgnoreCase / …ValuesIgnoreCase). */
export interface VariableCaseFlags {
  variableNamesIgnoreCase?: boolean;
  variableValuesIgnoreCase?: boolean;
}

/** A variable row (aliased `v`) of `table` that `owner` ties to the query's row exists and matches the condition. */
export function variableExists(table: 'trellis_variable' | 'trellis_hi_varinst', owner: Expression<SqlBool>, condition: VariableValueCondition, flags: VariableCaseFlags): RawBuilder<SqlBool> {
  return sql<SqlBool>`exists (select 1 from ${sql.table(table)} v where ${owner} and ${valueCondition(condition, flags.variableNamesIgnoreCase === true, flags.variableValuesIgnoreCase === true)})`;
}

/**
 * Camunda's variable criteria on executions (`e`): `local`, a variable of the execution itself
 * (RES.ID_ = EXECUTION_ID_); otherwise any variable of its process instance that is no task's.
 */
export function executionVariableCondition(condition: VariableValueCondition, local: boolean, flags: VariableCaseFlags): Expression<SqlBool> {
  const owner = local ? sql<SqlBool>`v.execution_id = e.id` : sql<SqlBool>`v.task_id is null and v.proc_inst_id = e.proc_inst_id`;
  return variableExists('trellis_variable', owner, condition, flags);
}

/**
 * The condition of a typed query value (Camunda's SingleQueryVariableValueCondition: a correlation key,
 * a fetch's process variable): a variable of the value's very type equals it, an Integer 5 being no Long 5;
 * a null value of any type matches a variable holding null. Binary, file and serialized values cannot query.
 */
export function typedValueEquals(name: string, typed: TypedValue): VariableValueCondition {
  if (typed.value === null) return { name, operator: 'eq', value: null };
  switch (typed.type) {
    case 'bytes':
      throw new ProcessEngineException('Variables of type ByteArray cannot be used to query');
    case 'file':
      throw new ProcessEngineException('Variables of type File cannot be used to query');
    case 'object':
    case 'json':
    case 'xml':
      throw new ProcessEngineException('Object values cannot be used to query');
    case 'short':
    case 'integer':
    case 'long':
    case 'double':
      return { name, operator: 'eq', value: typed.value, numberType: typed.type };
    default:
      return { name, operator: 'eq', value: typed.value };
  }
}

/**
 * The variable row (aliased `v`) has the condition's name and a value matching it: Camunda's typed
 * value conditions (Commons.xml variableValueConditions), where `neq` and `notLike` negate the whole
 * condition of `eq` and `like`, so that a variable of another type matches them.
 */
export function valueCondition(condition: VariableValueCondition, namesIgnoreCase: boolean, valuesIgnoreCase: boolean): Expression<SqlBool> {
  const { name, operator, value } = condition;
  const negated = operator === 'neq' || operator === 'notLike';
  const op = sql.raw(OPERATORS[operator]);
  const nameMatches = namesIgnoreCase ? sql<SqlBool>`lower(v.name) = lower(cast(${name} as text))` : sql<SqlBool>`v.name = ${name}`;
  if ((value === null || typeof value === 'boolean') && operator !== 'eq' && operator !== 'neq') {
    throw new NotValidException(`Booleans and null cannot be used in '${OPERATOR_NAMES[operator]}' condition`);
  }
  if ((operator === 'like' || operator === 'notLike') && typeof value !== 'string') throw new ProcessEngineException("Only string values can be used with 'like' condition.");
  let valueMatches: Expression<SqlBool>;
  const escape = operator === 'like' || operator === 'notLike' ? LIKE_ESCAPE : sql``;
  if (value === null) {
    valueMatches = sql<SqlBool>`(v.type = 'null' or (v.type <> 'file' and v.text is null and v.text2 is null and v.long_value is null and v.double_value is null and v.bytes is null))`;
  } else if (typeof value === 'boolean') {
    valueMatches = sql<SqlBool>`(v.type = 'boolean' and v.long_value = ${value ? 1 : 0})`;
  } else if (typeof value === 'number') {
    // A typed number compares with its own type only; an untyped one, Camunda's CompositeQueryVariableValueCondition:
    // an integer type takes part only when the number converts to it without loss (5.5 compares with
    // doubles only, 100000 not with shorts).
    const types = condition.numberType !== undefined ? [condition.numberType]
      : [...INTEGER_RANGES.filter(([, min, max]) => Number.isInteger(value) && value >= min && value <= max).map(([type]) => type), 'double'];
    const integerTypes = types.filter((type) => type !== 'double');
    const asInteger = integerTypes.length > 0 ? sql<SqlBool>`(v.type in (${sql.join(integerTypes)}) and v.long_value ${op} cast(${value} as double precision))` : null;
    const asDouble = types.includes('double') ? sql<SqlBool>`(v.type = 'double' and v.double_value ${op} cast(${value} as double precision))` : null;
    valueMatches = sql<SqlBool>`(${sql.join([asInteger, asDouble].filter((part) => part !== null), sql` or `)})`;
  } else if (value instanceof Date) {
    valueMatches = sql<SqlBool>`(v.type = 'date' and v.long_value ${op} ${value.getTime()})`;
  } else {
    valueMatches = valuesIgnoreCase
      ? sql<SqlBool>`(v.type = 'string' and lower(v.text) ${op} lower(cast(${value} as text)) ${escape})`
      : sql<SqlBool>`(v.type = 'string' and v.text ${op} ${value} ${escape})`;
  }
  // A null column makes the positive condition unknown: it does not hold, so its negation does.
  if (negated) valueMatches = sql<SqlBool>`not coalesce(${valueMatches}, false)`;
  return sql<SqlBool>`(${nameMatches} and ${valueMatches})`;
}
