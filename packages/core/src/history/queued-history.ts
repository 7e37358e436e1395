import type { CommandContext } from '../command/command-context.js';
import { execute, type Write } from './history-writer.js';

const QUEUE = Symbol('trellis.queuedHistory');

/**
 * History rows that only ever get inserted (job and external task log entries) wait on the command
 * until the next instance flush, whose combined statement carries them (no round trip of their own
 * on PostgreSQL), or until the command ends. They must not be read or updated in the same command.
 */
export function queueHistoryWrite(ctx: CommandContext, write: Write): void {
  const queue = ctx.attachments.get(QUEUE) as Write[] | undefined;
  if (queue) queue.push(write);
  else ctx.attachments.set(QUEUE, [write]);
}

/** The queued writes, handed over once (HistoryWriter.flushInstance takes them into its statement). */
export function takeQueuedHistory(ctx: CommandContext): Write[] {
  const queue = ctx.attachments.get(QUEUE) as Write[] | undefined;
  if (!queue || queue.length === 0) return [];
  ctx.attachments.delete(QUEUE);
  return queue;
}

/** Writes what is still queued; the command executor calls it before the transaction commits. */
export async function flushQueuedHistory(ctx: CommandContext): Promise<void> {
  const writes = takeQueuedHistory(ctx);
  if (writes.length > 0) await execute(ctx, writes);
}
