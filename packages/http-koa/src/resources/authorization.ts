import Router from '@koa/router';
import { permissionsFromNames, Resources, type AuthorizationInput, type AuthorizationQuery } from '@trellis/core';
import { readJsonObject } from '../body.js';
import { toAuthorizationDto } from '../dto/authorization-dto.js';
import { optionLinks } from '../dto/links.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { baseUrlOf, type RestContext } from './context.js';

const AUTHORIZATION_QUERY: QuerySpec = {
  params: { id: 'string', type: 'integer', userIdIn: 'stringList', groupIdIn: 'stringList', resourceType: 'integer', resourceId: 'string' },
  sortBy: ['resourceType', 'resourceId'],
};

/** The Authorization group: all nine operations. */
export function authorizationRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/authorization', async (ctx) => {
    ctx.body = (await engine.authorization.findAuthorizations(parseListQuery<AuthorizationQuery>(ctx.query, AUTHORIZATION_QUERY))).map(toAuthorizationDto);
  });

  router.get('/authorization/count', async (ctx) => {
    ctx.body = { count: await engine.authorization.countAuthorizations(parseListQuery<AuthorizationQuery>(ctx.query, AUTHORIZATION_QUERY)) };
  });

  router.options('/authorization', async (ctx) => {
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['list', 'GET', '/authorization'],
      ['count', 'GET', '/authorization/count'],
      ['create', 'POST', '/authorization/create', await engine.authorization.mayOn('CREATE', Resources.AUTHORIZATION)],
    ]);
  });

  router.get('/authorization/check', async (ctx) => {
    const first = (name: string) => {
      const value = ctx.query[name];
      return Array.isArray(value) ? value[0] : value;
    };
    const [permissionName, resourceName, resourceType] = ['permissionName', 'resourceName', 'resourceType'].map((name) => {
      const value = first(name);
      if (value === undefined) throw new InvalidRequestException(400, `Query parameter '${name}' cannot be null`);
      return value;
    });
    const type = Number(resourceType);
    if (!/^-?\d+$/.test(resourceType)) {
      throw new InvalidRequestException(400, `Cannot set query parameter 'resourceType' to value '${resourceType}': Cannot convert value ${resourceType} to java type java.lang.Integer`);
    }
    const caller = engine.currentAuthentication();
    if (!caller) throw new InvalidRequestException(401, 'You must be authenticated in order to use this resource.');
    // Camunda's order: the permission's name (400 when the type has none such), then whom to check.
    permissionsFromNames([permissionName], type);
    const userId = first('userId');
    let subject = caller;
    if (userId !== undefined && userId !== caller.userId) {
      if (!(await engine.authorization.mayRead())) {
        throw new InvalidRequestException(403, 'You must have READ permission for Authorization resource.');
      }
      // Camunda asks a group query as the caller: groups the caller may not read do not count.
      subject = { userId, groupIds: (await engine.identity.findGroups({ member: userId })).map((group) => group.id), tenantIds: [] };
    }
    const resourceId = first('resourceId') ?? null;
    const authorized = await engine.authorization.isUserAuthorized({ permissionName, resourceName, resourceType: type, resourceId }, subject);
    ctx.body = { permissionName, resourceName, resourceId, authorized };
  });

  router.post('/authorization/create', async (ctx) => {
    const created = await engine.authorization.createAuthorization(authorizationInput(await readJsonObject(ctx, rest.bodyLimit)));
    // Camunda answers with the authorization read back as the caller may read it (404 without READ).
    const readable = await engine.authorization.getAuthorization(created.id);
    if (!readable) throw notFound(created.id);
    ctx.body = toAuthorizationDto(readable);
  });

  router.get('/authorization/:id', async (ctx) => {
    const authorization = await engine.authorization.getAuthorization(ctx.params.id);
    if (!authorization) throw notFound(ctx.params.id);
    ctx.body = toAuthorizationDto(authorization);
  });

  router.put('/authorization/:id', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda's AuthorizationResourceImpl looks the authorization up as the caller may read it first.
    if (!(await engine.authorization.getAuthorization(ctx.params.id))) throw notFound(ctx.params.id);
    await notFoundAs404(() => engine.authorization.updateAuthorization(ctx.params.id, authorizationInput(body)));
    ctx.status = 204;
  });

  router.delete('/authorization/:id', async (ctx) => {
    if (!(await engine.authorization.getAuthorization(ctx.params.id))) throw notFound(ctx.params.id);
    await notFoundAs404(() => engine.authorization.deleteAuthorization(ctx.params.id));
    ctx.status = 204;
  });

  router.options('/authorization/:id', async (ctx) => {
    const id = ctx.params.id;
    const path = `/authorization/${id}`;
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['self', 'GET', path],
      ['delete', 'DELETE', path, await engine.authorization.mayOn('DELETE', Resources.AUTHORIZATION, id)],
      ['update', 'PUT', path, await engine.authorization.mayOn('UPDATE', Resources.AUTHORIZATION, id)],
    ]);
  });
}

const notFound = (id: string) => new InvalidRequestException(404, `Authorization with id ${id} does not exist.`);


function authorizationInput(body: Record<string, unknown>): AuthorizationInput {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const integer = (name: string) => {
    const value = body[name];
    if (value === undefined || value === null) return null;
    if (!Number.isInteger(value)) throw new InvalidRequestException(400, '');
    return value as number;
  };
  const permissions = body.permissions;
  if (permissions !== undefined && permissions !== null && !(Array.isArray(permissions) && permissions.every((p) => typeof p === 'string'))) {
    throw new InvalidRequestException(400, '');
  }
  return {
    type: integer('type') ?? undefined,
    userId: text(body.userId),
    groupId: text(body.groupId),
    resourceType: integer('resourceType'),
    resourceId: text(body.resourceId),
    permissions: (permissions as string[] | null | undefined) ?? null,
  };
}
