import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { INVOICE } from './support/invoice-model.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
let definitionId: string;

async function setUp(...options: Parameters<typeof startRestHarness>) {
  rest = await startRestHarness(...options);
  const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'invoice.bpmn', bytes: Buffer.from(INVOICE) }] });
  definitionId = processDefinitions![0].id;
}
afterEach(async () => rest.close());

const startInvoice = async (businessKey: string) => (await rest.engine.runtime.startProcessInstanceById(definitionId, { businessKey })).id;
/** The execution waiting in the external task `work`. */
const workExecution = async (processInstanceId: string) =>
  (await rest.engine.externalTask.findExternalTasks({ processInstanceId }))[0].executionId;
const createIncident = async (processInstanceId: string, incidentType: string, message: string, configuration: string | null = null) =>
  rest.engine.execution.createIncident(await workExecution(processInstanceId), incidentType, configuration, message);
const expectError = (response: { status: number; body: any }, status: number, type: string, message: string) => {
  expect({ status: response.status, type: response.body.type, message: response.body.message }).toEqual({ status, type, message });
};

describe('the Incident group', () => {
  beforeEach(async () => setUp());

  it('lists, filters, sorts, pages and counts incidents', async () => {
    const first = await startInvoice('a');
    const second = await startInvoice('b');
    const custom = await createIncident(first, 'custom', 'disk full', 'cfg-1');
    rest.engine.clock.advance(1000);
    const other = await createIncident(second, 'another', 'network down');
    const [task] = await rest.engine.externalTask.findExternalTasks({ processInstanceId: second });
    await rest.engine.externalTask.setRetries(task.id, 0);

    const all = await rest.request('GET', '/incident');
    const byType = await rest.request('GET', '/incident', { query: { incidentType: 'custom' } });
    const byInstance = await rest.request('GET', '/incident', { query: { processInstanceId: second, sortBy: 'incidentType', sortOrder: 'desc' } });
    const byMessage = await rest.request('GET', '/incident', { query: { incidentMessageLike: '%down' } });
    const byKey = await rest.request('GET', '/incident/count', { query: { processDefinitionKeyIn: 'invoice,other' } });
    // Camunda's DTO applies these lists only when they hold values: a blank List<String> holds none, a
    // blank String[] (processDefinitionKeyIn, split as Java does) the one key '', which no definition has.
    const emptyLists = await rest.request('GET', '/incident/count', { query: { tenantIdIn: '', jobDefinitionIdIn: '' } });
    const blankKey = await rest.request('GET', '/incident/count', { query: { processDefinitionKeyIn: '' } });
    const byConfiguration = await rest.request('GET', '/incident', { query: { configuration: task.id } });
    const byIds = await rest.request('GET', '/incident', { query: { incidentId: custom.id, activityId: 'work', processDefinitionId: definitionId } });
    // Only failed jobs (and the copies on callers) name a failed activity: not a custom incident, nor a failed external task.
    const byFailedActivity = await rest.request('GET', '/incident/count', { query: { failedActivityId: 'work' } });
    const byCause = await rest.request('GET', '/incident/count', { query: { causeIncidentId: other.id, rootCauseIncidentId: other.id } });
    const before = await rest.request('GET', '/incident', { query: { incidentTimestampBefore: '2100-01-01T00:00:00.000+0000', sortBy: 'incidentTimestamp', sortOrder: 'asc' } });
    const after = await rest.request('GET', '/incident/count', { query: { incidentTimestampAfter: '2100-01-01T00:00:00.000+0000' } });
    const paged = await rest.request('GET', '/incident', { query: { sortBy: 'incidentTimestamp', sortOrder: 'asc', firstResult: 1, maxResults: 1 } });
    const count = await rest.request('GET', '/incident/count', { query: { maxResults: 1 } });
    const badSort = await rest.request('GET', '/incident', { query: { sortBy: 'nope', sortOrder: 'asc' } });
    const badDate = await rest.request('GET', '/incident', { query: { incidentTimestampBefore: 'yesterday' } });

    expect(all.body).toHaveLength(3);
    expect(byType.body).toEqual([
      {
        id: custom.id,
        processDefinitionId: definitionId,
        processInstanceId: first,
        executionId: custom.executionId,
        incidentTimestamp: expect.any(String),
        incidentType: 'custom',
        activityId: 'work',
        failedActivityId: null,
        causeIncidentId: custom.id,
        rootCauseIncidentId: custom.id,
        configuration: 'cfg-1',
        tenantId: null,
        incidentMessage: 'disk full',
        jobDefinitionId: null,
        annotation: null,
      },
    ]);
    expect(byInstance.body.map((incident: any) => incident.incidentType)).toEqual(['failedExternalTask', 'another']);
    expect(byMessage.body.map((incident: any) => incident.id)).toEqual([other.id]);
    expect(byKey.body).toEqual({ count: 3 });
    expect(emptyLists.body).toEqual({ count: 3 });
    expect(blankKey.body).toEqual({ count: 0 });
    expect(byConfiguration.body.map((incident: any) => incident.incidentType)).toEqual(['failedExternalTask']);
    expect(byIds.body.map((incident: any) => incident.id)).toEqual([custom.id]);
    expect(byFailedActivity.body).toEqual({ count: 0 });
    expect(byCause.body).toEqual({ count: 1 });
    expect(before.body[0].id).toBe(custom.id);
    expect(after.body).toEqual({ count: 0 });
    expect(paged.body).toHaveLength(1);
    expect(paged.body[0].incidentTimestamp).not.toBe(before.body[0].incidentTimestamp);
    expect(count.body).toEqual({ count: 3 });
    expectError(badSort, 400, 'InvalidRequestException', "Cannot set query parameter 'sortBy' to value 'nope'");
    expect(badDate.status).toBe(400);
  });

  it('gets one incident, 404 for an unknown one', async () => {
    const instance = await startInvoice('a');
    const incident = await createIncident(instance, 'custom', 'm');

    const one = await rest.request('GET', `/incident/${incident.id}`);
    const missing = await rest.request('GET', '/incident/nope');

    expect(one.body).toMatchObject({ id: incident.id, incidentType: 'custom', incidentMessage: 'm' });
    expectError(missing, 404, 'InvalidRequestException', 'No matching incident with id nope');
  });

  it('resolves custom incidents only, every one of the same configuration, as Camunda', async () => {
    const instance = await startInvoice('a');
    const other = await startInvoice('b');
    const custom = await createIncident(instance, 'custom', 'm', 'cfg');
    const sameConfiguration = await createIncident(other, 'another', 'm', 'cfg');
    const otherConfiguration = await createIncident(other, 'custom', 'm', 'cfg-2');
    const withoutConfiguration = await createIncident(other, 'custom', 'm');
    const [task] = await rest.engine.externalTask.findExternalTasks({ processInstanceId: instance });
    await rest.engine.externalTask.setRetries(task.id, 0);
    const [failed] = await rest.engine.management.findIncidents({ incidentType: 'failedExternalTask' });

    const resolved = await rest.request('DELETE', `/incident/${custom.id}`);
    const again = await rest.request('DELETE', `/incident/${custom.id}`);
    const builtIn = await rest.request('DELETE', `/incident/${failed.id}`);
    // Camunda's handler looks for the incidents of its configuration: without one, none is found.
    await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.management.resolveIncident(withoutConfiguration.id));
    const logged = await rest.request('GET', '/history/user-operation', { query: { operationType: 'Resolve' } });

    expect(resolved.status).toBe(204);
    const left = (await rest.request('GET', '/incident')).body.map((incident: { id: string }) => incident.id).sort();
    expect(left).toEqual([failed.id, otherConfiguration.id, withoutConfiguration.id].sort());
    expect(left).not.toContain(sameConfiguration.id);
    // Logged for a user (not for the unauthenticated request above).
    expect(logged.body.map((entry: any) => [entry.entityType, entry.processInstanceId, entry.property, entry.newValue, entry.userId])).toEqual([
      ['ProcessInstance', other, 'incidentId', withoutConfiguration.id, 'demo'],
    ]);
    expect(again.body).toEqual({ type: 'InvalidRequestException', message: `Cannot find an incident with id '${custom.id}': incident is null`, code: null });
    expectError(builtIn, 400, 'InvalidRequestException', 'Cannot resolve an incident of type failedExternalTask');
    // The instance goes on where it was.
    expect((await rest.engine.externalTask.findExternalTasks({ processInstanceId: instance })).length).toBe(1);
  });

  it('sets and clears the annotation', async () => {
    const instance = await startInvoice('a');
    const incident = await createIncident(instance, 'custom', 'm');

    const set = await rest.request('PUT', `/incident/${incident.id}/annotation`, { json: { annotation: 'looking into it' } });
    const afterSet = (await rest.request('GET', `/incident/${incident.id}`)).body.annotation;
    const cleared = await rest.request('DELETE', `/incident/${incident.id}/annotation`);
    const afterClear = (await rest.request('GET', `/incident/${incident.id}`)).body.annotation;
    await rest.request('PUT', `/incident/${incident.id}/annotation`, { json: { annotation: 'again' } });
    const setNull = await rest.request('PUT', `/incident/${incident.id}/annotation`, { json: { annotation: null } });
    const afterNull = (await rest.request('GET', `/incident/${incident.id}`)).body.annotation;
    const unknownPut = await rest.request('PUT', '/incident/nope/annotation', { json: { annotation: 'x' } });
    const unknownDelete = await rest.request('DELETE', '/incident/nope/annotation');

    expect([set.status, cleared.status, setNull.status]).toEqual([204, 204, 204]);
    expect([afterSet, afterClear, afterNull]).toEqual(['looking into it', null, null]);
    expectError(unknownPut, 400, 'BadUserRequestException', 'incident is null');
    expectError(unknownDelete, 400, 'BadUserRequestException', 'incident is null');
  });
});

