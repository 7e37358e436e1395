import type { CommandContext } from '../command/command-context.js';
import type { VariableRow } from '../persistence/repositories/variable-repository.js';
import { checkVariableWrite, fromStorage, type TypedValue } from './variables/index.js';
import { toStorage } from './variables/index.js';
import { VariableHistory, type VariableChange, type VariableHistoryScope } from '../history/variable-history.js';

interface Entry {
  row: VariableRow | null;
  value: TypedValue;
  changed: boolean;
  /** Created while the instance was starting: its creation is an "initial" detail. */
  initial?: boolean;
}

/** How variables find their way up the execution tree: an execution's parent, null at the root. */
export type ParentLookup = (executionId: string) => string | null;

/**
 * What conditional events look at: a variable created, updated or deleted on an execution (Camunda's
 * VariableEvent, dispatched to the executions below the one the variable lives on), or a new
 * conditional subscription of an activity (`event` null), evaluated once when it is made.
 */
export interface ConditionTrigger {
  executionId: string;
  name: string | null;
  event: 'create' | 'update' | 'delete' | null;
  activityId?: string;
}

/**
 * The variables of one process instance for one command, read once and written back at the end.
 * Each variable belongs to one execution (its scope); reads and non-local writes walk up the tree
 * the way Camunda's variable scopes do.
 */
export class InstanceVariables {
  /** Variables by owning execution id, then by name. */
  private readonly scopes = new Map<string, Map<string, Entry>>();
  private readonly deleted: string[] = [];
  /** Rows removed on purpose (not with their scope): history marks them DELETED. */
  private readonly removedRows: VariableRow[] = [];
  /**
   * Variables created in this command by a scope that ended before they were written (the input
   * parameters of an activity that ran through): no row, but their history, as in Camunda.
   */
  private readonly endedUnwritten: Array<{ executionId: string; name: string; value: TypedValue }> = [];
  /** Where history finds the definition and activity instances (set by the instance's runner). */
  history: VariableHistoryScope | null = null;
  private parentOf: ParentLookup = () => null;
  /**
   * The instance is starting (Camunda's isProcessInstanceStarting): from its start until it first
   * takes a flow, or until this command writes. Variables created meanwhile are its initial ones.
   */
  starting = false;
  /** What happened since takeChanges() last asked (conditional events look at it then). */
  private changes: ConditionTrigger[] = [];

  private constructor(readonly processInstanceId: string) {}

  static async load(ctx: CommandContext, processInstanceId: string): Promise<InstanceVariables> {
    return InstanceVariables.of(processInstanceId, await ctx.variables.findByProcessInstance(processInstanceId));
  }

  /** The variables of rows the command has read already. */
  static of(processInstanceId: string, rows: readonly VariableRow[]): InstanceVariables {
    const variables = new InstanceVariables(processInstanceId);
    for (const row of rows) {
      if (row.task_id !== null) continue;
      variables.scope(row.execution_id ?? processInstanceId).set(row.name, { row, value: fromStorage(row), changed: false });
    }
    return variables;
  }

  static empty(processInstanceId: string): InstanceVariables {
    return new InstanceVariables(processInstanceId);
  }

  /** Connects the variables to the execution tree they live in. */
  attach(parentOf: ParentLookup): void {
    this.parentOf = parentOf;
  }

  // --- the process instance's own variables (what REST's process-instance variables show) ---

  get(name: string): TypedValue | undefined {
    return this.getLocal(this.processInstanceId, name);
  }

  has(name: string): boolean {
    return this.hasLocal(this.processInstanceId, name);
  }

  names(): string[] {
    return this.localNames(this.processInstanceId);
  }

  set(name: string, value: TypedValue): void {
    this.setLocal(this.processInstanceId, name, value);
  }

  remove(name: string): void {
    this.removeLocal(this.processInstanceId, name);
  }

  /** The root's variables as a record. */
  snapshot(executionId = this.processInstanceId): Record<string, TypedValue> {
    return Object.fromEntries(this.localNames(executionId).map((name) => [name, this.getLocal(executionId, name)!]));
  }

  // --- local variables of one execution ---

  getLocal(executionId: string, name: string): TypedValue | undefined {
    return this.scopes.get(executionId)?.get(name)?.value;
  }

  hasLocal(executionId: string, name: string): boolean {
    return this.scopes.get(executionId)?.has(name) ?? false;
  }

  localNames(executionId: string): string[] {
    return [...(this.scopes.get(executionId)?.keys() ?? [])];
  }

  setLocal(executionId: string, name: string, value: TypedValue): void {
    checkVariableWrite(name, value);
    this.history?.activityInstanceOf(executionId);
    const scope = this.scope(executionId);
    const entry = scope.get(name);
    this.changes.push({ executionId, name, event: entry ? 'update' : 'create' });
    scope.set(name, { row: entry?.row ?? null, value, changed: true, initial: entry ? entry.initial : this.starting });
  }

