import type { CommandContext } from '../command/command-context.js';
import { HistoryWriter } from '../history/history-writer.js';
import { InstanceHistory } from '../history/instance-history.js';
import type { ActivityInstance, Execution } from './execution.js';
import { takeGuard } from '../persistence/repositories/instance-snapshot.js';

/**
 * The executions and activity instances of one process instance, loaded once per command and
 * changed in memory; flush() writes what changed (revision-checked), so a command is all or nothing.
 */
export class ExecutionTree {
  readonly executions = new Map<string, Execution>();
  readonly activityInstances = new Map<string, ActivityInstance>();
  private readonly created = new Set<string>();
  private readonly dirty = new Set<string>();
  private readonly removed = new Map<string, Execution>();
  private readonly createdInstances = new Set<string>();
  private readonly removedInstances = new Set<string>();
  private readonly movedInstances = new Set<string>();
  /** Whether a flush ever wrote a row (an instance that started and ended in one command may have written none). */
  wroteRows = false;
  /** Whether a flush removed every row of the ended instance already (nothing left to clean up). */
  instanceRowsDeleted = false;
  /** Flow-node instances ended since the runner last counted them (engine metric activity-instance-end). */
  flowNodesEnded = 0;
  /** The history events of this instance since the last flush. */
  readonly history: InstanceHistory;

  private constructor(readonly processInstanceId: string) {
    this.history = new InstanceHistory(processInstanceId);
  }

  static async load(ctx: CommandContext, processInstanceId: string): Promise<ExecutionTree> {
    return ExecutionTree.of(processInstanceId, await ctx.executions.findByProcessInstance(processInstanceId), await ctx.executions.activityInstancesOf(processInstanceId));
  }

  /** A tree of rows the command has read already. */
  static of(processInstanceId: string, executions: readonly Execution[], activityInstances: readonly ActivityInstance[]): ExecutionTree {
    const tree = new ExecutionTree(processInstanceId);
    for (const execution of executions) tree.executions.set(execution.id, execution);
    for (const instance of activityInstances) tree.activityInstances.set(instance.id, instance);
    return tree;
  }

  static empty(processInstanceId: string): ExecutionTree {
    return new ExecutionTree(processInstanceId);
  }

  get root(): Execution | undefined {
    return this.executions.get(this.processInstanceId);
  }

  get isEnded(): boolean {
    return !this.root;
  }

  add(execution: Execution): Execution {
    this.executions.set(execution.id, execution);
    this.created.add(execution.id);
    return execution;
  }

  /** Marks an execution changed (call after mutating it). */
  touch(execution: Execution): void {
    if (!this.created.has(execution.id)) this.dirty.add(execution.id);
  }

  remove(execution: Execution): void {
    this.executions.delete(execution.id);
    if (this.created.delete(execution.id)) return;
    this.dirty.delete(execution.id);
    this.removed.set(execution.id, execution);
  }

  childrenOf(executionId: string): Execution[] {
    return [...this.executions.values()].filter((execution) => execution.parentId === executionId);
  }

  addActivityInstance(instance: ActivityInstance): void {
    this.activityInstances.set(instance.id, instance);
    this.createdInstances.add(instance.id);
    this.history.activityStarted(instance, this.root);
  }

  /** Moves an activity instance to another execution (when concurrent executions collapse). */
  moveActivityInstance(id: string, executionId: string): void {
    const instance = this.activityInstances.get(id);
    if (!instance) return;
    instance.executionId = executionId;
    if (!this.createdInstances.has(id)) this.movedInstances.add(id);
  }

  /** Ends an activity instance: completed, or `canceled` (removed with its execution, interrupted, cancelled by a modification). */
  removeActivityInstance(id: string, canceled = false): void {
    const instance = this.activityInstances.get(id);
    if (!instance || !this.activityInstances.delete(id)) return;
    this.history.activityEnded(instance, canceled, this.root);
    if (instance.activityType !== 'processDefinition') this.flowNodesEnded++;
    if (this.createdInstances.delete(id)) return;
    this.movedInstances.delete(id);
    this.removedInstances.add(id);
  }

  async flush(ctx: CommandContext): Promise<void> {
    this.wroteRows ||=
      this.created.size + this.dirty.size + this.removed.size + this.createdInstances.size + this.movedInstances.size + this.removedInstances.size > 0;
    // Parents before children (a map keeps insertion order, and a child is always added after its parent).
    await ctx.executions.insertAll([...this.created].map((id) => this.executions.get(id)!));
    for (const id of this.dirty) await ctx.executions.update(this.executions.get(id)!);
    await ctx.executions.insertActivityInstances([...this.createdInstances].map((id) => this.activityInstances.get(id)!));
    for (const id of this.movedInstances) await ctx.executions.updateActivityInstanceExecution(id, this.activityInstances.get(id)!.executionId);
    let historyWritten = false;
    if (this.removed.has(this.processInstanceId) && this.executions.size === 0 && ctx.dialect.name === 'postgres') {
      // The instance ended: its whole tree, what hangs on it and its history go in one statement.
      // Rows the command took from an earlier read are checked in the same statement.
      await ctx.executions.deleteEndedInstance(this.processInstanceId, [...this.removed.values()], HistoryWriter.instanceWrites(ctx, this.history), takeGuard(ctx, this.processInstanceId));
      this.instanceRowsDeleted = true;
      historyWritten = true;
    } else {
      await ctx.executions.deleteActivityInstances([...this.removedInstances]);
      // Children before their parent: the root (no parent) goes last.
      for (const execution of [...this.removed.values()].sort((a, b) => Number(a.parentId === null) - Number(b.parentId === null))) {
        await ctx.executions.delete(execution);
      }
    }
    this.created.clear();
    this.dirty.clear();
    this.removed.clear();
    this.createdInstances.clear();
    this.removedInstances.clear();
    this.movedInstances.clear();
    if (historyWritten) this.history.written();
    else await HistoryWriter.flushInstance(ctx, this.history);
  }
}
