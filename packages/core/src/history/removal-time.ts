import { sql, type SqlBool } from 'kysely';
import { Resources } from '../authorization/resources.js';
import type { CommandContext } from '../command/command-context.js';
import { updateRows, type Write } from '../persistence/combined-writes.js';
import { sqlText, type SqlText } from '../persistence/sql-text.js';
import type { InstanceHistory } from './instance-history.js';

const REMOVAL_TIMES = Symbol('trellis.removalTimes');
/** One day in milliseconds (times to live are days). */
export const DAY_MS = 86_400_000;

/** A removal time as written: epoch milliseconds, null, or read by the statement itself. */
export type RemovalTime = number | null | SqlText<number | null>;

/** `base` plus a time to live in days; no time to live, no removal time. */
export function addTimeToLive(base: number, historyTimeToLive: number | null | undefined): number | null {
  return historyTimeToLive === null || historyTimeToLive === undefined ? null : base + historyTimeToLive * DAY_MS;
}

function decided(ctx: CommandContext): Map<string, RemovalTime> {
  let map = ctx.attachments.get(REMOVAL_TIMES) as Map<string, RemovalTime> | undefined;
  if (!map) ctx.attachments.set(REMOVAL_TIMES, (map = new Map()));
  return map;
}

/**
 * The removal time this command decided for the historic process instance row of
 * `processInstanceId` (its root started, strategy `start`, or ended, strategy `end`); undefined:
 * none decided (an update leaves the row's as it is). Only these rows get a removal time from the
 * engine: every other history row of an instance inherits its instance's (inheritedRemovalTime).
 */
export function decidedRemovalTime(ctx: CommandContext, processInstanceId: string): RemovalTime | undefined {
  return (ctx.attachments.get(REMOVAL_TIMES) as Map<string, RemovalTime> | undefined)?.get(processInstanceId);
}

/**
 * Called by the instance's history flush before it builds its writes: decides the removal time of
 * the instance's historic process instance row (strategy `start`: when it is inserted; `end`: when
 * the root ends) and returns the updates that give it to the other historic process instances of
 * the hierarchy. The rest of the instance's history (activities, variables, logs…) is written
 * without one and inherits it (inheritedRemovalTime): what Camunda gets by writing it into every
 * history row, and by updating every history table of the hierarchy when the root ends, for a
 * tenth of the writes and none of their index entries. The updates touch only rows no other write
 * of the flush touches, so on PostgreSQL they join the flush's single statement.
 */
export function instanceRemovalWrites(ctx: CommandContext, history: InstanceHistory, root: string | SqlText<string>, now: number): Write[] {
  const strategy = ctx.config.historyCleanup.removalTimeStrategy;
  const pending = history.processInstance;
  if (strategy === 'none' || !pending) return [];
  const id = history.processInstanceId;
  const isRoot = root === id;
  const definitionId = history.definition?.id;
  if (!definitionId) return [];
  const times = decided(ctx);
  // The first flush of an instance this command started writes the instance's row itself; only the
  // instances it called (flushed before it) need an update.
  const firstFlush = !pending.written;
  const calledInstances = firstFlush && [...history.activities.values()].some((each) => each.calledProcessInstanceId !== null || each.instance.activityType === 'callActivity');
  if (strategy === 'start') {
    if (!firstFlush) return [];
    const value: RemovalTime = isRoot
      ? timeToLiveAfter(pending.startTime.getTime(), definitionId)
      : typeof root === 'string' && times.has(root)
        ? times.get(root)!
        : sqlText<number | null>`(select rt.removal_time from trellis_hi_procinst rt where rt.id = ${root})`;
    times.set(id, value);
    const writes = isRoot && calledInstances ? [updateRows('trellis_hi_procinst', { removal_time: value }, sqlText`root_proc_inst_id = ${id} and id <> ${id} and removal_time is null`)] : [];
    // Grants on its historic tasks made before this flush (the instance's start command) take it too.
    if (isRoot && historicGrants(ctx)) writes.push(updateRows('trellis_authorization', { removal_time: value }, sqlText`root_proc_inst_id = ${id} and removal_time is null`));
    return writes;
  }
  if (!isRoot) {
    // A sub instance ending after its root in the same command (cancellation) takes the root's.
    if (typeof root === 'string' && times.has(root)) times.set(id, times.get(root)!);
    return [];
  }
  if (!pending.ended) return [];
  const value = timeToLiveAfter(now, definitionId);
  times.set(id, value);
  const writes = firstFlush && !calledInstances ? [] : [updateRows('trellis_hi_procinst', { removal_time: value }, sqlText`root_proc_inst_id = ${id} and id <> ${id}`)];
  // Camunda's addRemovalTimeToAuthorizationsByRootProcessInstanceId, with instance permissions on.
  if (historicGrants(ctx)) writes.push(updateRows('trellis_authorization', { removal_time: value }, sqlText`root_proc_inst_id = ${id}`));
  return writes;
}

