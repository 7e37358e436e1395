import { createEngine, consoleLogger, type ProcessEngine } from '@trellis/core';
import { basicAuthenticator, createRestApp } from '@trellis/http-koa';
import { attachBatchProgress, attachEventStream } from '@trellis/ws-adapter';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { prometheusRegistry, startMetricsServer } from './prometheus.js';
import type { ServerConfig } from './server-config.js';

export interface RunningServer {
  engine: ProcessEngine;
  server: Server;
  /** The REST root, e.g. http://localhost:8080/engine-rest */
  url: string;
  close(): Promise<void>;
}

/** Starts an engine and serves its REST API; resolves once the port is listening. */
export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const logger = consoleLogger(config.logLevel);
  const engine = await createEngine({ ...config.engine, logger });
  if (config.admin) {
    const created = await engine.identity.setUpAdministrator(config.admin.userId, config.admin.password);
    logger.info(`administrator '${config.admin.userId}' ${created ? 'created' : 'present'} (member of camunda-admin)`);
  }
  const app = createRestApp(engine, {
    basePath: config.basePath,
    bodyLimit: config.bodyLimit,
    fetchAndLockQueueCapacity: config.fetchAndLockQueueCapacity,
    fetchAndLockUniqueWorkerRequest: config.fetchAndLockUniqueWorkerRequest,
    authentication: config.basicAuth ? 'basic' : undefined,
  });
  const registry = prometheusRegistry(engine);
  const metricsServer = config.metricsPort === null ? null : startMetricsServer(registry, config.metricsPort, config.host);
  if (metricsServer === null) {
    app.use(async (ctx, next) => {
      if (ctx.method !== 'GET' || ctx.path !== '/prometheus') return next();
      ctx.type = registry.contentType;
      ctx.body = await registry.metrics();
    });
  }
  const server = app.listen(config.port, config.host);
  const events = attachEventStream(server, engine, { path: `${config.basePath}/events` });
  const batchProgress = attachBatchProgress(server, engine, {
    path: `${config.basePath}/batch-progress`,
    authenticate: config.basicAuth
      ? async (request) => {
          const authentication = await basicAuthenticator({ method: 'GET', path: '/batch-progress', headers: request.headers }, engine);
          if (!authentication) throw new Error('unauthorized');
          return authentication;
        }
      : undefined,
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://localhost:${port}${config.basePath}`;
  return {
    engine,
    server,
    url,
    async close() {
      await events.close();
      await batchProgress.close();
      if (metricsServer) await new Promise<void>((resolve) => metricsServer.close(() => resolve()));
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await engine.close();
    },
  };
}
