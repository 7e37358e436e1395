import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deploymentForm, startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
beforeEach(async () => {
  rest = await startRestHarness();
});
afterEach(async () => rest.close());

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

async function deploy(fields: Record<string, string>, files: Parameters<typeof deploymentForm>[1]) {
  return rest.request('POST', '/deployment/create', { form: deploymentForm(fields, files) });
}

describe('POST /deployment/create', () => {
  it('deploys a BPMN file and answers with the deployment, a self link and its definitions', async () => {
    const response = await deploy(
      { 'deployment-name': 'invoice', 'deployment-source': 'curl', 'tenant-id': 'acme' },
      [{ name: 'invoice.bpmn', content: simpleProcessXml('invoice', { name: 'Invoice', versionTag: '1.0' }) }, { name: 'invoice.png', content: PNG }],
    );

    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    const body = response.body;
    expect(body).toMatchObject({ name: 'invoice', source: 'curl', tenantId: 'acme', deployedCaseDefinitions: null, deployedDecisionDefinitions: null });
    expect(body.links).toEqual([{ method: 'GET', href: `${rest.url}/deployment/${body.id}`, rel: 'self' }]);
    const [definition] = Object.values(body.deployedProcessDefinitions) as any[];
    expect(definition).toMatchObject({
      key: 'invoice', name: 'Invoice', version: 1, versionTag: '1.0', resource: 'invoice.bpmn', diagram: 'invoice.png',
      deploymentId: body.id, tenantId: 'acme', suspended: false, historyTimeToLive: 30, startableInTasklist: true,
      category: 'http://bpmn.io/schema/bpmn',
    });
  });

  it('answers deployedProcessDefinitions null when only other files were deployed', async () => {
    const response = await deploy({}, [{ name: 'form.html', content: '<form/>' }]);

    expect(response.status).toBe(200);
    expect(response.body.deployedProcessDefinitions).toBeNull();
  });

  it.each([
    ['isExecutable="false"', 'isExecutable="false"'],
    ['no isExecutable attribute', ''],
  ])('deploys a BPMN file whose process has %s without a definition, as Camunda does', async (_case, attribute) => {
    const xml = simpleProcessXml('p').replace('isExecutable="true"', attribute);

    const response = await deploy({ 'deployment-name': 'drawing' }, [{ name: 'p.bpmn', content: xml }]);
    const resources = await rest.request('GET', `/deployment/${response.body.id}/resources`);

    expect(response.status).toBe(200);
    expect(response.body.deployedProcessDefinitions).toBeNull();
    expect(resources.body.map((r: any) => r.name)).toEqual(['p.bpmn']);
    expect((await rest.request('GET', '/process-definition/count')).body).toEqual({ count: 0 });
  });

  it('returns the earlier deployment when duplicate filtering finds nothing changed', async () => {
    const files = [{ name: 'p.bpmn', content: simpleProcessXml('p') }];
    const first = await deploy({ 'deployment-name': 'app' }, files);

    const second = await deploy({ 'deployment-name': 'app', 'enable-duplicate-filtering': 'true' }, files);

    expect(second.body.id).toBe(first.body.id);
    expect(second.body.deployedProcessDefinitions).toBeNull();
  });

  it('deploys only changed resources with deploy-changed-only', async () => {
    await deploy({ 'deployment-name': 'app' }, [{ name: 'p.bpmn', content: simpleProcessXml('p') }, { name: 'q.bpmn', content: simpleProcessXml('q') }]);

    const response = await deploy({ 'deployment-name': 'app', 'deploy-changed-only': 'TRUE' }, [
      { name: 'p.bpmn', content: simpleProcessXml('p', { name: 'new' }) },
      { name: 'q.bpmn', content: simpleProcessXml('q') },
    ]);

    expect(Object.values(response.body.deployedProcessDefinitions).map((d: any) => `${d.key}:${d.version}`)).toEqual(['p:2']);
  });

  it('deploys suspended definitions with an activation time and activates them when it comes', async () => {
    const response = await deploy({ 'deployment-activation-time': '2026-01-16T10:00:00.000Z' }, [{ name: 'p.bpmn', content: simpleProcessXml('p') }]);
    const [definition] = Object.values(response.body.deployedProcessDefinitions) as any[];
    expect(definition.suspended).toBe(true);

    rest.engine.clock.set(new Date('2026-01-16T10:00:01.000Z'));
    await rest.engine.jobExecutor.runDueJobs();

    const after = await rest.request('GET', `/process-definition/${definition.id}`);
    expect(after.body.suspended).toBe(false);
  });

  it('answers 400 ParseException with per-resource details for an invalid model, and stores nothing', async () => {
    const broken = simpleProcessXml('p').replace('targetRef="end"', 'targetRef="missing"');

    const response = await deploy({ 'deployment-name': 'broken' }, [{ name: 'broken.bpmn', content: broken }]);

    expect(response.status).toBe(400);
    expect(response.body.type).toBe('ParseException');
    expect(response.body.message).toMatch(/^ENGINE-09005 Could not parse BPMN process\. Errors: \n\* Invalid destination 'missing'/);
    const [problem] = response.body.details['broken.bpmn'].errors;
    expect(problem).toMatchObject({ mainElementId: 'flow1', line: 7 });
    expect(problem['\u0435lementIds']).toEqual(['flow1']);
    expect((await rest.request('GET', '/deployment/count')).body).toEqual({ count: 0 });
  });

  it('answers 400 when the upload has no resources', async () => {
    const response = await deploy({ 'deployment-name': 'empty' }, []);

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ type: 'InvalidRequestException', message: 'No deployment resources contained in the form upload.', code: null });
  });

  it('reads the activation time before it asks for resources: one it cannot parse is a 500, as in Camunda', async () => {
    const empty = await deploy({ 'deployment-activation-time': 'soon' }, []);
    const withResource = await deploy({ 'deployment-activation-time': 'soon' }, [{ name: 'p.bpmn', content: simpleProcessXml('p') }]);

    expect([empty.status, empty.body]).toEqual([500, { type: 'IllegalArgumentException', message: 'Invalid format: "soon"', code: null }]);
    expect(withResource.status).toBe(500);
    expect((await rest.request('GET', '/deployment/count')).body).toEqual({ count: 0 });
  });

  it('answers 400 for a resource part without a file name', async () => {
    const form = new FormData();
    form.append('data', new Blob(['<xml/>'], { type: 'application/xml' }));

    const response = await rest.request('POST', '/deployment/create', {
      body: await multipartWithoutFileName(),
      headers: { 'Content-Type': 'multipart/form-data; boundary=X' },
    });

    expect(response.status).toBe(400);
    expect(response.body.message).toBe("No file name found in the deployment resource described by form parameter 'null'.");
  });

  it("answers 400 for a text part that is not a setting (a typo), naming the file name 'null' as Camunda does", async () => {
    const response = await deploy({ tenantId: 'acme' }, [{ name: 'p.bpmn', content: simpleProcessXml('p') }]);

    expect([response.status, response.body]).toEqual([
      400,
      { type: 'InvalidRequestException', message: "No file name found in the deployment resource described by form parameter 'null'.", code: null },
    ]);
    expect((await rest.request('GET', '/deployment/count')).body).toEqual({ count: 0 });
  });

  it('keeps the last of two parts with one name, as Camunda keeps parts by name', async () => {
    const response = await deploy({}, [
      { name: 'first.bpmn', content: simpleProcessXml('first'), part: 'data' },
      { name: 'second.bpmn', content: simpleProcessXml('second'), part: 'data' },
    ]);
    const resources = await rest.request('GET', `/deployment/${response.body.id}/resources`);

    expect(response.status).toBe(200);
    expect(Object.values(response.body.deployedProcessDefinitions).map((d: any) => d.key)).toEqual(['second']);
    expect(resources.body.map((r: any) => r.name)).toEqual(['second.bpmn']);
  });

  it('keeps the later of two parts with one file name, as Camunda keeps resources by name', async () => {
    const response = await deploy({}, [
      { name: 'p.bpmn', content: simpleProcessXml('p', { name: 'earlier' }) },
      { name: 'p.bpmn', content: simpleProcessXml('p', { name: 'later' }) },
    ]);
    const resources = await rest.request('GET', `/deployment/${response.body.id}/resources`);

    expect(response.status).toBe(200);
    expect(Object.values(response.body.deployedProcessDefinitions).map((d: any) => d.name)).toEqual(['later']);
    expect(resources.body.map((r: any) => r.name)).toEqual(['p.bpmn']);
  });

  it('answers 413 for an upload over the body limit, and stays up', async () => {
    const small = await startRestHarness({}, { bodyLimit: 1024 });
    try {
      const response = await small.request('POST', '/deployment/create', {
        form: deploymentForm({}, [{ name: 'big.bpmn', content: 'x'.repeat(5000) }]),
      });
      const after = await small.request('GET', '/deployment/count');

      expect(response.status).toBe(413);
      expect(response.body.type).toBe('InvalidRequestException');
      expect(after.body).toEqual({ count: 0 });
    } finally {
      await small.close();
    }
  });

  it('answers 415 for a body that is not multipart', async () => {
    const response = await rest.request('POST', '/deployment/create', { json: { name: 'x' } });

    expect(response.status).toBe(415);
  });
});

