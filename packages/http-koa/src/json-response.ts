import type { Middleware } from 'koa';

/**
 * Serializes object bodies with the bare `application/json` content type, as Camunda does:
 * the official Node external-task client compares the header to exactly that value.
 */
export function jsonResponse(): Middleware {
  return async (ctx, next) => {
    await next();
    const body = ctx.body;
    if (body === null || body === undefined || typeof body !== 'object' || Buffer.isBuffer(body) || isStream(body)) return;
    ctx.body = JSON.stringify(body);
    ctx.set('Content-Type', 'application/json');
  };
}

const isStream = (body: object) => typeof (body as { pipe?: unknown }).pipe === 'function';