/** Whether grants on historic instances and tasks follow their history's removal time (enableHistoricInstancePermissions). */
const historicGrants = (ctx: CommandContext) => ctx.config.authorization.enableHistoricInstancePermissions;

/**
 * `base` plus the definition's time to live, read by the statement itself: the time to live can
 * change after the runtime cached the definition, and reading it costs no round trip (null: none).
 */
function timeToLiveAfter(base: number, definitionId: string): SqlText<number | null> {
  return sqlText<number | null>`(select ${base} + cast(ttl.history_time_to_live as bigint) * ${DAY_MS} from trellis_process_definition ttl where ttl.id = ${definitionId})`;
}

/** The history tables holding rows of a process instance (besides the historic instance itself), and the column naming it. */
export const INSTANCE_TABLES = [
  ['trellis_hi_actinst', 'proc_inst_id'],
  ['trellis_hi_taskinst', 'proc_inst_id'],
  ['trellis_hi_incident', 'proc_inst_id'],
  ['trellis_hi_identitylink', 'proc_inst_id'],
  ['trellis_hi_varinst', 'proc_inst_id'],
  ['trellis_hi_detail', 'proc_inst_id'],
  ['trellis_hi_ext_task_log', 'proc_inst_id'],
  ['trellis_hi_job_log', 'process_instance_id'],
  ['trellis_hi_op_log', 'proc_inst_id'],
  ['trellis_attachment', 'proc_inst_id'],
  ['trellis_comment', 'proc_inst_id'],
] as const;

/**
 * The history tables whose rows inherit the removal time of a historic process instance, and the
 * column naming it: their own instance's, the operation log and comments their root's (as Camunda's
 * addRemovalTimeToUserOperationLogByRootProcessInstanceId / …CommentsByRootProcessInstanceId: a
 * comment created on a task names no instance, only its root).
 */
export const INHERITED_THROUGH = {
  trellis_hi_actinst: 'proc_inst_id',
  trellis_hi_taskinst: 'proc_inst_id',
  trellis_hi_incident: 'proc_inst_id',
  trellis_hi_identitylink: 'proc_inst_id',
  trellis_hi_varinst: 'proc_inst_id',
  trellis_hi_detail: 'proc_inst_id',
  trellis_hi_ext_task_log: 'proc_inst_id',
  trellis_hi_job_log: 'process_instance_id',
  trellis_hi_op_log: 'root_proc_inst_id',
  trellis_attachment: 'proc_inst_id',
  trellis_comment: 'root_proc_inst_id',
} as const;

/**
 * The removal time a row of `table` (queried as `alias`) has: its own (set by set-removal-time),
 * else its historic process instance's (INHERITED_THROUGH), read by the query. Selected as
 * `inherited_removal_time`.
 */
export function inheritedRemovalTime(table: keyof typeof INHERITED_THROUGH, alias: string) {
  const instance = sql.ref(`${alias}.${INHERITED_THROUGH[table]}`);
  return sql<number | null>`coalesce(${sql.ref(`${alias}.removal_time`)}, (select hp.removal_time from trellis_hi_procinst hp where hp.id = ${instance}))`.as('inherited_removal_time');
}

/**
 * Sets the removal time of all history of one process instance, or of a whole hierarchy by its root
 * (Camunda's addRemovalTimeToProcessInstance / addRemovalTimeToHierarchy).
 */
export async function setInstanceRemovalTime(ctx: CommandContext, target: RemovalTimeTarget, removalTime: number | null): Promise<void> {
  const set = { removal_time: removalTime };
  const ids = await targetInstances(ctx, target);
  await ctx.trx.updateTable('trellis_hi_procinst').set(set).where('id', 'in', ids).execute();
  for (const [table, column] of INSTANCE_TABLES) await ctx.trx.updateTable(table).set(set).where(rowsOfInstances(table, column, ids)).execute();
  if (historicGrants(ctx)) await ctx.trx.updateTable('trellis_authorization').set(set).where(grantsOf(target)).execute();
}

