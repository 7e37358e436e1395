import type Router from '@koa/router';
import { Resources, type TenantMember, type TenantQuery, NullValueException } from '@trellis/core';
import { readJsonObject, text } from '../body.js';
import { optionLinks } from '../dto/links.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { countCriteria, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { baseUrlOf, type RestContext } from './context.js';

const TENANT_QUERY: QuerySpec = {
  params: { id: 'string', name: 'string', nameLike: 'string', userMember: 'string', groupMember: 'string', includingGroupsOfUser: 'boolean' },
  sortBy: ['id', 'name'],
};

const tenantNotFound = (id: string) => new InvalidRequestException(404, `Tenant with id ${id} does not exist`);

/** The Tenant group (Camunda's TenantRestServiceImpl and TenantResourceImpl): query, count, create, get, update, delete, user and group members, OPTIONS. */
export function tenantRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/tenant', async (ctx) => {
    ctx.body = (await engine.identity.findTenants(parseListQuery<TenantQuery>(ctx.query, TENANT_QUERY))).map(({ id, name }) => ({ id, name }));
  });

  router.get('/tenant/count', async (ctx) => {
    const criteria = countCriteria(parseListQuery<TenantQuery>(ctx.query, TENANT_QUERY));
    ctx.body = { count: await engine.identity.countTenants(criteria) };
  });

  router.options('/tenant', async (ctx) => {
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['list', 'GET', '/tenant'],
      ['count', 'GET', '/tenant/count'],
      ['create', 'POST', '/tenant/create', await engine.authorization.mayOn('CREATE', Resources.TENANT)],
    ]);
  });

  router.post('/tenant/create', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda's newTenant (CreateTenantCmd) refuses a missing id before anything else.
    const id = text(body.id);
    if (id === null) throw new NullValueException('tenantId is null');
    await engine.identity.createTenant({ id, name: text(body.name) });
    ctx.status = 204;
  });

  router.get('/tenant/:id', async (ctx) => {
    const tenant = await engine.identity.getTenant(ctx.params.id);
    if (!tenant) throw tenantNotFound(ctx.params.id);
    ctx.body = { id: tenant.id, name: tenant.name };
  });

  router.put('/tenant/:id', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda's TenantResourceImpl looks the tenant up as the caller may read it first.
    if (!(await engine.identity.getTenant(ctx.params.id))) throw tenantNotFound(ctx.params.id);
    await notFoundAs404(() => engine.identity.updateTenant(ctx.params.id, { name: text(body.name) }));
    ctx.status = 204;
  });

  router.delete('/tenant/:id', async (ctx) => {
    await engine.identity.deleteTenant(ctx.params.id);
    ctx.status = 204;
  });

  router.options('/tenant/:id', async (ctx) => {
    const id = ctx.params.id;
    // Camunda builds the hrefs with UriBuilder.path: the id encoded.
    const segment = encodeURIComponent(id);
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['self', 'GET', `/tenant/${segment}`],
      ['delete', 'DELETE', `/tenant/${segment}`, await engine.authorization.mayOn('DELETE', Resources.TENANT, id)],
      ['update', 'PUT', `/tenant/${segment}`, await engine.authorization.mayOn('UPDATE', Resources.TENANT, id)],
    ]);
  });

  for (const [segment, param, memberOf] of [
    ['user-members', 'userId', (id: string): TenantMember => ({ userId: id })],
    ['group-members', 'groupId', (id: string): TenantMember => ({ groupId: id })],
  ] as const) {
    router.put(`/tenant/:id/${segment}/:${param}`, async (ctx) => {
      await engine.identity.createTenantMembership(ctx.params.id, memberOf(ctx.params[param]));
      ctx.status = 204;
    });

    router.delete(`/tenant/:id/${segment}/:${param}`, async (ctx) => {
      await engine.identity.deleteTenantMembership(ctx.params.id, memberOf(ctx.params[param]));
      ctx.status = 204;
    });

    router.options(`/tenant/:id/${segment}`, async (ctx) => {
      const id = ctx.params.id;
      ctx.body = optionLinks(baseUrlOf(ctx), [
        ['delete', 'DELETE', `/tenant/${encodeURIComponent(id)}/${segment}`, await engine.authorization.mayOn('DELETE', Resources.TENANT_MEMBERSHIP, id)],
        ['create', 'PUT', `/tenant/${encodeURIComponent(id)}/${segment}`, await engine.authorization.mayOn('CREATE', Resources.TENANT_MEMBERSHIP, id)],
      ]);
    });
  }
}
