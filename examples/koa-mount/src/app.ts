import Router from '@koa/router';
import type { ProcessEngine } from '@trellis/core';
import { engineRest } from '@trellis/http-koa';
import Koa from 'koa';

/** An existing Koa application with its own routes, and Trellis' REST API mounted under /camunda/engine-rest. */
export function createHostApp(engine: ProcessEngine): Koa {
  const app = new Koa();
  const own = new Router();
  own.get('/health', (ctx) => {
    ctx.body = { status: 'up' };
  });
  app.use(engineRest(engine, { basePath: '/camunda/engine-rest' }));
  app.use(own.routes());
  app.use(own.allowedMethods());
  return app;
}