async function multipartWithoutFileName(): Promise<string> {
  return ['--X', 'Content-Disposition: form-data; name="data"', 'Content-Type: application/xml', '', '<xml/>', '--X--', ''].join('\r\n');
}

describe('GET /deployment/{id} and its resources', () => {
  it('reads a deployment back, its resource list, one resource and its data', async () => {
    const deployed = (await deploy({ 'deployment-name': 'd' }, [{ name: 'p.bpmn', content: simpleProcessXml('p') }, { name: 'p.png', content: PNG }])).body;

    const deployment = await rest.request('GET', `/deployment/${deployed.id}`);
    const resources = await rest.request('GET', `/deployment/${deployed.id}/resources`);
    const png = resources.body.find((r: any) => r.name === 'p.png');
    const one = await rest.request('GET', `/deployment/${deployed.id}/resources/${png.id}`);
    const data = await rest.request('GET', `/deployment/${deployed.id}/resources/${png.id}/data`);

    expect(deployment.body).toEqual({ links: [], id: deployed.id, name: 'd', source: null, deploymentTime: deployed.deploymentTime, tenantId: null });
    expect(deployment.headers.get('cache-control')).toBe('no-cache');
    expect(resources.body.map((r: any) => r.name)).toEqual(['p.bpmn', 'p.png']);
    expect(one.body).toEqual({ id: png.id, name: 'p.png', deploymentId: deployed.id });
    expect(data.headers.get('content-type')).toBe('image/png');
    expect(data.headers.get('content-disposition')).toBe(`attachment; filename="p.png"; filename*=UTF-8''p.png`);
    expect(data.body).toEqual(PNG);
  });

  it('lists the resources by name, not in upload order, as Camunda does', async () => {
    const deployed = (await deploy({}, [{ name: 'z.bpmn', content: simpleProcessXml('p') }, { name: 'a.png', content: PNG }, { name: 'm.txt', content: 'm' }])).body;

    const resources = await rest.request('GET', `/deployment/${deployed.id}/resources`);

    expect(resources.body.map((r: any) => r.name)).toEqual(['a.png', 'm.txt', 'z.bpmn']);
  });

  it('serves a BPMN resource as application/xml', async () => {
    const deployed = (await deploy({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;
    const [resource] = (await rest.request('GET', `/deployment/${deployed.id}/resources`)).body;

    const data = await rest.request('GET', `/deployment/${deployed.id}/resources/${resource.id}/data`);

    expect(data.headers.get('content-type')).toMatch(/^application\/xml/);
    expect(data.body.toString('utf8')).toBe(simpleProcessXml('p'));
  });

  it('answers 404 with Camunda texts for unknown deployments and resources', async () => {
    const deployed = (await deploy({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;

    const deployment = await rest.request('GET', '/deployment/nope');
    const resources = await rest.request('GET', '/deployment/nope/resources');
    const resource = await rest.request('GET', `/deployment/${deployed.id}/resources/nope`);
    const data = await rest.request('GET', `/deployment/${deployed.id}/resources/nope/data`);

    expect(deployment.status).toBe(404);
    expect(deployment.body).toEqual({ type: 'InvalidRequestException', message: "Deployment with id 'nope' does not exist", code: null });
    expect(resources.body.message).toBe("Deployment resources for deployment id 'nope' do not exist.");
    expect(resource.body.message).toBe(`Deployment resource with resource id 'nope' for deployment id '${deployed.id}' does not exist.`);
    expect(data.status).toBe(404);
    expect(data.body.message).toBe(`Deployment resource 'nope' for deployment id '${deployed.id}' does not exist.`);
  });
});

describe('POST /deployment/{id}/redeploy', () => {
  it('creates a new deployment of the same name from the selected resources', async () => {
    const deployed = (await deploy({ 'deployment-name': 'app' }, [{ name: 'p.bpmn', content: simpleProcessXml('p') }, { name: 'q.bpmn', content: simpleProcessXml('q') }])).body;

    const response = await rest.request('POST', `/deployment/${deployed.id}/redeploy`, { json: { resourceNames: ['q.bpmn'], source: 'again' } });

    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ name: 'app', source: 'again' });
    expect(response.body.links[0].rel).toBe('self');
    expect(Object.values(response.body.deployedProcessDefinitions).map((d: any) => `${d.key}:${d.version}`)).toEqual(['q:2']);
  });

  it('redeploys everything when no body is sent', async () => {
    const deployed = (await deploy({ 'deployment-name': 'app' }, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;

    const response = await rest.request('POST', `/deployment/${deployed.id}/redeploy`);

    expect(response.status).toBe(200);
    expect(Object.values(response.body.deployedProcessDefinitions).map((d: any) => d.version)).toEqual([2]);
  });

  it('answers 404 for an unknown deployment or resource', async () => {
    const deployed = (await deploy({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;

    const unknown = await rest.request('POST', '/deployment/nope/redeploy', { json: {} });
    const missing = await rest.request('POST', `/deployment/${deployed.id}/redeploy`, { json: { resourceIds: ['r1'] } });

    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Deployment with id 'nope' does not exist");
    expect(missing.status).toBe(404);
    expect(missing.body.message).toMatch(new RegExp(`^Cannot redeploy deployment '${deployed.id}': `));
  });

  it('answers 400 for a null among the resource ids or names (the ids first), before anything else', async () => {
    const deployed = (await deploy({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;

    const nullId = await rest.request('POST', `/deployment/${deployed.id}/redeploy`, { json: { resourceIds: [null, 'r1'], resourceNames: [null] } });
    const nullName = await rest.request('POST', `/deployment/${deployed.id}/redeploy`, { json: { resourceNames: ['p.bpmn', null] } });

    expect([nullId.status, nullId.body]).toEqual([400, { type: 'InvalidRequestException', message: `Cannot redeploy deployment '${deployed.id}': resourceIds contains null value`, code: 0 }]);
    expect(nullName.body.message).toBe(`Cannot redeploy deployment '${deployed.id}': resourceNames contains null value`);
    expect((await rest.request('GET', '/deployment/count')).body).toEqual({ count: 1 });
  });

  it('answers 400 with an empty message for malformed JSON', async () => {
    const deployed = (await deploy({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;

    const response = await rest.request('POST', `/deployment/${deployed.id}/redeploy`, {
      body: '{"resourceIds": [',
      headers: { 'Content-Type': 'application/json' },
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({ type: 'InvalidRequestException', message: '', code: null });
  });
});

describe('DELETE /deployment/{id}', () => {
  it('removes the deployment and its definitions', async () => {
    const deployed = (await deploy({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;

    const response = await rest.request('DELETE', `/deployment/${deployed.id}`, { query: { cascade: 'true' } });

    expect(response.status).toBe(204);
    expect((await rest.request('GET', `/deployment/${deployed.id}`)).status).toBe(404);
    expect((await rest.request('GET', '/process-definition/count')).body).toEqual({ count: 0 });
  });

  it("answers 404 with Camunda's 'do not exist' for an unknown deployment", async () => {
    const response = await rest.request('DELETE', '/deployment/nope');

    expect(response.status).toBe(404);
    expect(response.body.message).toBe("Deployment with id 'nope' do not exist");
  });
});

describe('GET /deployment/registered', () => {
  it('lists the deployments this engine made', async () => {
    const deployed = (await deploy({}, [{ name: 'p.bpmn', content: simpleProcessXml('p') }])).body;

    const response = await rest.request('GET', '/deployment/registered');

    expect(response.body).toEqual([deployed.id]);
  });
});
