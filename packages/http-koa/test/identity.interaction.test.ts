import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

const createUser = (id: string, firstName: string, lastName: string, email: string, password = 'pw') =>
  rest.request('POST', '/user/create', { json: { profile: { id, firstName, lastName, email }, credentials: { password } } });
const createGroup = (id: string, name: string, type = 'WORKFLOW') => rest.request('POST', '/group/create', { json: { id, name, type } });

describe('the User group', () => {
  it('creates, reads, updates and deletes a user', async () => {
    const created = await createUser('jonny', 'Jonny', 'Walker', 'jonny@example.com');
    const profile = await rest.request('GET', '/user/jonny/profile');
    const update = await rest.request('PUT', '/user/jonny/profile', { json: { id: 'jonny', firstName: 'John', lastName: 'Walker', email: 'john@example.com' } });
    const updated = await rest.request('GET', '/user/jonny/profile');
    const removed = await rest.request('DELETE', '/user/jonny');
    const gone = await rest.request('GET', '/user/jonny/profile');

    expect(created.status).toBe(204);
    expect(profile.body).toEqual({ id: 'jonny', firstName: 'Jonny', lastName: 'Walker', email: 'jonny@example.com' });
    expect(update.status).toBe(204);
    expect(updated.body.email).toBe('john@example.com');
    expect(removed.status).toBe(204);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('User with id jonny does not exist');
  });

  it('keeps only a hash of the password, and verifies it', async () => {
    await createUser('jonny', 'Jonny', 'Walker', 'j@x', 'secret-1');
    const stored = await rest.engine.identity.checkPassword('jonny', 'secret-1');

    const right = await rest.request('POST', '/identity/verify', { json: { username: 'jonny', password: 'secret-1' } });
    const wrong = await rest.request('POST', '/identity/verify', { json: { username: 'jonny', password: 'nope' } });
    const missing = await rest.request('POST', '/identity/verify', { json: { username: 'jonny' } });

    expect(stored).toBe(true);
    expect(right.body).toMatchObject({ authenticatedUser: 'jonny', authenticated: true });
    expect(wrong.body).toMatchObject({ authenticated: false });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Username and password are required');
  });

  it('changes the password', async () => {
    await createUser('jonny', 'Jonny', 'Walker', 'j@x', 'old');

    const response = await rest.request('PUT', '/user/jonny/credentials', { json: { password: 'new', authenticatedUserPassword: 'ignored without login' } });

    expect(response.status).toBe(204);
    expect(await rest.engine.identity.checkPassword('jonny', 'new')).toBe(true);
    expect(await rest.engine.identity.checkPassword('jonny', 'old')).toBe(false);
    // Without a new password Camunda saves the user as it is.
    expect((await rest.request('PUT', '/user/jonny/credentials', { json: {} })).status).toBe(204);
  });

  it('filters, sorts and counts users', async () => {
    await createUser('a1', 'Anna', 'Zed', 'anna@x.org');
    await createUser('b2', 'Bob', 'Young', 'bob@y.org');
    await createGroup('sales', 'Sales');
    await rest.request('PUT', '/group/sales/members/b2');

    const ids = async (query: Record<string, string>) => (await rest.request('GET', '/user', { query })).body.map((u: any) => u.id);

    expect(await ids({ firstNameLike: 'A%' })).toEqual(['a1']);
    expect(await ids({ emailLike: '%y.org' })).toEqual(['b2']);
    expect(await ids({ memberOfGroup: 'sales' })).toEqual(['b2']);
    expect(await ids({ idIn: 'a1,b2', sortBy: 'lastName', sortOrder: 'asc' })).toEqual(['b2', 'a1']);
    expect((await rest.request('GET', '/user/count', { query: { lastName: 'Zed' } })).body).toEqual({ count: 1 });
  });

  it('takes ids by the configured patterns: the kind\'s own, else the general one, matching the whole id', async () => {
    const custom = await startRestHarness({ generalResourceWhitelistPattern: '[a-z]+', userResourceWhitelistPattern: '[a-z.]+@[a-z.]+' });
    try {
      const post = (path: string, json: unknown) => custom.request('POST', path, { json });
      const user = (id: string) => post('/user/create', { profile: { id, firstName: 'A', lastName: 'B', email: 'c' }, credentials: { password: 'pw' } });

      expect((await user('mary@acme.com')).status).toBe(204);
      expect((await user('mary')).body.message).toBe("User has an invalid id: 'mary' is not a valid resource identifier.");
      expect((await post('/group/create', { id: 'sales' })).status).toBe(204);
      expect((await post('/group/create', { id: 'Sales1' })).body.message).toBe("Group has an invalid id: 'Sales1' is not a valid resource identifier.");
      expect((await post('/tenant/create', { id: 'acme.com' })).body.message).toBe("Tenant has an invalid id: 'acme.com' is not a valid resource identifier.");
    } finally {
      await custom.close();
    }
    await expect(startRestHarness({ generalResourceWhitelistPattern: '[a-z' })).rejects.toThrow("Invalid resource whitelist pattern '[a-z'");
  });

  it('rejects an invalid user id and a duplicate', async () => {
    const invalid = await createUser('not valid!', 'A', 'B', 'c');
    await createUser('jonny', 'A', 'B', 'c');
    const duplicate = await createUser('jonny', 'A', 'B', 'c');

    expect(invalid.status).toBe(500);
    expect(invalid.body.message).toBe("User has an invalid id: 'not valid!' is not a valid resource identifier.");
    // Camunda's IdentityServiceImpl answers a duplicate as a bad request.
    expect([duplicate.status, duplicate.body]).toEqual([400, { type: 'BadUserRequestException', message: 'The user already exists', code: 0 }]);
    const noId = await rest.request('POST', '/user/create', { json: { profile: { firstName: 'x' } } });
    expect([noId.status, noId.body.message]).toEqual([400, 'request object must provide profile information with valid id.']);
    // A group: the id is checked (a missing one is null), a duplicate is a bad request too.
    const group = (json: unknown) => rest.request('POST', '/group/create', { json });
    expect((await group({ name: 'x' })).body).toMatchObject({ type: 'NullValueException', message: 'groupId is null' });
    expect((await group({ id: 'a b' })).body.message).toBe("Group has an invalid id: 'a b' is not a valid resource identifier.");
    await group({ id: 'sales' });
    expect((await group({ id: 'sales' })).body).toEqual({ type: 'BadUserRequestException', message: 'The group already exists', code: 0 });
    const member = await rest.request('PUT', '/group/sales/members/ghost');
    expect([member.status, member.body.type, member.body.message]).toEqual([500, 'NullValueException', "No user found with id 'ghost'.: user is null"]);
  });

  it('answers OPTIONS with the user operations and unlocks a user', async () => {
    await createUser('jonny', 'A', 'B', 'c');

    const collection = await rest.request('OPTIONS', '/user');
    const single = await rest.request('OPTIONS', '/user/jonny');
    const unlock = await rest.request('POST', '/user/jonny/unlock');
    const unknown = await rest.request('POST', '/user/nobody/unlock');

    expect(collection.body.links.map((l: any) => l.rel)).toEqual(['list', 'count', 'create']);
    expect(single.body.links.map((l: any) => [l.rel, l.method])).toEqual([['self', 'GET'], ['delete', 'DELETE'], ['update', 'PUT']]);
    expect(unlock.status).toBe(204);
    // Camunda's DbIdentityServiceProvider.unlockUser does nothing for an unknown user.
    expect(unknown.status).toBe(204);
  });
});

