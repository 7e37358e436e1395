import { sql, type RawBuilder } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import { updateRows, type Write } from '../persistence/combined-writes.js';
import type { InstanceHistory } from './instance-history.js';

const REMOVAL_TIMES = Symbol('trellis.removalTimes');
const WITH_VARIABLES = Symbol('trellis.variableHistoryWritten');
const DAY_MS = 86_400_000;

/** A removal time as written: epoch milliseconds, null, or read by the statement itself. */
export type RemovalTime = number | null | RawBuilder<number | null>;

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
 * The removal time a history row of `processInstanceId` gets when it is written now: the one this
 * command decided for the instance (its root started or ended), else with strategy `start` the one
 * its historic process instance carries (read inside the insert, no round trip), else none.
 */
export function removalTimeFor(ctx: CommandContext, processInstanceId: string | null): RemovalTime {
  const strategy = ctx.config.historyCleanup.removalTimeStrategy;
  if (strategy === 'none' || processInstanceId === null) return null;
  const known = (ctx.attachments.get(REMOVAL_TIMES) as Map<string, RemovalTime> | undefined)?.get(processInstanceId);
  if (known !== undefined) return known;
  return strategy === 'start' ? sql<number | null>`(select rt.removal_time from trellis_hi_procinst rt where rt.id = ${processInstanceId})` : null;
}

/**
 * removalTimeFor a historic variable or detail row; it also notes that the instance has variable
 * history from this command, which an instance ending in the command that started it must update.
 */
export function variableRemovalTime(ctx: CommandContext, processInstanceId: string | null): RemovalTime {
  if (processInstanceId === null || ctx.config.historyCleanup.removalTimeStrategy === 'none') return null;
  let noted = ctx.attachments.get(WITH_VARIABLES) as Set<string> | undefined;
  if (!noted) ctx.attachments.set(WITH_VARIABLES, (noted = new Set()));
  noted.add(processInstanceId);
  return removalTimeFor(ctx, processInstanceId);
}

/**
 * The removal time an update ending rows of the instance sets: with strategy `end`, once the root
 * ended in this command; otherwise rows keep what they were written with (undefined: leave it).
 */
export function endingRemovalTime(ctx: CommandContext, processInstanceId: string): RemovalTime | undefined {
  if (ctx.config.historyCleanup.removalTimeStrategy !== 'end') return undefined;
  const value = removalTimeFor(ctx, processInstanceId);
  return value === null ? undefined : value;
}

/**
 * Called by the instance's history flush before it builds its writes: decides the removal time of
 * what the flush writes (strategy `start`: when the instance's row is inserted; `end`: when the root
 * ends) and returns the updates that give it to rows written before. The updates touch only rows no
 * other write of the flush touches (those carry the removal time themselves), so on PostgreSQL they
 * join the flush's single statement.
 */
export function instanceRemovalWrites(ctx: CommandContext, history: InstanceHistory, root: string | RawBuilder<string>, now: number): Write[] {
  const strategy = ctx.config.historyCleanup.removalTimeStrategy;
  const pending = history.processInstance;
  if (strategy === 'none' || !pending) return [];
  const id = history.processInstanceId;
  const isRoot = root === id;
  const definitionId = history.definition?.id;
  if (!definitionId) return [];
  const times = decided(ctx);
  // The first flush of an instance this command started: its rows are all in this flush, except
  // variables written before it and instances it called (flushed before it); only those need updates.
  const firstFlush = !pending.written;
  const calledInstances = firstFlush && [...history.activities.values()].some((each) => each.calledProcessInstanceId !== null || each.instance.activityType === 'callActivity');
  const earlierVariables = (value: RemovalTime): Write[] =>
    (ctx.attachments.get(WITH_VARIABLES) as Set<string> | undefined)?.has(id)
      ? [
          (db) => db.updateTable('trellis_hi_varinst').set({ removal_time: value }).where('proc_inst_id', '=', id).where('removal_time', 'is', null),
          (db) => db.updateTable('trellis_hi_detail').set({ removal_time: value }).where('proc_inst_id', '=', id).where('removal_time', 'is', null),
        ]
      : [];
  if (strategy === 'start') {
    if (!firstFlush) return [];
    const value: RemovalTime = isRoot
      ? timeToLiveAfter(pending.startTime.getTime(), definitionId)
      : typeof root === 'string' && times.has(root)
        ? times.get(root)!
        : sql<number | null>`(select rt.removal_time from trellis_hi_procinst rt where rt.id = ${root})`;
    times.set(id, value);
    return [...earlierVariables(value), ...(isRoot && calledInstances ? hierarchyWrites(id, value, 'called') : [])];
  }
  if (!isRoot) {
    // A sub instance ending after its root in the same command (cancellation) takes the root's.
    if (typeof root === 'string' && times.has(root)) times.set(id, times.get(root)!);
    return [];
  }
  if (!pending.ended) return [];
  const value = timeToLiveAfter(now, definitionId);
  times.set(id, value);
  return firstFlush && !calledInstances ? earlierVariables(value) : hierarchyWrites(id, value, 'ended');
}

