import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import type { HistoryLevel } from '../../src/history/history-level.js';
import type { FixedClock } from '../../src/clock.js';
import { createTestEngine, grantMore, testStoreConfigs } from '../../src/testing/index.js';

const engines: ProcessEngine[] = [];
afterEach(async () => {
  await Promise.all(engines.splice(0).map((engine) => engine.close()));
});

const model = (key: string, body: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5">${body}</bpmn:process>
</bpmn:definitions>`;
const waiting = model(
  'waiting',
  `<bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="task" />
   <bpmn:userTask id="task" /><bpmn:sequenceFlow id="f2" sourceRef="task" targetRef="end" /><bpmn:endEvent id="end" />`,
);
const asyncStart = model(
  'asyncStart',
  `<bpmn:startEvent id="start" camunda:asyncBefore="true" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="end" /><bpmn:endEvent id="end" />`,
);

const external = model(
  'external',
  `<bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
   <bpmn:serviceTask id="work" camunda:type="external" camunda:topic="work" /><bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end" /><bpmn:endEvent id="end" />`,
);

const demo = { userId: 'demo', groupIds: [], tenantIds: [] };

describe.each(testStoreConfigs())('user operation log on $name', (testStore) => {
  async function setup(options: { historyLevel?: HistoryLevel; authorization?: boolean } = {}) {
    const engine = await createTestEngine({
      store: testStore.config(expect.getState().currentTestName!),
      historyLevel: options.historyLevel,
      authorization: options.authorization ? { enabled: true } : undefined,
    });
    engines.push(engine);
    const deploy = (xml: string) => engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(xml) }] });
    const { processDefinitions } = await deploy(waiting);
    const as = <T>(work: () => Promise<T>) => engine.runAs(demo, work);
    return { engine: engine as ProcessEngine & { clock: FixedClock }, definition: processDefinitions![0], deploy, as };
  }

  it('logs only what an authenticated user does, and only at level full', async () => {
    const { engine, definition, as } = await setup();
    const first = await engine.runtime.startProcessInstanceById(definition.id);
    await engine.runtime.updateSuspensionState({ processInstanceIds: [first.id] }, true);
    expect(await engine.history.userOperations.count()).toBe(0);

    await as(() => engine.runtime.updateSuspensionState({ processInstanceIds: [first.id] }, false));

    const entries = await engine.history.userOperations.find();
    expect(entries).toEqual([
      expect.objectContaining({
        operationType: 'Activate',
        entityType: 'ProcessInstance',
        category: 'Operator',
        userId: 'demo',
        processInstanceId: first.id,
        rootProcessInstanceId: first.id,
        processDefinitionId: definition.id,
        processDefinitionKey: 'waiting',
        deploymentId: definition.deploymentId,
        property: 'suspensionState',
        orgValue: null,
        newValue: 'active',
        timestamp: engine.clock.now(),
        annotation: null,
        removalTime: null,
      }),
    ]);

    const audit = await setup({ historyLevel: 'audit' });
    const instance = await audit.engine.runtime.startProcessInstanceById(audit.definition.id);
    await audit.as(() => audit.engine.runtime.updateSuspensionState({ processInstanceIds: [instance.id] }, true));
    expect(await audit.engine.history.userOperations.count()).toBe(0);
  });

  it('writes one entry per changed property, all with one operation id', async () => {
    const { engine, definition, as } = await setup();

    await as(() => engine.processDefinition.updateSuspensionState({ processDefinitionId: definition.id }, { suspended: true, includeProcessInstances: true }));

    const entries = await engine.history.userOperations.find({ operationType: 'SuspendProcessDefinition' });
    expect(entries.map(({ property, newValue, entityType }) => ({ property, newValue, entityType }))).toEqual([
      { property: 'suspensionState', newValue: 'suspended', entityType: 'ProcessDefinition' },
      { property: 'includeProcessInstances', newValue: 'true', entityType: 'ProcessDefinition' },
    ]);
    expect(new Set(entries.map((entry) => entry.operationId)).size).toBe(1);
    expect(entries[0].id).not.toBe(entries[1].id);
    expect(entries[0]).toMatchObject({ processDefinitionId: definition.id, processDefinitionKey: 'waiting', processInstanceId: null });
  });

  it('logs a synchronous migration on the source definition', async () => {
    const { engine, definition, deploy, as } = await setup();
    const v2 = (await deploy(waiting.replace('id="end"', 'id="end2"').replace('targetRef="end"', 'targetRef="end2"'))).processDefinitions![0];
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    await as(() =>
      engine.migration.execute(
        { sourceProcessDefinitionId: definition.id, targetProcessDefinitionId: v2.id, instructions: [{ sourceActivityId: 'task', targetActivityId: 'task' }] },
        { processInstanceIds: [instance.id] },
      ),
    );

    const entries = await engine.history.userOperations.find({ operationType: 'Migrate' });
    expect(entries.map(({ property, orgValue, newValue }) => ({ property, orgValue, newValue }))).toEqual([
      { property: 'processDefinitionId', orgValue: definition.id, newValue: v2.id },
      { property: 'nrOfInstances', orgValue: null, newValue: '1' },
      { property: 'async', orgValue: null, newValue: 'false' },
    ]);
    expect(entries[0]).toMatchObject({ entityType: 'ProcessInstance', category: 'Operator', processDefinitionId: definition.id, processInstanceId: null });
  });

  it('logs deleting an instance; deleting its history keeps its entries (Camunda removes them by removal time only)', async () => {
    const { engine, definition, as } = await setup();
    const instance = await engine.runtime.startProcessInstanceById(definition.id);

    await as(() => engine.runtime.deleteProcessInstance(instance.id, { reason: 'wrong order' }));

    const [deleted] = await engine.history.userOperations.find({ processInstanceId: instance.id });
    expect(deleted).toMatchObject({ operationType: 'Delete', entityType: 'ProcessInstance', processDefinitionId: definition.id, property: null });

    await as(() => engine.history.deleteHistoricProcessInstance(instance.id));
    expect(await engine.history.userOperations.count({ processInstanceId: instance.id })).toBe(1);
    expect(await engine.history.userOperations.find({ operationType: 'DeleteHistory' })).toEqual([
      expect.objectContaining({ entityType: 'ProcessInstance', processInstanceId: null, property: 'nrOfInstances', newValue: '1' }),
      expect.objectContaining({ property: 'async', newValue: 'false' }),
    ]);
  });

  it('logs job retries with the old and new value, and deployments', async () => {
    const { engine, deploy, as } = await setup();
    const deployment = await as(() => deploy(asyncStart));
    await engine.runtime.startProcessInstanceById(deployment.processDefinitions![0].id);
    const [job] = await engine.management.findJobs({});

    await as(() => engine.management.setJobRetries(job.id, 5));

    expect(await engine.history.userOperations.find({ jobId: job.id })).toEqual([
      expect.objectContaining({ operationType: 'SetJobRetries', entityType: 'Job', property: 'retries', orgValue: '3', newValue: '5', processInstanceId: job.processInstanceId }),
    ]);
    expect(await engine.history.userOperations.find({ entityType: 'Deployment' })).toEqual([
      expect.objectContaining({ operationType: 'Create', deploymentId: deployment.deployment.id, property: 'duplicateFilterEnabled', newValue: 'false' }),
    ]);
  });

  it('annotates every entry of an operation and logs that, or refuses an unknown operation', async () => {
    const { engine, definition, as } = await setup();
    await as(() => engine.processDefinition.updateSuspensionState({ processDefinitionId: definition.id }, { suspended: true }));
    const [{ operationId }] = await engine.history.userOperations.find();

    await as(() => engine.history.userOperations.setAnnotation(operationId, 'planned downtime'));

    expect((await engine.history.userOperations.find({ operationId })).map((entry) => entry.annotation)).toEqual(['planned downtime', 'planned downtime']);
    expect(await engine.history.userOperations.find({ operationType: 'SetAnnotation' })).toEqual([
      expect.objectContaining({ entityType: 'OperationLog', category: 'Operator', property: 'operationId', newValue: operationId, userId: 'demo' }),
    ]);

    await as(() => engine.history.userOperations.clearAnnotation(operationId));
    expect((await engine.history.userOperations.find({ operationId })).map((entry) => entry.annotation)).toEqual([null, null]);
    expect(await engine.history.userOperations.count({ operationType: 'ClearAnnotation', entityType: 'OperationLog' })).toBe(1);

    await expect(engine.history.userOperations.setAnnotation('nope', 'x')).rejects.toMatchObject({ name: 'BadUserRequestException', message: 'operation is null' });
    await expect(engine.history.userOperations.setAnnotation(null, 'x')).rejects.toMatchObject({ name: 'NotValidException', message: 'operation id is null' });
  });

  it('filters, sorts and pages like Camunda’s query', async () => {
    const { engine, definition, as } = await setup();
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    await as(() => engine.runtime.updateSuspensionState({ processInstanceIds: [instance.id] }, true));
    engine.clock.advance(60_000);
    await as(() => engine.runtime.updateSuspensionState({ processInstanceIds: [instance.id] }, false));
    const middle = new Date(engine.clock.now().getTime() - 30_000);

    expect((await engine.history.userOperations.find({ sorting: [{ sortBy: 'timestamp', sortOrder: 'desc' }] })).map((e) => e.operationType)).toEqual(['Activate', 'Suspend']);
    expect((await engine.history.userOperations.find({ afterTimestamp: middle })).map((e) => e.operationType)).toEqual(['Activate']);
    expect((await engine.history.userOperations.find({ beforeTimestamp: middle })).map((e) => e.operationType)).toEqual(['Suspend']);
    expect((await engine.history.userOperations.find({ firstResult: 1, maxResults: 5 })).map((e) => e.operationType)).toEqual(['Activate']);
    expect(await engine.history.userOperations.count({ entityTypeIn: ['Job', 'ProcessInstance'], categoryIn: ['Operator'] })).toBe(2);
    expect(await engine.history.userOperations.count({ entityTypeIn: [] })).toBe(0);
    expect(await engine.history.userOperations.count({ category: 'TaskWorker' })).toBe(0);
    expect(await engine.history.userOperations.count({ userId: 'demo', property: 'suspensionState', processDefinitionKey: 'waiting' })).toBe(2);
  });

  it('shows entries by READ_HISTORY on the definition or READ on the category; annotating needs UPDATE', async () => {
    const { engine, definition } = await setup({ authorization: true });
    // An administrator holds ALL through camunda-admin's grants.
    await engine.identity.setUpAdministrator('root', 'secret');
    const admin = { userId: 'root', groupIds: ['camunda-admin'], tenantIds: [] };
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    await engine.runAs(admin, () => engine.runtime.updateSuspensionState({ processInstanceIds: [instance.id] }, true));
    const grant = (userId: string, resourceType: number, resourceId: string, permissions: string[]) =>
      engine.runAs(admin, () => grantMore(engine, { userId }, resourceType, resourceId, permissions));
    const asUser = <T>(userId: string, work: () => Promise<T>) => engine.runAs({ userId, groupIds: [], tenantIds: [] }, work);

    expect(await asUser('mia', () => engine.history.userOperations.count())).toBe(0);
    await grant('mia', 17, 'Operator', ['READ']);
    await grant('max', 6, 'waiting', ['READ_HISTORY']);
    expect(await asUser('mia', () => engine.history.userOperations.count())).toBe(1);
    expect(await asUser('max', () => engine.history.userOperations.count())).toBe(1);

    const [{ operationId }] = await engine.history.userOperations.find();
    await expect(asUser('mia', () => engine.history.userOperations.setAnnotation(operationId, 'x'))).rejects.toMatchObject({
      name: 'AuthorizationException',
      missingAuthorizations: [
        { permissionName: 'UPDATE_HISTORY', resourceName: 'ProcessDefinition', resourceId: 'waiting' },
        { permissionName: 'UPDATE', resourceName: 'OperationLogCatgeory', resourceId: 'Operator' },
      ],
    });
    await grant('mia', 17, 'Operator', ['UPDATE']);
    await asUser('mia', () => engine.history.userOperations.setAnnotation(operationId, 'x'));
    expect((await engine.history.userOperations.find({ operationId }))[0].annotation).toBe('x');
  });

  it('logs task work by the task worker category, one entry per changed property', async () => {
    const { engine, definition, as } = await setup();
    const instance = await as(() => engine.runtime.startProcessInstanceById(definition.id));
    const [task] = await engine.task.findTasks({ processInstanceId: instance.id });

    await as(() => engine.task.claim(task.id, 'demo'));
    await as(() => engine.task.delegateTask(task.id, 'mary'));
    await as(() => engine.task.resolveTask(task.id));
    await as(() => engine.task.setAssignee(task.id, 'demo'));
    await as(() => engine.task.addGroupIdentityLink(task.id, 'sales', 'candidate'));
    await as(() => engine.task.complete(task.id));

    const entries = await engine.history.userOperations.find({ taskId: task.id });
    expect(entries.map(({ operationType, property, orgValue, newValue }) => [operationType, property, orgValue, newValue])).toEqual([
      ['Claim', 'assignee', null, 'demo'],
      ['Delegate', 'delegation', null, 'PENDING'],
      ['Delegate', 'owner', null, 'demo'],
      ['Delegate', 'assignee', 'demo', 'mary'],
      ['Resolve', 'delegation', 'PENDING', 'RESOLVED'],
      ['Resolve', 'assignee', 'mary', 'demo'],
      ['AddGroupLink', 'candidate', null, 'sales'],
      ['Complete', 'delete', 'false', 'true'],
    ]);
    expect(entries.every((entry) => entry.category === 'TaskWorker' && entry.processInstanceId === instance.id)).toBe(true);
    expect(entries.map((entry) => entry.entityType)).toEqual([...Array(6).fill('Task'), 'IdentityLink', 'Task']);
    expect(await engine.history.userOperations.find({ processInstanceId: instance.id, entityType: 'ProcessInstance' })).toEqual([
      expect.objectContaining({ operationType: 'Create', property: null, processDefinitionId: definition.id }),
    ]);
  });

  it('logs variable changes, external task retries, job and job definition suspension and incident annotations', async () => {
    const { engine, definition, deploy, as } = await setup();
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const externalDefinition = (await deploy(external)).processDefinitions![0];
    const externalInstance = await engine.runtime.startProcessInstanceById(externalDefinition.id);
    const [externalTask] = await engine.externalTask.findExternalTasks({ processInstanceId: externalInstance.id });
    const incident = await engine.execution.createIncident(externalTask.executionId, 'custom', null, 'look');
    const value = { type: 'string' as const, value: 'x', valueInfo: {} };

    await as(() => engine.runtime.modifyVariables(instance.id, { a: value }));
    await as(() => engine.runtime.modifyVariables(instance.id, {}, ['a']));
    await as(() => engine.externalTask.setRetries(externalTask.id, 4));
    await as(() => engine.management.setIncidentAnnotation(incident.id, 'noted'));
    await as(() => engine.management.updateJobSuspensionState({ processDefinitionId: definition.id }, true));
    await as(() => engine.jobDefinition.updateSuspensionState({ processDefinitionKey: 'waiting' }, { suspended: true }));

    const summary = (await engine.history.userOperations.find()).map(({ operationType, entityType, category, property, newValue }) => [operationType, entityType, category, property, newValue]);
    expect(summary).toEqual([
      ['SetVariable', 'Variable', 'Operator', null, null],
      ['RemoveVariable', 'Variable', 'Operator', null, null],
      ['SetExternalTaskRetries', 'ExternalTask', 'Operator', 'retries', '4'],
      ['SetAnnotation', 'Incident', 'Operator', 'incidentId', incident.id],
      ['SuspendJob', 'Job', 'Operator', 'suspensionState', 'suspended'],
      ['SuspendJobDefinition', 'JobDefinition', 'Operator', 'suspensionState', 'suspended'],
    ]);
    expect(await engine.history.userOperations.find({ externalTaskId: externalTask.id })).toEqual([
      expect.objectContaining({ processInstanceId: externalInstance.id, processDefinitionKey: 'external', orgValue: null }),
    ]);
  });

  it('logs custom incidents, external task unlock and priority, and job definition priority', async () => {
    const { engine, deploy, as } = await setup();
    const externalDefinition = (await deploy(external)).processDefinitions![0];
    const externalInstance = await engine.runtime.startProcessInstanceById(externalDefinition.id);
    const [externalTask] = await engine.externalTask.findExternalTasks({ processInstanceId: externalInstance.id });
    const asyncDefinition = (await deploy(asyncStart)).processDefinitions![0];
    const [jobDefinition] = await engine.jobDefinition.findJobDefinitions({ processDefinitionId: asyncDefinition.id });

    await as(() => engine.execution.createIncident(externalTask.executionId, 'custom', 'conf', 'look'));
    await as(() => engine.externalTask.unlock(externalTask.id));
    await as(() => engine.externalTask.setPriority(externalTask.id, 7));
    await as(() => engine.jobDefinition.setOverridingJobPriority(jobDefinition!.id, 12));

    const summary = (await engine.history.userOperations.find()).map(({ operationType, entityType, property, orgValue, newValue }) => [operationType, entityType, property, orgValue, newValue]);
    expect(summary).toEqual([
      ['CreateIncident', 'ProcessInstance', 'incidentType', null, 'custom'],
      ['CreateIncident', 'ProcessInstance', 'configuration', null, 'conf'],
      ['Unlock', 'ExternalTask', null, null, null],
      ['SetPriority', 'ExternalTask', 'priority', '0', '7'],
      ['SetPriority', 'JobDefinition', 'overridingPriority', null, '12'],
    ]);
    const [incidentEntry] = await engine.history.userOperations.find({ operationType: 'CreateIncident' });
    expect(incidentEntry).toMatchObject({ processInstanceId: externalInstance.id, processDefinitionKey: 'external', category: 'Operator' });
    expect((await engine.history.userOperations.find({ entityType: 'JobDefinition' }))[0]).toMatchObject({ jobDefinitionId: jobDefinition!.id, processDefinitionKey: 'asyncStart' });
  });

  it('logs a batch operation once at its creation, not in its jobs', async () => {
    const { engine, definition, as } = await setup();
    const instances = [await engine.runtime.startProcessInstanceById(definition.id), await engine.runtime.startProcessInstanceById(definition.id)];

    const batch = await as(() => engine.instanceBatches.deleteProcessInstancesAsync({ processInstanceIds: instances.map((each) => each.id) }, { deleteReason: 'cleanup' }));
    for (let round = 0; round < 3; round++) {
      for (const job of await engine.management.findJobs({})) await as(() => engine.management.executeJob(job.id)).catch(() => undefined);
    }

    expect(await engine.runtime.findProcessInstances({})).toEqual([]);
    const entries = await engine.history.userOperations.find();
    expect(entries.map(({ operationType, entityType, property, newValue }) => [operationType, entityType, property, newValue])).toEqual([
      ['Delete', 'ProcessInstance', 'nrOfInstances', '2'],
      ['Delete', 'ProcessInstance', 'async', 'true'],
      ['Delete', 'ProcessInstance', 'deleteReason', 'cleanup'],
    ]);
    expect(batch.type).toBe('instance-deletion');
  });

  it('logs job due date, priority and deletion; a cascading definition delete keeps its instances’ entries', async () => {
    const { engine, deploy, as } = await setup();
    const definition = (await deploy(asyncStart)).processDefinitions![0];
    const instance = await engine.runtime.startProcessInstanceById(definition.id);
    const [job] = await engine.management.findJobs({ processInstanceId: instance.id });
    const due = new Date('2026-02-01T00:00:00.000Z');

    await as(() => engine.management.setJobDuedate(job.id, due));
    await as(() => engine.management.setJobPriority(job.id, 7));
    await as(() => engine.management.deleteJob(job.id));

    expect((await engine.history.userOperations.find({ jobId: job.id })).map(({ operationType, property, orgValue, newValue }) => [operationType, property, orgValue, newValue])).toEqual([
      ['SetDueDate', 'duedate', job.dueDate ? String(job.dueDate.getTime()) : null, String(due.getTime())],
      ['SetPriority', 'priority', String(job.priority), '7'],
      ['Delete', null, null, null],
    ]);

    await as(() => engine.processDefinition.deleteProcessDefinition(definition.id, { cascade: true }));

    expect((await engine.history.userOperations.find()).map(({ operationType, entityType, property, newValue }) => [operationType, entityType, property, newValue])).toEqual([
      ['SetDueDate', 'Job', 'duedate', String(due.getTime())],
      ['SetPriority', 'Job', 'priority', '7'],
      ['Delete', 'Job', null, null],
      ['Delete', 'ProcessDefinition', 'cascade', 'true'],
    ]);
  });

  it('gives an instance’s entries the removal time of its history', async () => {
    const DAY = 86_400_000;
    const started = await createTestEngine({ store: testStore.config(`${expect.getState().currentTestName!}-start`), historyCleanup: { removalTimeStrategy: 'start' } });
    const ended = await createTestEngine({ store: testStore.config(`${expect.getState().currentTestName!}-end`) });
    engines.push(started, ended);
    for (const engine of [started, ended]) {
      const definition = (await engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(waiting) }] })).processDefinitions![0];
      const instance = await engine.runtime.startProcessInstanceById(definition.id);
      await engine.runAs(demo, () => engine.runtime.updateSuspensionState({ processInstanceIds: [instance.id] }, true));
      await engine.runAs(demo, () => engine.runtime.updateSuspensionState({ processInstanceIds: [instance.id] }, false));
    }
    const start = started.clock.now().getTime();
    expect((await started.history.userOperations.find()).map((entry) => entry.removalTime)).toEqual([new Date(start + 5 * DAY), new Date(start + 5 * DAY)]);

    expect((await ended.history.userOperations.find()).map((entry) => entry.removalTime)).toEqual([null, null]);
    ended.clock.advance(60_000);
    const [task] = await ended.task.findTasks({});
    await ended.task.complete(task.id);
    const end = ended.clock.now().getTime();
    expect((await ended.history.userOperations.find()).map((entry) => entry.removalTime)).toEqual([new Date(end + 5 * DAY), new Date(end + 5 * DAY)]);
  });

  it('logs identity and authorization changes in the Admin category', async () => {
    const { engine, as } = await setup();

    await as(() => engine.identity.createUser({ id: 'mary', firstName: 'Mary', lastName: 'Major', email: null }, 'secret'));
    await as(() => engine.identity.createGroup({ id: 'sales', name: 'Sales', type: 'WORKFLOW' }));
    await as(() => engine.identity.createMembership('mary', 'sales'));
    const authorization = await as(() => engine.authorization.createAuthorization({ type: 1, userId: 'mary', resourceType: 6, resourceId: 'waiting', permissions: ['READ', 'READ_HISTORY'] }));
    await as(() => engine.authorization.deleteAuthorization(authorization.id));
    await as(() => engine.identity.deleteMembership('mary', 'sales'));

    const entries = await engine.history.userOperations.find({ category: 'Admin' });
    expect(entries.map(({ operationType, entityType, property, orgValue, newValue }) => [operationType, entityType, property, orgValue, newValue])).toEqual([
      ['Create', 'User', 'userId', null, 'mary'],
      ['Create', 'Group', 'groupId', null, 'sales'],
      ['Create', 'GroupMembership', 'userId', null, 'mary'],
      ['Create', 'GroupMembership', 'groupId', null, 'sales'],
      ['Create', 'Authorization', 'permissionBits', null, String(authorization.permissions)],
      ['Create', 'Authorization', 'permissions', null, 'READ, READ_HISTORY'],
      ['Create', 'Authorization', 'type', null, '1'],
      ['Create', 'Authorization', 'resource', null, 'ProcessDefinition'],
      ['Create', 'Authorization', 'resourceId', null, 'waiting'],
      ['Create', 'Authorization', 'userId', null, 'mary'],
      ...['permissionBits', 'permissions', 'type', 'resource', 'resourceId', 'userId'].map((property) => ['Delete', 'Authorization', property, null, expect.anything()]),
      ['Delete', 'GroupMembership', 'userId', null, 'mary'],
      ['Delete', 'GroupMembership', 'groupId', null, 'sales'],
    ]);
  });
});
