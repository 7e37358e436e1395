import Router from '@koa/router';
import { Resources, type GroupQuery, NullValueException } from '@trellis/core';
import type { Context } from 'koa';
import { readJsonObject, text } from '../body.js';
import { optionLinks } from '../dto/links.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { parseBodyQuery, parsePage, parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { baseUrlOf, type RestContext } from './context.js';

const GROUP_QUERY: QuerySpec = {
  params: { id: 'string', idIn: 'stringArray', name: 'string', nameLike: 'string', type: 'string', member: 'string', memberOfTenant: 'string' },
  sortBy: ['id', 'name', 'type'],
};

/** The Group group: query (GET and POST), count, create, get, update, delete, members and OPTIONS. */
export function groupRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/group', async (ctx) => {
    ctx.body = (await engine.identity.findGroups(parseListQuery<GroupQuery>(ctx.query, GROUP_QUERY))).map(toGroupDto);
  });

  router.post('/group', async (ctx) => {
    const query = { ...(await groupQueryBody(ctx, rest)), ...parsePage(ctx.query) };
    ctx.body = (await engine.identity.findGroups(query)).map(toGroupDto);
  });

  router.get('/group/count', async (ctx) => {
    ctx.body = { count: await engine.identity.countGroups(parseListQuery<GroupQuery>(ctx.query, GROUP_QUERY)) };
  });

  router.post('/group/count', async (ctx) => {
    ctx.body = { count: await engine.identity.countGroups(await groupQueryBody(ctx, rest)) };
  });

  router.options('/group', async (ctx) => {
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['list', 'GET', '/group'],
      ['count', 'GET', '/group/count'],
      ['create', 'POST', '/group/create', await engine.authorization.mayOn('CREATE', Resources.GROUP)],
    ]);
  });

  router.post('/group/create', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda's newGroup (CreateGroupCmd) refuses a missing id before anything else.
    const id = text(body.id);
    if (id === null) throw new NullValueException('groupId is null');
    await engine.identity.createGroup({ id, name: text(body.name), type: text(body.type) });
    ctx.status = 204;
  });

  router.get('/group/:id', async (ctx) => {
    const group = await engine.identity.getGroup(ctx.params.id);
    if (!group) throw new InvalidRequestException(404, `Group with id ${ctx.params.id} does not exist`);
    ctx.body = toGroupDto(group);
  });

  router.put('/group/:id', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda's GroupResourceImpl looks the group up as the caller may read it first.
    if (!(await engine.identity.getGroup(ctx.params.id))) throw new InvalidRequestException(404, `Group with id ${ctx.params.id} does not exist`);
    await notFoundAs404(() => engine.identity.updateGroup(ctx.params.id, { name: text(body.name), type: text(body.type) }));
    ctx.status = 204;
  });

  router.delete('/group/:id', async (ctx) => {
    // Camunda's code answers 204 for an unknown id too (its document says 404).
    await engine.identity.deleteGroup(ctx.params.id);
    ctx.status = 204;
  });

  router.options('/group/:id', async (ctx) => {
    const id = ctx.params.id;
    // Camunda builds the hrefs with UriBuilder.path: the id encoded.
    const segment = encodeURIComponent(id);
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['self', 'GET', `/group/${segment}`],
      ['delete', 'DELETE', `/group/${segment}`, await engine.authorization.mayOn('DELETE', Resources.GROUP, id)],
      ['update', 'PUT', `/group/${segment}`, await engine.authorization.mayOn('UPDATE', Resources.GROUP, id)],
    ]);
  });

  router.put('/group/:id/members/:userId', async (ctx) => {
    await engine.identity.createMembership(ctx.params.userId, ctx.params.id);
    ctx.status = 204;
  });

  router.delete('/group/:id/members/:userId', async (ctx) => {
    await engine.identity.deleteMembership(ctx.params.userId, ctx.params.id);
    ctx.status = 204;
  });

  router.options('/group/:id/members', async (ctx) => {
    const id = ctx.params.id;
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['delete', 'DELETE', `/group/${encodeURIComponent(id)}/members`, await engine.authorization.mayOn('DELETE', Resources.GROUP_MEMBERSHIP, id)],
      ['create', 'PUT', `/group/${encodeURIComponent(id)}/members`, await engine.authorization.mayOn('CREATE', Resources.GROUP_MEMBERSHIP, id)],
    ]);
  });
}

const toGroupDto = (group: { id: string; name: string | null; type: string | null }) => ({ id: group.id, name: group.name, type: group.type });


/** A POST query body as Jackson binds Camunda's GroupQueryDto (its sortBy / sortOrder and sorting too). */
async function groupQueryBody(ctx: Context, rest: RestContext): Promise<GroupQuery> {
  return parseBodyQuery<GroupQuery>(await readJsonObject(ctx, rest.bodyLimit), GROUP_QUERY);
}
