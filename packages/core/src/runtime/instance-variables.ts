import type { CommandContext } from '../command/command-context.js';
import type { VariableRow } from '../persistence/repositories/variable-repository.js';
import type { Execution } from './execution.js';
import { executionFacade } from './execution-facade.js';
import type { ExpressionContext } from './expressions/index.js';
import { S } from './expressions/spin-json.js';
import { fromStorage, toJavaScriptValue, toStorage, type TypedValue } from './variables/index.js';

interface Entry {
  row: VariableRow | null;
  value: TypedValue;
  changed: boolean;
}

/**
 * The variables of one process instance for one command, read once and written back at the end.
 * Variables live on the process instance scope (local scopes arrive with sub-processes and io mappings).
 */
export class InstanceVariables {
  private readonly entries = new Map<string, Entry>();
  private readonly deleted: string[] = [];

  private constructor(readonly processInstanceId: string) {}

  static async load(ctx: CommandContext, processInstanceId: string): Promise<InstanceVariables> {
    const variables = new InstanceVariables(processInstanceId);
    for (const row of await ctx.variables.findByProcessInstance(processInstanceId)) {
      variables.entries.set(row.name, { row, value: fromStorage(row), changed: false });
    }
    return variables;
  }

  static empty(processInstanceId: string): InstanceVariables {
    return new InstanceVariables(processInstanceId);
  }

  get(name: string): TypedValue | undefined {
    return this.entries.get(name)?.value;
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  names(): string[] {
    return [...this.entries.keys()];
  }

  set(name: string, value: TypedValue): void {
    const entry = this.entries.get(name);
    this.entries.set(name, { row: entry?.row ?? null, value, changed: true });
  }

  remove(name: string): void {
    const entry = this.entries.get(name);
    if (!entry) return;
    this.entries.delete(name);
    if (entry.row) this.deleted.push(entry.row.id);
  }

  /** Resolves identifiers in expressions: variables, `execution`, and Spin's `S`. */
  expressionContext(execution: Execution): ExpressionContext {
    return {
      has: (name) => this.has(name) || name === 'execution' || name === 'S',
      resolve: (name) => {
        if (name === 'execution') return executionFacade(execution, this);
        if (name === 'S') return S;
        const value = this.get(name);
        return value === undefined ? undefined : toJavaScriptValue(value);
      },
    };
  }

  async flush(ctx: CommandContext): Promise<void> {
    for (const id of this.deleted.splice(0)) await ctx.variables.delete(id);
    for (const [name, entry] of this.entries) {
      if (!entry.changed || entry.value.transient) continue;
      const row: VariableRow = {
        ...toStorage(entry.value),
        id: entry.row?.id ?? ctx.ids.next(),
        name,
        execution_id: this.processInstanceId,
        proc_inst_id: this.processInstanceId,
        task_id: null,
      };
      if (entry.row) await ctx.variables.update(row);
      else await ctx.variables.insert(row);
      entry.row = row;
      entry.changed = false;
    }
  }
}
