import Router from '@koa/router';
import { Resources, type UserQuery } from '@trellis/core';
import { nestedDto, readJsonObject, text } from '../body.js';
import { optionLinks } from '../dto/links.js';
import { InvalidRequestException, notFoundAs404 } from '../errors/rest-exception.js';
import { parseListQuery, type QuerySpec } from '../query/parse-query.js';
import { baseUrlOf, type RestContext } from './context.js';

const USER_QUERY: QuerySpec = {
  params: {
    id: 'string', idIn: 'stringArray', firstName: 'string', firstNameLike: 'string', lastName: 'string', lastNameLike: 'string',
    email: 'string', emailLike: 'string', memberOfGroup: 'string', memberOfTenant: 'string', potentialStarter: 'string',
  },
  sortBy: ['userId', 'firstName', 'lastName', 'email'],
};

/** The User group: query, count, create, profile, credentials, unlock, delete and OPTIONS. */
export function userRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/user', async (ctx) => {
    ctx.body = (await engine.identity.findUsers(parseListQuery<UserQuery>(ctx.query, USER_QUERY))).map(toUserProfileDto);
  });

  router.get('/user/count', async (ctx) => {
    ctx.body = { count: await engine.identity.countUsers(parseListQuery<UserQuery>(ctx.query, USER_QUERY)) };
  });

  router.options('/user', async (ctx) => {
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['list', 'GET', '/user'],
      ['count', 'GET', '/user/count'],
      ['create', 'POST', '/user/create', await engine.authorization.mayOn('CREATE', Resources.USER)],
    ]);
  });

  router.post('/user/create', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Nested DTOs as Jackson binds them: a value that is no object cannot bind (400).
    const profile = nestedDto(body.profile) ?? {};
    const credentials = nestedDto(body.credentials) ?? {};
    const id = text(profile.id);
    if (id === null) throw new InvalidRequestException(400, 'request object must provide profile information with valid id.');
    await engine.identity.createUser(
      { id, firstName: text(profile.firstName), lastName: text(profile.lastName), email: text(profile.email) },
      text(credentials.password),
    );
    ctx.status = 204;
  });

  router.get('/user/:id/profile', async (ctx) => {
    const user = await engine.identity.getUser(ctx.params.id);
    if (!user) throw userNotFound(ctx.params.id);
    ctx.body = toUserProfileDto(user);
  });

  router.put('/user/:id/profile', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    // Camunda's UserResourceImpl looks the user up as the caller may read it first.
    if (!(await engine.identity.getUser(ctx.params.id))) throw userNotFound(ctx.params.id);
    await notFoundAs404(() =>
      engine.identity.updateUserProfile(ctx.params.id, { firstName: text(body.firstName), lastName: text(body.lastName), email: text(body.email) }),
    );
    ctx.status = 204;
  });

  router.put('/user/:id/credentials', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const caller = engine.currentAuthentication();
    // Camunda: whoever is logged in confirms the change with their own password.
    // A missing password is no valid one, and no failed attempt either (Camunda's checkPassword with null).
    const confirmation = text(body.authenticatedUserPassword);
    if (caller && (confirmation === null || !(await engine.identity.checkPassword(caller.userId, confirmation)))) {
      throw new InvalidRequestException(400, 'The given authenticated user password is not valid.');
    }
    if (!(await engine.identity.getUser(ctx.params.id))) throw userNotFound(ctx.params.id);
    // Without a new password Camunda saves the user as it is (UPDATE still needed).
    await notFoundAs404(() => engine.identity.updatePassword(ctx.params.id, text(body.password)));
    ctx.status = 204;
  });

  router.post('/user/:id/unlock', async (ctx) => {
    await notFoundAs404(() => engine.identity.unlockUser(ctx.params.id));
    ctx.status = 204;
  });

  router.delete('/user/:id', async (ctx) => {
    // Camunda's code answers 204 for an unknown id too (its document says 404).
    await engine.identity.deleteUser(ctx.params.id);
    ctx.status = 204;
  });

  router.options('/user/:id', async (ctx) => {
    const id = ctx.params.id;
    // Camunda builds the hrefs with UriBuilder.path: the id encoded.
    const segment = encodeURIComponent(id);
    ctx.body = optionLinks(baseUrlOf(ctx), [
      ['self', 'GET', `/user/${segment}/profile`],
      ['delete', 'DELETE', `/user/${segment}`, await engine.authorization.mayOn('DELETE', Resources.USER, id)],
      ['update', 'PUT', `/user/${segment}/profile`, await engine.authorization.mayOn('UPDATE', Resources.USER, id)],
    ]);
  });
}

export const toUserProfileDto = (user: { id: string; firstName: string | null; lastName: string | null; email: string | null }) => ({
  id: user.id,
  firstName: user.firstName,
  lastName: user.lastName,
  email: user.email,
});

const userNotFound = (id: string) => new InvalidRequestException(404, `User with id ${id} does not exist`);
