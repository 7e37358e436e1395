import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { FixedClock } from '../../src/clock.js';
import { createTestEngine, testStoreConfigs } from '../../src/testing/index.js';

// Every real model from Camunda's repositories (fixtures/camunda-examples) deploys and runs to its end,
// with JavaScript delegates standing in for the Java classes the models name.

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/camunda-examples/${name}`, import.meta.url)));
const json = (value: unknown) => ({ type: 'json' as const, value: JSON.stringify(value), valueInfo: {} });
const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });
const date = (value: Date) => ({ type: 'date' as const, value, valueInfo: {} });

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

describe.each(testStoreConfigs())('Camunda example models run on $name', (testStore) => {
  async function deploy(files: string[], scripting = false) {
    const engine = (await createTestEngine({
      store: testStore.config(expect.getState().currentTestName!),
      scripting: { enabled: scripting },
    })) as ProcessEngine & { clock: FixedClock };
    engines.push(engine);
    const { processDefinitions } = await engine.deployment.deploy({ resources: files.map((name) => ({ name, bytes: fixture(name) })) });
    const byKey = (key: string) => processDefinitions!.find((definition) => definition.key === key)!.id;
    return { engine, byKey };
  }
  const tasksOf = async (engine: ProcessEngine, processInstanceId?: string) => engine.task.findTasks(processInstanceId ? { processInstanceId } : {});
  const completeAll = async (engine: ProcessEngine, processInstanceId: string) => {
    for (const task of await tasksOf(engine, processInstanceId)) await engine.task.complete(task.id);
  };
  /** A worker: fetch one task of the topic and complete it with the variables. */
  const work = async (engine: ProcessEngine, topicName: string, variables = {}) => {
    const tasks = await engine.externalTask.fetchAndLock({ workerId: 'worker', maxTasks: 10, topics: [{ topicName, lockDuration: 10_000 }] });
    for (const task of tasks) await engine.externalTask.complete(task.id, 'worker', variables);
    return tasks;
  };

  it('junit-assert-test-process and loan-approval-embedded-form: a user task each', async () => {
    const { engine, byKey } = await deploy(['junit-assert-test-process.bpmn', 'loan-approval-embedded-form.bpmn']);

    const test = await engine.runtime.startProcessInstanceById(byKey('testProcess'));
    const loan = await engine.runtime.startProcessInstanceById(byKey('embeddedFormsQuickstart'));
    const [approve] = await tasksOf(engine, loan.id);
    await completeAll(engine, test.id);
    await completeAll(engine, loan.id);

    expect(approve).toMatchObject({ assignee: 'demo', formKey: 'embedded:app:task-form.html', name: 'Approve Request' });
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('migrate-on-deployment: camunda:initiator names the starting user, who gets the task', async () => {
    const { engine, byKey } = await deploy(['migrate-on-deployment.bpmn']);

    const instance = await engine.runAs({ userId: 'mary', groupIds: [], tenantIds: [] }, () => engine.runtime.startProcessInstanceById(byKey('exampleProcess')));

    expect((await tasksOf(engine, instance.id))[0].assignee).toBe('mary');
    expect((await engine.runtime.getVariables(instance.id)).initiator).toMatchObject({ value: 'mary' });
  });

  it('async-service-invocation and failed-job-retry: Java classes as registered JavaScript delegates', async () => {
    const { engine, byKey } = await deploy(['async-service-invocation.bpmn', 'failed-job-retry.bpmn']);
    const calls: string[] = [];
    engine.delegates
      .registerClass('org.camunda.quickstart.servicetask.invocation.AsynchronousServiceTask', (execution) => execution.setVariable('invoked', true))
      .registerClass('org.camunda.bpm.example.delegate.ServiceTaskOneDelegate', (execution) => calls.push(`one:${execution.getCurrentActivityId()}`))
      .registerClass('org.camunda.bpm.example.delegate.ServiceTaskTwoDelegate', (execution) => calls.push(`two:${execution.getCurrentActivityId()}`));

    const invocation = await engine.runtime.startProcessInstanceById(byKey('asynchronousServiceInvocation'));
    await completeAll(engine, invocation.id);
    const afterService = (await tasksOf(engine, invocation.id)).map((task) => task.taskDefinitionKey);
    const variables = await engine.runtime.getVariables(invocation.id);
    await completeAll(engine, invocation.id);
    const retry = await engine.runtime.startProcessInstanceById(byKey('process'));

    expect(afterService).toEqual(['waitStateAfter']);
    expect(variables.invoked).toMatchObject({ value: true });
    expect(retry.ended).toBe(true);
    expect(calls).toEqual(['one:service-fetch-data', 'one:service-fetch-address', 'two:service-send-data', 'two:service-add-address']);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('message-start: a delegate correlates a message that starts the other process', async () => {
    const { engine, byKey } = await deploy(['message-start.bpmn', 'message-start-instantiating.bpmn']);
    engine.delegates.registerClass('org.camunda.bpm.example.event.message.InstantiateProcessByMessageDelegate', async () => {
      await engine.message.correlate({ messageName: 'instantiationMessage' });
    });

    const instantiating = await engine.runtime.startProcessInstanceById(byKey('Instantiating_Process'));
    const started = await engine.runtime.findProcessInstances({ processDefinitionKey: 'Message_Start_Process' });

    expect(instantiating.ended).toBe(false);
    expect(started).toHaveLength(1);
    expect((await tasksOf(engine, started[0].id))[0].name).toBe('Wait in Message Process');
  });

  it('shared-definitions: a call activity whose tenant a bean resolves', async () => {
    const { engine, byKey } = await deploy(['shared-definitions-main.bpmn', 'shared-definitions-sub.bpmn']);
    engine.delegates.registerBean('calledElementTenantIdProvider', { resolveTenantId: () => null });

    const main = await engine.runtime.startProcessInstanceById(byKey('mainProcess'));
    const [sub] = await engine.runtime.findProcessInstances({ processDefinitionKey: 'subProcess' });
    await completeAll(engine, sub.id);

    expect(main.ended).toBe(false);
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('client-js-test-process: a script input parameter, external tasks and a gateway on the score', async () => {
    const { engine, byKey } = await deploy(['client-js-test-process.bpmn'], true);

    const instance = await engine.runtime.startProcessInstanceById(byKey('loan_process'));
    const variables = await engine.runtime.getVariables(instance.id);
    const [check] = await work(engine, 'creditScoreChecker', { score: integer(7) });
    const [grant] = await work(engine, 'loanGranter');

    expect(variables).toMatchObject({ defaultScore: { value: 0 }, missedPayments: { value: false }, numberOfAccounts: { value: 4 } });
    expect(check.activityId).toBe('Task_1lvjtd4');
    expect(grant.activityId).toBe('ServiceTask_1kebqik');
    expect(await engine.runtime.countProcessInstances()).toBe(0);
  });

  it('loan-granting and client-js-loan-process: a cron timer start, a multi-instance sub-process over the scores (plain and Spin)', async () => {
    const granting = await deploy(['loan-granting.bpmn'], true);
    const client = await deploy(['client-js-loan-process.bpmn'], true);

    granting.engine.clock.advance(5_000);
    await granting.engine.jobExecutor.runDueJobs();
    const [instance] = await granting.engine.runtime.findProcessInstances();
    await work(granting.engine, 'creditScoreChecker', { creditScores: json([3, 9]) });
    const granted = await work(granting.engine, 'loanGranter');
    const rejected = await work(granting.engine, 'requestRejecter');

    const clientInstance = await client.engine.runtime.startProcessInstanceById(client.byKey('loan_process'));
    await work(client.engine, 'creditScoreChecker', { creditScores: json([1, 8, 10]) });
    const clientGranted = await work(client.engine, 'loanGranter');
    const clientRejected = await work(client.engine, 'requestRejecter');

    expect(instance).toBeDefined();
    expect([granted.length, rejected.length]).toEqual([1, 1]);
    expect(await granting.engine.runtime.countProcessInstances()).toBe(0);
    expect(clientInstance.ended).toBe(false);
    expect([clientGranted.length, clientRejected.length]).toEqual([2, 1]);
    expect(await client.engine.runtime.countProcessInstances()).toBe(0);
  });

  it('order-handling and client-js-order: timer starts, and a conditional boundary event on a variable set by the worker', async () => {
    const order = await deploy(['order-handling.bpmn']);
    const clientOrder = await deploy(['client-js-order.bpmn']);

    order.engine.clock.advance(5_000);
    await order.engine.jobExecutor.runDueJobs();
    await work(order.engine, 'invoiceCreator', { invoiceId: integer(17) });
    const archived = await work(order.engine, 'invoiceArchiver');

    clientOrder.engine.clock.advance(5_000);
    await clientOrder.engine.jobExecutor.runDueJobs();
    const [created] = await work(clientOrder.engine, 'invoiceCreator', { date: date(new Date('2026-01-15T10:00:00Z')) });

    expect(archived).toHaveLength(1);
    expect(await order.engine.runtime.countProcessInstances()).toBe(0);
    expect(created.topicName).toBe('invoiceCreator');
    // The duration timer (R10/PT5S as a timeDuration) fires once; the conditional boundary took the "Store invoice" path to its end.
    expect(await clientOrder.engine.management.findJobs()).toEqual([]);
    expect(await clientOrder.engine.runtime.countProcessInstances()).toBe(0);
  });
});
