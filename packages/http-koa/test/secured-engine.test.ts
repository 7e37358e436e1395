import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { deploymentForm, startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
const admin = basic('admin', 'admin-secret');
const jonny = basic('jonny', 'jonny-secret');

beforeEach(async () => {
  rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
  await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
  const created = await rest.request('POST', '/user/create', {
    json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
    headers: admin,
  });
  expect(created.status).toBe(204);
});
afterEach(async () => rest.close());

const deploy = (headers: Record<string, string>) =>
  rest.request('POST', '/deployment/create', { form: deploymentForm({ 'deployment-name': 'd' }, [{ name: 'p.bpmn', content: simpleProcessXml('invoice') }]), headers });

describe('with HTTP Basic authentication and authorization on', () => {
  it('answers 401 with an empty body to anonymous or wrong credentials, but lists engines to anyone', async () => {
    const anonymous = await rest.request('GET', '/deployment', { outsideContract: true });
    const wrong = await rest.request('GET', '/deployment', { headers: basic('jonny', 'nope'), outsideContract: true });
    const garbage = await rest.request('GET', '/deployment', { headers: { Authorization: 'Basic !!!' }, outsideContract: true });
    const engines = await rest.request('GET', '/engine');
    const version = await rest.request('GET', '/version', { outsideContract: true });

    for (const response of [anonymous, wrong, garbage, version]) {
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toBe('Basic realm="default"');
      expect(response.body.length).toBe(0);
    }
    expect(engines.body).toEqual([{ name: 'default' }]);
  });

  it('denies a user without rights with 403 and shows it no definitions', async () => {
    await deploy(admin);

    const denied = await deploy(jonny);
    const list = await rest.request('GET', '/process-definition', { headers: jonny });
    const count = await rest.request('GET', '/process-definition/count', { headers: jonny });

    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({
      type: 'AuthorizationException',
      message: "The user with id 'jonny' does not have 'CREATE' permission on resource 'Deployment'.",
      code: 0,
      userId: 'jonny',
      resourceName: 'Deployment',
      resourceId: null,
      permissionName: 'CREATE',
      missingAuthorizations: [{ permissionName: 'CREATE', resourceName: 'Deployment', resourceId: null }],
    });
    expect(list.body).toEqual([]);
    expect(count.body).toEqual({ count: 0 });
  });

  it('lets the user deploy and list once an administrator grants CREATE on Deployment and READ on ProcessDefinition *', async () => {
    await deploy(admin);
    for (const [resourceType, permissions] of [[9, ['CREATE']], [6, ['READ']]] as const) {
      const grant = await rest.request('POST', '/authorization/create', {
        json: { type: 1, userId: 'jonny', resourceType, resourceId: '*', permissions },
        headers: admin,
      });
      expect(grant.status).toBe(200);
    }

    const deployed = await deploy(jonny);
    const list = await rest.request('GET', '/process-definition', { headers: jonny });
    const deployments = await rest.request('GET', '/deployment', { headers: jonny });

    expect(deployed.status).toBe(200);
    expect(list.body.map((d: any) => d.version).sort()).toEqual([1, 2]);
    // The deployer gets READ and DELETE on its own deployment (Camunda's default authorization).
    expect(deployments.body.map((d: any) => d.id)).toEqual([deployed.body.id]);
  });

  it('lists only startable definitions (READ and CREATE_INSTANCE) with startablePermissionCheck', async () => {
    await deploy(admin);
    const grant = (permissions: string[]) =>
      rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions }, headers: admin });
    const startable = async () =>
      (await rest.request('GET', '/process-definition', { query: { startablePermissionCheck: true }, headers: jonny })).body.map((d: { key: string }) => d.key);

    const { id } = (await grant(['READ'])).body;
    const readOnly = await startable();
    const count = await rest.request('GET', '/process-definition/count', { query: { startablePermissionCheck: true }, headers: jonny });
    // One grant per user and resource (Camunda's unique key): the second permission extends it.
    await rest.request('PUT', `/authorization/${id}`, { json: { userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['READ', 'CREATE_INSTANCE'] }, headers: admin });

    expect(readOnly).toEqual([]);
    expect(count.body).toEqual({ count: 0 });
    expect((await rest.request('GET', '/process-definition', { headers: jonny })).body).toHaveLength(1);
    expect(await startable()).toEqual(['invoice']);
  });

  it('suspends a definition with its instances, or all its instances, only with the instances\' suspension permissions', async () => {
    const { deployedProcessDefinitions } = (await deploy(admin)).body;
    const id = Object.keys(deployedProcessDefinitions)[0];
    const grant = (await rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['READ', 'SUSPEND'] }, headers: admin })).body;

    const withInstances = await rest.request('PUT', `/process-definition/${id}/suspended`, { json: { suspended: true, includeProcessInstances: true }, headers: jonny });
    const instancesByKey = await rest.request('PUT', '/process-instance/suspended', { json: { processDefinitionKey: 'invoice', suspended: true }, headers: jonny });
    await rest.request('PUT', `/authorization/${grant.id}`, { json: { userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['READ', 'SUSPEND', 'SUSPEND_INSTANCE'] }, headers: admin });
    const allowedByKey = await rest.request('PUT', '/process-instance/suspended', { json: { processDefinitionKey: 'invoice', suspended: true }, headers: jonny });
    const allowed = await rest.request('PUT', `/process-definition/${id}/suspended`, { json: { suspended: true, includeProcessInstances: true }, headers: jonny });

    const missing = [
      { permissionName: 'SUSPEND', resourceName: 'ProcessInstance', resourceId: null },
      { permissionName: 'SUSPEND_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'invoice' },
      { permissionName: 'UPDATE', resourceName: 'ProcessInstance', resourceId: null },
      { permissionName: 'UPDATE_INSTANCE', resourceName: 'ProcessDefinition', resourceId: 'invoice' },
    ];
    expect(withInstances.status).toBe(403);
    expect(withInstances.body.missingAuthorizations).toEqual(missing);
    // Checked once for the definition, even when it has no instance to suspend.
    expect(instancesByKey.status).toBe(403);
    expect(instancesByKey.body.missingAuthorizations).toEqual(missing);
    expect(allowedByKey.status).toBe(204);
    expect(allowed.status).toBe(204);
  });

  it('updates and deletes only what the caller may read: 404 without READ, as Camunda\'s REST resources look it up first', async () => {
    await rest.request('POST', '/group/create', { json: { id: 'sales', name: 'Sales', type: 'WORKFLOW' }, headers: admin });
    const deployment = (await deploy(admin)).body.id;
    const grant = async (resourceType: number, resourceId: string, permissions: string[]) =>
      (await rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType, resourceId, permissions }, headers: admin })).body.id;
    const extend = (id: string, resourceType: number, resourceId: string, permissions: string[]) =>
      rest.request('PUT', `/authorization/${id}`, { json: { userId: 'jonny', resourceType, resourceId, permissions }, headers: admin });
    const onGroup = await grant(2, 'sales', ['UPDATE']);
    const onDeployment = await grant(9, deployment, ['DELETE']);

    const groupUnseen = await rest.request('PUT', '/group/sales', { json: { id: 'sales', name: 'Sales team', type: 'WORKFLOW' }, headers: jonny });
    const deploymentUnseen = await rest.request('DELETE', `/deployment/${deployment}`, { headers: jonny });
    await extend(onGroup, 2, 'sales', ['UPDATE', 'READ']);
    await extend(onDeployment, 9, deployment, ['DELETE', 'READ']);
    const groupUpdated = await rest.request('PUT', '/group/sales', { json: { id: 'sales', name: 'Sales team', type: 'WORKFLOW' }, headers: jonny });
    const deploymentDeleted = await rest.request('DELETE', `/deployment/${deployment}`, { headers: jonny });

    expect(groupUnseen.status).toBe(404);
    expect(groupUnseen.body.message).toBe('Group with id sales does not exist');
    expect(deploymentUnseen.status).toBe(404);
    expect(deploymentUnseen.body.message).toBe(`Deployment with id '${deployment}' do not exist`);
    expect(groupUpdated.status).toBe(204);
    expect(deploymentDeleted.status).toBe(204);
  });

  it('asks for SUSPEND or UPDATE to suspend a definition, listing both as missing', async () => {
    const { deployedProcessDefinitions } = (await deploy(admin)).body;
    const id = Object.keys(deployedProcessDefinitions)[0];
    await rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['READ'] }, headers: admin });

    const response = await rest.request('PUT', `/process-definition/${id}/suspended`, { json: { suspended: true }, headers: jonny });

    expect(response.status).toBe(403);
    expect(response.body.message).toBe(
      "The user with id 'jonny' does not have one of the following permissions: 'SUSPEND' permission on resource 'invoice' of type 'ProcessDefinition' or 'UPDATE' permission on resource 'invoice' of type 'ProcessDefinition'",
    );
    expect(response.body.missingAuthorizations).toHaveLength(2);
    expect(response.body.permissionName).toBeNull();
  });

  it('answers 404 for a definition the user may not read, as Camunda does', async () => {
    const { deployedProcessDefinitions } = (await deploy(admin)).body;
    const id = Object.keys(deployedProcessDefinitions)[0];

    const response = await rest.request('GET', `/process-definition/${id}`, { headers: jonny });

    expect(response.status).toBe(404);
  });

  it('shows registered deployments to administrators and holders of READ on System', async () => {
    const denied = await rest.request('GET', '/deployment/registered', { headers: jonny });
    const allowed = await rest.request('GET', '/deployment/registered', { headers: admin });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 21, resourceId: '*', permissions: ['READ'] });
    const granted = await rest.request('GET', '/deployment/registered', { headers: jonny });

    expect(denied.status).toBe(403);
    expect(denied.body.message).toBe("ENGINE-03110 Required admin authenticated group or user or any of the following permissions: 'READ' permission on resource 'System'.");
    expect(allowed.status).toBe(200);
    expect(granted.status).toBe(200);
  });

  it('filters authorizations to those the caller may read', async () => {
    const mine = await rest.request('GET', '/authorization', { headers: jonny });
    const all = await rest.request('GET', '/authorization/count', { headers: admin });

    expect(mine.body).toEqual([]);
    expect(all.body.count).toBeGreaterThan(22);
  });
});
