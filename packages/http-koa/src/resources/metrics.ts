import type Router from '@koa/router';
import type { MetricIntervalValue } from '@trellis/core';
import { formatRestDate, parseRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { type RestContext } from './context.js';

/** The Metrics group: interval sums and sums over the meter log, and the task worker metrics. */
export function metricsRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/metrics', async (ctx) => {
    const query = ctx.query;
    const name = first(query.name);
    const interval = first(query.interval);
    const firstResult = first(query.firstResult);
    const maxResults = first(query.maxResults);
    const rows = await engine.metrics.interval({
      name,
      reporter: first(query.reporter),
      ...range(query),
      interval: interval === undefined ? undefined : whole(interval, 'java.lang.Long'),
      firstResult: firstResult === undefined ? undefined : whole(firstResult, 'java.lang.Integer'),
      maxResults: maxResults === undefined ? undefined : whole(maxResults, 'java.lang.Integer'),
      // Camunda: the parameter's presence aggregates, whatever its value.
      aggregateByReporter: first(query.aggregateByReporter) !== undefined,
    });
    // Camunda: a metric asked for by name is answered under that name (a public alias or not).
    ctx.body = rows.map((row) => toMetricsIntervalResultDto(row, name));
  });

  router.get('/metrics/:name/sum', async (ctx) => {
    ctx.body = { result: await engine.metrics.sum(ctx.params.name, range(ctx.query)) };
  });

  router.delete('/metrics/task-worker', async (ctx) => {
    const date = first(ctx.query.date);
    await engine.metrics.deleteTaskMetrics(date === undefined ? null : restDate(date));
    ctx.status = 204;
  });
}

function toMetricsIntervalResultDto(row: MetricIntervalValue, name: string | undefined) {
  return { timestamp: formatRestDate(row.timestamp), name: name ?? row.name, reporter: row.reporter, value: row.value };
}

function range(query: Record<string, string | string[] | undefined>): { startDate?: Date; endDate?: Date } {
  const startDate = first(query.startDate);
  const endDate = first(query.endDate);
  return {
    ...(startDate === undefined ? {} : { startDate: restDate(startDate) }),
    ...(endDate === undefined ? {} : { endDate: restDate(endDate) }),
  };
}

// Camunda's resources call the converters directly, so the messages lack the "Cannot set query parameter" part.
function restDate(text: string): Date {
  const date = parseRestDate(text);
  if (!date) throw new InvalidRequestException(400, `Cannot convert value "${text}" to java type java.util.Date`);
  return date;
}

function whole(text: string, javaType: 'java.lang.Long' | 'java.lang.Integer'): number {
  const max = javaType === 'java.lang.Integer' ? 2 ** 31 - 1 : Number.MAX_SAFE_INTEGER;
  const value = /^[+-]?\d+$/.test(text) ? Number(text) : Number.NaN;
  if (Number.isNaN(value) || Math.abs(value) > max) throw new InvalidRequestException(400, `Cannot convert value ${text} to java type ${javaType}`);
  return value;
}

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
