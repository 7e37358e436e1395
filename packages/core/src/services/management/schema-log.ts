import { Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import type { Page, Sorting } from '../../persistence/repositories/query-support.js';

/** One step of the database schema (Camunda's SchemaLogEntry): Trellis's migrations, oldest first. */
export interface SchemaLogEntry {
  id: string;
  timestamp: Date;
  /** Camunda's 7.22 API level and the Trellis migration: `7.22.0-trellis.<migration>`. */
  version: string;
}

export interface SchemaLogQuery extends Page {
  version?: string;
  sorting?: Sorting<'timestamp'>[];
}

const versionOf = (migration: number) => `7.22.0-trellis.${migration}`;

/**
 * Camunda's SchemaLogQuery: camunda-admin or READ on System sees the entries, anybody else none
 * (SchemaLogManager answers an empty list rather than a denial).
 */
export async function findSchemaLog(ctx: CommandContext, query: SchemaLogQuery): Promise<SchemaLogEntry[]> {
  if (ctx.authz.isActive && !(await ctx.authz.isAuthorized({ permission: 'READ', resource: Resources.SYSTEM }))) return [];
  const rows = await ctx.trx.selectFrom('trellis_schema_migration').select(['version', 'applied_at']).orderBy('version').execute();
  let entries = rows.map((row) => ({ id: String(row.version), timestamp: new Date(Number(row.applied_at)), version: versionOf(row.version) }));
  if (query.version !== undefined) entries = entries.filter((entry) => entry.version === query.version);
  const order = query.sorting?.[0];
  // Migrations applied in one go share a timestamp: their order stays.
  if (order) entries.sort((a, b) => (a.timestamp.getTime() - b.timestamp.getTime()) * (order.sortOrder === 'desc' ? -1 : 1));
  const first = Math.max(0, query.firstResult ?? 0);
  return entries.slice(first, query.maxResults === undefined ? undefined : first + Math.max(0, query.maxResults));
}
