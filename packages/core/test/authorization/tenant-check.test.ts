import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Authentication } from '../../src/authorization/authorization.js';
import type { ProcessEngine } from '../../src/engine.js';
import { ProcessEngineException } from '../../src/errors/exceptions.js';
import { createTestEngine, externalTaskProcessXml, testStoreConfigs } from '../../src/testing/index.js';

const USER_TASK = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" isExecutable="true" camunda:historyTimeToLive="1">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="approve" />
    <bpmn:userTask id="approve" /><bpmn:sequenceFlow id="f2" sourceRef="approve" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

// Camunda's TenantManager: an authenticated user who is no administrator sees and changes what
// belongs to no tenant or to one of its tenants; ENGINE-13034 for a command on another tenant's entity.
describe.each(testStoreConfigs())('the tenant check on $name', (testStore) => {
  let engine: ProcessEngine;
  const alice: Authentication = { userId: 'alice', groupIds: ['staff'], tenantIds: ['tenant-a'] };
  const admin: Authentication = { userId: 'root', groupIds: ['camunda-admin'], tenantIds: [] };
  /** Definition ids and instance ids by tenant (`none`: without tenant). */
  const definitions: Record<string, string> = {};
  const instances: Record<string, string> = {};
  const asAlice = <T>(work: () => Promise<T>) => engine.runAs(alice, work);

  beforeAll(async () => {
    engine = await createTestEngine({ store: testStore.config(`tenant-check-${testStore.name}`) });
    for (const tenant of ['tenant-a', 'tenant-b', null]) {
      const name = tenant ?? 'none';
      const { processDefinitions } = await engine.deployment.deploy({
        tenantId: tenant,
        resources: [
          { name: 'invoice.bpmn', bytes: Buffer.from(externalTaskProcessXml('invoice', { topic: 'invoice' })) },
          { name: 'approval.bpmn', bytes: Buffer.from(USER_TASK) },
        ],
      });
      definitions[name] = processDefinitions!.find((each) => each.key === 'invoice')!.id;
      definitions[`${name}/approval`] = processDefinitions!.find((each) => each.key === 'approval')!.id;
      instances[name] = (await engine.runtime.startProcessInstanceById(definitions[name])).id;
      await engine.runtime.startProcessInstanceById(definitions[`${name}/approval`]);
    }
  });
  afterAll(async () => engine.close());

  const tenantsOf = (rows: Array<{ tenantId: string | null }>) => [...new Set(rows.map((row) => row.tenantId ?? 'none'))].sort();

  it('keeps the rows of no tenant and of the caller\'s tenants in every query', async () => {
    const seen = await asAlice(async () => ({
      definitions: tenantsOf(await engine.processDefinition.findProcessDefinitions()),
      deployments: tenantsOf(await engine.deployment.findDeployments()),
      instances: tenantsOf(await engine.runtime.findProcessInstances()),
      tasks: tenantsOf(await engine.task.findTasks()),
      externalTasks: tenantsOf(await engine.externalTask.findExternalTasks()),
      history: tenantsOf(await engine.history.findHistoricProcessInstances()),
      activities: tenantsOf(await engine.history.findHistoricActivityInstances()),
      historicTasks: tenantsOf(await engine.history.tasks.findTasks()),
      externalTaskLogs: tenantsOf(await engine.history.logs.findExternalTaskLogs()),
      executions: tenantsOf(await engine.execution.findExecutions()),
      counted: await engine.runtime.countProcessInstances(),
      candidateGroupReport: await engine.task.countByCandidateGroup(),
    }));

    const expected = ['none', 'tenant-a'];
    expect(seen).toEqual({
      definitions: expected, deployments: expected, instances: expected, tasks: expected, externalTasks: expected, history: expected, activities: expected,
      historicTasks: expected, externalTaskLogs: expected, executions: expected, counted: 4, candidateGroupReport: [{ groupName: null, taskCount: 2 }],
    });
  });

  it('applies besides the caller\'s own tenant criteria, which cannot widen it', async () => {
    const asked = await asAlice(() => engine.runtime.findProcessInstances({ tenantIdIn: ['tenant-b'] }));
    const smuggled = await asAlice(() => engine.runtime.findProcessInstances({ authTenantIds: ['tenant-b'] } as never));

    expect(asked).toEqual([]);
    expect(tenantsOf(smuggled)).toEqual(['none', 'tenant-a']);
  });

  it('lets a worker fetch and lock only the external tasks of its tenants', async () => {
    const locked = await asAlice(() =>
      engine.externalTask.fetchAndLock({ workerId: 'w', maxTasks: 10, topics: [{ topicName: 'invoice', lockDuration: 60_000 }] }),
    );

    expect(tenantsOf(locked)).toEqual(['none', 'tenant-a']);
    await asAlice(() => engine.externalTask.unlock(locked[0].id));
    await asAlice(() => engine.externalTask.unlock(locked[1].id));
  });

  it('refuses commands on another tenant\'s entities with ENGINE-13034', async () => {
    const [otherTask] = await engine.task.findTasks({ tenantIdIn: ['tenant-b'] });
    const [otherExternal] = await engine.externalTask.findExternalTasks({ tenantIdIn: ['tenant-b'] });
    const refusals = await Promise.all([
      asAlice(() => engine.processDefinition.getProcessDefinition(definitions['tenant-b'])),
      asAlice(() => engine.runtime.startProcessInstanceById(definitions['tenant-b'])),
      asAlice(() => engine.runtime.getVariables(instances['tenant-b'])),
      asAlice(() => engine.runtime.deleteProcessInstance(instances['tenant-b'])),
      asAlice(() => engine.task.claim(otherTask.id, 'alice')),
      asAlice(() => engine.externalTask.setPriority(otherExternal.id, 5)),
    ].map((attempt) => attempt.then(() => null, (error: unknown) => error)));

    for (const refusal of refusals) expect(refusal).toBeInstanceOf(ProcessEngineException);
    expect(refusals.map((error) => (error as Error).message)).toEqual([
      `ENGINE-13034 Cannot get the process definition '${definitions['tenant-b']}' because it belongs to no authenticated tenant.`,
      `ENGINE-13034 Cannot create an instance of the process definition '${definitions['tenant-b']}' because it belongs to no authenticated tenant.`,
      `ENGINE-13034 Cannot read the process instance '${instances['tenant-b']}' because it belongs to no authenticated tenant.`,
      `ENGINE-13034 Cannot delete the process instance '${instances['tenant-b']}' because it belongs to no authenticated tenant.`,
      `ENGINE-13034 Cannot work on task '${otherTask.id}' because it belongs to no authenticated tenant.`,
      `ENGINE-13034 Cannot update the process instance '${instances['tenant-b']}' because it belongs to no authenticated tenant.`,
    ]);
    // Nothing changed: the instance still runs, the task has no assignee.
    expect(await engine.runtime.getProcessInstance(instances['tenant-b'])).not.toBeNull();
    expect((await engine.task.getTask(otherTask.id))!.assignee).toBeNull();
  });

  it('lets the caller work on what belongs to its tenant or to none', async () => {
    const started = await asAlice(() => engine.runtime.startProcessInstanceById(definitions['tenant-a']));
    await asAlice(() => engine.runtime.deleteProcessInstance(started.id));
    const definition = await asAlice(() => engine.processDefinition.getProcessDefinition(definitions.none));

    expect(definition.tenantId).toBeNull();
    expect(await engine.runtime.getProcessInstance(started.id)).toBeNull();
  });

  it('suspends by key only the instances of the caller\'s tenants, and refuses another tenant\'s definition by id', async () => {
    await asAlice(() => engine.runtime.updateSuspensionState({ processDefinitionKey: 'invoice' }, true));
    const byId = await asAlice(() => engine.runtime.updateSuspensionState({ processDefinitionId: definitions['tenant-b'] }, true)).catch((error: Error) => error);
    const suspended = await engine.runtime.findProcessInstances({ processDefinitionKey: 'invoice', suspended: true });
    await engine.runtime.updateSuspensionState({ processDefinitionKey: 'invoice' }, false);

    expect(tenantsOf(suspended)).toEqual(['none', 'tenant-a']);
    expect((byId as Error).message).toBe(`ENGINE-13034 Cannot update the process definition '${definitions['tenant-b']}' because it belongs to no authenticated tenant.`);
  });

  it('does not apply to administrators, to calls without authentication, nor when disabled', async () => {
    const unchecked = await createTestEngine({ store: testStore.config(`tenant-check-off-${testStore.name}`), tenantCheckEnabled: false });
    try {
      await unchecked.deployment.deploy({ tenantId: 'tenant-b', resources: [{ name: 'invoice.bpmn', bytes: Buffer.from(externalTaskProcessXml('invoice')) }] });
      const disabled = await unchecked.runAs(alice, () => unchecked.processDefinition.findProcessDefinitions());

      expect(tenantsOf(await engine.runAs(admin, () => engine.runtime.findProcessInstances()))).toEqual(['none', 'tenant-a', 'tenant-b']);
      expect(tenantsOf(await engine.runtime.findProcessInstances())).toEqual(['none', 'tenant-a', 'tenant-b']);
      expect(tenantsOf(disabled)).toEqual(['tenant-b']);
    } finally {
      await unchecked.close();
    }
  });
});
