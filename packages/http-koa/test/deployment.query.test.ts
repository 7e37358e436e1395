import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
const ids: Record<string, string> = {};

beforeEach(async () => {
  rest = await startRestHarness();
  const deploy = async (label: string, name: string | null, source: string | null, tenantId: string | null) => {
    const result = await rest.engine.deployment.deploy({
      name, source, tenantId, resources: [{ name: `${label}.bpmn`, bytes: Buffer.from(simpleProcessXml(label)) }],
    });
    ids[label] = result.deployment.id;
    rest.engine.clock.advance(60_000);
  };
  await deploy('a', 'Invoice', 'cockpit', null);
  await deploy('b', 'invoice-2', null, 'acme');
  await deploy('c', 'Order', 'cockpit', 'other');
});
afterEach(async () => rest.close());

const list = async (query: Record<string, string>) => {
  const response = await rest.request('GET', '/deployment', { query });
  expect(response.status).toBe(200);
  return response.body.map((d: any) => d.id);
};

describe('GET /deployment filters', () => {
  it('filters by id, exact name and case-sensitive nameLike', async () => {
    expect(await list({ id: ids.b })).toEqual([ids.b]);
    expect(await list({ name: 'Order' })).toEqual([ids.c]);
    expect(await list({ nameLike: 'Inv%' })).toEqual([ids.a]);
  });

  it('filters by source and withoutSource', async () => {
    expect((await list({ source: 'cockpit' })).sort()).toEqual([ids.a, ids.c].sort());
    expect(await list({ withoutSource: 'true' })).toEqual([ids.b]);
  });

  it('filters by tenants, with or without deployments that have none', async () => {
    expect(await list({ tenantIdIn: 'acme' })).toEqual([ids.b]);
    expect((await list({ tenantIdIn: 'acme,other' })).sort()).toEqual([ids.b, ids.c].sort());
    expect((await list({ tenantIdIn: 'acme', includeDeploymentsWithoutTenantId: 'true' })).sort()).toEqual([ids.a, ids.b].sort());
    expect(await list({ withoutTenantId: 'true' })).toEqual([ids.a]);
  });

  it('filters by deployment time, strictly after and before', async () => {
    const b = (await rest.request('GET', `/deployment/${ids.b}`)).body.deploymentTime;

    expect(await list({ after: b })).toEqual([ids.c]);
    expect(await list({ before: b })).toEqual([ids.a]);
  });

  it('sorts and pages', async () => {
    expect(await list({ sortBy: 'deploymentTime', sortOrder: 'desc' })).toEqual([ids.c, ids.b, ids.a]);
    expect(await list({ sortBy: 'name', sortOrder: 'asc', firstResult: '1', maxResults: '1' })).toEqual([ids.c]);
    expect(await list({ sortBy: 'tenantId', sortOrder: 'asc' })).toEqual([ids.a, ids.b, ids.c]);
  });

  it('counts with the same filters and ignores unknown parameters', async () => {
    const response = await rest.request('GET', '/deployment/count', { query: { source: 'cockpit', unknownParameter: 'x' } });

    expect(response.body).toEqual({ count: 2 });
  });
});

describe('GET /deployment rejects', () => {
  it.each([
    [{ sortBy: 'nope', sortOrder: 'asc' }, "Cannot set query parameter 'sortBy' to value 'nope'"],
    [{ sortBy: 'id', sortOrder: 'up' }, "Cannot set query parameter 'sortOrder' to value 'up'"],
    [{ sortOrder: 'asc' }, 'Only a single sorting parameter specified. sortBy and sortOrder required'],
    [{ withoutSource: 'yes' }, "Cannot set query parameter 'withoutSource' to value 'yes': Cannot convert value yes to java type java.lang.Boolean"],
    [{ after: 'yesterday' }, 'Cannot set query parameter \'after\' to value \'yesterday\': Cannot convert value "yesterday" to java type java.util.Date'],
    [{ maxResults: 'ten' }, "Cannot set query parameter 'maxResults' to value 'ten': Cannot convert value ten to java type java.lang.Integer"],
    [{ source: 'x', withoutSource: 'true' }, 'The query parameters "withoutSource" and "source" cannot be used in combination.'],
  ])('%o with 400 InvalidRequestException', async (query, message) => {
    const response = await rest.request('GET', '/deployment', { query });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ type: 'InvalidRequestException', message, code: null });
  });
});