  removeLocal(executionId: string, name: string): void {
    const scope = this.scopes.get(executionId);
    const entry = scope?.get(name);
    if (!scope || !entry) return;
    this.changes.push({ executionId, name, event: 'delete' });
    scope.delete(name);
    if (entry.row) this.deleted.push(entry.row.id);
    if (entry.row) this.removedRows.push(entry.row);
  }

  // --- visible variables: the execution's own, then its ancestors' ---

  /** The nearest execution (this one or an ancestor) that holds the variable. */
  ownerOf(executionId: string, name: string): string | null {
    for (let id: string | null = executionId; id !== null; id = this.parentOf(id)) {
      if (this.hasLocal(id, name)) return id;
    }
    return null;
  }

  lookup(executionId: string, name: string): TypedValue | undefined {
    const owner = this.ownerOf(executionId, name);
    return owner === null ? undefined : this.getLocal(owner, name);
  }

  /** Every variable visible from the execution, nearer scopes hiding farther ones. */
  visible(executionId: string): Record<string, TypedValue> {
    const chain: string[] = [];
    for (let id: string | null = executionId; id !== null; id = this.parentOf(id)) chain.push(id);
    const result: Record<string, TypedValue> = {};
    for (const id of chain.reverse()) Object.assign(result, this.snapshot(id));
    return result;
  }

  /** Camunda's setVariable: overwrite where the variable lives, else create it on the process instance. */
  setVisible(executionId: string, name: string, value: TypedValue): void {
    this.setLocal(this.ownerOf(executionId, name) ?? this.processInstanceId, name, value);
  }

  removeVisible(executionId: string, name: string): void {
    const owner = this.ownerOf(executionId, name);
    if (owner !== null) this.removeLocal(owner, name);
  }

  /** The variable events (and new conditional subscriptions) since the last call. */
  takeChanges(): ConditionTrigger[] {
    if (this.changes.length === 0) return this.changes;
    const changes = this.changes;
    this.changes = [];
    return changes;
  }

  /** Whether variable events (or new conditional subscriptions) wait for their evaluation. */
  get hasChanges(): boolean {
    return this.changes.length > 0;
  }

  /** A new conditional subscription: its condition is evaluated once at once. */
  conditionSubscribed(executionId: string, activityId: string): void {
    this.changes.push({ executionId, name: null, event: null, activityId });
  }

  /** Drops every variable of an execution that ended. */
  removeScope(executionId: string): void {
    const scope = this.scopes.get(executionId);
    if (!scope) return;
    for (const [name, entry] of scope) {
      if (entry.row) this.deleted.push(entry.row.id);
      else if (entry.changed && !entry.value.transient) this.endedUnwritten.push({ executionId, name, value: entry.value });
    }
    this.scopes.delete(executionId);
  }

  /** Writes what changed, and its history; `runtime` false: the instance ended, only history is written. */
  async flush(ctx: CommandContext, runtime = true): Promise<void> {
    const changes: VariableChange[] = this.endedUnwritten.splice(0).map(({ executionId, name, value }) => this.change('create', this.rowOf(ctx, executionId, name, value, null)));
    changes.push(...this.removedRows.splice(0).map((row) => this.change('delete', row)));
    for (const id of this.deleted.splice(0)) if (runtime) await ctx.variables.delete(id);
    for (const [executionId, scope] of this.scopes) {
      for (const [name, entry] of scope) {
        if (!entry.changed || entry.value.transient) continue;
        const row = this.rowOf(ctx, executionId, name, entry.value, entry.row);
        if (runtime && entry.row) await ctx.variables.update(row);
        else if (runtime) await ctx.variables.insert(row);
        changes.push(this.change(entry.row ? 'update' : 'create', row, entry.initial === true));
        entry.row = row;
        entry.changed = false;
      }
    }
    this.starting = false;
    if (this.history) await VariableHistory.write(ctx, this.history.context(), changes);
  }

  private rowOf(ctx: CommandContext, executionId: string, name: string, value: TypedValue, stored: VariableRow | null): VariableRow {
    return { ...toStorage(value), id: stored?.id ?? ctx.ids.next(), name, execution_id: executionId, proc_inst_id: this.processInstanceId, task_id: null };
  }

  private change(kind: VariableChange['kind'], row: VariableRow, initial = false): VariableChange {
    const { id, name, execution_id, proc_inst_id, task_id, ...value } = row;
    const activityInstanceId = execution_id === null ? proc_inst_id : (this.history?.activityInstanceOf(execution_id) ?? proc_inst_id);
    return { kind, id, name, value, executionId: execution_id, processInstanceId: proc_inst_id, taskId: task_id, activityInstanceId, initial };
  }

  private scope(executionId: string): Map<string, Entry> {
    let scope = this.scopes.get(executionId);
    if (!scope) this.scopes.set(executionId, (scope = new Map()));
    return scope;
  }
}
