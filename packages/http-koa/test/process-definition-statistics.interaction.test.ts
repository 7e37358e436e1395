import { simpleProcessXml } from '@trellis/core/testing';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const ACTIVITY_CLASS = 'org.camunda.bpm.engine.rest.dto.repository.ActivityStatisticsResultDto';
const DEFINITION_CLASS = 'org.camunda.bpm.engine.rest.dto.repository.ProcessDefinitionStatisticsResultDto';

function xml(key: string, body: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="definitions_${key}" targetNamespace="http://bpmn.io/schema/bpmn">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="30">
    ${body}
  </bpmn:process>
</bpmn:definitions>`;
}

/** Parallel user tasks review and approve; every instance waits at both. */
const TASKS_XML = xml('tasks', `
  <bpmn:startEvent id="start" />
  <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="fork" />
  <bpmn:parallelGateway id="fork" />
  <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="review" />
  <bpmn:sequenceFlow id="f3" sourceRef="fork" targetRef="sub" />
  <bpmn:userTask id="review" />
  <bpmn:subProcess id="sub">
    <bpmn:startEvent id="subStart" />
    <bpmn:sequenceFlow id="s1" sourceRef="subStart" targetRef="approve" />
    <bpmn:userTask id="approve" />
  </bpmn:subProcess>`);

/** A fork into a parallel multi-instance task and two tasks meeting at a join (the quick one done, its path waiting there). */
const SHAPES_XML = xml('shapes', `
  <bpmn:startEvent id="start" />
  <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="fork" />
  <bpmn:parallelGateway id="fork" />
  <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="each" />
  <bpmn:userTask id="each"><bpmn:multiInstanceLoopCharacteristics><bpmn:loopCardinality>3</bpmn:loopCardinality></bpmn:multiInstanceLoopCharacteristics></bpmn:userTask>
  <bpmn:sequenceFlow id="f3" sourceRef="fork" targetRef="quick" />
  <bpmn:sequenceFlow id="f4" sourceRef="fork" targetRef="slow" />
  <bpmn:userTask id="quick" />
  <bpmn:userTask id="slow" />
  <bpmn:sequenceFlow id="f5" sourceRef="quick" targetRef="join" />
  <bpmn:sequenceFlow id="f6" sourceRef="slow" targetRef="join" />
  <bpmn:parallelGateway id="join" />`);

/** An async service task whose class does not exist: its job fails until its retries run out. */
const FAILING_XML = xml('failing', `
  <bpmn:startEvent id="start" />
  <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="charge" />
  <bpmn:serviceTask id="charge" camunda:asyncBefore="true" camunda:class="com.example.Fails" />
  <bpmn:sequenceFlow id="f2" sourceRef="charge" targetRef="done" />
  <bpmn:userTask id="done" />`);

let rest: RestHarness;

async function deploy(bpmn: string, name: string) {
  const result = await rest.engine.deployment.deploy({ resources: [{ name, bytes: Buffer.from(bpmn) }] });
  return result.processDefinitions![0];
}

async function start(definitionId: string, times: number): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < times; i++) ids.push((await rest.engine.runtime.startProcessInstanceById(definitionId)).id);
  return ids;
}

/** tasks: 3 instances (one suspended); failing: 2 instances whose jobs failed three times; idle: none. */
async function scenario(headers: Record<string, string> = {}) {
  const tasks = await deploy(TASKS_XML, 'tasks.bpmn');
  const failing = await deploy(FAILING_XML, 'failing.bpmn');
  const idle = await deploy(simpleProcessXml('idle'), 'idle.bpmn');
  const taskInstances = await start(tasks.id, 3);
  await start(failing.id, 2);
  for (let i = 0; i < 3; i++) await rest.engine.jobExecutor.runDueJobs();
  const suspended = await rest.request('PUT', `/process-instance/${taskInstances[0]}/suspended`, { json: { suspended: true }, headers });
  expect(suspended.status).toBe(204);
  return { tasks, failing, idle, taskInstances };
}

describe('without authorization', () => {
  beforeEach(async () => {
    // The failing jobs log a warning each; keep the output quiet.
    rest = await startRestHarness({ logLevel: 'error' });
  });
  afterEach(async () => rest.close());

  describe('GET …/statistics (per activity)', () => {
    it('counts the running activity instances per activity in all three addressing forms', async () => {
      const { tasks } = await scenario();

      const byId = await rest.request('GET', `/process-definition/${tasks.id}/statistics`);
      const byKey = await rest.request('GET', '/process-definition/key/tasks/statistics');

      expect(byId.status).toBe(200);
      expect(byId.body).toEqual([
        { '@class': ACTIVITY_CLASS, id: 'approve', instances: 3, failedJobs: 0, incidents: [] },
        { '@class': ACTIVITY_CLASS, id: 'review', instances: 3, failedJobs: 0, incidents: [] },
      ]);
      expect(byKey.body).toEqual(byId.body);
    });

    it('counts where instances run or wait, as Camunda counts active executions: no scopes around them, no path waiting at a join', async () => {
      const deployed = await rest.engine.deployment.deploy({ resources: [{ name: 'shapes.bpmn', bytes: Buffer.from(SHAPES_XML) }] });
      const definition = deployed.processDefinitions![0];
      await rest.request('POST', `/process-definition/${definition.id}/start`, { json: {} });
      const [quick] = await rest.engine.task.findTasks({ taskDefinitionKey: 'quick' });
      await rest.engine.task.complete(quick.id);

      const response = await rest.request('GET', `/process-definition/${definition.id}/statistics`);

      // Camunda's ActivityStatisticsQueryTest: a multi-instance task counts its instances, not its body.
      expect(response.body.map((row: { id: string; instances: number }) => [row.id, row.instances])).toEqual([['each', 3], ['slow', 1]]);
    });

    it('counts failed jobs and incidents only when asked, incidents by type', async () => {
      const { failing } = await scenario();

      const plain = await rest.request('GET', `/process-definition/${failing.id}/statistics`);
      const full = await rest.request('GET', `/process-definition/${failing.id}/statistics`, { query: { failedJobs: true, incidents: true } });
      const ofType = await rest.request('GET', '/process-definition/key/failing/statistics', { query: { incidentsForType: 'failedJob' } });
      const otherType = await rest.request('GET', '/process-definition/key/failing/statistics', { query: { incidentsForType: 'failedExternalTask' } });

      // The instances wait before charge for their failed async continuation (transition instances).
      expect(plain.body).toEqual([{ '@class': ACTIVITY_CLASS, id: 'charge', instances: 2, failedJobs: 0, incidents: [] }]);
      expect(full.body).toEqual([
        { '@class': ACTIVITY_CLASS, id: 'charge', instances: 2, failedJobs: 2, incidents: [{ incidentType: 'failedJob', incidentCount: 2 }] },
      ]);
      expect(ofType.body[0].incidents).toEqual([{ incidentType: 'failedJob', incidentCount: 2 }]);
      expect(ofType.body[0].failedJobs).toBe(0);
      expect(otherType.body[0].incidents).toEqual([]);
    });

    it('is empty for a definition without instances, 404 for an unknown key', async () => {
      const { idle } = await scenario();

      const empty = await rest.request('GET', `/process-definition/${idle.id}/statistics`);
      const byTenant = await rest.request('GET', '/process-definition/key/tasks/tenant-id/acme/statistics');

      expect(empty.body).toEqual([]);
      expect(byTenant.status).toBe(404);
      expect(byTenant.body.message).toBe('No matching process definition with key: tasks and tenant-id: acme');
    });

    it('reaches the tenant form', async () => {
      const result = await rest.engine.deployment.deploy({ tenantId: 'acme', resources: [{ name: 'tasks.bpmn', bytes: Buffer.from(TASKS_XML) }] });
      await start(result.processDefinitions![0].id, 1);

      const response = await rest.request('GET', '/process-definition/key/tasks/tenant-id/acme/statistics');

      expect(response.body.map((row: { id: string; instances: number }) => [row.id, row.instances])).toEqual([['approve', 1], ['review', 1]]);
    });

    it('refuses incidents together with incidentsForType', async () => {
      const { tasks } = await scenario();

      const response = await rest.request('GET', `/process-definition/${tasks.id}/statistics`, { query: { incidents: false, incidentsForType: 'failedJob' } });

      expect(response.status).toBe(400);
      expect(response.body).toEqual({
        type: 'InvalidRequestException',
        message: 'Only one of the query parameter includeIncidents or includeIncidentsForType can be set.',
        code: null,
      });
      // An unknown key is looked for first.
      const unknownKey = await rest.request('GET', '/process-definition/key/nope/statistics', { query: { incidents: false, incidentsForType: 'failedJob' } });
      expect([unknownKey.status, unknownKey.body.message]).toEqual([404, 'No matching process definition with key: nope and no tenant-id']);
    });
  });

  describe('GET /process-definition/statistics (per definition)', () => {
    it('lists every definition with its running instances, suspended ones included', async () => {
      const { tasks, failing, idle } = await scenario();

      const response = await rest.request('GET', '/process-definition/statistics');

      expect(response.status).toBe(200);
      const expected = [
        { definition: tasks, instances: 3 },
        { definition: failing, instances: 2 },
        { definition: idle, instances: 0 },
      ].sort((a, b) => a.definition.id.localeCompare(b.definition.id));
      expect(response.body.map((row: { id: string }) => row.id)).toEqual(expected.map((row) => row.definition.id));
      const failingRow = response.body.find((row: { id: string }) => row.id === failing.id);
      expect(failingRow).toEqual({
        '@class': DEFINITION_CLASS,
        id: failing.id,
        instances: 2,
        failedJobs: 0,
        incidents: [],
        definition: (await rest.request('GET', `/process-definition/${failing.id}`)).body,
      });
      for (const { definition, instances } of expected) {
        expect(response.body.find((row: { id: string }) => row.id === definition.id).instances).toBe(instances);
      }
    });

    it('adds failed jobs and incidents (all, root only or of one type) on request', async () => {
      const { tasks, failing } = await scenario();

      const full = await rest.request('GET', '/process-definition/statistics', { query: { failedJobs: 'true', incidents: 'true' } });
      const root = await rest.request('GET', '/process-definition/statistics', { query: { rootIncidents: true } });
      const ofType = await rest.request('GET', '/process-definition/statistics', { query: { incidentsForType: 'failedExternalTask' } });

      const row = (response: typeof full, id: string) => response.body.find((entry: { id: string }) => entry.id === id);
      expect(row(full, failing.id)).toMatchObject({ failedJobs: 2, incidents: [{ incidentType: 'failedJob', incidentCount: 2 }] });
      expect(row(full, tasks.id)).toMatchObject({ failedJobs: 0, incidents: [] });
      expect(row(root, failing.id)).toMatchObject({ failedJobs: 0, incidents: [{ incidentType: 'failedJob', incidentCount: 2 }] });
      expect(row(ofType, failing.id).incidents).toEqual([]);
    });

    it.each([
      [{ incidents: true, incidentsForType: 'failedJob' }, 'Only one of the query parameter includeIncidents or includeIncidentsForType can be set.'],
      [{ incidents: true, rootIncidents: true }, 'Only one of the query parameter includeIncidents or includeRootIncidents can be set.'],
      [{ rootIncidents: true, incidentsForType: 'failedJob' }, 'Only one of the query parameter includeRootIncidents or includeIncidentsForType can be set.'],
    ])('refuses %o with 400', async (query, message) => {
      const response = await rest.request('GET', '/process-definition/statistics', { query });

      expect(response.status).toBe(400);
      expect(response.body).toEqual({ type: 'InvalidRequestException', message, code: null });
    });

    it('is served under /engine/{name} too, and is not mistaken for a definition id', async () => {
      await scenario();

      const named = await rest.request('GET', '/engine/default/process-definition/statistics');

      expect(named.status).toBe(200);
      expect(named.body).toHaveLength(3);
    });
  });
});

describe('with authorization', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true }, logLevel: 'error' }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
  });
  afterEach(async () => rest.close());

  const grant = (resourceType: number, resourceId: string, permissions: string[]) =>
    rest.request('POST', '/authorization/create', { json: { type: 1, userId: 'jonny', resourceType, resourceId, permissions }, headers: admin });

  it('lists readable definitions with all their instances, and counts per activity only readable instances', async () => {
    const { taskInstances, tasks } = await rest.engine.runAs({ userId: 'admin', groupIds: ['camunda-admin'], tenantIds: [] }, () => scenario(admin));

    const nothing = await rest.request('GET', '/process-definition/statistics', { headers: jonny });
    await grant(6, 'tasks', ['READ']);
    const definitionOnly = await rest.request('GET', '/process-definition/statistics', { headers: jonny });
    const activitiesWithoutInstances = await rest.request('GET', `/process-definition/${tasks.id}/statistics`, { headers: jonny });
    await grant(8, taskInstances[1]!, ['READ']);
    const oneInstance = await rest.request('GET', '/process-definition/statistics', { headers: jonny });
    const oneInstanceActivities = await rest.request('GET', `/process-definition/${tasks.id}/statistics`, { headers: jonny });
    await grant(6, 'tasks', ['READ', 'READ_INSTANCE']);
    const allInstances = await rest.request('GET', '/process-definition/statistics', { headers: jonny });
    const hiddenDefinition = await rest.request('GET', '/process-definition/key/failing/statistics', { headers: jonny });
    const failing = await rest.engine.runAs({ userId: 'admin', groupIds: ['camunda-admin'], tenantIds: [] }, async () => (await rest.engine.processDefinition.findProcessDefinitions({ key: 'failing' }))[0]);
    const deniedActivities = await rest.request('GET', `/process-definition/${failing.id}/statistics`, { headers: jonny });
    const unknownActivities = await rest.request('GET', '/process-definition/nope/statistics', { headers: jonny });

    expect(nothing.body).toEqual([]);
    // Camunda's definition statistics check READ on the definition only (Statistics.xml counts every instance).
    expect(definitionOnly.body.map((row: { id: string; instances: number }) => [row.id, row.instances])).toEqual([[tasks.id, 3]]);
    expect(activitiesWithoutInstances.body).toEqual([]);
    expect(oneInstance.body[0].instances).toBe(3);
    expect(oneInstanceActivities.body.map((row: { id: string; instances: number }) => [row.id, row.instances])).toEqual([['approve', 1], ['review', 1]]);
    expect(allInstances.body[0].instances).toBe(3);
    expect(hiddenDefinition.status).toBe(404);
    // Activity statistics of a definition the caller may not read: Camunda's checkReadProcessDefinition.
    expect(deniedActivities.status).toBe(403);
    expect(deniedActivities.body.missingAuthorizations).toEqual([{ permissionName: 'READ', resourceName: 'ProcessDefinition', resourceId: 'failing' }]);
    expect(unknownActivities.status).toBe(500);
    expect(unknownActivities.body.message).toBe("no deployed process definition found with id 'nope': processDefinition is null");
  });

  it('needs READ on the definition for forms and the start permissions for submit-form', async () => {
    const definition = await rest.engine.runAs({ userId: 'admin', groupIds: ['camunda-admin'], tenantIds: [] }, () => deploy(simpleProcessXml('plain'), 'plain.bpmn'));

    const deniedForm = await rest.request('GET', `/process-definition/${definition.id}/startForm`, { headers: jonny });
    const deniedDeployed = await rest.request('GET', `/process-definition/${definition.id}/deployed-start-form`, { headers: jonny });
    const deniedSubmit = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: {}, headers: jonny });
    await grant(6, 'plain', ['READ', 'CREATE_INSTANCE']);
    await grant(8, '*', ['CREATE']);
    const form = await rest.request('GET', `/process-definition/${definition.id}/startForm`, { headers: jonny });
    const submitted = await rest.request('POST', `/process-definition/${definition.id}/submit-form`, { json: {}, headers: jonny });

    expect(deniedForm.status).toBe(403);
    expect(deniedForm.body.type).toBe('AuthorizationException');
    expect(deniedDeployed.status).toBe(403);
    expect(deniedDeployed.body.type).toBe('InvalidRequestException');
    expect(deniedSubmit.status).toBe(403);
    expect(deniedSubmit.body.missingAuthorizations[0]).toMatchObject({ permissionName: 'CREATE', resourceName: 'ProcessInstance' });
    expect(form.body).toEqual({ key: null, camundaFormRef: null, contextPath: null });
    expect(submitted.status).toBe(200);
  });
});
