import { createServer, type Server } from 'node:http';
import type { ProcessEngine } from '@trellis/core';
import { collectDefaultMetrics, Counter, Registry } from 'prom-client';

/**
 * Prometheus exposition of the engine: Node.js process metrics plus what the engine did since it
 * started. Served at GET /prometheus (outside the REST base path, so Camunda's /metrics stays free)
 * or on a port of its own (TRELLIS_METRICS_PORT).
 */
export function prometheusRegistry(engine: ProcessEngine): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const counter = (name: string, help: string, labelNames: string[], read: (set: (value: number, labels?: Record<string, string>) => void) => void) =>
    new Counter({
      name,
      help,
      labelNames,
      registers: [registry],
      collect() {
        this.reset();
        read((value, labels) => (labels ? this.inc(labels, value) : this.inc(value)));
      },
    });
  counter('trellis_process_instances_started_total', 'Root process instances started', [], (set) => set(engine.metrics.metricCounts()['process-instances']));
  counter('trellis_flow_node_instances_started_total', 'Activity (flow node) instances started', [], (set) => set(engine.metrics.metricCounts()['flow-node-instances']));
  counter('trellis_commands_total', 'Committed engine commands by name', ['command'], (set) => {
    for (const [command, count] of Object.entries(engine.metrics.commandCounts())) set(count, { command });
  });
  return registry;
}

/** A bare HTTP server answering GET /metrics (and /prometheus) with the registry. */
export function startMetricsServer(registry: Registry, port: number, host: string): Server {
  return createServer(async (request, response) => {
    if (request.method !== 'GET' || !['/metrics', '/prometheus'].includes(request.url ?? '')) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'Content-Type': registry.contentType }).end(await registry.metrics());
  }).listen(port, host);
}
