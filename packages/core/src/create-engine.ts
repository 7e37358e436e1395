import { systemClock } from './clock.js';
import { resolveConfig, type EngineConfig } from './config.js';
import { createContainer } from './container.js';
import { ProcessEngine } from './engine.js';
import { uuidGenerator } from './id-generator.js';
import { consoleLogger } from './logger.js';
import { Store } from './persistence/store.js';
import { EventRelay } from './events/event-relay.js';
import { MetricsReporter } from './services/metrics/metrics-reporter.js';

/**
 * Opens the store, applies pending schema migrations and returns a running engine.
 * Throws when the database cannot be reached or migrated (the store is closed again then).
 */
export async function createEngine(config: EngineConfig = {}): Promise<ProcessEngine> {
  const resolved = resolveConfig(config);
  const clock = config.clock ?? systemClock;
  const logger = config.logger ?? consoleLogger(config.logLevel ?? 'info');
  const store = Store.open(resolved.store);
  try {
    await store.migrate(() => clock.now().getTime());
  } catch (error) {
    await store.close();
    throw error;
  }
  const container = createContainer({ config: resolved, store, clock, idGenerator: config.idGenerator ?? uuidGenerator, logger });
  const engine = new ProcessEngine(container);
  if (resolved.store.type === 'postgres') {
    const relay = new EventRelay(resolved.store.connectionString, resolved.store.schema ?? 'public', engine.events, (channel, payload) => store.notify(channel, payload), logger);
    try {
      await relay.start();
    } catch (error) {
      await engine.close();
      throw error;
    }
    engine.onClose(() => relay.close());
  }
  const metricsReporter = container.get(MetricsReporter);
  metricsReporter.start();
  engine.onClose(() => metricsReporter.stop());
  // Camunda's BootstrapEngineCommand: cleanUpHistoryAsync(false) whenever history cleanup is enabled.
  if (resolved.historyCleanup.enabled) await engine.historyCleanup.scheduleOnStart();
  if (resolved.jobExecutor.activate) engine.jobExecutor.start();
  return engine;
}
