import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { deploymentForm, startRestHarness, type RestHarness } from './support/rest-harness.js';
import { simpleProcessXml } from '@trellis/core/testing';

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

const create = (json: Record<string, unknown>) => rest.request('POST', '/authorization/create', { json });

describe('POST /authorization/create', () => {
  it('creates a grant and answers with the stored authorization', async () => {
    const response = await create({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['READ', 'UPDATE_INSTANCE'] });

    expect(response.status).toBe(200);
    expect(response.body).toEqual({
      id: expect.any(String), type: 1, permissions: ['READ', 'UPDATE_INSTANCE'], userId: 'jonny', groupId: null,
      resourceType: 6, resourceId: 'invoice', removalTime: null, rootProcessInstanceId: null,
    });
  });

  it('stores a revoke as cleared bits and shows ALL for a full grant or revoke', async () => {
    const revoke = await create({ type: 2, groupId: 'sales', resourceType: 9, resourceId: '*', permissions: ['DELETE'] });
    const all = await create({ type: 1, groupId: 'sales', resourceType: 9, resourceId: '*', permissions: ['ALL'] });
    const revokeAll = await create({ type: 2, userId: 'jonny', resourceType: 9, resourceId: '*', permissions: ['ALL'] });
    const global = await create({ type: 0, userId: '*', resourceType: 1, resourceId: '*', permissions: ['READ'] });

    expect(revoke.body.permissions).toEqual(['DELETE']);
    expect(all.body.permissions).toEqual(['ALL']);
    expect(revokeAll.body.permissions).toEqual(['ALL']);
    expect(global.body).toMatchObject({ type: 0, userId: '*', permissions: ['READ'] });
  });

  it.each([
    [{ type: 1, userId: 'u', resourceType: 13, resourceId: '*', permissions: ['ACCESS'] }, 400, 'BadUserRequestException', "The permission 'ACCESS' is not valid for 'BATCH' resource type."],
    [{ type: 1, userId: 'u', resourceType: 9, resourceId: '*', permissions: ['UPDATE'] }, 400, 'BadUserRequestException', "ENGINE-03087 The resource type with id:'9' is not valid for 'UPDATE' permission."],
    [{ type: 1, resourceType: 9, resourceId: '*', permissions: ['READ'] }, 500, 'NullValueException', "Authorization must either have a 'userId' or a 'groupId'."],
    [{ type: 0, userId: 'jonny', resourceType: 9, resourceId: '*', permissions: ['READ'] }, 500, 'ProcessEngineException', "ENGINE-03028 Illegal value 'jonny' for userId for GLOBAL authorization. Must be '*'"],
    [{ type: 0, groupId: 'sales', resourceType: 9, resourceId: '*', permissions: ['READ'] }, 500, 'ProcessEngineException', "ENGINE-03027 Cannot use 'groupId' for GLOBAL authorization"],
    [{ type: 7, userId: 'u', resourceType: 9, resourceId: '*', permissions: ['READ'] }, 500, 'ProcessEngineException', "ENGINE-03025 Unrecognized authorization type '7'. Must be one of ['0', '1', '2']"],
    // REST sets the user as sent: a GLOBAL one without `userId` has none (Camunda's DTO sets null over its '*').
    [{ type: 0, resourceType: 9, resourceId: '*', permissions: ['READ'] }, 500, 'NullValueException', "Authorization must either have a 'userId' or a 'groupId'."],
    // Camunda's order: the group of a GLOBAL one before the permission names, user or group before their types.
    [{ type: 0, groupId: 'g', resourceType: 9, resourceId: '*', permissions: ['BOGUS'] }, 500, 'ProcessEngineException', "ENGINE-03027 Cannot use 'groupId' for GLOBAL authorization"],
    [{ type: 1, resourceType: 9, resourceId: '*', permissions: ['UPDATE'] }, 500, 'NullValueException', "Authorization must either have a 'userId' or a 'groupId'."],
  ])('rejects %o with %i %s', async (json, status, type, message) => {
    const response = await create(json);

    expect(response.status).toBe(status);
    expect(response.body).toMatchObject({ type, message });
  });
});