describe('the Group group', () => {
  it('creates, reads, updates and deletes a group, and manages members', async () => {
    await createUser('jonny', 'Jonny', 'Walker', 'j@x');
    const created = await createGroup('sales', 'Sales');
    const read = await rest.request('GET', '/group/sales');
    const update = await rest.request('PUT', '/group/sales', { json: { id: 'sales', name: 'Sales EMEA', type: 'WORKFLOW' } });
    const join = await rest.request('PUT', '/group/sales/members/jonny');
    // an existing membership fails on its database key, as in Camunda
    const joinAgain = await rest.request('PUT', '/group/sales/members/jonny');
    const members = await rest.request('GET', '/group', { query: { member: 'jonny' } });
    const leave = await rest.request('DELETE', '/group/sales/members/jonny');
    const afterLeave = await rest.request('GET', '/group/count', { query: { member: 'jonny' } });
    const removed = await rest.request('DELETE', '/group/sales');
    const gone = await rest.request('GET', '/group/sales');

    expect(created.status).toBe(204);
    expect(read.body).toEqual({ id: 'sales', name: 'Sales', type: 'WORKFLOW' });
    expect(update.status).toBe(204);
    expect(join.status).toBe(204);
    expect([joinAgain.status, joinAgain.body.type]).toEqual([500, 'ProcessEnginePersistenceException']);
    expect(members.body).toEqual([{ id: 'sales', name: 'Sales EMEA', type: 'WORKFLOW' }]);
    expect(leave.status).toBe(204);
    expect(afterLeave.body).toEqual({ count: 0 });
    expect(removed.status).toBe(204);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toBe('Group with id sales does not exist');
  });

  it('keeps the grants on a deleted user, group or tenant while authorization is off, as Camunda', async () => {
    await createUser('bob', 'Bob', 'B', 'b@x');
    await createGroup('ops', 'Ops');
    await rest.request('POST', '/tenant/create', { json: { id: 't9', name: 'T' } });
    for (const [resourceType, resourceId] of [[1, 'bob'], [2, 'ops'], [11, 't9']] as const) {
      await rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'someone', resourceType, resourceId, permissions: ['READ'] } });
    }

    await rest.request('DELETE', '/user/bob');
    await rest.request('DELETE', '/group/ops');
    await rest.request('DELETE', '/tenant/t9');

    expect((await rest.request('GET', '/authorization/count', { query: { userIdIn: 'someone' } })).body).toEqual({ count: 3 });
  });

  it('queries groups by GET and by POST body, with sorting and paging', async () => {
    await createGroup('b', 'Beta', 'SYSTEM');
    await createGroup('a', 'Alpha');
    await createGroup('c', 'Gamma');

    const get = await rest.request('GET', '/group', { query: { sortBy: 'name', sortOrder: 'desc', maxResults: 2 } });
    const post = await rest.request('POST', '/group', { json: { nameLike: '%a', sorting: [{ sortBy: 'id', sortOrder: 'asc' }] }, query: { firstResult: 1 } });
    const count = await rest.request('POST', '/group/count', { json: { type: 'SYSTEM' } });

    expect(get.body.map((g: any) => g.id)).toEqual(['c', 'b']);
    expect(post.body.map((g: any) => g.id)).toEqual(['b', 'c']);
    expect(count.body).toEqual({ count: 1 });
  });

  it('answers OPTIONS for groups and members', async () => {
    await createGroup('sales', 'Sales');

    const collection = await rest.request('OPTIONS', '/group');
    const single = await rest.request('OPTIONS', '/group/sales');
    const members = await rest.request('OPTIONS', '/group/sales/members');

    expect(collection.body.links.map((l: any) => l.rel)).toEqual(['list', 'count', 'create']);
    expect(single.body.links.map((l: any) => l.rel)).toEqual(['self', 'delete', 'update']);
    expect(members.body.links.map((l: any) => l.rel)).toEqual(['delete', 'create']);
  });
});

