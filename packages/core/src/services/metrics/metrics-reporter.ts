import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import type { ResolvedEngineConfig } from '../../config.js';
import type { Logger } from '../../logger.js';
import { ENGINE_CONFIG, LOGGER } from '../../tokens.js';
import { EngineMetrics } from '../telemetry/engine-metrics.js';

/**
 * Camunda's DbMetricsReporter: every `metricsReportingInterval` seconds, and once more when the
 * engine closes, the meters' counts since the last report go to the meter log, one row per meter
 * (zeros too, as Camunda writes them), stamped with this engine's reporter id and the clock's time.
 */
@injectable()
export class MetricsReporter {
  private timer: NodeJS.Timeout | null = null;

  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(EngineMetrics) private readonly metrics: EngineMetrics,
    @inject(ENGINE_CONFIG) private readonly config: ResolvedEngineConfig,
    @inject(LOGGER) private readonly logger: Logger,
  ) {}

  /** Who the rows are reported by: the configured host name. */
  get reporterId(): string {
    return this.config.hostname;
  }

  get intervalSeconds(): number {
    return this.config.metricsReportingInterval;
  }

  /** Reports periodically from now on (nothing to do when the interval is 0). */
  start(): void {
    if (this.timer || this.intervalSeconds === 0) return;
    this.timer = setInterval(() => {
      this.report().catch((error) => this.logger.error('reporting the engine metrics failed', error));
    }, this.intervalSeconds * 1000);
    this.timer.unref();
  }

  /** Stops reporting periodically and reports what is left. */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.report().catch((error) => this.logger.error('reporting the engine metrics on close failed', error));
  }

  /** Writes the unreported counts now; when that fails they stay for the next report. */
  async report(): Promise<void> {
    const counts = this.metrics.takeUnreported();
    try {
      await this.commands.run('ReportDbMetricsCmd', async (ctx) => {
        const timestamp = ctx.clock.now();
        const entries = counts.map(([name, value]) => ({ id: ctx.ids.next(), name, reporter: this.reporterId, value, timestamp }));
        await ctx.meterLog.insertAll(entries);
      });
    } catch (error) {
      this.metrics.restoreUnreported(counts);
      throw error;
    }
  }
}