describe('one authorization per type, user or group, and resource', () => {
  it('refuses a second one with a 500 persistence error, also from a default grant, writing nothing', async () => {
    const secured = await startRestHarness({ authorization: { enabled: true } });
    try {
      const first = await secured.request('POST', '/authorization/create', { json: { type: 1, userId: 'newbie', resourceType: 1, resourceId: 'newbie', permissions: ['READ'] } });
      const again = await secured.request('POST', '/authorization/create', { json: { type: 1, userId: 'newbie', resourceType: 1, resourceId: 'newbie', permissions: ['UPDATE'] } });
      // Creating the user grants it ALL on itself: that grant repeats the key, so the user is not created either.
      const user = await secured.request('POST', '/user/create', { json: { profile: { id: 'newbie' }, credentials: { password: 'pw' } } });
      const revoke = await secured.request('POST', '/authorization/create', { json: { type: 2, userId: 'newbie', resourceType: 1, resourceId: 'newbie', permissions: ['READ'] } });
      const anyGroup = await secured.request('POST', '/authorization/create', { json: { type: 1, groupId: '*', resourceType: 1, resourceId: 'newbie', permissions: ['READ'] } });

      expect(first.status).toBe(200);
      const persistence = {
        type: 'ProcessEnginePersistenceException',
        message: 'An exception occurred in the persistence layer. Please check the server logs for a detailed message and the entire exception stack trace.',
        code: 0,
      };
      expect([again.status, again.body]).toEqual([500, persistence]);
      expect([user.status, user.body]).toEqual([500, persistence]);
      expect((await secured.request('GET', '/user/newbie/profile')).status).toBe(404);
      // another type, or a group, is another key; '*' is a group id like any other
      expect([revoke.status, anyGroup.status]).toEqual([200, 200]);
      expect((await secured.request('GET', '/authorization/count', { query: { userIdIn: 'newbie' } })).body).toEqual({ count: 2 });
    } finally {
      await secured.close();
    }
  });
});

describe('GET, PUT and DELETE /authorization/{id}', () => {
  it('reads, replaces and removes an authorization', async () => {
    const { id } = (await create({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['READ'] })).body;

    const read = await rest.request('GET', `/authorization/${id}`);
    const update = await rest.request('PUT', `/authorization/${id}`, { json: { groupId: 'sales', resourceType: 6, resourceId: 'order', permissions: ['UPDATE'] } });
    const updated = await rest.request('GET', `/authorization/${id}`);
    const remove = await rest.request('DELETE', `/authorization/${id}`);
    const gone = await rest.request('GET', `/authorization/${id}`);

    expect(read.body.permissions).toEqual(['READ']);
    expect(update.status).toBe(204);
    expect(updated.body).toMatchObject({ userId: null, groupId: 'sales', resourceId: 'order', permissions: ['UPDATE'] });
    expect(remove.status).toBe(204);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ type: 'InvalidRequestException', message: `Authorization with id ${id} does not exist.`, code: null });
  });

  it('answers 404 for an unknown id on PUT and DELETE', async () => {
    const put = await rest.request('PUT', '/authorization/nope', { json: { userId: 'u', resourceId: '*' } });
    const remove = await rest.request('DELETE', '/authorization/nope');

    expect(put.status).toBe(404);
    expect(remove.status).toBe(404);
  });
});

describe('GET /authorization and /count', () => {
  it('filters by type, users, groups, resource type and id, sorts and pages', async () => {
    await create({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'b', permissions: ['READ'] });
    await create({ type: 1, userId: 'mary', resourceType: 9, resourceId: 'a', permissions: ['READ'] });
    await create({ type: 2, groupId: 'sales', resourceType: 6, resourceId: 'c', permissions: ['READ'] });

    const ids = async (query: Record<string, string>) => (await rest.request('GET', '/authorization', { query })).body.map((a: any) => a.resourceId);

    expect(await ids({ userIdIn: 'jonny,mary', sortBy: 'resourceId', sortOrder: 'asc' })).toEqual(['a', 'b']);
    expect(await ids({ groupIdIn: 'sales' })).toEqual(['c']);
    expect(await ids({ type: '2' })).toEqual(['c']);
    expect(await ids({ resourceType: '6', sortBy: 'resourceId', sortOrder: 'desc' })).toEqual(['c', 'b']);
    expect(await ids({ resourceId: 'a' })).toEqual(['a']);
    expect(await ids({ sortBy: 'resourceType', sortOrder: 'asc', maxResults: '1' })).toHaveLength(1);
    expect((await rest.request('GET', '/authorization/count', { query: { resourceType: '6' } })).body).toEqual({ count: 2 });
  });

  it('refuses users and groups in one query with a 500, as Camunda', async () => {
    const response = await rest.request('GET', '/authorization', { query: { userIdIn: 'a', groupIdIn: 'b' } });

    expect(response.status).toBe(500);
    expect(response.body.message).toBe('Cannot query for user and group authorizations at the same time.');
  });
});

