import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deploymentForm, startRestHarness, type RestHarness } from './support/rest-harness.js';

// Real models from Camunda's public repositories, kept in core's fixtures with their provenance.
const folder = fileURLToPath(new URL('../../core/test/fixtures/camunda-examples/', import.meta.url));
const models = readdirSync(folder).filter((file) => file.endsWith('.bpmn')).sort();

// Keys that several of the models share: deployed in this order they get versions 1, 2, 3.
const EXPECTED_KEYS: Record<string, string> = {
  'async-service-invocation.bpmn': 'asynchronousServiceInvocation',
  'client-js-loan-process.bpmn': 'loan_process',
  'client-js-order.bpmn': 'Order_Process',
  'client-js-test-process.bpmn': 'loan_process',
  'failed-job-retry.bpmn': 'process',
  'junit-assert-test-process.bpmn': 'testProcess',
  'loan-approval-embedded-form.bpmn': 'embeddedFormsQuickstart',
  'loan-granting.bpmn': 'loan_process',
  'message-start-instantiating.bpmn': 'Instantiating_Process',
  'message-start.bpmn': 'Message_Start_Process',
  'migrate-on-deployment.bpmn': 'exampleProcess',
  'order-handling.bpmn': 'Order_Process',
  'shared-definitions-main.bpmn': 'mainProcess',
  'shared-definitions-sub.bpmn': 'subProcess',
};

describe('the Camunda example models over REST', () => {
  let rest: RestHarness;
  const deployed = new Map<string, any>();

  beforeAll(async () => {
    rest = await startRestHarness();
    for (const file of models) {
      const response = await rest.request('POST', '/deployment/create', {
        form: deploymentForm({ 'deployment-name': file }, [{ name: file, content: readFileSync(`${folder}${file}`) }]),
      });
      expect(response.status, `${file}: ${JSON.stringify(response.body)}`).toBe(200);
      deployed.set(file, Object.values(response.body.deployedProcessDefinitions)[0]);
    }
  });
  afterAll(async () => rest.close());

  it('deploys all fourteen', () => {
    expect(models).toHaveLength(14);
    expect([...deployed.keys()]).toEqual(Object.keys(EXPECTED_KEYS));
  });

  it.each(models)('%s reads back with its key, version and XML', async (file) => {
    const definition = deployed.get(file);

    const read = await rest.request('GET', `/process-definition/${definition.id}`);
    const xml = await rest.request('GET', `/process-definition/${definition.id}/xml`);

    expect(read.body).toEqual(definition);
    expect(read.body.key).toBe(EXPECTED_KEYS[file]);
    const earlier = models.filter((other) => other < file && EXPECTED_KEYS[other] === EXPECTED_KEYS[file]).length;
    expect(read.body.version).toBe(earlier + 1);
    expect(xml.body.bpmn20Xml).toBe(readFileSync(`${folder}${file}`, 'utf8'));
  });

  it('keeps the names the models give', async () => {
    const names = Object.fromEntries([...deployed].map(([file, definition]) => [file, definition.name]));

    expect(names['loan-granting.bpmn']).toBe('Granting Loans');
    expect(names['order-handling.bpmn']).toBe('Order Process');
    expect(names['failed-job-retry.bpmn']).toBeNull();
    expect(names['shared-definitions-sub.bpmn']).toBe('Sub-Process');
  });

  it('finds the latest loan_process by key', async () => {
    const latest = await rest.request('GET', '/process-definition/key/loan_process');

    expect(latest.body).toMatchObject({ version: 3, resource: 'loan-granting.bpmn' });
  });
});
