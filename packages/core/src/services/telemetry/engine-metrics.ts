import { injectable } from 'inversify';
import { METER_NAMES, internalMetricName, publicMetricName, type MeterName } from '../metrics/metric-names.js';

/** Camunda's public metric names that telemetry reports. */
export const TELEMETRY_METRICS = ['process-instances', 'flow-node-instances', 'decision-instances', 'executed-decision-elements'] as const;
export type TelemetryMetric = (typeof TELEMETRY_METRICS)[number];

/**
 * What this engine did, counted as committed work happens. Two views of the same counts, as
 * Camunda's MetricsRegistry keeps them: the telemetry metrics since the engine started, and the
 * meters not yet reported to the meter log (the reporter takes and clears those).
 */
@injectable()
export class EngineMetrics {
  readonly since = new Date();
  private readonly commands = new Map<string, number>();
  private readonly metrics = new Map<TelemetryMetric, number>(TELEMETRY_METRICS.map((name) => [name, 0]));
  private readonly unreportedCounts = new Map<MeterName, number>(METER_NAMES.map((name) => [name, 0]));

  commandCommitted(name: string): void {
    this.commands.set(name, (this.commands.get(name) ?? 0) + 1);
  }

  /** Counts `count` occurrences of a meter (by Camunda's internal name). */
  mark(meter: MeterName, count = 1): void {
    if (count <= 0) return;
    this.unreportedCounts.set(meter, (this.unreportedCounts.get(meter) ?? 0) + count);
    const telemetry = publicMetricName(meter) as TelemetryMetric;
    if (this.metrics.has(telemetry)) this.metrics.set(telemetry, (this.metrics.get(telemetry) ?? 0) + count);
  }

  /** Counts a telemetry metric by its public name (the meter it stands for counts too). */
  add(metric: TelemetryMetric, count: number): void {
    this.mark(internalMetricName(metric) as MeterName, count);
  }

  commandCounts(): Record<string, number> {
    return Object.fromEntries(this.commands);
  }

  metricCounts(): Record<TelemetryMetric, number> {
    return Object.fromEntries(this.metrics) as Record<TelemetryMetric, number>;
  }

  /** What a meter counted since the last report. */
  unreported(meter: string): number {
    return this.unreportedCounts.get(meter as MeterName) ?? 0;
  }

  /** Every meter's count since the last report, clearing them (Camunda's Meter.getAndClear). */
  takeUnreported(): Array<[MeterName, number]> {
    const taken = [...this.unreportedCounts];
    for (const name of METER_NAMES) this.unreportedCounts.set(name, 0);
    return taken;
  }

  /** Puts counts back when writing a report failed, so the next report carries them. */
  restoreUnreported(counts: ReadonlyArray<[MeterName, number]>): void {
    for (const [name, count] of counts) this.unreportedCounts.set(name, (this.unreportedCounts.get(name) ?? 0) + count);
  }
}