describe('OPTIONS /authorization', () => {
  it('lists the operations, with absolute links', async () => {
    const { id } = (await create({ type: 1, userId: 'jonny', resourceType: 6, resourceId: '*', permissions: ['READ'] })).body;

    const collection = await rest.request('OPTIONS', '/authorization');
    const single = await rest.request('OPTIONS', `/authorization/${id}`);

    expect(collection.body.links.map((l: any) => [l.rel, l.method, l.href])).toEqual([
      ['list', 'GET', `${rest.url}/authorization`],
      ['count', 'GET', `${rest.url}/authorization/count`],
      ['create', 'POST', `${rest.url}/authorization/create`],
    ]);
    expect(single.body.links.map((l: any) => l.rel)).toEqual(['self', 'delete', 'update']);
  });
});

describe('GET /authorization/check', () => {
  it('answers 400 for each missing parameter, in order', async () => {
    const none = await rest.request('GET', '/authorization/check');
    const noName = await rest.request('GET', '/authorization/check', { query: { permissionName: 'READ' } });
    const noType = await rest.request('GET', '/authorization/check', { query: { permissionName: 'READ', resourceName: 'x' } });

    expect(none.body.message).toBe("Query parameter 'permissionName' cannot be null");
    expect(noName.body.message).toBe("Query parameter 'resourceName' cannot be null");
    expect(noType.body.message).toBe("Query parameter 'resourceType' cannot be null");
  });

  it('answers 401 when nobody is authenticated', async () => {
    const response = await rest.request('GET', '/authorization/check', { query: { permissionName: 'READ', resourceName: 'Deployment', resourceType: 9 } });

    expect(response.status).toBe(401);
    expect(response.body.message).toBe('You must be authenticated in order to use this resource.');
  });

  it('answers true with authorization off, where a permission the type does not take would be refused when on', async () => {
    const open = await startRestHarness({}, { authentication: 'basic' });
    try {
      await open.engine.identity.createUser({ id: 'jonny', firstName: null, lastName: null, email: null }, 'pw');
      const ask = (permissionName: string) =>
        open.request('GET', '/authorization/check', { query: { permissionName, resourceName: 'Deployment', resourceType: 9 }, headers: basic('jonny', 'pw') });

      expect((await ask('UPDATE')).body).toEqual({ permissionName: 'UPDATE', resourceName: 'Deployment', resourceId: null, authorized: true });
      expect((await ask('FLY')).status).toBe(400);
    } finally {
      await open.close();
    }
  });
});

