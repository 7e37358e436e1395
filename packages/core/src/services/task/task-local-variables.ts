import type { CommandContext } from '../../command/command-context.js';
import { taskVariablesWritten, type TaskVariableChange } from '../../history/variable-history.js';
import { checkVariableWrite, type TypedValue } from '../../runtime/variables/index.js';
import type { Task } from './task.js';

/** A task's stored local variables by name (what TaskVariableRepository.findByTask answers). */
export type StoredTaskLocals = Map<string, { id: string; value: TypedValue }>;

/**
 * Sets, then removes, variables on the task itself (rows with its task id), with their history;
 * `locals` is kept up to date. Names to remove that the task does not hold are skipped.
 */
export async function writeTaskLocals(
  ctx: CommandContext,
  task: Task,
  locals: StoredTaskLocals,
  modifications: Iterable<[string, TypedValue]>,
  deletions: Iterable<string>,
): Promise<void> {
  const history: TaskVariableChange[] = [];
  for (const [name, value] of modifications) {
    checkVariableWrite(name, value);
    const existing = locals.get(name);
    const id = await ctx.tasks.variables.save(task, name, value, existing?.id ?? null, () => ctx.ids.next());
    if (id === null) continue; // transient
    history.push({ kind: existing ? 'update' : 'create', id, name, value });
    locals.set(name, { id, value });
  }
  for (const name of deletions) {
    const existing = locals.get(name);
    if (!existing) continue;
    await ctx.tasks.variables.delete(existing.id);
    history.push({ kind: 'delete', id: existing.id, name, value: existing.value });
    locals.delete(name);
  }
  await taskVariablesWritten(ctx, task, history);
}

/**
 * A task's local variables as its task listeners see them (DelegateTask's …Local methods): read
 * before they run, changed in memory while they run (the listener API is synchronous), written by
 * `flush` — for a task being created, after its row is inserted.
 */
export class TaskLocalVariables {
  /** Changes not yet written, by name: a value, or null for a removal. */
  private readonly changes = new Map<string, TypedValue | null>();

  private constructor(private readonly stored: StoredTaskLocals) {}

  static async of(ctx: CommandContext, taskId: string): Promise<TaskLocalVariables> {
    return new TaskLocalVariables(await ctx.tasks.variables.findByTask(taskId));
  }

  /** A new task's: none yet. */
  static none(): TaskLocalVariables {
    return new TaskLocalVariables(new Map());
  }

  get(name: string): TypedValue | undefined {
    const changed = this.changes.get(name);
    return changed === undefined ? this.stored.get(name)?.value : (changed ?? undefined);
  }

  has(name: string): boolean {
    return this.get(name) !== undefined;
  }

  names(): string[] {
    const names = new Set([...this.stored.keys(), ...this.changes.keys()]);
    return [...names].filter((name) => this.has(name));
  }

  set(name: string, value: TypedValue): void {
    this.changes.set(name, value);
  }

  remove(name: string): void {
    if (this.stored.has(name) || this.changes.has(name)) this.changes.set(name, null);
  }

  async flush(ctx: CommandContext, task: Task): Promise<void> {
    if (this.changes.size === 0) return;
    const changes = [...this.changes];
    this.changes.clear();
    const modifications = changes.filter((change): change is [string, TypedValue] => change[1] !== null);
    const deletions = changes.filter(([, value]) => value === null).map(([name]) => name);
    await writeTaskLocals(ctx, task, this.stored, modifications, deletions);
  }
}
