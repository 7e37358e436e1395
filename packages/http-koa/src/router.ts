import Router from '@koa/router';
import type { Middleware } from 'koa';
import compose from 'koa-compose';
import { InvalidRequestException } from './errors/rest-exception.js';
import type { RestContext } from './resources/context.js';
import { authorizationRoutes } from './resources/authorization.js';
import { groupRoutes } from './resources/group.js';
import { identityRoutes } from './resources/identity.js';
import { processDefinitionStartRoutes } from './resources/process-definition-start.js';
import { processDefinitionFormRoutes } from './resources/process-definition-forms.js';
import { processDefinitionStatisticsRoutes } from './resources/process-definition-statistics.js';
import { processInstanceRoutes } from './resources/process-instance.js';
import { taskRoutes } from './resources/task.js';
import { messageRoutes } from './resources/message.js';
import { executionRoutes } from './resources/execution.js';
import { jobDefinitionRoutes } from './resources/job-definition.js';
import { telemetryRoutes } from './resources/telemetry.js';
import { schemaLogRoutes } from './resources/schema-log.js';
import { filterRoutes } from './resources/filter.js';
import { tenantRoutes } from './resources/tenant.js';
import { metricsRoutes } from './resources/metrics.js';
import { jobRoutes } from './resources/job.js';
import { migrationRoutes } from './resources/migration.js';
import { batchRoutes } from './resources/batch.js';
import { retriesAndSuspensionBatchRoutes } from './resources/batch-retries-suspension.js';
import { instanceBatchRoutes } from './resources/batch-instances.js';
import { modificationRoutes } from './resources/modification.js';
import { processDefinitionRestartRoutes } from './resources/process-definition-restart.js';
import { historicQueryBatchRoutes } from './resources/batch-historic-query.js';
import { eventSubscriptionRoutes } from './resources/event-subscription.js';
import { variableInstanceRoutes } from './resources/variable-instance.js';
import { userRoutes } from './resources/user.js';
import { externalTaskRoutes } from './resources/external-task.js';
import { incidentRoutes } from './resources/incident.js';
import { deploymentRoutes } from './resources/deployment.js';
import { engineRoutes, REST_API_VERSION } from './resources/engine.js';
import { processDefinitionRoutes } from './resources/process-definition.js';
import { historyProcessInstanceRoutes } from './resources/history-process-instance.js';
import { historyCleanupRoutes } from './resources/history-cleanup.js';
import { historyProcessInstanceReportRoutes } from './resources/history-process-instance-report.js';
import { historyProcessDefinitionRoutes } from './resources/history-process-definition.js';
import { historyActivityInstanceRoutes } from './resources/history-activity-instance.js';
import { historyBatchRoutes } from './resources/history-batch.js';
import { historyTaskRoutes } from './resources/history-task.js';
import { historyIdentityLinkLogRoutes } from './resources/history-identity-link-log.js';
import { historyVariableInstanceRoutes } from './resources/history-variable-instance.js';
import { historyDetailRoutes } from './resources/history-detail.js';
import { historyIncidentRoutes } from './resources/history-incident.js';
import { historyJobLogRoutes } from './resources/history-job-log.js';
import { historyExternalTaskLogRoutes } from './resources/history-external-task-log.js';
import { historyUserOperationLogRoutes } from './resources/history-user-operation-log.js';

/**
 * The REST routes, twice: at `<base>/<resource>` for the default engine and at
 * `<base>/engine/{name}/<resource>` as Camunda also serves them. Resource files hold the routes.
 * A request is matched only against the routes of its first path segment (`external-task`,
 * `history`, …): one router tries its routes' patterns one by one, and the API has hundreds.
 */
export function createRouter(basePath: string, rest: RestContext): Middleware {
  const root = new SegmentedRoutes(basePath, []);
  engineRoutes(root.registrar(), rest);
  mountResources(root.registrar(), rest);

  const named = new SegmentedRoutes(`${basePath}/engine/:engineName`, [requireEngineName(rest)]);
  named.registrar().get('/version', (ctx) => {
    ctx.body = { version: REST_API_VERSION };
  });
  mountResources(named.registrar(), rest);

  const rootRoutes = root.middleware();
  const namedRoutes = named.middleware();
  return async (ctx, next) => {
    const segments = ctx.path.slice(basePath.length).split('/');
    // A count endpoint has no paging (Camunda's count DTOs do not read firstResult / maxResults): ignored, not validated.
    if (segments[segments.length - 1] === 'count' && ('firstResult' in ctx.query || 'maxResults' in ctx.query)) {
      const { firstResult: _first, maxResults: _max, ...criteria } = ctx.query;
      ctx.query = criteria;
    }
    // <base>/engine/{name}/<resource>…; <base>/engine alone is GET /engine.
    if (segments[1] === 'engine' && segments.length > 3) return namedRoutes(ctx, next, segments[3]);
    return rootRoutes(ctx, next, segments[1]);
  };
}

