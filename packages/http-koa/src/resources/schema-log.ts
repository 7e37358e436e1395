import type Router from '@koa/router';
import type { SchemaLogEntry, SchemaLogQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { parseBodyQuery, parseListQuery, parsePage, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const SCHEMA_LOG_QUERY: QuerySpec = { params: { version: 'string' }, sortBy: ['timestamp'] };

const toSchemaLogEntryDto = (entry: SchemaLogEntry) => ({ id: entry.id, timestamp: formatRestDate(entry.timestamp), version: entry.version });

/** The Schema Log group (Camunda's SchemaLogRestServiceImpl): the database schema's steps, GET and POST forms. */
export function schemaLogRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/schema/log', async (ctx) => {
    ctx.body = (await engine.management.getSchemaLog(parseListQuery<SchemaLogQuery>(ctx.query, SCHEMA_LOG_QUERY))).map(toSchemaLogEntryDto);
  });

  router.post('/schema/log', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const query = { ...parseBodyQuery<SchemaLogQuery>(body, SCHEMA_LOG_QUERY), ...parsePage(ctx.query) };
    ctx.body = (await engine.management.getSchemaLog(query)).map(toSchemaLogEntryDto);
  });
}
