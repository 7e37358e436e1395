import Router from '@koa/router';
import type { RestContext } from './context.js';

/** The Camunda version whose REST API Trellis answers with. */
export const REST_API_VERSION = '7.22.0';

/** GET /engine lists the engines; GET /version names the API version. */
export function engineRoutes(router: Router, { engine }: RestContext): void {
  router.get('/engine', (ctx) => {
    ctx.body = [{ name: engine.name }];
  });
  router.get('/version', (ctx) => {
    ctx.body = { version: REST_API_VERSION };
  });
}
