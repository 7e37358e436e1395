import { sql, type Insertable, type RawBuilder, type Transaction } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import type { HistoricIdentityLinkTable, HistoricTaskInstanceTable, StoreSchema } from '../persistence/schema.js';
import type { Task, TaskCandidates } from '../services/task/task.js';
import { historicRootOf } from './history-roots.js';
import type { SqlText } from '../persistence/sql-text.js';
import { isHistoryEventProduced } from './history-level.js';
import { execute, type Write } from './history-writer.js';
import type { InstanceHistory } from './instance-history.js';

const PENDING = Symbol('trellis.pendingTaskHistory');
const ROWS_PER_STATEMENT = 400;

/** Camunda's TaskState (7.21+), kept on the historic task. */
export type HistoricTaskState = 'Created' | 'Updated' | 'Completed' | 'Deleted';

type TaskRow = Omit<Insertable<HistoricTaskInstanceTable>, 'root_proc_inst_id'>;
type LinkRow = Omit<Insertable<HistoricIdentityLinkTable>, 'root_proc_inst_id' | 'proc_def_key'> & {
  proc_def_key: string | null | RawBuilder<string | null>;
};

/** Tasks a process instance created in this command, written with the instance's flush (they need its root). */
interface PendingTasks {
  tasks: Map<string, TaskRow>;
  links: LinkRow[];
}

/**
 * History of user tasks (Camunda's HistoricTaskInstanceEventEntity and HistoricIdentityLinkLogEventEntity):
 * task instances from level activity on, as Camunda's HistoryLevelActivity, the identity link log at
 * level full. Everything is written in the command's transaction. A task a process instance creates
 * waits for the instance's flush and joins its statement; its end comes from its activity instance's
 * end in that flush (completed, or deleted with the instance's delete reason). Changes made by task
 * commands are written at once, the row update and its log entries in one statement on PostgreSQL.
 */
