import Router from '@koa/router';
import type { Middleware } from 'koa';
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
import { historyActivityInstanceRoutes } from './resources/history-activity-instance.js';
import { historyBatchRoutes } from './resources/history-batch.js';
import { historyTaskRoutes } from './resources/history-task.js';
import { historyIdentityLinkLogRoutes } from './resources/history-identity-link-log.js';
import { historyVariableInstanceRoutes } from './resources/history-variable-instance.js';
import { historyDetailRoutes } from './resources/history-detail.js';
import { historyIncidentRoutes } from './resources/history-incident.js';
import { historyJobLogRoutes } from './resources/history-job-log.js';
import { historyExternalTaskLogRoutes } from './resources/history-external-task-log.js';

/**
 * The REST routes, twice: at `<base>/<resource>` for the default engine and at
 * `<base>/engine/{name}/<resource>` as Camunda also serves them. Resource files hold the routes.
 */
export function createRouter(basePath: string, rest: RestContext): Router {
  const root = new Router({ prefix: basePath });
  engineRoutes(root, rest);
  mountResources(root, rest);

  const named = new Router({ prefix: `${basePath}/engine/:engineName` });
  named.use(requireEngineName(rest));
  named.get('/version', (ctx) => {
    ctx.body = { version: REST_API_VERSION };
  });
  mountResources(named, rest);

  const router = new Router();
  router.use(named.routes());
  router.use(root.routes());
  return router;
}

function mountResources(router: Router, rest: RestContext): void {
  authorizationRoutes(router, rest);
  deploymentRoutes(router, rest);
  groupRoutes(router, rest);
  identityRoutes(router, rest);
  executionRoutes(router, rest);
  jobDefinitionRoutes(router, rest);
  telemetryRoutes(router, rest);
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
  historyProcessInstanceRoutes(router, rest);
  historyActivityInstanceRoutes(router, rest);
  historyBatchRoutes(router, rest);
  historyTaskRoutes(router, rest);
  historyIdentityLinkLogRoutes(router, rest);
  historyVariableInstanceRoutes(router, rest);
  historyDetailRoutes(router, rest);
  historyIncidentRoutes(router, rest);
  historyJobLogRoutes(router, rest);
  historyExternalTaskLogRoutes(router, rest);
}

function requireEngineName({ engine }: RestContext): Middleware {
  return async (ctx, next) => {
    const name = (ctx as unknown as { params: Record<string, string> }).params.engineName;
    if (name !== engine.name) throw new InvalidRequestException(404, `Process engine ${name} not available`);
    await next();
  };
}

