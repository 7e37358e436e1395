import Router from '@koa/router';
import { objectOf, readJsonObject, text } from '../body.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import type { RestContext } from './context.js';

/** The Identity group: a user's groups and their members, password verification, the password policy. */
export function identityRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  router.get('/identity/groups', async (ctx) => {
    const userId = ctx.query.userId;
    const id = Array.isArray(userId) ? userId[0] : userId;
    // Camunda's getGroupInfo refuses only a missing id; its groups come ordered by name.
    if (id === undefined) throw new InvalidRequestException(400, 'No user id was supplied');
    const groups = await engine.identity.findGroups({ member: id, sorting: [{ sortBy: 'name', sortOrder: 'asc' }] });
    const members = new Map<string, { id: string; firstName: string | null; lastName: string | null; displayName: string }>();
    for (const group of groups) {
      for (const user of await engine.identity.findUsers({ memberOfGroup: group.id })) {
        if (user.id === id) continue;
        members.set(user.id, { id: user.id, firstName: user.firstName, lastName: user.lastName, displayName: displayName(user) });
      }
    }
    ctx.body = { groups: groups.map((group) => ({ id: group.id, name: group.name })), groupUsers: [...members.values()] };
  });

  router.post('/identity/verify', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const username = text(body.username);
    const password = text(body.password);
    // Camunda refuses only missing values: an empty password is checked (and counts as a failure).
    if (username === null || password === null) throw new InvalidRequestException(400, 'Username and password are required');
    const authenticated = await engine.identity.checkPassword(username, password);
    ctx.body = { authenticatedUser: username, authenticated, tenants: null, groups: null };
  });

  // Without a policy (enablePasswordPolicy off, Camunda's default) both answer 404.
  router.get('/identity/password-policy', async (ctx) => {
    const rules = engine.identity.getPasswordPolicy();
    if (rules === null) throw noPolicy();
    ctx.body = { rules };
  });

  router.post('/identity/password-policy', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    if (engine.identity.getPasswordPolicy() === null) throw noPolicy();
    const profile = objectOf(body.profile);
    // Camunda's IdentityRestServiceImpl: a profile without an id stands for a user with the id ''.
    const user = body.profile == null ? null : { id: text(profile.id) ?? '', firstName: text(profile.firstName), lastName: text(profile.lastName), email: text(profile.email) };
    ctx.body = engine.identity.checkPasswordAgainstPolicy(text(body.password), user);
  });
}

/** Camunda's UserDto display name: the id without names; else "first last" (Java's "null" for a missing first name), or the first name alone. */
function displayName(user: { id: string; firstName: string | null; lastName: string | null }): string {
  if (user.firstName === null && user.lastName === null) return user.id;
  return user.lastName !== null ? `${user.firstName ?? 'null'} ${user.lastName}` : user.firstName!;
}

// Camunda's resource answers this 404 with no body; the 7.22 contract documents an ExceptionDto,
// which Trellis follows.
const noPolicy = () => new InvalidRequestException(404, 'No password policy was configured.');
