import Router from '@koa/router';
import type { ProcessDefinitionQuery } from '@trellis/core';
import type { Context } from 'koa';
import { readJsonBody } from '../body.js';
import { attachmentDisposition, contentTypeFor } from '../dto/content-types.js';
import { toCalledProcessDefinitionDto, toProcessDefinitionDto } from '../dto/process-definition-dto.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { parseQuery, type QuerySpec } from '../query/parse-query.js';
import { looseFlag, type RestContext } from './context.js';
import { suspensionRoutes } from './process-definition-suspension.js';

const DEFINITION_QUERY: QuerySpec = {
  params: {
    processDefinitionId: 'string', processDefinitionIdIn: 'optionalList', name: 'string', nameLike: 'string',
    deploymentId: 'string', deployedAfter: 'date', deployedAt: 'date', key: 'string', keysIn: 'optionalList',
    keyLike: 'string', category: 'string', categoryLike: 'string', version: 'integer', latestVersion: 'boolean',
    resourceName: 'string', resourceNameLike: 'string', startableBy: 'string', active: 'boolean', suspended: 'boolean',
    incidentId: 'string', incidentType: 'string', incidentMessage: 'string', incidentMessageLike: 'string',
    tenantIdIn: 'optionalList', withoutTenantId: 'boolean', includeProcessDefinitionsWithoutTenantId: 'boolean',
    versionTag: 'string', versionTagLike: 'string', withoutVersionTag: 'boolean', startableInTasklist: 'boolean',
    notStartableInTasklist: 'boolean', startablePermissionCheck: 'boolean',
    // Deprecated aliases Camunda still accepts.
    ver: 'integer', latest: 'boolean',
  },
  sortBy: ['category', 'key', 'id', 'name', 'version', 'deploymentId', 'deployTime', 'tenantId', 'versionTag'],
};

/** The three ways a single definition is addressed: by id, by key (latest, no tenant), by key and tenant. */
export const DEFINITION_PATHS = ['/process-definition/key/:key/tenant-id/:tenantId', '/process-definition/key/:key', '/process-definition/:id'];

/** The process definition group's read and management operations. */
export function processDefinitionRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/process-definition', async (ctx) => {
    const definitions = await engine.processDefinition.findProcessDefinitions(definitionQuery(ctx.query));
    ctx.body = definitions.map(toProcessDefinitionDto);
  });

  router.get('/process-definition/count', async (ctx) => {
    ctx.body = { count: await engine.processDefinition.countProcessDefinitions(definitionQuery(ctx.query)) };
  });

  suspensionRoutes(router, rest);

  for (const path of DEFINITION_PATHS) {
    router.get(path, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      try {
        ctx.body = toProcessDefinitionDto(await engine.processDefinition.getProcessDefinition(id));
      } catch {
        // Camunda answers 404 for any engine failure here, authorization included.
        throw new InvalidRequestException(404, `No matching definition with id ${id}`);
      }
    });

    router.get(`${path}/xml`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      const xml = await notFoundAs404(() => engine.processDefinition.getProcessDefinitionXml(id), `No matching definition with id ${id}`);
      ctx.body = { id, bpmn20Xml: xml };
    });

    router.get(`${path}/diagram`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      // Camunda does not catch the engine's NotFoundException here: an unknown id is a 400.
      const diagram = await engine.processDefinition.getProcessDiagram(id);
      if (!diagram) {
        ctx.status = 204;
        return;
      }
      ctx.set('Content-Disposition', attachmentDisposition(diagram.name));
      ctx.type = contentTypeFor(diagram.name);
      ctx.body = diagram.bytes;
    });

    router.put(`${path}/history-time-to-live`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      const body = (await readJsonBody(ctx, rest.bodyLimit)) as { historyTimeToLive?: unknown };
      const ttl = body.historyTimeToLive ?? null;
      if (ttl !== null && !Number.isInteger(ttl)) {
        throw new InvalidRequestException(400, `Cannot convert value ${JSON.stringify(ttl)} to java type java.lang.Integer`);
      }
      await notFoundAs404(() => engine.processDefinition.updateHistoryTimeToLive(id, ttl as number | null));
      ctx.status = 204;
    });
  }

  router.delete('/process-definition/key/:key/tenant-id/:tenantId', async (ctx) => {
    await deleteByKey(rest, ctx, ctx.params.tenantId);
  });

  router.delete('/process-definition/key/:key', async (ctx) => {
    await deleteByKey(rest, ctx, null);
  });

  router.delete('/process-definition/:id', async (ctx) => {
    await notFoundAs404(() => engine.processDefinition.deleteProcessDefinition(ctx.params.id, deleteOptions(ctx)));
    ctx.status = 204;
  });

  router.get('/process-definition/:id/static-called-process-definitions', async (ctx) => {
    const called = await notFoundAs404(() => engine.processDefinition.getStaticCalledProcessDefinitions(ctx.params.id));
    ctx.body = called.map(toCalledProcessDefinitionDto);
  });
}

/** The definition id a request addresses; 404 RestException when a key has no definition. */
export async function resolveDefinitionId({ engine }: RestContext, ctx: Context): Promise<string> {
  const { id, key, tenantId } = ctx.params as Record<string, string | undefined>;
  if (id !== undefined) return id;
  // Camunda's getProcessDefinitionByKey runs the definition query: a definition the caller may not read is not found.
  const [definition] = await engine.processDefinition.findProcessDefinitions({
    key: key!,
    latestVersion: true,
    ...(tenantId === undefined ? { withoutTenantId: true } : { tenantIdIn: [tenantId] }),
  });
  if (definition) return definition.id;
  const tenant = tenantId === undefined ? 'no tenant-id' : `tenant-id: ${tenantId}`;
  throw new InvalidRequestException(404, `No matching process definition with key: ${key} and ${tenant}`, 'RestException');
}

async function deleteByKey({ engine }: RestContext, ctx: Context, tenantId: string | null): Promise<void> {
  await notFoundAs404(() => engine.processDefinition.deleteProcessDefinitionsByKey(ctx.params.key!, tenantId, deleteOptions(ctx)));
  ctx.status = 204;
}

function deleteOptions(ctx: Context) {
  return {
    cascade: looseFlag(ctx, 'cascade'),
    skipCustomListeners: looseFlag(ctx, 'skipCustomListeners'),
    skipIoMappings: looseFlag(ctx, 'skipIoMappings'),
  };
}

function definitionQuery(query: Record<string, unknown>): ProcessDefinitionQuery {
  const { params, sorting, page } = parseQuery(query, DEFINITION_QUERY);
  const { ver, latest, ...filters } = params as Record<string, unknown>;
  return {
    ...filters,
    version: (filters.version ?? ver) as number | undefined,
    latestVersion: (filters.latestVersion ?? latest) as boolean | undefined,
    sorting,
    ...page,
  } as ProcessDefinitionQuery;
}
