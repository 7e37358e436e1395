import { injectable } from 'inversify';

/** Camunda's public metric names that telemetry reports. */
export const TELEMETRY_METRICS = ['process-instances', 'flow-node-instances', 'decision-instances', 'executed-decision-elements'] as const;
export type TelemetryMetric = (typeof TELEMETRY_METRICS)[number];

/**
 * What this engine did since it started: committed commands by name and the telemetry metrics
 * (root process instances and flow-node instances started; Trellis evaluates no decisions).
 */
@injectable()
export class EngineMetrics {
  readonly since = new Date();
  private readonly commands = new Map<string, number>();
  private readonly metrics = new Map<TelemetryMetric, number>(TELEMETRY_METRICS.map((name) => [name, 0]));

  commandCommitted(name: string): void {
    this.commands.set(name, (this.commands.get(name) ?? 0) + 1);
  }

  add(metric: TelemetryMetric, count: number): void {
    if (count > 0) this.metrics.set(metric, (this.metrics.get(metric) ?? 0) + count);
  }

  commandCounts(): Record<string, number> {
    return Object.fromEntries(this.commands);
  }

  metricCounts(): Record<TelemetryMetric, number> {
    return Object.fromEntries(this.metrics) as Record<TelemetryMetric, number>;
  }
}
