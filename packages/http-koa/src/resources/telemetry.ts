import Router from '@koa/router';
import { readJsonObject, nullableFlag } from '../body.js';
import { formatRestDate } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { type RestContext } from './context.js';

/** The Telemetry group: the deprecated configuration (a no-op, always false) and the local diagnostics data. */
export function telemetryRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/telemetry/configuration', async (ctx) => {
    ctx.body = { enableTelemetry: await engine.telemetry.isTelemetryEnabled() };
  });

  router.post('/telemetry/configuration', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const enable = nullableFlag(body.enableTelemetry);
    if (enable === null) throw new InvalidRequestException(400, 'enableTelemetry is null');
    await engine.telemetry.configure(enable);
    ctx.status = 204;
  });

  router.get('/telemetry/data', async (ctx) => {
    const { installation, product } = await engine.telemetry.getTelemetryData();
    const { internals } = product;
    ctx.body = {
      installation,
      product: {
        name: product.name,
        version: product.version,
        edition: product.edition,
        internals: {
          database: internals.database,
          'application-server': internals.applicationServer,
          'license-key': null,
          'camunda-integration': [],
          commands: Object.fromEntries(Object.entries(internals.commands).map(([name, count]) => [name, { count }])),
          metrics: Object.fromEntries(Object.entries(internals.metrics).map(([name, count]) => [name, { count }])),
          webapps: [],
          jdk: internals.jdk,
          'data-collection-start-date': formatRestDate(internals.dataCollectionStartDate),
        },
      },
    };
  });
}