/**
 * The grants a set-removal-time changes with instance permissions on: of a hierarchy, those of its
 * root (Camunda's updateAuthorizationsByRootProcessInstanceId); of one instance, those on it and on
 * its historic tasks (updateAuthorizationsByProcessInstanceId, here only on those two resource types).
 */
function grantsOf(target: RemovalTimeTarget) {
  if ('rootProcessInstanceId' in target) return sql<SqlBool>`root_proc_inst_id = ${target.rootProcessInstanceId}`;
  const id = target.processInstanceId;
  return sql<SqlBool>`((resource_type = ${Resources.HISTORIC_PROCESS_INSTANCE.code} and resource_id = ${id})
    or (resource_type = ${Resources.HISTORIC_TASK.code} and resource_id in (select t.id from trellis_hi_taskinst t where t.proc_inst_id = ${id})))`;
}

/** One historic process instance, or a whole hierarchy by its root. */
export type RemovalTimeTarget = { processInstanceId: string } | { rootProcessInstanceId: string };

/** A set-removal-time job with updateInChunks names the tables its next run updates with these names. */
const HISTORIC_INSTANCES = 'trellis_hi_procinst';
const GRANTS = 'trellis_authorization';

/**
 * One run of a chunked set-removal-time (Camunda's updateInChunks): up to `chunkSize` rows of each
 * history table named in `tables` (none named: every table but the historic process instances)
 * whose removal time is not yet the new one; the historic process instances themselves come last, in
 * a run of their own, so that no row outlives its instance in cleanup. Returns the tables the next
 * run updates: those that filled a chunk (they may have more); none when the target is done.
 */
export async function setInstanceRemovalTimeInChunks(ctx: CommandContext, target: RemovalTimeTarget, removalTime: number | null, chunkSize: number, tables: readonly string[]): Promise<string[]> {
  const ids = await targetInstances(ctx, target);
  const instancesOnly = tables.length === 1 && tables[0] === HISTORIC_INSTANCES;
  const differs = removalTime === null ? sql`removal_time is not null` : sql`(removal_time is null or removal_time <> ${removalTime})`;
  const chunk = async (table: string, column: string) => {
    const { numAffectedRows } = await sql`update ${sql.table(table)} set removal_time = ${removalTime}
      where id in (select id from ${sql.table(table)} where ${rowsOfInstances(table, column, ids)} and ${differs} limit ${chunkSize})`.execute(ctx.trx);
    return Number(numAffectedRows ?? 0) >= chunkSize;
  };
  if (instancesOnly) return (await chunk(HISTORIC_INSTANCES, 'id')) ? [HISTORIC_INSTANCES] : [];
  const full: string[] = [];
  for (const [table, column] of INSTANCE_TABLES) {
    if (tables.length > 0 && !tables.includes(table)) continue;
    if (await chunk(table, column)) full.push(table);
  }
  if (historicGrants(ctx) && (tables.length === 0 || tables.includes(GRANTS))) {
    const { numAffectedRows } = await sql`update trellis_authorization set removal_time = ${removalTime}
      where id in (select id from trellis_authorization where ${grantsOf(target)} and ${differs} limit ${chunkSize})`.execute(ctx.trx);
    if (Number(numAffectedRows ?? 0) >= chunkSize) full.push(GRANTS);
  }
  return full.length > 0 ? full : [HISTORIC_INSTANCES];
}

/**
 * The rows of a history table that belong to these instances: by its instance column, and comments
 * and attachments also by their task (Camunda's addRemovalTimeToCommentsByProcessInstanceId: a
 * comment created on a task names no instance).
 */
function rowsOfInstances(table: string, column: string, ids: readonly string[]) {
  const byInstance = sql<SqlBool>`${sql.ref(column)} in (${sql.join(ids)})`;
  if (table !== 'trellis_comment' && table !== 'trellis_attachment') return byInstance;
  return sql<SqlBool>`(${byInstance} or task_id in (select t.id from trellis_hi_taskinst t where t.proc_inst_id in (${sql.join(ids)})))`;
}

/** The ids of the target's historic process instances (a hierarchy: its root and every instance below it). */
async function targetInstances(ctx: CommandContext, target: RemovalTimeTarget): Promise<string[]> {
  if ('processInstanceId' in target) return [target.processInstanceId];
  const root = target.rootProcessInstanceId;
  const ids = (await ctx.trx.selectFrom('trellis_hi_procinst').select('id').where('root_proc_inst_id', '=', root).execute()).map((row) => row.id);
  return [...new Set([root, ...ids])];
}
