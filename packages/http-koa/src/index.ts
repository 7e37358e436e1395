import type { ProcessEngine } from '@trellis/core';
import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import type { Server } from 'node:http';
import { authenticationMiddleware } from './auth/authentication-middleware.js';
import { basicAuthenticator, type Authenticator } from './auth/authenticator.js';
import { errorMiddleware } from './errors/error-middleware.js';
import { notFoundMiddleware } from './errors/not-found.js';
import { jsonResponse } from './json-response.js';
import { createRouter } from './router.js';
import { DEFAULT_FETCH_AND_LOCK_QUEUE_CAPACITY, FetchAndLockHandler } from './fetch-and-lock-handler.js';

export interface EngineRestOptions {
  /** Where the REST API is mounted, e.g. `/engine-rest` (the default). */
  basePath?: string;
  /** Largest accepted request body (JSON or multipart), in bytes. Default 10 MiB. */
  bodyLimit?: number;
  /**
   * Who may call: 'basic' (HTTP Basic against the engine's users, as engine-rest's filter does),
   * a custom Authenticator, or nothing (the default: every call is unauthenticated).
   */
  authentication?: 'basic' | Authenticator;
  /**
   * How many long-polling fetchAndLock requests (with `asyncResponseTimeout`) may wait at once;
   * one more is answered with 500. Default 200 (Camunda's `fetch-and-lock-queue-capacity`).
   */
  fetchAndLockQueueCapacity?: number;
  /**
   * A long-polling fetchAndLock that starts waiting cancels the waiting ones of the same `workerId`
   * (answered 503 without a body). Default false (Camunda's `fetch-and-lock-unique-worker-request`).
   */
  fetchAndLockUniqueWorkerRequest?: boolean;
}

/** The REST middleware; close() answers waiting long polls (also done when the engine closes). */
export type EngineRestMiddleware = Middleware & { close(): void };

const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

/** Koa middleware serving the Camunda 7.22 REST API for `engine` under `basePath`; other paths pass through. */
export function engineRest(engine: ProcessEngine, options: EngineRestOptions = {}): EngineRestMiddleware {
  const basePath = normalizeBasePath(options.basePath ?? '/engine-rest');
  const fetchAndLock = new FetchAndLockHandler(engine, {
    queueCapacity: options.fetchAndLockQueueCapacity ?? DEFAULT_FETCH_AND_LOCK_QUEUE_CAPACITY,
    uniqueWorkerRequest: options.fetchAndLockUniqueWorkerRequest ?? false,
  });
  const router = createRouter(basePath, { engine, bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT, fetchAndLock });
  const authenticator = options.authentication === 'basic' ? basicAuthenticator : (options.authentication ?? null);
  const api = compose([
    jsonResponse(),
    errorMiddleware(),
    authenticationMiddleware(engine, basePath, authenticator),
    notFoundMiddleware(),
    router,
  ]);
  const middleware: Middleware = async (ctx, next) => {
    if (ctx.path !== basePath && !ctx.path.startsWith(`${basePath}/`)) return next();
    ctx.state.restBasePath = basePath;
    // Camunda's CacheControlFilter: GET answers are not cached, except the XML ones.
    if (ctx.method === 'GET' && !ctx.path.endsWith('xml')) ctx.set('Cache-Control', 'no-cache');
    await api(ctx, async () => {});
  };
  return Object.assign(middleware, { close: () => fetchAndLock.close() });
}

/** A Koa application serving only the REST API (what the standalone server runs). */
export function createRestApp(engine: ProcessEngine, options: EngineRestOptions = {}): Koa {
  const app = new Koa();
  const rest = engineRest(engine, options);
  app.use(rest);
  // Closing the server answers waiting long polls first; otherwise server.close() would wait for them.
  const listen = app.listen.bind(app) as (...args: unknown[]) => Server;
  app.listen = ((...args: unknown[]) => {
    const server = listen(...args);
    const close = server.close.bind(server);
    server.close = ((callback?: (error?: Error) => void) => {
      rest.close();
      return close(callback);
    }) as Server['close'];
    return server;
  }) as Koa['listen'];
  return app;
}

function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

export { basicAuthenticator, type Authenticator, type AuthenticationRequest } from './auth/authenticator.js';
