import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

describe('GET /engine and /version', () => {
  it('lists the engine by name', async () => {
    const response = await rest.request('GET', '/engine');

    expect(response.body).toEqual([{ name: 'default' }]);
  });

  it('names the REST API version, also under /engine/{name}', async () => {
    const plain = await rest.request('GET', '/version');
    const named = await rest.request('GET', '/engine/default/version');

    expect(plain.body).toEqual({ version: '7.22.0' });
    expect(named.body).toEqual({ version: '7.22.0' });
    // The version needs no engine: any name answers it, as in Camunda.
    expect((await rest.request('GET', '/engine/other/version')).body).toEqual({ version: '7.22.0' });
  });

  it("answers Camunda's filter's 404 for another engine's name before authenticating", async () => {
    await rest.close();
    rest = await startRestHarness({}, { authentication: 'basic' });

    const other = await rest.request('GET', '/engine/other/process-definition', { outsideContract: true });
    const own = await rest.request('GET', '/engine/default/process-definition', { outsideContract: true });

    const bare = await rest.request('GET', '/engine/other', { outsideContract: true });
    const list = await rest.request('GET', '/engine');
    // the engine list is open whatever the method (no route answers a POST there, but no 401 either)
    const posted = await rest.request('POST', '/engine', { json: {}, outsideContract: true });

    expect([other.status, other.body]).toEqual([404, { type: 'InvalidRequestException', message: 'Process engine other not available', code: null }]);
    expect(own.status).toBe(401);
    expect([bare.status, bare.body.message]).toEqual([404, 'Process engine other not available']);
    expect(list.status).toBe(200);
    expect(posted.status).not.toBe(401);
  });
});

describe('routes that do not exist', () => {
  it('answer a JSON 404 for an unknown path', async () => {
    const response = await rest.request('GET', '/no-such-resource', { outsideContract: true });

    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.body).toEqual({ type: 'NotFoundException', message: 'HTTP 404 Not Found', code: null });
  });

  it('answer a JSON 404 for operations that are not served yet', async () => {
    const response = await rest.request('POST', '/decision-definition/key/invoice/evaluate', { json: {}, outsideContract: true });

    expect(response.status).toBe(404);
    expect(response.body.type).toBe('NotFoundException');
  });

  it('answer a JSON 405 for a known path with another method', async () => {
    const response = await rest.request('PATCH', '/deployment', { outsideContract: true });

    expect(response.status).toBe(405);
    expect(response.body).toEqual({ type: 'NotAllowedException', message: 'HTTP 405 Method Not Allowed', code: null });
  });
});
