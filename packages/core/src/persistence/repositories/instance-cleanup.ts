import type { Transaction } from 'kysely';
import { DEFERRABLE, GUARDED_DEFERRABLE } from '../dialects/pg.js';
import { sameRevisions, STALE_SNAPSHOT, type SnapshotGuard } from './instance-snapshot.js';
import type { DialectSeam } from '../dialect.js';
import type { StoreSchema } from '../schema.js';
import { executeWrites, writesStatement, type Write } from '../combined-writes.js';
import { rawText, sqlText, type SqlText } from '../sql-text.js';

/**
 * Removes what an ended (or deleted) process instance leaves outside its execution tree: tasks and
 * their candidates, variables (task-local ones included), jobs, event subscriptions, incidents and
 * external tasks. On PostgreSQL it is one statement (data-modifying CTEs; candidates go by their
 * foreign key's cascade), a round trip instead of seven; SQLite runs in process, one per table.
 */
export async function deleteInstanceRows(trx: Transaction<StoreSchema>, dialect: DialectSeam, processInstanceId: string): Promise<void> {
  if (dialect.name === 'postgres') {
    await executeWrites(trx, dialect, outsideTree(processInstanceId));
    return;
  }
  const tasks = trx.selectFrom('trellis_task').select('id').where('proc_inst_id', '=', processInstanceId);
  await trx.deleteFrom('trellis_variable').where('proc_inst_id', '=', processInstanceId).execute();
  await trx.deleteFrom('trellis_variable').where('task_id', 'in', tasks).execute();
  await trx.deleteFrom('trellis_task_candidate').where('task_id', 'in', tasks).execute();
  await trx.deleteFrom('trellis_task').where('proc_inst_id', '=', processInstanceId).execute();
  await trx.deleteFrom('trellis_job').where('process_instance_id', '=', processInstanceId).execute();
  await trx.deleteFrom('trellis_event_subscription').where('proc_inst_id', '=', processInstanceId).execute();
  await trx.deleteFrom('trellis_incident').where('proc_inst_id', '=', processInstanceId).execute();
  await trx.deleteFrom('trellis_external_task').where('proc_inst_id', '=', processInstanceId).execute();
}

/**
 * PostgreSQL only: everything of an ended instance, its execution tree included, in one statement,
 * together with `writes` that do not touch these rows (the instance's history). The statement checks
 * itself: unless it deletes exactly the `expected` executions at their revisions, it fails as a whole
 * (see OPTIMISTIC_LOCK_FAILED) and nothing is written; so it may wait for the end of the transaction.
 * With `guard`, it also compares what it deletes with the rows the command took from an earlier
 * read (see SnapshotGuard). Its own deletes are SQL text: this statement ends every instance, and
 * building them with the query builder cost the engine more than the database spent running them.
 */
export async function deleteEndedInstance(
  trx: Transaction<StoreSchema>,
  processInstanceId: string,
  expected: ReadonlyArray<{ id: string; rev: number }>,
  writes: readonly Write[] = [],
  guard: SnapshotGuard | null = null,
): Promise<void> {
  const [variables, tasks, ...others] = outsideTree(processInstanceId);
  const checked = sqlText`case when ${sameRevisions(expected)} then '1' else ${OPTIMISTIC_LOCK_FAILED} || ${processInstanceId} || ':' || count(*) end`;
  // Rows taken from an earlier read are compared with the rows this statement deletes, unless the
  // transaction made that check before other writes of its own (the first parameter, see
  // GUARDED_DEFERRABLE). A stale snapshot counts before a conflict: the command then runs again on
  // fresh rows.
  const unchanged = guard?.unchangedIn({
    row: rawText('select id, rev from deleted_external_tasks'),
    executions: rawText('select id, rev from deleted'),
    variables: rawText('select id, rev from deleted_variables'),
    activityInstances: rawText('select id from deleted_activity_instances'),
  });
  const statement = writesStatement(trx, [...others, ...writes], {
    first: unchanged ? [sqlText`guard_on as (select ${true}::boolean as checking)`] : [],
    ctes: [
      sqlText`deleted_variables as (${variables} returning id, rev)`,
      sqlText`deleted_external_tasks as (${tasks} returning id, rev)`,
      sqlText`deleted_activity_instances as (delete from trellis_activity_instance where proc_inst_id = ${processInstanceId} returning id)`,
      sqlText`deleted as (delete from trellis_execution where proc_inst_id = ${processInstanceId} returning id, rev)`,
    ],
    select: sqlText`select cast(${unchanged ? sqlText`case when not (select checking from guard_on) or (${unchanged}) then ${checked} else ${STALE_SNAPSHOT} || count(*) end` : checked} as integer) as checked from deleted`,
  });
  await statement.execute(trx, 'postgres', guard ? GUARDED_DEFERRABLE : DEFERRABLE);
}

/**
 * The text a self-checking statement fails with (casting it to integer) when it finds rows changed
 * by another transaction; translateDatabaseError turns that failure into an OptimisticLockingException.
 * The text is joined with row data so that PostgreSQL cannot evaluate the cast while planning.
 */
export const OPTIMISTIC_LOCK_FAILED = 'trellis-optimistic-lock:';

/**
 * What an instance leaves outside its execution tree, as SQL text (PostgreSQL: candidates go by
 * cascade); variables first and external tasks second (deleteEndedInstance names them).
 */
function outsideTree(processInstanceId: string): SqlText[] {
  return [
    sqlText`delete from trellis_variable where proc_inst_id = ${processInstanceId}`,
    sqlText`delete from trellis_external_task where proc_inst_id = ${processInstanceId}`,
    sqlText`delete from trellis_task where proc_inst_id = ${processInstanceId}`,
    sqlText`delete from trellis_job where process_instance_id = ${processInstanceId}`,
    sqlText`delete from trellis_event_subscription where proc_inst_id = ${processInstanceId}`,
    sqlText`delete from trellis_incident where proc_inst_id = ${processInstanceId}`,
  ];
}
