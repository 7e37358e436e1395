import { inject, injectable } from 'inversify';
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { EngineMetrics, type TelemetryMetric } from './engine-metrics.js';

const INSTALLATION = 'camunda.installation.id';
/** Trellis' own version, as telemetry reports the product. */
export const TRELLIS_VERSION = '0.1.0';

export interface TelemetryData {
  installation: string;
  product: {
    name: string;
    version: string;
    edition: string;
    internals: {
      database: { vendor: string; version: string };
      applicationServer: { vendor: string; version: string };
      commands: Record<string, number>;
      metrics: Record<TelemetryMetric, number>;
      jdk: { vendor: string; version: string };
      dataCollectionStartDate: Date;
    };
  };
}

/**
 * The Telemetry group. Nothing is ever sent anywhere: the configuration endpoints are Camunda 7.22's
 * deprecated no-ops, and the data is what an operator may read locally.
 */
@injectable()
export class TelemetryService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(EngineMetrics) private readonly metrics: EngineMetrics,
  ) {}

  /**
   * Camunda 7.22 removed sending telemetry and kept this command empty (deprecated): it checks
   * nothing and changes nothing, whatever `enabled` says.
   */
  configure(_enabled: boolean): Promise<void> {
    return this.commands.run('TelemetryConfigureCmd', async () => undefined);
  }

  /** Always false, as in Camunda 7.22 (deprecated; sending telemetry was removed). */
  isTelemetryEnabled(): Promise<boolean> {
    return this.commands.run('IsTelemetryEnabledCmd', async () => false);
  }

  /** Camunda's diagnostics snapshot with Trellis' truths (the database, Node.js); camunda-admin or READ on System. */
  getTelemetryData(): Promise<TelemetryData> {
    return this.commands.run('GetTelemetryDataCmd', async (ctx) => {
      await ctx.authz.requireAdminOrSystem('READ');
      let installation = await ctx.properties.get(INSTALLATION);
      if (!installation) {
        installation = randomUUID();
        await ctx.properties.set(INSTALLATION, installation);
      }
      const node = { vendor: 'Node.js', version: process.versions.node };
      return {
        installation,
        product: {
          name: 'Trellis',
          version: TRELLIS_VERSION,
          edition: 'community',
          internals: {
            database: await databaseOf(ctx),
            applicationServer: node,
            commands: this.metrics.commandCounts(),
            metrics: this.metrics.metricCounts(),
            jdk: node,
            dataCollectionStartDate: this.metrics.since,
          },
        },
      };
    });
  }
}

async function databaseOf(ctx: CommandContext): Promise<{ vendor: string; version: string }> {
  if (ctx.dialect.name === 'postgres') {
    const result = await sql<{ server_version: string }>`show server_version`.execute(ctx.trx);
    return { vendor: 'PostgreSQL', version: result.rows[0]?.server_version ?? '' };
  }
  const result = await sql<{ version: string }>`select sqlite_version() as version`.execute(ctx.trx);
  return { vendor: 'SQLite', version: result.rows[0]?.version ?? '' };
}