describe('the Identity group', () => {
  it("lists a user's groups and the other members of those groups", async () => {
    await createUser('jonny', 'Jonny', 'Walker', 'j@x');
    await createUser('mary', 'Mary', 'Major', 'm@x');
    await createUser('solo', '', '', 's@x');
    await createGroup('sales', 'Sales');
    for (const user of ['jonny', 'mary']) await rest.request('PUT', `/group/sales/members/${user}`);

    const response = await rest.request('GET', '/identity/groups', { query: { userId: 'jonny' } });
    const missing = await rest.request('GET', '/identity/groups');

    expect(response.body).toEqual({
      groups: [{ id: 'sales', name: 'Sales' }],
      groupUsers: [{ id: 'mary', firstName: 'Mary', lastName: 'Major', displayName: 'Mary Major' }],
    });
    expect(missing.status).toBe(400);
  });

  it('answers 404 for the password policy, which is not configured', async () => {
    const response = await rest.request('GET', '/identity/password-policy');

    expect(response.status).toBe(404);
  });
});

describe('identity with authorization on', () => {
  it('gives a new user ALL on itself and a new group READ on itself, and checks CREATE', async () => {
    const secured = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    try {
      await secured.engine.identity.setUpAdministrator('admin', 'pw');
      const admin = basic('admin', 'pw');
      await secured.request('POST', '/user/create', { json: { profile: { id: 'jonny' }, credentials: { password: 'pw' } }, headers: admin });
      await secured.request('POST', '/group/create', { json: { id: 'sales', name: 'Sales' }, headers: admin });

      const userGrant = await secured.request('GET', '/authorization', { query: { userIdIn: 'jonny' }, headers: admin });
      const groupGrant = await secured.request('GET', '/authorization', { query: { groupIdIn: 'sales' }, headers: admin });
      const denied = await secured.request('POST', '/group/create', { json: { id: 'other' }, headers: basic('jonny', 'pw') });
      const ownProfile = await secured.request('GET', '/user/jonny/profile', { headers: basic('jonny', 'pw') });
      const othersProfile = await secured.request('GET', '/user/admin/profile', { headers: basic('jonny', 'pw') });

      expect(userGrant.body).toEqual([expect.objectContaining({ type: 1, resourceType: 1, resourceId: 'jonny', permissions: ['ALL'] })]);
      expect(groupGrant.body).toEqual([expect.objectContaining({ type: 1, resourceType: 2, resourceId: 'sales', permissions: ['READ'] })]);
      expect(denied.status).toBe(403);
      expect(ownProfile.status).toBe(200);
      expect(othersProfile.status).toBe(404);

      // Deleting (Camunda's DeleteUserCmd / DeleteGroupCmd): DELETE is checked first, an unknown id is
      // no error (204), and the grants on the user as a resource go while those held by the user stay.
      const ghostByJonny = await secured.request('DELETE', '/user/ghost', { headers: basic('jonny', 'pw') });
      await secured.request('POST', '/authorization/create', { json: { type: 1, permissions: ['READ'], userId: 'jonny', resourceType: 6, resourceId: '*' }, headers: admin });
      const removed = await secured.request('DELETE', '/user/jonny', { headers: admin });
      const ghost = await secured.request('DELETE', '/user/ghost', { headers: admin });
      const ghostGroup = await secured.request('DELETE', '/group/ghost', { headers: admin });
      const kept = await secured.request('GET', '/authorization', { query: { userIdIn: 'jonny' }, headers: admin });

      expect(ghostByJonny.status).toBe(403);
      expect([removed.status, ghost.status, ghostGroup.status]).toEqual([204, 204, 204]);
      expect(kept.body).toEqual([expect.objectContaining({ type: 1, resourceType: 6, resourceId: '*', permissions: ['READ'] })]);
      const deletions = await secured.engine.history.userOperations.find({ operationType: 'Delete', entityType: 'User' } as never);
      expect(deletions.map((entry) => entry.userId)).toEqual(['admin']);
    } finally {
      await secured.close();
    }
  });
});

