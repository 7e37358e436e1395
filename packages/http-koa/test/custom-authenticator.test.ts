import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import type { Authenticator } from '../src/index.js';
import { deploymentForm, startRestHarness, type RestHarness } from './support/rest-harness.js';

// A host whose gateway already checked a token and forwards the user and groups in headers.
const trustedGateway: Authenticator = async (request) => {
  const user = request.headers['x-user'];
  if (typeof user !== 'string') return null;
  const groups = request.headers['x-groups'];
  return { userId: user, groupIds: typeof groups === 'string' ? groups.split(',') : [], tenantIds: [] };
};

let rest: RestHarness;
afterEach(async () => rest.close());

describe('a custom authenticator', () => {
  it('decides who calls; groups it names count in authorization checks', async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: trustedGateway });
    await rest.engine.authorization.createAuthorization({ type: 1, groupId: 'deployers', resourceType: 9, resourceId: '*', permissions: ['CREATE'] });
    const form = () => deploymentForm({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }]);

    const anonymous = await rest.request('POST', '/deployment/create', { form: form(), outsideContract: true });
    const outsider = await rest.request('POST', '/deployment/create', { form: form(), headers: { 'X-User': 'eve' } });
    const member = await rest.request('POST', '/deployment/create', { form: form(), headers: { 'X-User': 'bob', 'X-Groups': 'deployers' } });
    // camunda-admin passes through its grants, as in Camunda.
    const adminWithoutGrants = await rest.request('POST', '/deployment/create', { form: form(), headers: { 'X-User': 'root', 'X-Groups': 'camunda-admin' } });
    await rest.engine.authorization.createAuthorization({ type: 1, groupId: 'camunda-admin', resourceType: 9, resourceId: '*', permissions: ['ALL'] });
    const admin = await rest.request('POST', '/deployment/create', { form: form(), headers: { 'X-User': 'root', 'X-Groups': 'camunda-admin' } });

    expect(anonymous.status).toBe(401);
    expect(outsider.status).toBe(403);
    expect(member.status).toBe(200);
    expect(adminWithoutGrants.status).toBe(403);
    expect(admin.status).toBe(200);
  });
});
