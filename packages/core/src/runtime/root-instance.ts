import type { CommandContext } from '../command/command-context.js';

/**
 * The root of a process instance's call hierarchy (null for none), walking the callers' root
 * executions: those this command holds or changed first, then the stored ones.
 */
export async function rootInstanceOf(ctx: CommandContext, processInstanceId: string | null): Promise<string | null> {
  let root = processInstanceId;
  for (let caller = root ? await ctx.executions.findById(root) : null; caller?.superProcessInstanceId; ) {
    root = caller.superProcessInstanceId;
    caller = await ctx.executions.findById(root);
  }
  return root;
}
