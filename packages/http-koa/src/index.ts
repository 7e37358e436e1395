import type { ProcessEngine } from '@trellis/core';
import Koa, { type Middleware } from 'koa';
import compose from 'koa-compose';
import { authenticationMiddleware } from './auth/authentication-middleware.js';
import { basicAuthenticator, type Authenticator } from './auth/authenticator.js';
import { errorMiddleware } from './errors/error-middleware.js';
import { notFoundMiddleware } from './errors/not-found.js';
import { jsonResponse } from './json-response.js';
import { createRouter } from './router.js';

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
}

const DEFAULT_BODY_LIMIT = 10 * 1024 * 1024;

/** Koa middleware serving the Camunda 7.22 REST API for `engine` under `basePath`; other paths pass through. */
export function engineRest(engine: ProcessEngine, options: EngineRestOptions = {}): Middleware {
  const basePath = normalizeBasePath(options.basePath ?? '/engine-rest');
  const router = createRouter(basePath, { engine, bodyLimit: options.bodyLimit ?? DEFAULT_BODY_LIMIT });
  const authenticator = options.authentication === 'basic' ? basicAuthenticator : (options.authentication ?? null);
  const api = compose([
    jsonResponse(),
    errorMiddleware(),
    authenticationMiddleware(engine, basePath, authenticator),
    notFoundMiddleware(),
    router.routes() as Middleware,
    router.allowedMethods({ throw: true }) as Middleware,
  ]);
  return async (ctx, next) => {
    if (ctx.path !== basePath && !ctx.path.startsWith(`${basePath}/`)) return next();
    ctx.state.restBasePath = basePath;
    // Camunda's CacheControlFilter: GET answers are not cached, except the XML ones.
    if (ctx.method === 'GET' && !ctx.path.endsWith('xml')) ctx.set('Cache-Control', 'no-cache');
    await api(ctx, async () => {});
  };
}

/** A Koa application serving only the REST API (what the standalone server runs). */
export function createRestApp(engine: ProcessEngine, options: EngineRestOptions = {}): Koa {
  const app = new Koa();
  app.use(engineRest(engine, options));
  return app;
}

function normalizeBasePath(path: string): string {
  const trimmed = path.replace(/\/+$/, '');
  return trimmed === '' ? '' : trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

export { basicAuthenticator, type Authenticator, type AuthenticationRequest } from './auth/authenticator.js';