describe('user lockout (Camunda\'s login settings)', () => {
  it('locks a user out after each failed password check for longer, for good after the last attempt, until an administrator unlocks it', async () => {
    const secured = await startRestHarness({ authorization: { enabled: true }, login: { loginMaxAttempts: 4 } }, { authentication: 'basic' });
    try {
      await secured.engine.identity.setUpAdministrator('admin', 'pw');
      const admin = basic('admin', 'pw');
      await secured.request('POST', '/user/create', { json: { profile: { id: 'jonny' }, credentials: { password: 'secret' } }, headers: admin });
      // A failed authentication is the filter's empty 401, which no operation of the contract describes.
      const asJonny = (password: string) => secured.request('GET', '/user/jonny/profile', { headers: basic('jonny', password), outsideContract: true });
      const verify = (password: string) => secured.request('POST', '/identity/verify', { json: { username: 'jonny', password }, headers: admin });
      const second = 1000;

      expect((await asJonny('secret')).status).toBe(200);
      // First failure: locked for 3 s (loginDelayBase), the right password fails meanwhile.
      expect((await asJonny('wrong')).status).toBe(401);
      expect((await asJonny('secret')).status).toBe(401);
      expect((await verify('secret')).body).toMatchObject({ authenticatedUser: 'jonny', authenticated: false });
      secured.engine.clock.advance(3 * second);
      expect((await asJonny('secret')).status).toBe(200);
      // A check that passes clears the failures: the next lock is 3 s again, then 6 s, 12 s (loginDelayFactor 2).
      expect((await asJonny('wrong')).status).toBe(401);
      secured.engine.clock.advance(3 * second);
      expect((await asJonny('wrong')).status).toBe(401);
      secured.engine.clock.advance(6 * second - 1);
      expect((await asJonny('secret')).status).toBe(401);
      secured.engine.clock.advance(1);
      expect((await asJonny('wrong')).status).toBe(401);
      secured.engine.clock.advance(12 * second);
      expect((await asJonny('wrong')).status).toBe(401);
      // Four failures in a row (loginMaxAttempts): locked for good.
      secured.engine.clock.advance(3_600 * second);
      expect((await asJonny('secret')).status).toBe(401);

      const byUser = await secured.request('POST', '/user/jonny/unlock', { headers: basic('jonny', 'secret'), outsideContract: true });
      const byAdmin = await secured.request('POST', '/user/jonny/unlock', { headers: admin });
      const again = await secured.request('POST', '/user/jonny/unlock', { headers: admin });
      expect(byUser.status).toBe(401);
      expect(byAdmin.status).toBe(204);
      expect(again.status).toBe(204);
      expect((await asJonny('secret')).status).toBe(200);
      // Unlocking a locked user is logged once; unlocking one that is not locked is not.
      const entries = await secured.engine.history.userOperations.find({ operationType: 'Unlock', entityType: 'User' });
      expect(entries.map((entry) => [entry.userId, entry.property, entry.newValue])).toEqual([['admin', 'userId', 'jonny']]);
    } finally {
      await secured.close();
    }
  });
});

