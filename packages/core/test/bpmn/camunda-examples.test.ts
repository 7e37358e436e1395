import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parseBpmnResource, type ProcessModel } from '../../src/bpmn/index.js';

const fixture = (name: string) =>
  readFileSync(fileURLToPath(new URL(`../fixtures/camunda-examples/${name}`, import.meta.url)), 'utf8');

async function modelOf(file: string): Promise<ProcessModel> {
  const { processes } = await parseBpmnResource(file, fixture(file));
  expect(processes).toHaveLength(1);
  return processes[0];
}

// Real models from Camunda's public repositories (provenance: fixtures/camunda-examples/README.md).
type Expected = [file: string, key: string, name: string | null, historyTimeToLive: number | null, category: string];
const EXAMPLES: Expected[] = [
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
  it.each(EXAMPLES)('parses %s into process %s', async (file, key, name, historyTimeToLive, category) => {
    const result = await parseBpmnResource(file, fixture(file));

    expect(result.processes.map((process) => process.key)).toEqual([key]);
    expect(result.processes[0]).toMatchObject({ name, historyTimeToLive, category, versionTag: null, isStartableInTasklist: true });
    expect(result).toMatchObject({ targetNamespace: category, diagramPresent: true, warnings: [] });
  });

  it('reads the call activity of the shared-definitions main process, whose tenant is an expression', async () => {
    const model = await modelOf('shared-definitions-main.bpmn');

    expect(model.callActivities).toEqual([
      {
        activityId: 'CallActivity_0ahffuc',
        calledElement: 'subProcess',
        binding: 'latest',
        version: null,
        versionTag: null,
        tenantId: '${ calledElementTenantIdProvider.resolveTenantId(execution) }',
      },
    ]);
    expect(model.documentation).toBe('calling the sub-process');
  });

  it('finds no call activity in models without one', async () => {
    for (const [file] of EXAMPLES.filter(([file]) => file !== 'shared-definitions-main.bpmn')) {
      expect((await modelOf(file)).callActivities).toEqual([]);
    }
  });

  it('reads the external task topics and the script input parameter of the client-js loan process', async () => {
    const model = await modelOf('client-js-loan-process.bpmn');
    const task = model.activity('Task_1lvjtd4')!;

    expect(task).toMatchObject({ activityType: 'serviceTask', camunda: { type: 'external', topic: 'creditScoreChecker' } });
    expect(task.inputOutput?.inputParameters).toEqual([
      { name: 'Input_2rvtuu9', value: { kind: 'script', script: { format: 'javascript', source: 'execution.setVariable("defaultScore", 5);', resource: null } } },
    ]);
  });

  it('reads the multi-instance sub-process and the cron timer start of the client-js loan process', async () => {
    const model = await modelOf('client-js-loan-process.bpmn');

    expect(model.activity('SubProcess_16kr5xn')?.multiInstance).toMatchObject({
      isSequential: false,
      collection: '${creditScores.elements()}',
      elementVariable: 'score',
    });
    expect(model.timerStartEvents).toEqual([{ activityId: 'StartEvent_1', timer: { kind: 'cycle', expression: '0/5 0/1 * 1/1 * ? *', exclusive: true } }]);
    expect(model.childrenOf('SubProcess_16kr5xn').map((element) => element.activityType)).toContain('exclusiveGateway');
  });

  it('reads the message a message start event waits for', async () => {
    const model = await modelOf('message-start.bpmn');

    expect(model.messageStartEvents).toEqual([{ activityId: 'StartEvent_1', messageRef: 'Message_1', messageName: 'instantiationMessage' }]);
    expect(model.initialActivity()?.activityType).toBe('messageStartEvent');
  });

  it('marks a start event with camunda:formKey as a start form', async () => {
    expect((await modelOf('loan-approval-embedded-form.bpmn')).hasStartFormKey).toBe(true);
    expect((await modelOf('junit-assert-test-process.bpmn')).hasStartFormKey).toBe(false);
  });

  it('reads the retry profiles of the failed-job-retry example as camunda:properties', async () => {
    const model = await modelOf('failed-job-retry.bpmn');

    expect(model.activity('service-fetch-data')?.properties).toEqual([{ name: 'retryProfile', value: 'CRM' }]);
    expect(model.activity('service-fetch-data')?.camunda.class).toBe('org.camunda.bpm.example.delegate.ServiceTaskOneDelegate');
  });

  it('reads the conditional boundary event of the order handling process', async () => {
    const model = await modelOf('order-handling.bpmn');

    const boundary = [...model.elements.values()].find((element) => element.activityType === 'boundaryConditional')!;

    expect(model.activity(boundary.attachedTo!)?.boundaryEvents).toEqual([boundary.id]);
    expect(boundary.eventDefinitions[0].condition).toBeTruthy();
  });
});
