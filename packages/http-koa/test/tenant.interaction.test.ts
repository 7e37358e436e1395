import { afterEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
afterEach(async () => rest.close());

const admin = basic('admin', 'admin-secret');
const ids = (response: { body: Array<{ id: string }> }) => response.body.map((each) => each.id);

describe('the Tenant group', () => {
  it('creates, finds, updates and deletes tenants with user and group members; members may read their tenant', async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    for (const id of ['jonny', 'mary']) {
      await rest.request('POST', '/user/create', { json: { profile: { id, firstName: id, lastName: 'X' }, credentials: { password: `${id}-secret` } }, headers: admin });
    }
    await rest.request('POST', '/group/create', { json: { id: 'sales', name: 'Sales' }, headers: admin });
    await rest.request('PUT', '/group/sales/members/mary', { headers: admin });
    const jonny = basic('jonny', 'jonny-secret');
    const mary = basic('mary', 'mary-secret');

    const denied = await rest.request('POST', '/tenant/create', { json: { id: 't1', name: 'One' }, headers: jonny });
    const created = await rest.request('POST', '/tenant/create', { json: { id: 't1', name: 'One' }, headers: admin });
    const duplicate = await rest.request('POST', '/tenant/create', { json: { id: 't1', name: 'Again' }, headers: admin });
    const invalid = await rest.request('POST', '/tenant/create', { json: { id: 'a b', name: 'Bad' }, headers: admin });
    await rest.request('POST', '/tenant/create', { json: { id: 't2', name: 'Two' }, headers: admin });
    const userMember = await rest.request('PUT', '/tenant/t1/user-members/jonny', { headers: admin });
    const groupMember = await rest.request('PUT', '/tenant/t1/group-members/sales', { headers: admin });
    const ghost = await rest.request('PUT', '/tenant/t1/user-members/ghost', { headers: admin });

    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([{ permissionName: 'CREATE', resourceName: 'Tenant', resourceId: null }]);
    expect([created.status, userMember.status, groupMember.status]).toEqual([204, 204, 204]);
    expect(duplicate.body).toEqual({ type: 'BadUserRequestException', message: 'The tenant already exists', code: 0 });
    expect(invalid.status).toBe(500);
    expect(invalid.body.message).toBe("Tenant has an invalid id: 'a b' is not a valid resource identifier.");
    expect(ghost.status).toBe(500);
    expect(ghost.body.message).toBe("No user found with id 'ghost'.: user is null");

    expect(ids(await rest.request('GET', '/tenant', { query: { sortBy: 'name', sortOrder: 'desc' }, headers: admin }))).toEqual(['t2', 't1']);
    expect(ids(await rest.request('GET', '/tenant', { query: { userMember: 'mary' }, headers: admin }))).toEqual([]);
    expect(ids(await rest.request('GET', '/tenant', { query: { userMember: 'mary', includingGroupsOfUser: true }, headers: admin }))).toEqual(['t1']);
    expect(ids(await rest.request('GET', '/tenant', { query: { groupMember: 'sales' }, headers: admin }))).toEqual(['t1']);
    expect((await rest.request('GET', '/tenant/count', { query: { nameLike: '%e' }, headers: admin })).body).toEqual({ count: 1 });
    expect(ids(await rest.request('GET', '/user', { query: { memberOfTenant: 't1' }, headers: admin }))).toEqual(['jonny']);
    expect(ids(await rest.request('GET', '/group', { query: { memberOfTenant: 't1' }, headers: admin }))).toEqual(['sales']);
    // Members get READ on their tenant (a group's members through the group).
    expect(ids(await rest.request('GET', '/tenant', { headers: jonny }))).toEqual(['t1']);
    expect(ids(await rest.request('GET', '/tenant', { headers: mary }))).toEqual(['t1']);
    expect(await rest.engine.identity.authenticate('mary', 'mary-secret')).toEqual({ userId: 'mary', groupIds: ['sales'], tenantIds: ['t1'] });

    const options = await rest.request('OPTIONS', '/tenant/t1', { headers: jonny });
    expect(options.body.links.map((link: { rel: string }) => link.rel)).toEqual(['self']);
    const adminOptions = await rest.request('OPTIONS', '/tenant/t1/user-members', { headers: admin });
    expect(adminOptions.body.links.map((link: { rel: string }) => link.rel)).toEqual(['delete', 'create']);

    const renamed = await rest.request('PUT', '/tenant/t1', { json: { name: 'Uno' }, headers: admin });
    const missing = await rest.request('PUT', '/tenant/nope', { json: { name: 'x' }, headers: admin });
    const left = await rest.request('DELETE', '/tenant/t1/user-members/jonny', { headers: admin });
    expect(renamed.status).toBe(204);
    expect((await rest.request('GET', '/tenant/t1', { headers: admin })).body).toEqual({ id: 't1', name: 'Uno' });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe('Tenant with id nope does not exist');
    expect(left.status).toBe(204);
    expect(ids(await rest.request('GET', '/tenant', { headers: jonny }))).toEqual([]);

    const deleted = await rest.request('DELETE', '/tenant/t1', { headers: admin });
    expect(deleted.status).toBe(204);
    expect((await rest.request('GET', '/tenant/t1', { headers: admin })).status).toBe(404);
    expect(ids(await rest.request('GET', '/group', { query: { memberOfTenant: 't1' }, headers: admin }))).toEqual([]);
    expect(ids(await rest.request('GET', '/tenant', { headers: mary }))).toEqual([]);

    const log = (await rest.request('GET', '/history/user-operation', { query: { sortBy: 'timestamp', sortOrder: 'asc' }, headers: admin })).body
      .filter((entry: { entityType: string }) => entry.entityType.startsWith('Tenant'))
      .map((entry: { operationType: string; entityType: string; property: string; newValue: string }) => [entry.operationType, entry.entityType, entry.property, entry.newValue]);
    expect(log).toEqual(
      expect.arrayContaining([
        ['Create', 'Tenant', 'tenantId', 't1'],
        ['Create', 'TenantMembership', 'userId', 'jonny'],
        ['Create', 'TenantMembership', 'tenantId', 't1'],
        ['Create', 'TenantMembership', 'groupId', 'sales'],
        ['Update', 'Tenant', 'tenantId', 't1'],
        ['Delete', 'TenantMembership', 'userId', 'jonny'],
        ['Delete', 'Tenant', 'tenantId', 't1'],
      ]),
    );
  });
});