export const TaskHistory = {
  /** A process instance created a user task (behaviour userTask): its row and the links it was created with. */
  created(ctx: CommandContext, task: Task, processDefinitionKey: string | null, candidates: TaskCandidates): void {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'task-instance-create') || task.processInstanceId === null) return;
    const pending = pendingOf(ctx, task.processInstanceId);
    pending.tasks.set(task.id, historicTaskRow(task, processDefinitionKey));
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'identity-link-add')) return;
    const link = (type: string, userId: string | null, groupId: string | null) =>
      pending.links.push(linkRow(ctx, task, processDefinitionKey, type, userId, groupId, 'add'));
    for (const user of candidates.users) link('candidate', user, null);
    for (const group of candidates.groups) link('candidate', null, group);
    if (task.assignee !== null) link('assignee', task.assignee, null);
    if (task.owner !== null) link('owner', task.owner, null);
  },

  /**
   * The instance's flush (HistoryWriter.flushInstance): rows of the tasks it created in this command,
   * and the end of every task whose user task activity instance ended — completed when the activity
   * completed, else deleted with the instance's delete reason ('deleted' without one).
   */
  flushWrites(ctx: CommandContext, history: InstanceHistory, root: string | SqlText<string>, now: number): Write[] {
    const pending = ctx.attachments.get(PENDING) as Map<string, PendingTasks> | undefined;
    const created = pending?.get(history.processInstanceId);
    pending?.delete(history.processInstanceId);
    const deleteReason = history.termination?.deleteReason ?? 'deleted';
    const ended: Record<'completed' | 'deleted', string[]> = { completed: [], deleted: [] };
    const createdByActivity = new Map([...(created?.tasks.values() ?? [])].map((row) => [row.act_inst_id, row]));
    for (const activity of history.activities.values()) {
      if (!activity.ended || activity.instance.activityType !== 'userTask') continue;
      const fresh = createdByActivity.get(activity.instance.id);
      if (fresh) {
        // Created and ended in one command: the row is inserted finished (a statement cannot update what its own CTE inserts).
        Object.assign(fresh, ending(activity.canceled ? deleteReason : 'completed', activity.canceled, fresh.start_time as number, now));
      } else {
        ended[activity.canceled ? 'deleted' : 'completed'].push(activity.instance.id);
      }
    }
    const writes: Write[] = [];
    for (const [kind, ids] of Object.entries(ended)) {
      const canceled = kind === 'deleted';
      for (let i = 0; i < ids.length; i += ROWS_PER_STATEMENT) {
        const chunk = ids.slice(i, i + ROWS_PER_STATEMENT);
        const changes = { ...ending(canceled ? deleteReason : 'completed', canceled, 0, now), duration: sql<number>`${now} - start_time` };
        writes.push((db) => db.updateTable('trellis_hi_taskinst').set(changes).where('act_inst_id', 'in', chunk).where('end_time', 'is', null));
      }
    }
    if (created && created.tasks.size > 0) {
      const rows = [...created.tasks.values()].map((row) => ({ ...row, root_proc_inst_id: root }));
      writes.push((db) => db.insertInto('trellis_hi_taskinst').values(rows as Insertable<HistoricTaskInstanceTable>[]));
    }
    if (created && created.links.length > 0) {
      const rows = created.links.map((row) => ({ ...row, root_proc_inst_id: root }));
      writes.push((db) => db.insertInto('trellis_hi_identitylink').values(rows as Insertable<HistoricIdentityLinkTable>[]));
    }
    return writes;
  },

  /**
   * A task command changed the task (assignee, owner, delegation…): its historic row follows, and at
   * level full the identity link log records the assignee and owner it lost and got.
   */
  async updated(ctx: CommandContext, before: Task, after: Task): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'task-instance-update')) return;
    const changes = {
      name: after.name,
      description: after.description,
      owner: after.owner,
      assignee: after.assignee,
      priority: after.priority,
      due_date: after.due?.getTime() ?? null,
      follow_up_date: after.followUp?.getTime() ?? null,
      parent_task_id: after.parentTaskId ?? null,
    };
    const unchanged =
      (before.parentTaskId ?? null) === (after.parentTaskId ?? null) &&
      before.name === after.name && before.description === after.description && before.owner === after.owner && before.assignee === after.assignee &&
      before.priority === after.priority && before.due?.getTime() === after.due?.getTime() && before.followUp?.getTime() === after.followUp?.getTime();
    if (unchanged) return;
    const fresh = after.processInstanceId ? (ctx.attachments.get(PENDING) as Map<string, PendingTasks> | undefined)?.get(after.processInstanceId) : undefined;
    const pendingRow = fresh?.tasks.get(after.id);
    const links: LinkRow[] = [];
    if (isHistoryEventProduced(ctx.config.historyLevel, 'identity-link-add')) {
      for (const type of ['assignee', 'owner'] as const) {
        if (before[type] === after[type]) continue;
        if (before[type] !== null) links.push(linkRow(ctx, after, undefined, type, before[type], null, 'delete'));
        if (after[type] !== null) links.push(linkRow(ctx, after, undefined, type, after[type], null, 'add'));
      }
    }
    if (pendingRow && fresh) {
      // Still waiting for its instance's flush: the row to insert changes instead.
      Object.assign(pendingRow, changes);
      fresh.links.push(...links.map((link) => ({ ...link, proc_def_key: pendingRow.proc_def_key ?? null })));
      return;
    }
    const writes: Write[] = [
      (db) => db.updateTable('trellis_hi_taskinst').set({ ...changes, task_state: 'Updated' satisfies HistoricTaskState }).where('id', '=', after.id),
    ];
    if (links.length > 0) writes.push(insertLinks(links, after));
    await execute(ctx, writes);
  },

  /**
   * A task without a process instance was created (Camunda's SaveTaskCmd): its historic row, with
   * no process fields, and the identity link log of its assignee and owner (level full).
   */
  async standaloneCreated(ctx: CommandContext, task: Task): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'task-instance-create')) return;
    const row = historicTaskRow(task, null);
    const writes: Write[] = [(db) => db.insertInto('trellis_hi_taskinst').values({ ...row, root_proc_inst_id: null } as Insertable<HistoricTaskInstanceTable>)];
    if (isHistoryEventProduced(ctx.config.historyLevel, 'identity-link-add')) {
      const links = (['assignee', 'owner'] as const).filter((type) => task[type] !== null).map((type) => linkRow(ctx, task, null, type, task[type], null, 'add'));
      if (links.length > 0) writes.push(insertLinks(links, task));
    }
    await execute(ctx, writes);
  },

  /** Tasks without a process instance ended: completed, or deleted ('deleted' as reason). */
  async standaloneEnded(ctx: CommandContext, taskIds: readonly string[], deleteReason: 'completed' | 'deleted'): Promise<void> {
    if (taskIds.length === 0 || !isHistoryEventProduced(ctx.config.historyLevel, 'task-instance-complete')) return;
    const now = ctx.clock.now().getTime();
    const changes = { ...ending(deleteReason, deleteReason === 'deleted', 0, now), duration: sql<number>`${now} - start_time` };
    await execute(ctx, [(db) => db.updateTable('trellis_hi_taskinst').set(changes).where('id', 'in', [...taskIds]).where('end_time', 'is', null)]);
  },

  /** A link (candidate, custom type or none) was added to or removed from the task (identity link log, level full). */
  async linkChanged(ctx: CommandContext, task: Task, type: string | null, userId: string | null, groupId: string | null, operation: 'add' | 'delete'): Promise<void> {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'identity-link-add')) return;
    await execute(ctx, [insertLinks([linkRow(ctx, task, undefined, type, userId, groupId, operation)], task)]);
  },

  /**
   * The task history of a migrated instance: its open tasks (Camunda's task migrate events) follow the
   * target definition and the user tasks they are now; completed ones keep theirs (one update).
   */
  instanceMigratedWrites(
    ctx: CommandContext,
    processInstanceId: string,
    target: { id: string; key: string },
    activities: ReadonlyArray<{ id: string; activityId: string; activityType: string }>,
  ): Write[] {
    if (!isHistoryEventProduced(ctx.config.historyLevel, 'task-instance-migrate')) return [];
    const tasks = activities.filter((activity) => activity.activityType === 'userTask');
    const taskDefKey =
      tasks.length === 0
        ? sql.ref('task_def_key')
        : sql`case ${sql.ref('act_inst_id')} ${sql.join(
            tasks.map((each) => sql`when ${each.id} then ${each.activityId}`),
            sql` `,
          )} else ${sql.ref('task_def_key')} end`;
    return [
      (db) =>
        db
          .updateTable('trellis_hi_taskinst')
          .set({ proc_def_id: target.id, proc_def_key: target.key, task_def_key: taskDefKey as never })
          .where('proc_inst_id', '=', processInstanceId)
          .where('end_time', 'is', null),
    ];
  },

  /** A historic process instance was deleted: its tasks' history goes with it. */
  async processInstanceDeleted(trx: Transaction<StoreSchema>, processInstanceId: string): Promise<void> {
    await this.deleteNotesOf(trx, [processInstanceId]);
    await trx.deleteFrom('trellis_hi_identitylink').where('proc_inst_id', '=', processInstanceId).execute();
    await trx.deleteFrom('trellis_hi_taskinst').where('proc_inst_id', '=', processInstanceId).execute();
  },

  /**
   * The comments and attachments of historic process instances: those naming the instance and those
   * of its tasks (Camunda's deleteCommentsByProcessInstanceIds and …ByTaskProcessInstanceIds; a
   * comment created on a task names no instance). Before the historic tasks go.
   */
  async deleteNotesOf(trx: Transaction<StoreSchema>, processInstanceIds: readonly string[]): Promise<void> {
    if (processInstanceIds.length === 0) return;
    for (const table of TASK_NOTES) {
      await trx
        .deleteFrom(table)
        .where((eb) => eb.or([eb('proc_inst_id', 'in', processInstanceIds), eb('task_id', 'in', eb.selectFrom('trellis_hi_taskinst').select('id').where('proc_inst_id', 'in', processInstanceIds))]))
        .execute();
    }
  },

  /** A process definition was deleted with cascade: the history of its tasks goes too. */
  async definitionDeleted(ctx: CommandContext, processDefinitionId: string): Promise<void> {
    // Before the historic instances and tasks go: notes name their instance or their task.
    for (const table of TASK_NOTES) {
      await ctx.trx
        .deleteFrom(table)
        .where((eb) =>
          eb.or([
            eb('proc_inst_id', 'in', eb.selectFrom('trellis_hi_procinst').select('id').where('proc_def_id', '=', processDefinitionId)),
            eb('task_id', 'in', eb.selectFrom('trellis_hi_taskinst').select('id').where('proc_def_id', '=', processDefinitionId)),
          ]),
        )
        .execute();
    }
    await ctx.trx.deleteFrom('trellis_hi_identitylink').where('proc_def_id', '=', processDefinitionId).execute();
    await ctx.trx.deleteFrom('trellis_hi_taskinst').where('proc_def_id', '=', processDefinitionId).execute();
  },
};