/** One router per first path segment under a prefix, filled through a registrar shaped like a Router. */
class SegmentedRoutes {
  private readonly routers = new Map<string, Router>();

  constructor(
    private readonly prefix: string,
    private readonly guards: Middleware[],
  ) {}

  /** What resource files register on: each route goes to the router of its first segment. */
  registrar(): Router {
    const route = (method: 'get' | 'post' | 'put' | 'delete' | 'options') =>
      (path: string, ...handlers: Middleware[]) => {
        (this.routerFor(path)[method] as (path: string, ...handlers: Middleware[]) => Router)(path, ...handlers);
        return registrar;
      };
    const registrar = { get: route('get'), post: route('post'), put: route('put'), delete: route('delete'), options: route('options') } as unknown as Router;
    return registrar;
  }

  middleware(): (ctx: Parameters<Middleware>[0], next: () => Promise<unknown>, segment: string | undefined) => Promise<unknown> {
    const bySegment = new Map([...this.routers].map(([segment, router]) => [segment, compose([router.routes() as Middleware, router.allowedMethods({ throw: true }) as Middleware])]));
    return (ctx, next, segment) => {
      const routes = segment === undefined ? undefined : bySegment.get(segment);
      return routes ? routes(ctx, next) : next();
    };
  }

  private routerFor(path: string): Router {
    const segment = path.split('/')[1];
    let router = this.routers.get(segment);
    if (!router) {
      router = new Router({ prefix: this.prefix });
      if (this.guards.length > 0) router.use(...this.guards);
      this.routers.set(segment, router);
    }
    return router;
  }
}

function mountResources(router: Router, rest: RestContext): void {
  authorizationRoutes(router, rest);
  deploymentRoutes(router, rest);
  groupRoutes(router, rest);
  identityRoutes(router, rest);
  executionRoutes(router, rest);
  jobDefinitionRoutes(router, rest);
  telemetryRoutes(router, rest);
  schemaLogRoutes(router, rest);
  filterRoutes(router, rest);
  tenantRoutes(router, rest);
  metricsRoutes(router, rest);
  jobRoutes(router, rest);
  migrationRoutes(router, rest);
  batchRoutes(router, rest);
  retriesAndSuspensionBatchRoutes(router, rest);
  instanceBatchRoutes(router, rest);
  modificationRoutes(router, rest);
  processDefinitionRestartRoutes(router, rest);
  historicQueryBatchRoutes(router, rest);
  eventSubscriptionRoutes(router, rest);
  variableInstanceRoutes(router, rest);
  messageRoutes(router, rest);
  processDefinitionStartRoutes(router, rest);
  processDefinitionFormRoutes(router, rest);
  processDefinitionStatisticsRoutes(router, rest);
  processDefinitionRoutes(router, rest);
  processInstanceRoutes(router, rest);
  taskRoutes(router, rest);
  userRoutes(router, rest);
  externalTaskRoutes(router, rest);
  incidentRoutes(router, rest);
  historyProcessInstanceReportRoutes(router, rest);
  // Before historyProcessInstanceRoutes: /history/process-instance/set-removal-time is no instance id.
  historyCleanupRoutes(router, rest);
  historyProcessInstanceRoutes(router, rest);
  historyProcessDefinitionRoutes(router, rest);
  historyActivityInstanceRoutes(router, rest);
  historyBatchRoutes(router, rest);
  historyTaskRoutes(router, rest);
  historyIdentityLinkLogRoutes(router, rest);
  historyVariableInstanceRoutes(router, rest);
  historyDetailRoutes(router, rest);
  historyIncidentRoutes(router, rest);
  historyJobLogRoutes(router, rest);
  historyExternalTaskLogRoutes(router, rest);
  historyUserOperationLogRoutes(router, rest);
}

/**
 * A path naming another engine: Camunda's resources find no engine (400), except GET /version, which
 * needs none. (With authentication on, the authentication middleware answers Camunda's filter's 404 first.)
 */
function requireEngineName({ engine }: RestContext): Middleware {
  return async (ctx, next) => {
    const name = (ctx as unknown as { params: Record<string, string> }).params.engineName;
    if (name !== engine.name && !/\/version\/?$/.test(ctx.path)) throw new InvalidRequestException(400, 'No process engine available');
    await next();
  };
}

