import type { CommandContext } from '../../command/command-context.js';
import { checkVariableWrite, fromStorage, toStorage, type TypedValue } from '../../runtime/variables/index.js';

/**
 * Batch variables, as Camunda keeps them: variable rows of the batch (BATCH_ID_) that belong to no
 * execution, instance or task, so that the variable instance query lists them. They are written in the
 * transaction that creates the batch and go when the batch goes (completed or deleted).
 */

/** Camunda's VariableUtil#setVariablesByBatchId: refuses Java-serialized objects (ENGINE-17007), then inserts. */
export async function storeBatchVariables(ctx: CommandContext, batchId: string, variables: Record<string, TypedValue>): Promise<void> {
  for (const [name, value] of Object.entries(variables)) {
    checkVariableWrite(name, value);
    await ctx.variables.insertForBatch(batchId, { ...toStorage(value), id: ctx.ids.next(), name });
  }
}

/** Camunda's VariableUtil#findBatchVariablesSerialized: the batch's variables by name (none: empty). */
export async function loadBatchVariables(ctx: CommandContext, batchId: string): Promise<Record<string, TypedValue>> {
  return Object.fromEntries((await ctx.variables.findByBatch(batchId)).map((row) => [row.name, fromStorage(row)]));
}

/** Part of Camunda's BatchEntity#delete: the batch's variables go with it. */
export async function deleteBatchVariables(ctx: CommandContext, batchId: string): Promise<void> {
  await ctx.variables.deleteByBatch(batchId);
}
