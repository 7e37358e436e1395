import type { CommandContext } from '../../command/command-context.js';
import { GUARD } from '../dialects/pg.js';
import { sqlText, type SqlText } from '../sql-text.js';
import type { InstanceRows } from './instance-rows.js';

/** The text a guard fails with (casting it to integer) when rows read earlier have changed since. */
export const STALE_SNAPSHOT = 'trellis-stale-snapshot:';

/** Rows a command took from an earlier read turned out changed: nothing was written; run the command again on fresh rows. */
export class StaleSnapshotError extends Error {
  constructor() {
    super('rows read before the command began have changed since');
  }
}

/**
 * PostgreSQL: a process instance's rows read before a command began (an external task's fetch reads
 * them with the lock, so that completing the task needs no read of its own), and the condition that
 * they are still as read: the external task's row at its revision; the instance's
 * executions and variables exactly these, at these revisions; its activity instances exactly these.
 */
export interface SnapshotGuard {
  processInstanceId: string;
  /** The id of the external task whose row points at the instance. */
  rowId: string;
  /** The condition over the rows the sources select (`id, rev`; activity instances `id`). */
  unchangedIn(sources: GuardSources): SqlText;
}

export interface GuardSources {
  row: SqlText;
  executions: SqlText;
  variables: SqlText;
  activityInstances: SqlText;
}

/** The guard on an external task's row and its instance's rows. */
export function snapshotGuard(row: { id: string; rev: number }, processInstanceId: string, rows: InstanceRows): SnapshotGuard {
  const activityInstanceIds = rows.activityInstances.map((instance) => instance.id);
  return {
    processInstanceId,
    rowId: row.id,
    unchangedIn: (sources) => sqlText`(select count(*) filter (where r.id = ${row.id} and r.rev = ${row.rev}) = 1 from (${sources.row}) r)
      and ${exactly(sources.executions, rows.executions)}
      and ${exactly(sources.variables, rows.variables)}
      and (select count(*) = ${activityInstanceIds.length} and coalesce(array_agg(r.id) <@ ${activityInstanceIds}::varchar[], true) from (${sources.activityInstances}) r)`,
  };
}

/** The rows the source selects are exactly these (id, rev) pairs. */
function exactly(source: SqlText, list: ReadonlyArray<{ id: string; rev: number }>): SqlText {
  return sqlText`(select ${sameRevisions(list)} from (${source}) r)`;
}

/**
 * An aggregate condition over rows of `id, rev`: they are exactly these pairs — as many, and each
 * one of them (ids are unique, so the two make the same set).
 */
export function sameRevisions(list: ReadonlyArray<{ id: string; rev: number }>): SqlText {
  return sqlText`count(*) = ${list.length} and coalesce(array_agg(id || '/' || rev) <@ ${list.map((item) => `${item.id}/${item.rev}`)}::text[], true)`;
}

/** The instance's rows as they are now. */
function currentRows(guard: SnapshotGuard): GuardSources {
  const id = guard.processInstanceId;
  return {
    row: sqlText`select id, rev from trellis_external_task where id = ${guard.rowId}`,
    executions: sqlText`select id, rev from trellis_execution where proc_inst_id = ${id}`,
    variables: sqlText`select id, rev from trellis_variable where proc_inst_id = ${id}`,
    activityInstances: sqlText`select id from trellis_activity_instance where proc_inst_id = ${id}`,
  };
}

const GUARDS = Symbol('trellis.snapshotGuards');

/**
 * Puts the guard on the command's transaction: it is checked before the transaction's first write
 * (in the same statement when that write is an ended instance's, see takeGuard) and fails the
 * command with StaleSnapshotError when the rows have changed.
 */
export async function guardSnapshot(ctx: CommandContext, guard: SnapshotGuard): Promise<void> {
  let guards = ctx.attachments.get(GUARDS) as Map<string, SnapshotGuard> | undefined;
  if (!guards) ctx.attachments.set(GUARDS, (guards = new Map()));
  guards.set(guard.processInstanceId, guard);
  await guardStatement(guard).execute(ctx.trx, 'postgres', GUARD);
}

/** The guard on the instance's rows, for a statement that checks it itself (the command then sends no check of its own). */
export function takeGuard(ctx: CommandContext, processInstanceId: string): SnapshotGuard | null {
  const guards = ctx.attachments.get(GUARDS) as Map<string, SnapshotGuard> | undefined;
  const guard = guards?.get(processInstanceId) ?? null;
  guards?.delete(processInstanceId);
  return guard;
}

// The failing text is joined with a value read from the database, so that PostgreSQL cannot evaluate the cast while planning.
const guardStatement = (guard: SnapshotGuard) =>
  sqlText`select cast(case when ${guard.unchangedIn(currentRows(guard))} then '1'
    else ${STALE_SNAPSHOT} || (select count(*) from trellis_execution where proc_inst_id = ${guard.processInstanceId}) end as integer) as checked`;
