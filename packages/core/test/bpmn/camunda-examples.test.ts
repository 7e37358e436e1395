import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBpmnResource } from '../../src/bpmn/index.js';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/camunda-examples/${name}`, import.meta.url)), 'utf8');

// Real models from Camunda's public repositories (provenance: fixtures/camunda-examples/README.md).
const EXPECTED: Array<[file: string, key: string, name: string | null, ttl: number | null, category: string]> = [
  ['async-service-invocation.bpmn', 'asynchronousServiceInvocation', 'Asynchronous Service Invocation', 180, 'http://camunda.org/examples'],
  ['client-js-loan-process.bpmn', 'loan_process', 'Granting Loans', 180, 'http://bpmn.io/schema/bpmn'],
  ['client-js-order.bpmn', 'Order_Process', 'Order Process', 180, 'http://bpmn.io/schema/bpmn'],
  ['client-js-test-process.bpmn', 'loan_process', 'Granting Loans', null, 'http://bpmn.io/schema/bpmn'],
  ['failed-job-retry.bpmn', 'process', null, 180, 'http://bpmn.io/schema/bpmn'],
  ['junit-assert-test-process.bpmn', 'testProcess', null, 180, 'http://camunda.org/schema/1.0/bpmn'],
  ['loan-approval-embedded-form.bpmn', 'embeddedFormsQuickstart', 'Embedded Forms Quickstart', 180, 'http://camunda.org/examples'],
  ['loan-granting.bpmn', 'loan_process', 'Granting Loans', 180, 'http://bpmn.io/schema/bpmn'],
  ['message-start-instantiating.bpmn', 'Instantiating_Process', null, 180, 'http://camunda.org/examples'],
  ['message-start.bpmn', 'Message_Start_Process', null, 180, 'http://camunda.org/examples'],
  ['migrate-on-deployment.bpmn', 'exampleProcess', 'Example Process', 180, 'http://camunda.org/examples'],
  ['order-handling.bpmn', 'Order_Process', 'Order Process', 180, 'http://bpmn.io/schema/bpmn'],
  ['shared-definitions-main.bpmn', 'mainProcess', 'Main Process', 180, 'http://bpmn.io/schema/bpmn'],
  ['shared-definitions-sub.bpmn', 'subProcess', 'Sub-Process', 180, 'http://bpmn.io/schema/bpmn'],
];

describe('parseBpmnResource on real Camunda models', () => {
  it.each(EXPECTED)('parses %s into process %s', async (file, key, name, ttl, category) => {
    const result = await parseBpmnResource(file, fixture(file));

    expect(result.processes.map((process) => process.key)).toEqual([key]);
    expect(result.processes[0]).toMatchObject({ name, historyTimeToLive: ttl, category, isStartableInTasklist: true });
  });

  it('reads the external task topics of the client-js loan process', async () => {
    const [model] = (await parseBpmnResource('loan.bpmn', fixture('client-js-loan-process.bpmn'))).processes;

    const topics = [...model.elements.values()].filter((e) => e.camunda.type === 'external').map((e) => e.camunda.topic);

    expect(topics).toContain('creditScoreChecker');
  });

  it('keeps camunda:inputOutput mappings as plain data', async () => {
    const [model] = (await parseBpmnResource('loan.bpmn', fixture('client-js-loan-process.bpmn'))).processes;

    const withMappings = [...model.elements.values()].find((e) => e.extensions.length > 0);

    expect(withMappings?.extensions[0]).toMatchObject({ $type: 'camunda:InputOutput' });
  });

  it('marks a start event with camunda:formKey as a start form', async () => {
    const [model] = (await parseBpmnResource('form.bpmn', fixture('loan-approval-embedded-form.bpmn'))).processes;

    expect(model.hasStartFormKey).toBe(true);
  });

  it('reads a call activity whose tenant is an expression', async () => {
    const [model] = (await parseBpmnResource('main.bpmn', fixture('shared-definitions-main.bpmn'))).processes;

    expect(model.callActivities).toEqual([
      expect.objectContaining({ activityId: 'CallActivity_0ahffuc', calledElement: 'subProcess', binding: 'latest' }),
    ]);
    expect(model.callActivities[0].tenantId).toMatch(/^\$\{/);
  });

  it('reads a timer start event definition', async () => {
    const [model] = (await parseBpmnResource('loan.bpmn', fixture('loan-granting.bpmn'))).processes;

    const start = model.elements.get(model.initialStartEvents[0])!;

    expect(start.eventDefinitions[0].type).toBe('bpmn:TimerEventDefinition');
  });
});
