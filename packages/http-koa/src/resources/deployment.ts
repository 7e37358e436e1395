import Router from '@koa/router';
import { NotFoundException, NotValidException, type DeploymentQuery, type DeploymentRequest } from '@trellis/core';
import { readJsonBody } from '../body.js';
import { attachmentDisposition, contentTypeFor, resourceFileName } from '../dto/content-types.js';
import { parseIsoDateTime } from '../dto/dates.js';
import { toDeploymentDto, toDeploymentResourceDto, toDeploymentWithDefinitionsDto } from '../dto/deployment-dto.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { readMultipart } from '../multipart.js';
import { parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { baseUrlOf, strictFlag, type RestContext } from './context.js';

const DEPLOYMENT_QUERY: QuerySpec = {
  params: {
    id: 'string', name: 'string', nameLike: 'string', source: 'string', withoutSource: 'boolean',
    tenantIdIn: 'optionalList', withoutTenantId: 'boolean', includeDeploymentsWithoutTenantId: 'boolean',
    after: 'date', before: 'date',
  },
  sortBy: ['id', 'name', 'deploymentTime', 'tenantId'],
};

const RESERVED_PARTS = new Set([
  'deployment-name', 'enable-duplicate-filtering', 'deploy-changed-only', 'deployment-source', 'deployment-activation-time', 'tenant-id',
]);

/** The Deployment group: all ten operations. */
export function deploymentRoutes(router: Router, { engine, bodyLimit }: RestContext): void {
  router.get('/deployment', async (ctx) => {
    const deployments = await engine.deployment.findDeployments(deploymentQuery(ctx.query));
    ctx.body = deployments.map((deployment) => toDeploymentDto(deployment));
  });

  router.get('/deployment/count', async (ctx) => {
    ctx.body = { count: await engine.deployment.countDeployments(deploymentQuery(ctx.query)) };
  });

  router.get('/deployment/registered', async (ctx) => {
    ctx.body = await engine.deployment.getRegisteredDeployments();
  });

  router.post('/deployment/create', async (ctx) => {
    const form = await readMultipart(ctx, bodyLimit);
    const text = (name: string) => form.fields.get(name);
    // Camunda's extractDeploymentInformation: every part (the last of a name) that is not a setting is
    // a resource and needs a file name; its message names the missing file name, so always 'null'.
    const parts = [...form.parts.values()].filter((part) => !RESERVED_PARTS.has(part.fieldName));
    if (parts.some((part) => !part.fileName)) {
      throw new InvalidRequestException(400, "No file name found in the deployment resource described by form parameter 'null'.");
    }
    // Its DeploymentBuilder keeps resources by name: of two parts with one file name, the later wins.
    const resources = new Map(parts.map((part) => [part.fileName!, part.bytes]));
    // Camunda reads the activation time before it asks for resources.
    const activation = text('deployment-activation-time');
    const activationTime = activation ? parseActivationTime(activation) : null;
    if (resources.size === 0) throw new InvalidRequestException(400, 'No deployment resources contained in the form upload.');
    const request: DeploymentRequest = {
      name: text('deployment-name') ?? null,
      source: text('deployment-source') ?? null,
      tenantId: text('tenant-id') ?? null,
      enableDuplicateFiltering: isTrue(text('enable-duplicate-filtering')),
      deployChangedOnly: isTrue(text('deploy-changed-only')),
      activationTime,
      resources: [...resources].map(([name, bytes]) => ({ name, bytes })),
    };
    ctx.body = toDeploymentWithDefinitionsDto(await engine.deployment.deploy(request), baseUrlOf(ctx));
  });

  router.get('/deployment/:id', async (ctx) => {
    const deployment = await engine.deployment.getDeployment(ctx.params.id);
    if (!deployment) throw new InvalidRequestException(404, `Deployment with id '${ctx.params.id}' does not exist`);
    ctx.body = toDeploymentDto(deployment);
  });

  router.delete('/deployment/:id', async (ctx) => {
    // Camunda's DeploymentResourceImpl looks the deployment up as the caller may read it first.
    if (!(await engine.deployment.getDeployment(ctx.params.id))) throw new InvalidRequestException(404, `Deployment with id '${ctx.params.id}' do not exist`);
    try {
      await engine.deployment.deleteDeployment(ctx.params.id, {
        cascade: strictFlag(ctx, 'cascade'),
        skipCustomListeners: strictFlag(ctx, 'skipCustomListeners'),
        skipIoMappings: strictFlag(ctx, 'skipIoMappings'),
      });
    } catch (error) {
      if (error instanceof NotFoundException) throw new InvalidRequestException(404, error.message);
      throw error;
    }
    ctx.status = 204;
  });

  router.post('/deployment/:id/redeploy', async (ctx) => {
    const body = ((await readJsonBody(ctx, bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
    const id = ctx.params.id;
    if (!(await engine.deployment.getDeployment(id))) {
      throw new InvalidRequestException(404, `Deployment with id '${id}' does not exist`);
    }
    try {
      const result = await engine.deployment.redeploy(id, {
        resourceIds: stringArray(body.resourceIds),
        resourceNames: stringArray(body.resourceNames),
        source: typeof body.source === 'string' ? body.source : null,
      });
      ctx.body = toDeploymentWithDefinitionsDto(result, baseUrlOf(ctx));
    } catch (error) {
      if (error instanceof NotFoundException) throw new InvalidRequestException(404, `Cannot redeploy deployment '${id}': ${error.message}`, 'InvalidRequestException', error.code);
      if (error instanceof NotValidException) throw new InvalidRequestException(400, `Cannot redeploy deployment '${id}': ${error.message}`, 'InvalidRequestException', error.code);
      throw error;
    }
  });

  router.get('/deployment/:id/resources', async (ctx) => {
    const resources = await engine.deployment.getDeploymentResources(ctx.params.id);
    if (resources.length === 0) {
      throw new InvalidRequestException(404, `Deployment resources for deployment id '${ctx.params.id}' do not exist.`);
    }
    ctx.body = resources.map(toDeploymentResourceDto);
  });

  router.get('/deployment/:id/resources/:resourceId', async (ctx) => {
    const { id, resourceId } = ctx.params;
    const resource = (await engine.deployment.getDeploymentResources(id)).find((r) => r.id === resourceId);
    if (!resource) {
      throw new InvalidRequestException(404, `Deployment resource with resource id '${resourceId}' for deployment id '${id}' does not exist.`);
    }
    ctx.body = toDeploymentResourceDto(resource);
  });

  router.get('/deployment/:id/resources/:resourceId/data', async (ctx) => {
    const { id, resourceId } = ctx.params;
    const resource = (await engine.deployment.getDeploymentResources(id)).find((r) => r.id === resourceId);
    if (!resource) throw new InvalidRequestException(404, `Deployment resource '${resourceId}' for deployment id '${id}' does not exist.`);
    const data = await engine.deployment.getResourceData(id, resourceId);
    ctx.set('Content-Disposition', attachmentDisposition(resourceFileName(data.name)));
    ctx.type = contentTypeFor(data.name);
    ctx.body = data.bytes;
  });
}

function deploymentQuery(query: Record<string, unknown>): DeploymentQuery {
  const parsed = parseListQuery<DeploymentQuery>(query, DEPLOYMENT_QUERY);
  if (parsed.withoutSource && parsed.source !== undefined) {
    throw new InvalidRequestException(400, 'The query parameters "withoutSource" and "source" cannot be used in combination.');
  }
  return parsed;
}

// Java's Boolean.parseBoolean: only "true", in any case.
const isTrue = (value: string | undefined) => value?.toLowerCase() === 'true';

/** A JSON list of strings (null entries kept: the engine refuses them); anything else is not a list. */
const stringArray = (value: unknown) => (Array.isArray(value) ? value.filter((v): v is string | null => typeof v === 'string' || v === null) : undefined);

/** Camunda parses it with Joda-Time and lets its IllegalArgumentException through: a 500. */
function parseActivationTime(text: string): Date {
  const date = parseIsoDateTime(text);
  if (date) return date;
  const error = new Error(`Invalid format: "${text}"`);
  error.name = 'IllegalArgumentException';
  throw error;
}