describe('GET /authorization/check with authentication and authorization on', () => {
  let secured: RestHarness;
  beforeEach(async () => {
    secured = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await secured.engine.identity.setUpAdministrator('admin', 'secret');
    await secured.engine.identity.createUser({ id: 'jonny', firstName: null, lastName: null, email: null }, 'pw');
    await secured.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 9, resourceId: 'd1', permissions: ['READ'] });
  });
  afterEach(async () => secured.close());

  const check = (query: Record<string, string | number>, who = basic('jonny', 'pw')) =>
    secured.request('GET', '/authorization/check', { query: { resourceName: 'Deployment', resourceType: 9, ...query }, headers: who });

  it('tells whether the caller holds a permission, echoing what was asked', async () => {
    expect((await check({ permissionName: 'READ', resourceId: 'd1' })).body).toEqual({ permissionName: 'READ', resourceName: 'Deployment', resourceId: 'd1', authorized: true });
    expect((await check({ permissionName: 'DELETE', resourceId: 'd1' })).body.authorized).toBe(false);
    expect((await check({ permissionName: 'READ' })).body).toMatchObject({ resourceId: null, authorized: false });
  });

  it('checks another user only for a caller with READ on Authorization', async () => {
    const denied = await check({ permissionName: 'READ', resourceId: 'd1', userId: 'admin' });
    const asAdmin = await check({ permissionName: 'READ', resourceId: 'd1', userId: 'jonny' }, basic('admin', 'secret'));

    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe('You must have READ permission for Authorization resource.');
    expect(asAdmin.body.authorized).toBe(true);
  });

  it('counts stored grants only, also for an administrator (as Camunda), in the check and the OPTIONS links', async () => {
    const ops = await startRestHarness({ authorization: { enabled: true, adminUsers: ['ops'] } }, { authentication: 'basic' });
    try {
      await ops.engine.identity.createUser({ id: 'ops', firstName: null, lastName: null, email: null }, 'pw');
      const ask = () => ops.request('GET', '/authorization/check', { query: { permissionName: 'READ', resourceName: 'Deployment', resourceType: 9 }, headers: basic('ops', 'pw') });
      const links = async () => ((await ops.request('OPTIONS', '/authorization', { headers: basic('ops', 'pw') })).body.links as Array<{ rel: string }>).map((link) => link.rel);

      const [before, linksBefore] = [await ask(), await links()];
      await ops.engine.authorization.createAuthorization({ type: 1, userId: 'ops', resourceType: 9, resourceId: '*', permissions: ['READ'] });
      await ops.engine.authorization.createAuthorization({ type: 1, userId: 'ops', resourceType: 4, resourceId: '*', permissions: ['CREATE'] });

      expect(before.body.authorized).toBe(false);
      expect(linksBefore).not.toContain('create');
      expect((await ask()).body.authorized).toBe(true);
      expect(await links()).toContain('create');
      // the administrator set up the usual way holds ALL through camunda-admin
      expect((await check({ permissionName: 'DELETE', resourceId: 'd1' }, basic('admin', 'secret'))).body.authorized).toBe(true);
    } finally {
      await ops.close();
    }
  });

  it('lets a configured administrator without grants do only what Camunda reserves to administrators', async () => {
    const ops = await startRestHarness({ authorization: { enabled: true, adminUsers: ['ops'] } }, { authentication: 'basic' });
    try {
      await ops.engine.identity.createUser({ id: 'ops', firstName: null, lastName: null, email: null }, 'pw');
      await ops.engine.deployment.deploy({ tenantId: 'acme', resources: [{ name: 'p.bpmn', bytes: Buffer.from(simpleProcessXml('p')) }] });
      const as = (method: string, path: string) => ops.request(method, path, { headers: basic('ops', 'pw') });

      const definitions = await as('GET', '/process-definition');
      const deployment = await ops.request('POST', '/deployment/create', { form: deploymentForm({}, [{ name: 'q.bpmn', content: simpleProcessXml('q') }]), headers: basic('ops', 'pw') });
      const cleanup = await as('POST', '/history/cleanup');
      const telemetry = await as('GET', '/telemetry/data');
      const taskMetrics = await as('DELETE', '/metrics/task-worker');
      const schemaLog = await as('GET', '/schema/log');
      const registered = await as('GET', '/deployment/registered');
      await ops.engine.authorization.createAuthorization({ type: 1, userId: 'ops', resourceType: 6, resourceId: '*', permissions: ['READ'] });
      const granted = await as('GET', '/process-definition');

      // Grants decide the ordinary checks (none yet: an empty list), administrators pass the
      // admin-only commands and the tenant check (the definition of tenant acme shows once granted).
      expect(definitions.body).toEqual([]);
      expect(deployment.status).toBe(403);
      expect(cleanup.status).toBe(200);
      expect(telemetry.status).toBe(200);
      expect(taskMetrics.status).toBe(204);
      expect(schemaLog.body.length).toBeGreaterThan(0);
      expect(registered.status).toBe(200);
      expect(granted.body.map((definition: { key: string; tenantId: string }) => [definition.key, definition.tenantId])).toEqual([['p', 'acme']]);
    } finally {
      await ops.close();
    }
  });

  it('PUT /authorization/{id}: hides what the caller cannot read, checks the new values, then UPDATE', async () => {
    const { id } = await secured.engine.authorization.createAuthorization({ type: 1, userId: 'someone', resourceType: 9, resourceId: 'd2', permissions: ['READ'] });
    const put = (json: unknown) => secured.request('PUT', `/authorization/${id}`, { json, headers: basic('jonny', 'pw') });

    const unseen = await put({ userId: 'someone', resourceType: 9, resourceId: 'd2' });
    await secured.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 4, resourceId: id, permissions: ['READ'] });
    const invalid = await put({ resourceType: 9, resourceId: 'd2' });
    const valid = await put({ userId: 'someone', resourceType: 9, resourceId: 'd3' });

    expect([unseen.status, unseen.body.message]).toEqual([404, `Authorization with id ${id} does not exist.`]);
    expect([invalid.status, invalid.body]).toEqual([500, { type: 'NullValueException', message: "Authorization must either have a 'userId' or a 'groupId'.", code: 0 }]);
    expect(valid.status).toBe(403);
    expect(valid.body.message).toBe(`The user with id 'jonny' does not have 'UPDATE' permission on resource '${id}' of type 'Authorization'.`);
  });

  it('creates for a caller with CREATE but answers 404 when it may not read what it created, as Camunda reads it back', async () => {
    await secured.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 4, resourceId: '*', permissions: ['CREATE'] });

    const response = await secured.request('POST', '/authorization/create', { json: { type: 1, userId: 'other', resourceType: 9, resourceId: 'd9', permissions: ['READ'] }, headers: basic('jonny', 'pw') });

    expect(response.status).toBe(404);
    expect(response.body.message).toMatch(/^Authorization with id .+ does not exist\.$/);
    expect(await secured.engine.authorization.countAuthorizations({ userIdIn: ['other'] })).toBe(1);
  });

  it('checks another user with the groups the caller may read, and an empty userId as another user', async () => {
    await secured.engine.identity.createGroup({ id: 'sales', name: 'Sales', type: 'WORKFLOW' });
    await secured.engine.identity.createMembership('jonny', 'sales');
    await secured.engine.authorization.createAuthorization({ type: 1, groupId: 'sales', resourceType: 9, resourceId: 'd5', permissions: ['READ'] });
    await secured.engine.identity.createUser({ id: 'mary', firstName: null, lastName: null, email: null }, 'pw');
    const { id } = await secured.engine.authorization.createAuthorization({ type: 1, userId: 'mary', resourceType: 4, resourceId: '*', permissions: ['READ'] });
    const asMary = () => check({ permissionName: 'READ', resourceId: 'd5', userId: 'jonny' }, basic('mary', 'pw'));

    const groupUnseen = await asMary();
    await secured.engine.authorization.createAuthorization({ type: 1, userId: 'mary', resourceType: 2, resourceId: 'sales', permissions: ['READ'] });
    const groupSeen = await asMary();
    await secured.engine.authorization.deleteAuthorization(id);
    const emptyUser = await check({ permissionName: 'READ', resourceId: 'd5', userId: '' }, basic('mary', 'pw'));

    expect(groupUnseen.body.authorized).toBe(false);
    expect(groupSeen.body.authorized).toBe(true);
    expect([emptyUser.status, emptyUser.body.message]).toEqual([403, 'You must have READ permission for Authorization resource.']);
  });

  it('answers 400 for a permission the resource type does not have', async () => {
    const unknown = await check({ permissionName: 'FLY' });
    const undeclared = await check({ permissionName: 'UPDATE' });

    // The name is resolved before the caller's right to ask about another user.
    const unknownForOther = await check({ permissionName: 'FLY', userId: 'admin' });

    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe("The permission 'FLY' is not valid for 'DEPLOYMENT' resource type.");
    expect([unknownForOther.status, unknownForOther.body.message]).toEqual([400, unknown.body.message]);
    expect(undeclared.body.message).toBe("ENGINE-03086 The resource type 'Deployment' is not valid for 'UPDATE' permission.");
    // the resource is named as the request names it
    const renamed = await check({ permissionName: 'UPDATE', resourceName: 'foo' });
    expect(renamed.body.message).toBe("ENGINE-03086 The resource type 'foo' is not valid for 'UPDATE' permission.");
  });
});