/**
 * `base` plus the definition's time to live, read by the statement itself: the time to live can
 * change after the runtime cached the definition, and reading it costs no round trip (null: none).
 */
function timeToLiveAfter(base: number, definitionId: string): RawBuilder<number | null> {
  return sql<number | null>`(select ${base} + cast(ttl.history_time_to_live as bigint) * ${DAY_MS} from trellis_process_definition ttl where ttl.id = ${definitionId})`;
}

/**
 * `ended` (strategy end, the root ended): every row of the root's hierarchy written before this
 * flush and not ended by it gets `removalTime`. `called` (strategy start, the root's first flush):
 * rows of the instances it called, written before, that have none yet.
 */
function hierarchyWrites(root: string, removalTime: RemovalTime, mode: 'ended' | 'called'): Write[] {
  const set = { removal_time: removalTime };
  if (mode === 'called') {
    const called = (column: 'proc_inst_id' | 'process_instance_id') =>
      sql`${sql.ref(column)} in (select hr.id from trellis_hi_procinst hr where hr.root_proc_inst_id = ${root} and hr.id <> ${root}) and removal_time is null`;
    return [
      updateRows('trellis_hi_procinst', set, sql`root_proc_inst_id = ${root} and id <> ${root} and removal_time is null`),
      ...INSTANCE_TABLES.filter(([table]) => table !== 'trellis_hi_op_log').map(([table, column]) => updateRows(table, set, called(column))),
    ];
  }
  // One IN over a union, not `= root OR IN (…)`: PostgreSQL scans the whole table for that OR.
  // SQL text, not the query builder: these run on every root instance end.
  const inHierarchy = sql`in (select hr.id from trellis_hi_procinst hr where hr.root_proc_inst_id = ${root} union all select cast(${root} as varchar(64)))`;
  return [
    updateRows('trellis_hi_procinst', set, sql`root_proc_inst_id = ${root} and id <> ${root}`),
    ...INSTANCE_TABLES.map(([table, column]) =>
      updateRows(
        table,
        set,
        table === 'trellis_hi_op_log' ? sql`root_proc_inst_id = ${root}` : sql`${sql.ref(column)} ${inHierarchy}${ENDED_ROWS_ONLY.has(table) ? sql` and end_time is not null` : sql``}`,
      ),
    ),
  ];
}

/** Tables whose rows of a running instance are still being written: only ended ones get a removal time. */
const ENDED_ROWS_ONLY = new Set<string>(['trellis_hi_actinst', 'trellis_hi_taskinst', 'trellis_hi_incident']);

const INSTANCE_TABLES = [
  ['trellis_hi_actinst', 'proc_inst_id'],
  ['trellis_hi_taskinst', 'proc_inst_id'],
  ['trellis_hi_incident', 'proc_inst_id'],
  ['trellis_hi_identitylink', 'proc_inst_id'],
  ['trellis_hi_varinst', 'proc_inst_id'],
  ['trellis_hi_detail', 'proc_inst_id'],
  ['trellis_hi_ext_task_log', 'proc_inst_id'],
  ['trellis_hi_job_log', 'process_instance_id'],
  ['trellis_hi_op_log', 'proc_inst_id'],
] as const;

/**
 * Sets the removal time of all history of one process instance, or of a whole hierarchy by its root
 * (Camunda's addRemovalTimeToProcessInstance / addRemovalTimeToHierarchy).
 */
export async function setInstanceRemovalTime(ctx: CommandContext, target: { processInstanceId: string } | { rootProcessInstanceId: string }, removalTime: number | null): Promise<void> {
  const set = { removal_time: removalTime };
  if ('processInstanceId' in target) {
    const id = target.processInstanceId;
    await ctx.trx.updateTable('trellis_hi_procinst').set(set).where('id', '=', id).execute();
    for (const [table, column] of INSTANCE_TABLES) await ctx.trx.updateTable(table).set(set).where(sql.ref(column), '=', id).execute();
    return;
  }
  const root = target.rootProcessInstanceId;
  const ids = (await ctx.trx.selectFrom('trellis_hi_procinst').select('id').where('root_proc_inst_id', '=', root).execute()).map((row) => row.id);
  const all = [...new Set([root, ...ids])];
  await ctx.trx.updateTable('trellis_hi_procinst').set(set).where('id', 'in', all).execute();
  for (const [table, column] of INSTANCE_TABLES) await ctx.trx.updateTable(table).set(set).where(sql.ref(column), 'in', all).execute();
}
