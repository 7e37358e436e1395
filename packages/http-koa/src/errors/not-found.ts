import type { Middleware } from 'koa';
import { respondWithError } from './error-middleware.js';

/** A path under the REST root that no route serves: JAX-RS' 404, as a JSON error. */
export function notFoundMiddleware(): Middleware {
  return async (ctx, next) => {
    await next();
    if (ctx.status === 404 && ctx.body === undefined) {
      respondWithError(ctx, 404, { type: 'NotFoundException', message: 'HTTP 404 Not Found', code: null });
    }
  };
}
