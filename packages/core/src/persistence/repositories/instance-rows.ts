import { sql, type Selectable, type Transaction } from 'kysely';
import type { DialectSeam } from '../dialect.js';
import type { ActivityInstanceTable, ExecutionTable, StoreSchema, VariableTable } from '../schema.js';
import { rawText, sqlText, type SqlText } from '../sql-text.js';

/** What a command reads to move a process instance on: its executions, activity instances and variables. */
export interface InstanceRows {
  executions: Selectable<ExecutionTable>[];
  activityInstances: Selectable<ActivityInstanceTable>[];
  variables: Selectable<VariableTable>[];
}

/**
 * Reads the rows of one process instance. On PostgreSQL it is one round trip (three aggregated
 * sub-selects; every column but the variables' bytes comes back as the JSON number or string the
 * row reader expects); SQLite runs in process, one select per table.
 */
export async function loadInstanceRows(trx: Transaction<StoreSchema>, dialect: DialectSeam, processInstanceId: string): Promise<InstanceRows> {
  if (dialect.name === 'postgres') {
    const { rows } = await sql<InstanceRowsJson>`select ${instanceRowsJson(sqlText`${processInstanceId}`)}`.execute(trx);
    return fromInstanceRowsJson(rows[0])!;
  }
  return {
    executions: await trx.selectFrom('trellis_execution').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
    activityInstances: await trx.selectFrom('trellis_activity_instance').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
    variables: await trx.selectFrom('trellis_variable').selectAll().where('proc_inst_id', '=', processInstanceId).execute(),
  };
}

/**
 * PostgreSQL: one row of a table that points at a process instance (an external task, say) and
 * that instance's rows, in one round trip; a command that loads a task and then moves its instance
 * on needs nothing else. Undefined when the row does not exist.
 */
export async function loadRowWithInstanceRows<T extends 'trellis_external_task'>(
  trx: Transaction<StoreSchema>,
  table: T,
  id: string,
): Promise<{ row: Selectable<StoreSchema[T]>; instance: InstanceRows } | undefined> {
  const { rows } = await sql<{ row: Selectable<StoreSchema[T]> } & InstanceRowsJson>`select
      to_json(r) as row, ${instanceRowsJson(rawText('r.proc_inst_id'))}
    from ${sql.table(table)} r where r.id = ${id}`.execute(trx);
  const [found] = rows;
  if (!found) return undefined;
  return { row: found.row, instance: fromInstanceRowsJson(found)! };
}

/** An instance's rows as instanceRowsJson's columns bring them (variables null: their values were too large). */
export interface InstanceRowsJson {
  executions: Selectable<ExecutionTable>[];
  activity_instances: Selectable<ActivityInstanceTable>[];
  variables: JsonVariable[] | null;
}

/**
 * PostgreSQL: the columns `executions`, `activity_instances` and `variables` of a select, each the
 * rows of the instance `processInstanceId` names (a column or a parameter) as JSON. With
 * `maxValues`, `variables` is null when the instance's values take more characters and bytes.
 */
export function instanceRowsJson(processInstanceId: SqlText, maxValues?: number): SqlText {
  const variables = sqlText`coalesce(json_agg(v), '[]'::json)`;
  const sized =
    maxValues === undefined
      ? variables
      : sqlText`case when coalesce(sum(coalesce(octet_length(v.bytes), 0) + coalesce(length(v.text), 0) + coalesce(length(v.text2), 0)), 0) <= ${maxValues} then ${variables} end`;
  return sqlText`(select coalesce(json_agg(e), '[]'::json) from trellis_execution e where e.proc_inst_id = ${processInstanceId}) as executions,
      (select coalesce(json_agg(a), '[]'::json) from trellis_activity_instance a where a.proc_inst_id = ${processInstanceId}) as activity_instances,
      (select ${sized} from trellis_variable v where v.proc_inst_id = ${processInstanceId}) as variables`;
}

/** The rows instanceRowsJson's columns brought; null when the variables were too large to come. */
export function fromInstanceRowsJson(json: InstanceRowsJson): InstanceRows | null {
  if (json.variables === null) return null;
  return { executions: json.executions, activityInstances: json.activity_instances, variables: json.variables.map(fromJsonVariable) };
}

/** A variable row as PostgreSQL's JSON renders it: bytea as `\x…` hex, non-finite doubles as strings. */
export type JsonVariable = Omit<Selectable<VariableTable>, 'bytes' | 'double_value'> & { bytes: string | null; double_value: number | string | null };

function fromJsonVariable(row: JsonVariable): Selectable<VariableTable> {
  return {
    ...row,
    bytes: row.bytes === null ? null : Buffer.from(row.bytes.slice(2), 'hex'),
    double_value: row.double_value === null ? null : Number(row.double_value),
  };
}
