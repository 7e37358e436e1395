import { sql, type RawBuilder } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import { toStorage, type TypedValue, type VariableStorageRow } from '../runtime/variables/index.js';
import type { HistoricDetailTable, HistoricVariableInstanceTable } from '../persistence/schema.js';
import { isHistoryEventProduced } from './history-level.js';
import { historicRootOf } from './history-roots.js';
import { execute, type Write } from './history-writer.js';
import { FORM_PROPERTY, VARIABLE_UPDATE } from '../persistence/repositories/historic-variable-repository.js';
import { UserOperationLog } from './user-operation-log.js';

const ROWS_PER_STATEMENT = 400;

/** One stored variable as the runtime wrote (or removed) it. */
export interface VariableChange {
  kind: 'create' | 'update' | 'delete';
  id: string;
  name: string;
  value: VariableStorageRow;
  executionId: string | null;
  processInstanceId: string | null;
  taskId: string | null;
  activityInstanceId: string | null;
  /** Created while its instance was starting (Camunda's initial detail). */
  initial?: boolean;
}

/** What the historic rows of a scope's variables carry besides the variable itself. */
export interface VariableHistoryContext {
  processDefinitionId: string | null;
  processDefinitionKey: string | RawBuilder<string | null> | null;
  tenantId: string | null;
}

/** Where the variables of one process instance live (kept by InstanceVariables while a command runs). */
export interface VariableHistoryScope {
  context(): VariableHistoryContext;
  /** The activity instance a variable of the execution belongs to; remembered, as the execution may end before the flush. */
  activityInstanceOf(executionId: string): string | null;
}

/** The scope of a process instance's variables: its definition, and activity instances from its execution tree. */
export function instanceVariableScope(
  processInstanceId: string,
  definition: { id: string; key: string; tenantId: string | null },
  scopeInstanceOf: (executionId: string) => string | null | undefined,
): VariableHistoryScope {
  const known = new Map<string, string | null>();
  return {
    context: () => ({ processDefinitionId: definition.id, processDefinitionKey: definition.key, tenantId: definition.tenantId }),
    activityInstanceOf(executionId) {
      const current = scopeInstanceOf(executionId);
      // The runtime's VariableInstanceQuery rule: the execution's scope instance, else the process instance.
      if (current !== undefined) known.set(executionId, current ?? processInstanceId);
      return known.get(executionId) ?? processInstanceId;
    },
  };
}

/**
 * Writes historic variable instances (level audit and up) and, at full, one historic detail per
 * change, in the command's transaction: new instances in multi-row inserts, deletions in one
 * update, each changed value in an update of its own — on PostgreSQL all as one statement.
 */
export const VariableHistory = {
  async write(ctx: CommandContext, context: VariableHistoryContext | null, changes: readonly VariableChange[]): Promise<void> {
    if (changes.length === 0 || !isHistoryEventProduced(ctx.config.historyLevel, 'variable-instance-create')) return;
    const now = ctx.clock.now().getTime();
    const scope = context ?? { processDefinitionId: null, processDefinitionKey: null, tenantId: null };
    const writes: Write[] = [];
    // Camunda: only HistoryLevelFull produces VARIABLE_INSTANCE_UPDATE_DETAIL. Details go first: their
    // revision reads the instance row before this flush's update (PostgreSQL sees that snapshot anyway).
    if (ctx.config.historyLevel === 'full') {
      const details = changes.map((change) => detailRow(ctx, change, scope, now));
      for (let i = 0; i < details.length; i += ROWS_PER_STATEMENT) {
        const chunk = details.slice(i, i + ROWS_PER_STATEMENT);
        writes.push((db) => db.insertInto('trellis_hi_detail').values(chunk as HistoricDetailTable[]));
      }
    }
    const created = changes.filter((change) => change.kind === 'create').map((change) => instanceRow(ctx, change, scope, now));
    for (let i = 0; i < created.length; i += ROWS_PER_STATEMENT) {
      const chunk = created.slice(i, i + ROWS_PER_STATEMENT);
      writes.push((db) => db.insertInto('trellis_hi_varinst').values(chunk as HistoricVariableInstanceTable[]));
    }
    for (const change of changes.filter((each) => each.kind === 'update')) {
      const { type, text, text2, long_value, double_value, bytes } = change.value;
      const values = { type, text, text2, long_value, double_value, bytes, state: 'CREATED', rev: sql<number>`rev + 1` };
      writes.push((db) => db.updateTable('trellis_hi_varinst').set(values).where('id', '=', change.id));
    }
    const deleted = changes.filter((change) => change.kind === 'delete').map((change) => change.id);
    if (deleted.length > 0) writes.push((db) => db.updateTable('trellis_hi_varinst').set({ state: 'DELETED' }).where('id', 'in', deleted));
    await execute(ctx, writes);
  },
};

