import pg from 'pg';

/** A statement node-postgres sent: its text and parameter values. */
export interface SentStatement {
  text: string;
  values: unknown[];
}

/**
 * Runs `work` and records every statement node-postgres sends meanwhile, from any client of this
 * process, on its way to the server (a submittable without text, such as a group commit's pipeline,
 * is recorded with an empty one).
 */
export async function recordStatements<T>(work: () => Promise<T>): Promise<{ result: T; sent: SentStatement[] }> {
  const query = pg.Client.prototype.query;
  const sent: SentStatement[] = [];
  pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
    const config = args[0] as string | { text?: string; values?: unknown[] } | undefined;
    sent.push(typeof config === 'string' ? { text: config, values: [] } : { text: config?.text ?? '', values: config?.values ?? [] });
    return (query as (...a: unknown[]) => unknown).apply(this, args);
  } as typeof query;
  try {
    return { result: await work(), sent };
  } finally {
    pg.Client.prototype.query = query;
  }
}