describe('the password policy (enablePasswordPolicy)', () => {
  it("lists Camunda's default rules, checks a candidate password with and without user data, and holds new passwords to it", async () => {
    const policed = await startRestHarness({ enablePasswordPolicy: true });
    try {
      const rules = await policed.request('GET', '/identity/password-policy');
      expect(rules.status).toBe(200);
      expect(rules.body.rules).toEqual([
        { placeholder: 'PASSWORD_POLICY_USER_DATA', parameter: null },
        { placeholder: 'PASSWORD_POLICY_LENGTH', parameter: { minLength: '10' } },
        { placeholder: 'PASSWORD_POLICY_LOWERCASE', parameter: { minLowerCase: '1' } },
        { placeholder: 'PASSWORD_POLICY_UPPERCASE', parameter: { minUpperCase: '1' } },
        { placeholder: 'PASSWORD_POLICY_DIGIT', parameter: { minDigit: '1' } },
        { placeholder: 'PASSWORD_POLICY_SPECIAL', parameter: { minSpecial: '1' } },
      ]);

      const check = async (json: unknown) => (await policed.request('POST', '/identity/password-policy', { json })).body;
      expect(await check({ password: 'Str0ng-enough!' })).toMatchObject({ valid: true });
      // Fulfilled rules first, then the violated ones.
      const weak = await check({ password: 'short' });
      expect(weak.valid).toBe(false);
      expect(weak.rules.map((rule: { placeholder: string; valid: boolean }) => [rule.placeholder.slice(16), rule.valid])).toEqual([
        ['USER_DATA', true],
        ['LOWERCASE', true],
        ['LENGTH', false],
        ['UPPERCASE', false],
        ['DIGIT', false],
        ['SPECIAL', false],
      ]);
      // The user's id, names and email must not be in it (case ignored).
      const personal = await check({ password: 'Jonny-2026-secret!', profile: { id: 'someone', firstName: 'JONNY' } });
      expect(personal.valid).toBe(false);
      expect(personal.rules.filter((rule: { valid: boolean }) => !rule.valid).map((rule: { placeholder: string }) => rule.placeholder)).toEqual(['PASSWORD_POLICY_USER_DATA']);

      // A new password that fails the policy: Camunda's ProcessEngineException, nothing created.
      const refused = await createUserOn(policed, 'mary', 'weak');
      expect(refused.status).toBe(500);
      expect(refused.body).toMatchObject({ type: 'ProcessEngineException', message: 'Password does not match policy' });
      expect((await policed.request('GET', '/user/mary/profile')).status).toBe(404);
      expect((await createUserOn(policed, 'mary', 'Another-0ne!')).status).toBe(204);
      const change = await policed.request('PUT', '/user/mary/credentials', { json: { password: 'mary-Pass-1234' } });
      expect(change.status).toBe(500);
      expect(change.body.message).toBe('Password does not match policy');
      expect(await policed.engine.identity.checkPassword('mary', 'Another-0ne!')).toBe(true);
      // A user without a password is not held to it.
      expect((await policed.request('POST', '/user/create', { json: { profile: { id: 'nopass' } } })).status).toBe(204);
    } finally {
      await policed.close();
    }
  });

  it('takes a policy of the host\'s own rules, shown and enforced only while the policy is enabled', async () => {
    const passwordPolicy = {
      rules: [
        { placeholder: 'PASSPHRASE_WORDS', parameter: { minWords: '3' }, passes: (password: string) => password.trim().split(/\s+/).length >= 3 },
        { placeholder: 'NOT_THE_LAST_NAME', parameter: null, passes: (password: string, user: { lastName: string | null } | null) => !user?.lastName || !password.includes(user.lastName) },
      ],
    };
    const policed = await startRestHarness({ enablePasswordPolicy: true, passwordPolicy });
    const off = await startRestHarness({ passwordPolicy });
    try {
      const check = async (json: unknown) => (await policed.request('POST', '/identity/password-policy', { json })).body;

      expect((await policed.request('GET', '/identity/password-policy')).body.rules).toEqual([
        { placeholder: 'PASSPHRASE_WORDS', parameter: { minWords: '3' } },
        { placeholder: 'NOT_THE_LAST_NAME', parameter: null },
      ]);
      expect(await check({ password: 'correct horse battery' })).toMatchObject({ valid: true });
      expect((await check({ password: 'horse Smith battery', profile: { id: 'x', lastName: 'Smith' } })).rules).toEqual([
        { placeholder: 'PASSPHRASE_WORDS', parameter: { minWords: '3' }, valid: true },
        { placeholder: 'NOT_THE_LAST_NAME', parameter: null, valid: false },
      ]);
      expect((await createUserOn(policed, 'mary', 'Str0ng-enough!')).body.message).toBe('Password does not match policy');
      expect((await createUserOn(policed, 'mary', 'three short words')).status).toBe(204);
      // Camunda's GetPasswordPolicyCmd: no policy while enablePasswordPolicy is off, whatever is configured.
      expect((await off.request('GET', '/identity/password-policy')).status).toBe(404);
      expect((await createUserOn(off, 'mary', 'x')).status).toBe(204);
    } finally {
      await policed.close();
      await off.close();
    }
  });
});