describe('POST /execution/{id}/create-incident', () => {
  beforeEach(async () => setUp());

  /** Forks into two user tasks: the instance's own execution then has no activity of its own. */
  const FORK = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d_fork" targetNamespace="t">
  <bpmn:process id="fork" isExecutable="true" camunda:historyTimeToLive="30">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="split" />
    <bpmn:parallelGateway id="split" />
    <bpmn:sequenceFlow id="f2" sourceRef="split" targetRef="a" /><bpmn:userTask id="a" />
    <bpmn:sequenceFlow id="f3" sourceRef="split" targetRef="b" /><bpmn:userTask id="b" />
  </bpmn:process>
</bpmn:definitions>`;

  it('creates a custom incident, and answers Camunda\'s 400 InvalidRequestException for what it refuses', async () => {
    const instance = await startInvoice('a');
    const execution = await workExecution(instance);
    await rest.engine.deployment.deploy({ resources: [{ name: 'fork.bpmn', bytes: Buffer.from(FORK) }] });
    const forked = (await rest.request('POST', '/process-definition/key/fork/start', { json: {} })).body.id as string;

    const created = await rest.request('POST', `/execution/${execution}/create-incident`, { json: { incidentType: 'custom', configuration: 'c', message: 'm' } });
    const noType = await rest.request('POST', `/execution/${execution}/create-incident`, { json: {} });
    const unknown = await rest.request('POST', '/execution/nope/create-incident', { json: { incidentType: 'custom' } });
    const noActivity = await rest.request('POST', `/execution/${forked}/create-incident`, { json: { incidentType: 'custom' } });

    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ incidentType: 'custom', configuration: 'c', incidentMessage: 'm', executionId: execution, activityId: 'work' });
    expectError(noType, 400, 'InvalidRequestException', 'incidentType is null');
    expectError(unknown, 400, 'InvalidRequestException', "Cannot find an execution with executionId 'nope': execution is null");
    expectError(noActivity, 400, 'InvalidRequestException', 'Execution must be related to an activity: activity is null');
  });
});

describe('incidents with authorization', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  beforeEach(async () => {
    await setUp({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
  });

  it('shows only readable incidents and needs UPDATE to resolve or annotate', async () => {
    const visible = await startInvoice('a');
    const hidden = await startInvoice('b');
    const mine = await createIncident(visible, 'custom', 'm');
    await createIncident(hidden, 'custom', 'm');
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 8, resourceId: visible, permissions: ['READ'] });

    const list = await rest.request('GET', '/incident', { headers: jonny });
    const count = await rest.request('GET', '/incident/count', { headers: jonny });
    const all = await rest.request('GET', '/incident/count', { headers: admin });
    const denied = await rest.request('DELETE', `/incident/${mine.id}`, { headers: jonny });
    const deniedAnnotation = await rest.request('PUT', `/incident/${mine.id}/annotation`, { json: { annotation: 'x' }, headers: jonny });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'invoice', permissions: ['UPDATE_INSTANCE'] });
    const allowed = await rest.request('DELETE', `/incident/${mine.id}`, { headers: jonny });

    expect(list.body.map((incident: any) => incident.id)).toEqual([mine.id]);
    expect(count.body).toEqual({ count: 1 });
    expect(all.body).toEqual({ count: 2 });
    expect(denied.status).toBe(403);
    expect(deniedAnnotation.status).toBe(403);
    expect(allowed.status).toBe(204);
  });
});

describe('incidents in the activity instance tree', () => {
  afterEach(async () => rest.close());

  it('shows an incident on the activity instance whose execution it names, whichever activity raised it', async () => {
    rest = await startRestHarness();
    const model = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="late" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="work" />
    <bpmn:userTask id="work" /><bpmn:sequenceFlow id="f2" sourceRef="work" targetRef="end" /><bpmn:endEvent id="end" />
    <bpmn:boundaryEvent id="reminder" attachedToRef="work" cancelActivity="false">
      <bpmn:extensionElements><camunda:executionListener event="start" expression="\${missing}" /></bpmn:extensionElements>
      <bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f3" sourceRef="reminder" targetRef="remindEnd" /><bpmn:endEvent id="remindEnd" />
  </bpmn:process>
</bpmn:definitions>`;
    await rest.engine.deployment.deploy({ resources: [{ name: 'late.bpmn', bytes: Buffer.from(model) }] });
    const id = (await rest.request('POST', '/process-definition/key/late/start', { json: {} })).body.id as string;
    rest.engine.clock.advance(2 * 3_600_000);
    for (let i = 0; i < 3; i++) {
      await rest.engine.jobExecutor.runDueJobs();
      rest.engine.clock.advance(10 * 60_000);
    }

    const [incident] = (await rest.request('GET', '/incident')).body;
    const tree = (await rest.request('GET', `/process-instance/${id}/activity-instances`)).body;

    // The timer's job ran in the task's scope execution: Camunda shows its incident on the task.
    expect(incident).toMatchObject({ activityId: 'reminder', incidentType: 'failedJob' });
    expect(tree.incidentIds).toEqual([]);
    expect(tree.childActivityInstances.map((child: { activityId: string; incidentIds: string[] }) => [child.activityId, child.incidentIds])).toEqual([['work', [incident.id]]]);
  });
});