/** Where a form was submitted: a task's form (with its execution), or an instance's start form. */
export interface FormScope {
  processInstanceId: string;
  executionId: string;
  activityInstanceId: string | null;
  taskId: string | null;
  processDefinitionId: string | null;
  tenantId: string | null;
}

/**
 * Camunda's DefaultFormHandler.fireFormPropertyHistoryEvents (level full): a form field detail per
 * submitted variable whose value is a String; other values leave none.
 */
export async function formFieldsSubmitted(ctx: CommandContext, scope: FormScope, submitted: Record<string, TypedValue>): Promise<void> {
  if (!isHistoryEventProduced(ctx.config.historyLevel, 'form-property-update')) return;
  const now = ctx.clock.now().getTime();
  const context = definitionContext(scope.processDefinitionId, scope.tenantId);
  const rows = Object.entries(submitted)
    .filter(([, value]) => value.type === 'string' && typeof value.value === 'string')
    .map(([name, value]) => ({
      id: ctx.ids.next(),
      type: FORM_PROPERTY,
      var_inst_id: null,
      name,
      var_type: null,
      rev: 0,
      time: now,
      sequence_counter: nextSequence(),
      initial: 0,
      operation_id: UserOperationLog.operationId(ctx),
      text: value.value as string,
      text2: null,
      long_value: null,
      double_value: null,
      bytes: null,
      ...scopeColumns(ctx, { ...scope, kind: 'create', id: '', name, value: toStorage(value) }, context),
    }));
  if (rows.length > 0) await ctx.trx.insertInto('trellis_hi_detail').values(rows as HistoricDetailTable[]).execute();
}

/** A task-local variable the task service wrote or removed. */
export interface TaskVariableChange {
  kind: VariableChange['kind'];
  id: string;
  name: string;
  value: TypedValue;
}

interface TaskScope {
  id: string;
  processInstanceId: string | null;
  executionId: string | null;
  processDefinitionId: string | null;
  activityInstanceId: string | null;
  tenantId: string | null;
}

/** History of a task's local variables; the definition key is read inside the insert. */
export async function taskVariablesWritten(ctx: CommandContext, task: TaskScope, changes: readonly TaskVariableChange[]): Promise<void> {
  if (changes.length === 0) return;
  await VariableHistory.write(
    ctx,
    definitionContext(task.processDefinitionId, task.tenantId),
    changes.map((change) => ({
      kind: change.kind,
      id: change.id,
      name: change.name,
      value: toStorage(change.value),
      executionId: task.executionId,
      processInstanceId: task.processInstanceId,
      taskId: task.id,
      activityInstanceId: task.activityInstanceId,
    })),
  );
}

/** A scope's definition by id; its key is read inside the insert. */
function definitionContext(processDefinitionId: string | null, tenantId: string | null): VariableHistoryContext {
  const key = processDefinitionId === null ? null : sql<string | null>`(select d.key from trellis_process_definition d where d.id = ${processDefinitionId})`;
  return { processDefinitionId, processDefinitionKey: key, tenantId };
}

function scopeColumns(ctx: CommandContext, change: VariableChange, scope: VariableHistoryContext) {
  return {
    proc_def_id: scope.processDefinitionId,
    proc_def_key: scope.processDefinitionKey,
    proc_inst_id: change.processInstanceId,
    root_proc_inst_id: historicRootOf(change.processInstanceId),
    execution_id: change.executionId,
    act_inst_id: change.activityInstanceId,
    task_id: change.taskId,
    tenant_id: scope.tenantId,
    // The instance's, inherited (inheritedRemovalTime).
    removal_time: null,
  };
}

function instanceRow(ctx: CommandContext, change: VariableChange, scope: VariableHistoryContext, now: number) {
  return { id: change.id, rev: 0, name: change.name, ...change.value, ...scopeColumns(ctx, change, scope), state: 'CREATED', create_time: now };
}

function detailRow(ctx: CommandContext, change: VariableChange, scope: VariableHistoryContext, now: number) {
  // Camunda's revision of the variable when the event happened: 0 when created, one more per update.
  const rev = change.kind === 'create'
    ? 0
    : sql<number>`coalesce((select h.rev from trellis_hi_varinst h where h.id = ${change.id}), 0) + ${change.kind === 'update' ? 1 : 0}`;
  const { type, ...value } = change.value;
  return {
    id: ctx.ids.next(),
    type: VARIABLE_UPDATE,
    var_inst_id: change.id,
    name: change.name,
    var_type: type,
    rev,
    time: now,
    sequence_counter: nextSequence(),
    initial: Number(change.kind === 'create' && change.initial === true),
    operation_id: UserOperationLog.operationId(ctx),
    ...value,
    ...scopeColumns(ctx, change, scope),
  };
}

/**
 * Orders details that share their time (a fixed test clock, or one command): a counter of this
 * process, started from the wall clock in microseconds so that it keeps growing across restarts.
 */
let sequence = Date.now() * 1000;
const nextSequence = () => ++sequence;