/** Comments and attachments: history of tasks that names only the task's process instance (Camunda's ACT_HI_COMMENT, ACT_HI_ATTACHMENT). */
const TASK_NOTES = ['trellis_comment', 'trellis_attachment'] as const;

/** A task's new historic row (Camunda's HistoricTaskInstanceEventEntity at creation). */
function historicTaskRow(task: Task, processDefinitionKey: string | null): TaskRow {
  return {
    id: task.id,
    task_def_key: task.taskDefinitionKey,
    proc_def_key: processDefinitionKey,
    proc_def_id: task.processDefinitionId,
    proc_inst_id: task.processInstanceId,
    execution_id: task.executionId,
    act_inst_id: task.activityInstanceId,
    name: task.name,
    parent_task_id: task.parentTaskId ?? null,
    description: task.description,
    owner: task.owner,
    assignee: task.assignee,
    start_time: task.created.getTime(),
    end_time: null,
    duration: null,
    delete_reason: null,
    priority: task.priority,
    due_date: task.due?.getTime() ?? null,
    follow_up_date: task.followUp?.getTime() ?? null,
    tenant_id: task.tenantId,
    removal_time: null,
    task_state: 'Created' satisfies HistoricTaskState,
  };
}

function pendingOf(ctx: CommandContext, processInstanceId: string): PendingTasks {
  let all = ctx.attachments.get(PENDING) as Map<string, PendingTasks> | undefined;
  if (!all) ctx.attachments.set(PENDING, (all = new Map()));
  let pending = all.get(processInstanceId);
  if (!pending) all.set(processInstanceId, (pending = { tasks: new Map(), links: [] }));
  return pending;
}

