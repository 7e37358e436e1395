import type { ProcessEngine } from '@trellis/core';
import type { Middleware } from 'koa';
import type { Authenticator } from './authenticator.js';
import { InvalidRequestException } from '../errors/rest-exception.js';

// Camunda leaves only the engine list open, whatever the method (ProcessEngineAuthenticationFilter: ^/engine/?$).
const OPEN_PATH = /^\/engine\/?$/;

/**
 * Runs the rest of the request as the authenticated user (engine.runAs), or, without an
 * authenticator, unauthenticated. A failed authentication is a 401 with an empty body.
 */
export function authenticationMiddleware(engine: ProcessEngine, basePath: string, authenticator: Authenticator | null): Middleware {
  return async (ctx, next) => {
    const path = ctx.path.slice(basePath.length) || '/';
    if (!authenticator || OPEN_PATH.test(path)) return engine.runAs(null, next);
    // Camunda's filter looks for the engine a path names before it authenticates.
    const named = engineNameOf(path);
    if (named !== undefined && named !== engine.name) throw new InvalidRequestException(404, `Process engine ${named} not available`);
    const authentication = await authenticator({ method: ctx.method, path, headers: ctx.headers }, engine);
    if (!authentication) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', `Basic realm="${engineNameOf(path) ?? engine.name}"`);
      // An empty body, as Camunda's filter sends (Koa would otherwise write the status text).
      ctx.body = '';
      ctx.remove('Content-Type');
      return;
    }
    return engine.runAs(authentication, next);
  };
}

const engineNameOf = (path: string) => /^\/engine\/([^/]*)(?:\/|$)/.exec(path)?.[1];
