import type Router from '@koa/router';
import { NotValidException, type DurationReportResult, type HistoricProcessInstanceReportQuery, type ReportPeriodUnit } from '@trellis/core';
import { attachmentDisposition, REPORT_MEDIA_TYPES } from '../dto/content-types.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { parseQuery, type QuerySpec } from '../query/parse-query.js';
import type { RestContext } from './context.js';

const REPORT_QUERY: QuerySpec = {
  params: { processDefinitionIdIn: 'stringArray', processDefinitionKeyIn: 'stringArray', startedBefore: 'date', startedAfter: 'date' },
};
/** The report types Camunda's setter accepts; only `duration` is then executed for process instances. */
const KNOWN_REPORT_TYPES = ['duration', 'count'];
const CSV_HEADER = 'PERIOD,PERIOD_UNIT,MINIMUM,MAXIMUM,AVERAGE';

/** Camunda's DurationReportResultDto. */
export function toDurationReportDto(result: DurationReportResult) {
  return { period: result.period, periodUnit: result.periodUnit, minimum: result.minimum, maximum: result.maximum, average: result.average };
}

/** GET /history/process-instance/report: the duration report as JSON or CSV (registered before `/history/process-instance/:id`). */
export function historyProcessInstanceReportRoutes(router: Router, rest: RestContext): void {
  router.get('/history/process-instance/report', async (ctx) => {
    const mediaType = ctx.accepts(REPORT_MEDIA_TYPES);
    if (!mediaType) throw new InvalidRequestException(406, 'No acceptable content-type found');
    const reportType = single(ctx.query.reportType);
    if (reportType !== undefined && !KNOWN_REPORT_TYPES.includes(reportType)) {
      throw new InvalidRequestException(400, `Cannot set query parameter 'reportType' to value '${reportType}'`);
    }
    const periodUnit = parsePeriodUnit(single(ctx.query.periodUnit));
    const { params } = parseQuery(ctx.query, REPORT_QUERY);
    const query = params as HistoricProcessInstanceReportQuery;
    // Camunda ignores empty definition lists.
    if (query.processDefinitionIdIn?.length === 0) delete query.processDefinitionIdIn;
    if (query.processDefinitionKeyIn?.length === 0) delete query.processDefinitionKeyIn;
    if (reportType !== 'duration') throw new InvalidRequestException(400, `Unknown report type ${reportType ?? null}`);
    const results = await rest.engine.history.reports.durationReport(periodUnit, query).catch((error: unknown) => {
      // Camunda's report DTO turns the engine's NotValidException into its own 400.
      if (error instanceof NotValidException) throw new InvalidRequestException(400, error.message);
      throw error;
    });
    if (mediaType === 'application/json') {
      ctx.body = results.map(toDurationReportDto);
      return;
    }
    ctx.body = [CSV_HEADER, ...results.map((each) => [each.period, each.periodUnit, each.minimum, each.maximum, each.average].join(','))].join('\n');
    ctx.set('Content-Type', mediaType);
    ctx.set('Content-Disposition', attachmentDisposition('process-instance-report.csv'));
  });
}

function single(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Camunda's PeriodUnitConverter: MONTH or QUARTER in any case. */
function parsePeriodUnit(raw: string | undefined): ReportPeriodUnit | undefined {
  if (raw === undefined) return undefined;
  const unit = raw.toUpperCase();
  if (unit === 'MONTH' || unit === 'QUARTER') return unit;
  throw new InvalidRequestException(
    400,
    `Cannot set query parameter 'periodUnit' to value '${raw}': Cannot convert value ${raw} to java enum type org.camunda.bpm.engine.query.PeriodUnit`,
  );
}