function ending(deleteReason: string, canceled: boolean, startTime: number, now: number) {
  return { end_time: now, duration: now - startTime, delete_reason: deleteReason, task_state: (canceled ? 'Deleted' : 'Completed') satisfies HistoricTaskState };
}

/** One log entry; the definition key is looked up in the insert when the caller does not know it. */
function linkRow(
  ctx: CommandContext,
  task: Task,
  processDefinitionKey: string | null | undefined,
  type: string | null,
  userId: string | null,
  groupId: string | null,
  operation: 'add' | 'delete',
): LinkRow {
  return {
    id: ctx.ids.next(),
    timestamp: ctx.clock.now().getTime(),
    type,
    user_id: userId,
    group_id: groupId,
    task_id: task.id,
    proc_inst_id: task.processInstanceId,
    proc_def_id: task.processDefinitionId,
    proc_def_key:
      processDefinitionKey !== undefined || task.processDefinitionId === null
        ? (processDefinitionKey ?? null)
        : sql<string | null>`(select d.key from trellis_process_definition d where d.id = ${task.processDefinitionId})`,
    operation_type: operation,
    // Camunda: the authenticated user of the command that changed the link.
    assigner_id: ctx.authentication?.userId ?? null,
    tenant_id: task.tenantId,
    // The instance's, inherited (inheritedRemovalTime).
    removal_time: null,
  };
}

function insertLinks(links: readonly LinkRow[], task: Task): Write {
  const root = historicRootOf(task.processInstanceId);
  const rows = links.map((link) => ({ ...link, root_proc_inst_id: root }));
  return (db) => db.insertInto('trellis_hi_identitylink').values(rows as Insertable<HistoricIdentityLinkTable>[]);
}
