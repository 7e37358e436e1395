import type { CommandContext } from '../../command/command-context.js';
import type { Page, Sorting } from '../../persistence/repositories/query-support.js';

/**
 * One step of the database schema (Camunda's SchemaLogEntry): its creation (id `0`, as Camunda's
 * create scripts write it), then each migration a later Trellis applied to it (id: the migration's
 * number). Trellis speaks Camunda's 7.22 API at every step: the version is `7.22.0`.
 */
export interface SchemaLogEntry {
  id: string;
  timestamp: Date;
  version: string;
}

export interface SchemaLogQuery extends Page {
  version?: string;
  sorting?: Sorting<'timestamp'>[];
}

const SCHEMA_VERSION = '7.22.0';

/**
 * Camunda's SchemaLogQuery: camunda-admin or READ on System sees the entries, anybody else none
 * (SchemaLogManager answers an empty list rather than a denial). The migrations applied when the
 * schema was created (in one go: one timestamp) are its creation entry.
 */
export async function findSchemaLog(ctx: CommandContext, query: SchemaLogQuery): Promise<SchemaLogEntry[]> {
  if (!(await ctx.authz.passesAsAdminOrSystem('READ'))) return [];
  const rows = await ctx.trx.selectFrom('trellis_schema_migration').select(['version', 'applied_at']).orderBy('version').execute();
  const created = rows.length > 0 ? Number(rows[0]!.applied_at) : null;
  let entries: SchemaLogEntry[] = created === null ? [] : [{ id: '0', timestamp: new Date(created), version: SCHEMA_VERSION }];
  for (const row of rows) {
    if (Number(row.applied_at) !== created) entries.push({ id: String(row.version), timestamp: new Date(Number(row.applied_at)), version: SCHEMA_VERSION });
  }
  if (query.version !== undefined) entries = entries.filter((entry) => entry.version === query.version);
  const order = query.sorting?.[0];
  if (order) entries.sort((a, b) => (a.timestamp.getTime() - b.timestamp.getTime()) * (order.sortOrder === 'desc' ? -1 : 1));
  const first = Math.max(0, query.firstResult ?? 0);
  return entries.slice(first, query.maxResults === undefined ? undefined : first + Math.max(0, query.maxResults));
}