const createUserOn = (harness: RestHarness, id: string, password: string) =>
  harness.request('POST', '/user/create', { json: { profile: { id, firstName: 'Mary', lastName: 'Major', email: `${id}@example.com` }, credentials: { password } } });

describe('identity edge cases as Camunda 7.22 answers them', () => {
  it('lists as potential starters the users named on the definition, not members of its starter groups', async () => {
    await createUser('carl', 'Carl', 'C', 'c@x');
    await createUser('alice', 'Alice', 'A', 'a@x');
    await createGroup('zgroup', 'Z');
    await rest.request('PUT', '/group/zgroup/members/alice');
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="t">
  <bpmn:process id="starters" isExecutable="true" camunda:historyTimeToLive="1" camunda:candidateStarterGroups="zgroup" camunda:candidateStarterUsers="carl">
    <bpmn:startEvent id="s" />
  </bpmn:process>
</bpmn:definitions>`;
    const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 's.bpmn', bytes: Buffer.from(xml) }] });
    const definitionId = processDefinitions![0]!.id;
    expect((await rest.request('GET', '/user', { query: { potentialStarter: definitionId } })).body.map((user: { id: string }) => user.id)).toEqual(['carl']);
    expect((await rest.request('GET', '/group', { query: { potentialStarter: definitionId } })).body.map((group: { id: string }) => group.id)).toEqual(['zgroup']);
  });

  it("gives a user's groups by name, Camunda's display names, and empty lists for an empty user id", async () => {
    await createUser('mary', 'Mary', 'Major', 'm@x');
    await rest.request('POST', '/user/create', { json: { profile: { id: 'brown', lastName: 'Brown' }, credentials: { password: 'pw' } } });
    await rest.request('POST', '/user/create', { json: { profile: { id: 'anon' }, credentials: { password: 'pw' } } });
    await createGroup('a1', 'Zulu');
    await createGroup('b2', 'Alpha');
    for (const [group, user] of [['a1', 'mary'], ['b2', 'mary'], ['a1', 'brown'], ['a1', 'anon']]) await rest.request('PUT', `/group/${group}/members/${user}`);

    const info = (await rest.request('GET', '/identity/groups', { query: { userId: 'mary' } })).body;
    expect(info.groups).toEqual([{ id: 'b2', name: 'Alpha' }, { id: 'a1', name: 'Zulu' }]);
    expect(info.groupUsers.map((user: { displayName: string }) => user.displayName).sort()).toEqual(['anon', 'null Brown']);
    expect((await rest.request('GET', '/identity/groups', { query: { userId: '' } })).body).toEqual({ groups: [], groupUsers: [] });
  });

  it('takes an empty password as a password: stored as one, checked on verify', async () => {
    await createUser('empty', 'E', 'P', 'e@x', '');
    const right = await rest.request('POST', '/identity/verify', { json: { username: 'empty', password: '' } });
    const wrong = await rest.request('POST', '/identity/verify', { json: { username: 'empty', password: 'x' } });
    expect([right.status, right.body.authenticated, wrong.body.authenticated]).toEqual([200, true, false]);
  });

  it('binds POST /group as GroupQueryDto (sortBy and sortOrder, an empty idIn ignored) and refuses a profile that is no object', async () => {
    await createGroup('g1', 'Beta');
    await createGroup('g2', 'Alpha');
    const ids = (body: Array<{ id: string }>) => body.map((group) => group.id);
    expect(ids((await rest.request('POST', '/group', { json: { sortBy: 'name', sortOrder: 'asc' } })).body)).toEqual(['g2', 'g1']);
    expect((await rest.request('POST', '/group', { json: { sortBy: 'bad', sortOrder: 'asc' } })).status).toBe(400);
    expect(ids((await rest.request('POST', '/group', { json: { idIn: [] } })).body)).toEqual(['g1', 'g2']);
    expect((await rest.request('POST', '/group/count', { json: { idIn: ['g1', 'nope'] } })).body).toEqual({ count: 1 });

    const bad = await rest.request('POST', '/user/create', { json: { profile: 'x', credentials: { password: 'pw' } } });
    expect([bad.status, bad.body.message]).toEqual([400, '']);
  });

  it('puts a user member and a group member of a tenant query on one membership, and encodes ids in OPTIONS links', async () => {
    await createUser('alice', 'A', 'A', 'a@x');
    await createGroup('g1', 'G');
    await rest.request('POST', '/tenant/create', { json: { id: 't1', name: 'T' } });
    await rest.request('PUT', '/tenant/t1/user-members/alice');
    await rest.request('PUT', '/tenant/t1/group-members/g1');
    expect((await rest.request('GET', '/tenant', { query: { userMember: 'alice' } })).body).toHaveLength(1);
    expect((await rest.request('GET', '/tenant', { query: { userMember: 'alice', groupMember: 'g1' } })).body).toEqual([]);
    await rest.request('PUT', '/group/g1/members/alice');
    expect((await rest.request('GET', '/tenant', { query: { userMember: 'alice', groupMember: 'g1', includingGroupsOfUser: true } })).body).toHaveLength(1);

    const links = (await rest.request('OPTIONS', '/user/a%20b')).body.links as Array<{ href: string }>;
    expect(links[0]!.href).toMatch(/\/user\/a%20b\/profile$/);
    const memberLinks = (await rest.request('OPTIONS', '/tenant/a%20b/user-members')).body.links as Array<{ href: string }>;
    expect(memberLinks.map((link) => link.href)).toEqual([expect.stringMatching(/\/tenant\/a%20b\/user-members$/), expect.stringMatching(/\/tenant\/a%20b\/user-members$/)]);
  });

  it('looks users, groups and tenants up with READ on them, and removes the grants a deletion leaves behind', async () => {
    const secured = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    try {
      await secured.engine.identity.setUpAdministrator('admin', 'pw');
      const admin = basic('admin', 'pw');
      const jonny = basic('jonny', 'pw');
      for (const id of ['jonny', 'other']) await secured.request('POST', '/user/create', { json: { profile: { id }, credentials: { password: 'pw' } }, headers: admin });
      await secured.request('POST', '/group/create', { json: { id: 'g1', name: 'G' }, headers: admin });
      await secured.request('POST', '/tenant/create', { json: { id: 't1', name: 'T' }, headers: admin });
      const grant = (resourceType: number, resourceId: string, permissions: string[], userId = 'jonny') =>
        secured.request('POST', '/authorization/create', { json: { type: 1, userId, resourceType, resourceId, permissions }, headers: admin });
      await grant(3, 'g1', ['CREATE']);

      const noRead = await secured.request('PUT', '/group/g1/members/other', { headers: jonny });
      expect(noRead.status).toBe(403);
      expect(noRead.body.missingAuthorizations).toEqual([{ permissionName: 'READ', resourceName: 'User', resourceId: 'other' }]);
      const verify = await secured.request('POST', '/identity/verify', { json: { username: 'other', password: 'pw' }, headers: jonny });
      expect(verify.status).toBe(403);
      await grant(1, 'other', ['READ']);
      const noGroupRead = await secured.request('PUT', '/group/g1/members/other', { headers: jonny });
      expect(noGroupRead.body.missingAuthorizations).toEqual([{ permissionName: 'READ', resourceName: 'Group', resourceId: 'g1' }]);
      await grant(2, 'g1', ['READ']);
      expect((await secured.request('PUT', '/group/g1/members/other', { headers: jonny })).status).toBe(204);

      // Leaving a group takes the user's grants on that group's membership; deleting a user its grants on its tenants.
      await grant(3, 'g1', ['READ'], 'other');
      await secured.request('DELETE', '/group/g1/members/other', { headers: admin });
      expect((await secured.request('GET', '/authorization', { query: { userIdIn: 'other', resourceType: 3 }, headers: admin })).body).toEqual([]);
      await secured.request('PUT', '/tenant/t1/user-members/other', { headers: admin });
      expect((await secured.request('GET', '/authorization', { query: { userIdIn: 'other', resourceType: 11 }, headers: admin })).body).toHaveLength(1);
      await secured.request('DELETE', '/user/other', { headers: admin });
      expect((await secured.request('GET', '/authorization', { query: { userIdIn: 'other', resourceType: 11 }, headers: admin })).body).toEqual([]);
    } finally {
      await secured.close();
    }
  });
});
