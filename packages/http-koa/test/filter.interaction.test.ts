import { afterEach, describe, expect, it } from 'vitest';
import { formatRestDate } from '../src/dto/dates.js';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;
afterEach(async () => rest.close());

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="review" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="check" />
    <bpmn:userTask id="check" name="Check" camunda:assignee="\${who}" camunda:candidateGroups="sales" />
  </bpmn:process>
</bpmn:definitions>`;

async function startFor(who: string, headers?: Record<string, string>): Promise<{ instanceId: string; taskId: string }> {
  const started = await rest.request('POST', '/process-definition/key/review/start', { json: { variables: { who: { value: who, type: 'String' } } }, headers });
  const [task] = await rest.engine.task.findTasks({ processInstanceId: started.body.id });
  return { instanceId: started.body.id, taskId: task.id };
}

/** What Camunda shows of an empty saved query (TaskQueryDto.fromQuery): the lists it always fills. */
const SHOWN_EMPTY = { orQueries: [], processVariables: [], taskVariables: [], caseInstanceVariables: [] };

describe('the Filter group', () => {
  it('creates, lists, counts, reads, updates and deletes filters, with Camunda’s errors', async () => {
    rest = await startRestHarness();
    const created = await rest.request('POST', '/filter/create', {
      json: { resourceType: 'Task', name: 'John', owner: 'john', query: { assignee: 'john' }, properties: { color: '#ffffff', priority: 1 } },
    });
    const withoutProperties = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'All', query: {} } });
    const badType = await rest.request('POST', '/filter/create', { json: { resourceType: 'Case', name: 'x', query: {} } });
    const noName = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', query: {} } });
    const noQuery = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'x' } });
    const badQuery = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'x', query: { priority: 'high' } } });
    const id = created.body.id as string;

    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(String), resourceType: 'Task', name: 'John', owner: 'john', query: { ...SHOWN_EMPTY, assignee: 'john' }, properties: { color: '#ffffff', priority: 1 },
    });
    // stored as {} when none were sent (the contract's object; Camunda's create answer alone shows null)
    expect(withoutProperties.body.properties).toEqual({});
    expect(badType.body).toEqual({ type: 'InvalidRequestException', message: "Unable to create filter with invalid resource type 'Case'", code: null });
    expect(noName.body.message).toBe('Unable to create filter with invalid content');
    expect(noQuery.body.message).toBe('Unable to create filter with invalid content');
    expect(badQuery.status).toBe(400);

    const byName = await rest.request('GET', '/filter', { query: { nameLike: 'J%' } });
    const sorted = await rest.request('GET', '/filter', { query: { sortBy: 'name', sortOrder: 'asc' } });
    const count = await rest.request('GET', '/filter/count', { query: { owner: 'john' } });
    expect(byName.body.map((filter: { name: string }) => filter.name)).toEqual(['John']);
    expect(sorted.body.map((filter: { name: string }) => filter.name)).toEqual(['All', 'John']);
    expect(count.body).toEqual({ count: 1 });

    const renamed = await rest.request('PUT', `/filter/${id}`, { json: { name: 'Mary', owner: 'john', query: { assignee: 'mary' } } });
    const retyped = await rest.request('PUT', `/filter/${id}`, { json: { resourceType: 'Case', name: 'x', query: {} } });
    const emptied = await rest.request('PUT', `/filter/${id}`, { json: { name: '', query: {} } });
    const read = await rest.request('GET', `/filter/${id}`);
    expect(renamed.status).toBe(204);
    expect(retyped.body.message).toBe("Unable to update filter from resource type 'Task' to 'Case'");
    expect(emptied.body.message).toBe('Unable to update filter with invalid content');
    expect(read.body).toMatchObject({ name: 'Mary', query: { assignee: 'mary' }, properties: {} });

    const deleted = await rest.request('DELETE', `/filter/${id}`);
    const again = await rest.request('DELETE', `/filter/${id}`);
    const gone = await rest.request('GET', `/filter/${id}`);
    expect(deleted.status).toBe(204);
    expect(again.status).toBe(404);
    expect(again.body.message).toBe(`Filter with id '${id}' does not exist.`);
    expect(gone.status).toBe(404);
  });

  it('shows a saved query as Camunda rebuilds it, which saves back unchanged', async () => {
    rest = await startRestHarness();
    const query = {
      due: '2026-01-02T03:04:05.000+0000', createdAfter: '2026-01-01T00:00:00.000+0100', followUpBeforeOrNotExistent: '2026-02-01T00:00:00.000+0000',
      delegationState: 'pending', assigned: false, active: true, includeAssignedTasks: true, candidateGroup: 'sales', taskIdIn: ['t1', 't2'],
      processVariables: [{ name: 'when', operator: 'lt', value: '2026-03-01T00:00:00.000+0000' }, { name: 'amount', operator: 'gteq', value: 5 }],
      sorting: [{ sortBy: 'processVariable', sortOrder: 'desc', parameters: { variable: 'amount', type: 'Integer' } }, { sortBy: 'created', sortOrder: 'asc' }],
      orQueries: [{ assignee: 'john', followUp: '2026-04-01T00:00:00.000+0000' }],
      candidateUserExpression: '${currentUser()}',
    };
    const created = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'Rich', query } });
    const id = created.body.id as string;
    const shown = (await rest.request('GET', `/filter/${id}`)).body.query;
    const resaved = await rest.request('PUT', `/filter/${id}`, { json: { name: 'Rich', query: shown } });
    const listed = (await rest.request('GET', '/filter')).body[0].query;

    const at = (text: string) => formatRestDate(new Date(text.replace(/([+-]\d{2})(\d{2})$/, '$1:$2')));
    expect(created.body.query).toEqual(shown);
    expect(shown).toEqual({
      orQueries: [{ assignee: 'john', followUpDate: at('2026-04-01T00:00:00.000+0000'), processVariables: [], taskVariables: [], caseInstanceVariables: [] }],
      candidateGroup: 'sales', taskIdIn: ['t1', 't2'], delegationState: 'PENDING', includeAssignedTasks: true, active: true,
      dueDate: at('2026-01-02T03:04:05.000+0000'), createdAfter: at('2026-01-01T00:00:00.000+0100'),
      followUpBeforeOrNotExistent: at('2026-02-01T00:00:00.000+0000'),
      processVariables: [{ name: 'when', operator: 'lt', value: at('2026-03-01T00:00:00.000+0000') }, { name: 'amount', operator: 'gteq', value: 5 }],
      taskVariables: [], caseInstanceVariables: [],
      sorting: [{ sortBy: 'processVariable', sortOrder: 'desc', parameters: { variable: 'amount', type: 'Integer' } }, { sortBy: 'created', sortOrder: 'asc' }],
      candidateUserExpression: '${currentUser()}',
    });
    expect(resaved.status).toBe(204);
    expect(listed).toEqual(shown);
  });

  it("answers Tasklist's application/hal+json: tasks with their assignees and definitions embedded, and the filter's variables", async () => {
    rest = await startRestHarness();
    await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(MODEL) }] });
    await rest.engine.identity.createUser({ id: 'john', firstName: 'John', lastName: 'Doe', email: 'john@example.com' }, 'john-secret');
    await rest.engine.identity.createGroup({ id: 'sales', name: 'Sales', type: 'WORKFLOW' });
    const first = await startFor('john');
    const second = await startFor('john');
    await rest.request('PUT', `/task/${first.taskId}/localVariables/who`, { json: { value: 'the task', type: 'String' } });
    const filter = (await rest.request('POST', '/filter/create', {
      json: { resourceType: 'Task', name: 'John', query: { assignee: 'john', sorting: [{ sortBy: 'created', sortOrder: 'asc' }] }, properties: { variables: [{ name: 'who', label: 'Who' }] } },
    })).body;
    const hal = { accept: 'application/hal+json' };
    const parse = (response: { body: Buffer }) => JSON.parse(response.body.toString('utf8'));

    const listed = await rest.request('GET', `/filter/${filter.id}/list`, { headers: hal, outsideContract: true });
    const single = await rest.request('POST', `/filter/${filter.id}/singleResult`, { json: { processInstanceId: first.instanceId }, headers: hal, outsideContract: true });
    const none = await rest.request('POST', `/filter/${filter.id}/list`, { json: { assignee: 'nobody' }, headers: hal, outsideContract: true });
    const noSingle = await rest.request('POST', `/filter/${filter.id}/singleResult`, { json: { assignee: 'nobody' }, headers: hal, outsideContract: true });
    const tasks = await rest.request('GET', '/task', { query: { assignee: 'john', maxResults: 1 }, headers: hal, outsideContract: true });

    expect(listed.headers.get('content-type')).toBe('application/hal+json');
    const list = parse(listed);
    expect(list).toMatchObject({ _links: { self: { href: '/task' } }, count: 2 });
    expect(Object.keys(list._embedded)).toEqual(['assignee', 'processDefinition', 'task']);
    expect(list._embedded.assignee).toEqual([
      { _links: { self: { href: '/user/john' } }, _embedded: null, id: 'john', firstName: 'John', lastName: 'Doe', email: 'john@example.com' },
    ]);
    expect(list._embedded.processDefinition).toMatchObject([{ key: 'review', version: 1, resource: 'review.bpmn', suspended: false, contextPath: null }]);
    const [task1, task2] = list._embedded.task;
    expect(Object.keys(task1._links)).toEqual(['assignee', 'execution', 'identityLink', 'processDefinition', 'processInstance', 'self']);
    expect(task1).toMatchObject({ id: first.taskId, name: 'Check', assignee: 'john', formKey: null, _links: { self: { href: `/task/${first.taskId}` }, identityLink: { href: `/task/${first.taskId}/identity-links` } } });
    // The task's own variable hides the process instance's of the same name.
    expect(task1._embedded.variable).toEqual([
      { _links: { self: { href: `/task/${first.taskId}/localVariables/who` } }, _embedded: null, name: 'who', value: 'the task', type: 'String', valueInfo: {} },
    ]);
    expect(task2._embedded.variable).toMatchObject([{ _links: { self: { href: `/process-instance/${second.instanceId}/variables/who` } }, value: 'john' }]);

    const one = parse(single);
    expect(one.id).toBe(first.taskId);
    expect(Object.keys(one._embedded)).toEqual(['group', 'identityLink', 'processDefinition', 'user', 'variable']);
    expect(one._embedded.group).toEqual([{ _links: { self: { href: '/group/sales' } }, _embedded: null, id: 'sales', name: 'Sales', type: 'WORKFLOW' }]);
    expect(one._embedded.identityLink).toContainEqual({
      _links: { group: { href: '/group/sales' }, task: { href: `/task/${first.taskId}` } }, _embedded: null, type: 'candidate', userId: null, groupId: 'sales', taskId: first.taskId,
    });
    expect(one._embedded.user.map((user: { id: string }) => user.id)).toEqual(['john']);

    expect(parse(none)).toEqual({ _links: {}, _embedded: {}, count: 0 });
    expect(parse(noSingle)).toEqual({ _links: {}, _embedded: {} });
    expect(parse(tasks)).toMatchObject({ count: 2, _embedded: { task: [{ assignee: 'john' }] } });
  });

  it('runs its saved query: list, count and single result, extended by a query body, paged, with item counts', async () => {
    rest = await startRestHarness();
    await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(MODEL) }] });
    const first = await startFor('john');
    await startFor('john');
    await startFor('mary');
    const filter = (await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'John', query: { assignee: 'john', sorting: [{ sortBy: 'created', sortOrder: 'asc' }] } } })).body;

    const list = await rest.request('GET', `/filter/${filter.id}/list`);
    const page = await rest.request('GET', `/filter/${filter.id}/list`, { query: { firstResult: 1, maxResults: 5 } });
    const extended = await rest.request('POST', `/filter/${filter.id}/list`, { json: { processInstanceId: first.instanceId } });
    const overridden = await rest.request('POST', `/filter/${filter.id}/count`, { json: { assignee: 'mary' } });
    const count = await rest.request('GET', `/filter/${filter.id}/count`);
    const several = await rest.request('GET', `/filter/${filter.id}/singleResult`);
    const single = await rest.request('POST', `/filter/${filter.id}/singleResult`, { json: { processInstanceId: first.instanceId } });
    const none = await rest.request('POST', `/filter/${filter.id}/singleResult`, { json: { assignee: 'nobody' } });
    const withCount = await rest.request('GET', `/filter/${filter.id}`, { query: { itemCount: true } });
    const listed = await rest.request('GET', '/filter', { query: { itemCount: true } });
    const csv = await rest.request('GET', `/filter/${filter.id}/list`, { headers: { accept: 'text/csv' }, outsideContract: true });
    const unknown = await rest.request('GET', '/filter/nope/list');

    expect(list.body.map((task: { assignee: string }) => task.assignee)).toEqual(['john', 'john']);
    expect(list.body[0].id).toBe(first.taskId);
    expect(page.body).toHaveLength(1);
    expect(extended.body.map((task: { id: string }) => task.id)).toEqual([first.taskId]);
    expect(overridden.body).toEqual({ count: 1 });
    expect(count.body).toEqual({ count: 2 });
    expect(several.status).toBe(400);
    expect(several.body.message).toBe('Filter does not returns a valid single result');
    expect(single.body).toMatchObject({ id: first.taskId, name: 'Check' });
    expect(none.status).toBe(204);
    expect(withCount.body.itemCount).toBe(2);
    expect(listed.body).toMatchObject([{ id: filter.id, itemCount: 2 }]);
    expect(csv.status).toBe(406);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Filter with id 'nope' does not exist.");
    // Camunda reads the extending query as text: the filter is looked up before the text is parsed.
    const json = { 'content-type': 'application/json' };
    const malformedUnknown = await rest.request('POST', '/filter/nope/list', { body: '{"assignee":', headers: json });
    const malformed = await rest.request('POST', `/filter/${filter.id}/count`, { body: '{"assignee":', headers: json });
    const notAnObject = await rest.request('POST', `/filter/${filter.id}/list`, { json: ['john'] });
    const blank = await rest.request('POST', `/filter/${filter.id}/count`, { body: ' { } ', headers: json });
    expect([malformedUnknown.status, malformedUnknown.body.message]).toEqual([404, "Filter with id 'nope' does not exist."]);
    expect([malformed.status, malformed.body.message]).toEqual([400, "Invalid query for resource type 'Task'"]);
    expect([notAnObject.status, notAnObject.body.message]).toEqual([400, "Invalid query for resource type 'Task'"]);
    expect(blank.body).toEqual({ count: 2 });

    // Without an authenticated user currentUser() is null, which Camunda's query setter refuses.
    const mine = (await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'Mine', query: { assigneeExpression: '${currentUser()}' } } })).body;
    const anonymous = await rest.request('GET', `/filter/${mine.id}/list`);
    expect(anonymous.status).toBe(500);
    expect(anonymous.body.message).toBe("Unable to invoke method 'taskAssignee' on class 'org.camunda.bpm.engine.impl.TaskQueryImpl'");
  });

  it("extends as Camunda's TaskQueryImpl.extend: or-queries add up, the extension's suspension state wins; or-query expressions are evaluated; HAL shows form keys", async () => {
    rest = await startRestHarness();
    await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(MODEL.replace('name="Check"', 'name="Check" camunda:formKey="embedded:app:check.html"')) }] });
    const john = await startFor('john');
    const mary = await startFor('mary');
    await startFor('kim');
    await rest.request('PUT', `/process-instance/${mary.instanceId}/suspended`, { json: { suspended: true } });
    const create = async (query: unknown) => (await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'F', query } })).body.id as string;
    const count = async (id: string, extending: unknown) => (await rest.request('POST', `/filter/${id}/count`, { json: extending })).body.count as number;

    // Saved (john or mary) and extending (mary or kim): both or-queries hold, leaving mary.
    const either = await create({ orQueries: [{ assignee: 'john', assigneeIn: ['mary'] }] });
    expect(await count(either, { orQueries: [{ assignee: 'mary', assigneeIn: ['kim'] }] })).toBe(1);
    // Saved suspended, extended active: the extension's state counts.
    const suspended = await create({ suspended: true });
    expect(await count(suspended, { assigneeLike: '%' })).toBe(1);
    expect(await count(suspended, { active: true })).toBe(2);
    // An expression inside an or-query is no ad-hoc expression: saved and run.
    const withExpression = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'E', query: { orQueries: [{ createdBeforeExpression: '${dateTime().plusDays(1)}', assignee: 'nobody' }] } } });
    expect(withExpression.status).toBe(200);
    expect(await count(withExpression.body.id, { assigneeLike: '%' })).toBe(3);
    // extend copies no processInstanceBusinessKeyIn, of either query: any extension drops it
    await rest.request('POST', '/process-definition/key/review/start', { json: { businessKey: 'bk', variables: { who: { value: 'lee', type: 'String' } } } });
    const byKeys = await create({ processInstanceBusinessKeyIn: ['bk'] });
    expect(await count(byKeys, {})).toBe(1);
    expect(await count(byKeys, { sorting: [{ sortBy: 'created', sortOrder: 'asc' }] })).toBe(4);
    expect(await count(await create({}), { processInstanceBusinessKeyIn: ['bk'] })).toBe(4);

    const list = await rest.request('GET', `/filter/${either}/list`, { headers: { accept: 'application/hal+json' }, outsideContract: true });
    const tasks = JSON.parse(list.body.toString('utf8'))._embedded.task as Array<{ id: string; formKey: string | null }>;
    expect(tasks.map((task) => [task.id, task.formKey])).toEqual(expect.arrayContaining([[john.taskId, 'embedded:app:check.html']]));
    // itemCount is a Java Boolean: TRUE counts.
    expect((await rest.request('GET', `/filter/${either}`, { query: { itemCount: 'TRUE' } })).body.itemCount).toBe(2);
  });

  it("shows each task's camunda:formRef, evaluated, in a filter's list and single result, JSON and HAL", async () => {
    rest = await startRestHarness();
    const withRef = MODEL.replace('name="Check"', 'name="Check" camunda:formRef="form-\${who}" camunda:formRefBinding="deployment"');
    await rest.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(withRef) }] });
    const john = await startFor('john');
    const mary = await startFor('mary');
    const ref = (who: string) => ({ key: `form-${who}`, binding: 'deployment', version: null });
    const all = (await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'All', query: { sortBy: 'assignee', sortOrder: 'asc' } } })).body.id as string;
    const hal = { headers: { accept: 'application/hal+json' }, outsideContract: true };

    const listed = await rest.request('GET', `/filter/${all}/list`);
    expect(listed.body.map((task: { id: string; camundaFormRef: unknown }) => [task.id, task.camundaFormRef])).toEqual([[john.taskId, ref('john')], [mary.taskId, ref('mary')]]);
    const halListed = JSON.parse((await rest.request('GET', `/filter/${all}/list`, hal)).body.toString('utf8'))._embedded.task;
    expect(halListed.map((task: { camundaFormRef: unknown }) => task.camundaFormRef)).toEqual([ref('john'), ref('mary')]);
    const single = await rest.request('POST', `/filter/${all}/singleResult`, { json: { assignee: 'mary' } });
    expect(single.body.camundaFormRef).toEqual(ref('mary'));
    const halSingle = JSON.parse((await rest.request('POST', `/filter/${all}/singleResult`, { json: { assignee: 'john' }, ...hal })).body.toString('utf8'));
    expect(halSingle.camundaFormRef).toEqual(ref('john'));
  });

  it('checks CREATE before the query and the name before the query; an owner * cannot get the default grant', async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    const admin = basic('admin', 'admin-secret');
    await rest.request('POST', '/user/create', { json: { profile: { id: 'jonny' }, credentials: { password: 'jonny-secret' } }, headers: admin });
    const badQuery = { resourceType: 'Task', name: 'x', query: { priority: 'high' } };
    const denied = await rest.request('POST', '/filter/create', { json: badQuery, headers: basic('jonny', 'jonny-secret') });
    expect(denied.status).toBe(403);
    expect((await rest.request('POST', '/filter/create', { json: badQuery, headers: admin })).status).toBe(400);
    const noName = await rest.request('POST', '/filter/create', { json: { ...badQuery, name: '' }, headers: admin });
    expect([noName.status, noName.body.message]).toEqual([400, 'Unable to create filter with invalid content']);

    const anyOwner = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'All', owner: '*', query: {} }, headers: admin });
    expect(anyOwner.status).toBe(500);
    expect(anyOwner.body).toMatchObject({ type: 'ProcessEngineException', message: 'Cannot create default authorization for filter owner *: id cannot be *. * is a reserved identifier.' });
    // Contradicting criteria are refused when the query is built, as it is saved (Camunda's query setters).
    const both = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'Both', query: { candidateUser: 'a', candidateGroup: 'b' } }, headers: admin });
    expect([both.status, both.body.type, both.body.message]).toEqual([500, 'ProcessEngineException', 'Invalid query usage: cannot set both candidateUser and candidateGroup']);
    expect((await rest.request('GET', '/filter/count', { headers: admin })).body).toEqual({ count: 0 });
  });

  it("evaluates the saved query's expressions for the caller; needs CREATE to create, READ to see and run; the owner gets ALL", async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    const admin = basic('admin', 'admin-secret');
    for (const id of ['jonny', 'mary']) {
      await rest.request('POST', '/user/create', { json: { profile: { id, firstName: id, lastName: 'X' }, credentials: { password: `${id}-secret` } }, headers: admin });
    }
    const jonny = basic('jonny', 'jonny-secret');
    const mary = basic('mary', 'mary-secret');
    await rest.request('POST', '/deployment/create', { form: deployment(), headers: admin });
    const mine = await startFor('jonny', admin);
    await startFor('mary', admin);

    const denied = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'Mine', owner: 'jonny', query: { assigneeExpression: '${currentUser()}' } }, headers: jonny });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 5, resourceId: '*', permissions: ['CREATE'] });
    const created = await rest.request('POST', '/filter/create', { json: { resourceType: 'Task', name: 'Mine', owner: 'jonny', query: { assigneeExpression: '${currentUser()}' } }, headers: jonny });
    const id = created.body.id as string;
    const grants = (await rest.request('GET', '/authorization', { query: { resourceType: 5, resourceId: id }, headers: admin })).body;
    const jonnysTasks = await rest.request('GET', `/filter/${id}/list`, { headers: jonny });
    const unseen = await rest.request('GET', `/filter/${id}`, { headers: mary });
    // Camunda's FilterResourceImpl answers a denied READ on the single result as an invalid result.
    const unseenSingle = await rest.request('GET', `/filter/${id}/singleResult`, { headers: mary });
    expect([unseenSingle.status, unseenSingle.body.message]).toEqual([400, 'Filter does not returns a valid single result']);
    const notListed = await rest.request('GET', '/filter', { headers: mary });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'mary', resourceType: 5, resourceId: id, permissions: ['READ'] });
    const marysTasks = await rest.request('GET', `/filter/${id}/list`, { headers: mary });
    const adhocExpression = await rest.request('POST', `/filter/${id}/list`, { json: { assigneeExpression: '${currentUser()}' }, headers: mary });
    const notUpdated = await rest.request('PUT', `/filter/${id}`, { json: { name: 'Hers', query: {} }, headers: mary });
    // A literal in the extension does not beat the saved expression (Camunda evaluates expressions last).
    const literal = await rest.request('POST', `/filter/${id}/count`, { json: { assignee: 'jonny' }, headers: mary });
    const logged = (await rest.request('GET', '/history/user-operation', { query: { entityType: 'Filter' }, headers: admin })).body;

    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([{ permissionName: 'CREATE', resourceName: 'Filter', resourceId: '*' }]);
    expect(created.body.query).toEqual({ ...SHOWN_EMPTY, assigneeExpression: '${currentUser()}' });
    expect(grants).toMatchObject([{ type: 1, userId: 'jonny', permissions: ['ALL'] }]);
    // Each sees the tasks assigned to them (their default task authorizations let them read them).
    expect(jonnysTasks.body.map((task: { id: string }) => task.id)).toEqual([mine.taskId]);
    expect(unseen.status).toBe(403);
    expect(notListed.body).toEqual([]);
    expect(marysTasks.body.map((task: { assignee: string }) => task.assignee)).toEqual(['mary']);
    expect(adhocExpression.status).toBe(400);
    expect(adhocExpression.body.type).toBe('BadUserRequestException');
    expect(literal.body).toEqual({ count: 1 });
    expect(logged).toMatchObject([{ operationType: 'Create', entityType: 'Filter', property: 'filterId', newValue: id, userId: 'jonny', category: 'TaskWorker' }]);
    expect(notUpdated.status).toBe(403);
    expect(notUpdated.body.missingAuthorizations).toEqual([{ permissionName: 'UPDATE', resourceName: 'Filter', resourceId: id }]);

    // OPTIONS: the links follow the caller's permissions (the owner has ALL, mary READ only).
    const rels = async (path: string, headers: Record<string, string>) =>
      ((await rest.request('OPTIONS', path, { headers })).body.links as Array<{ method: string; rel: string }>).map((link) => `${link.method} ${link.rel}`);
    expect(await rels('/filter', jonny)).toEqual(['GET list', 'GET count', 'POST create']);
    expect(await rels('/filter', mary)).toEqual(['GET list', 'GET count']);
    expect(await rels(`/filter/${id}`, jonny)).toEqual([
      'GET self', 'GET singleResult', 'POST singleResult', 'GET list', 'POST list', 'GET count', 'POST count', 'DELETE delete', 'PUT update',
    ]);
    expect(await rels(`/filter/${id}`, mary)).toEqual(['GET self', 'GET singleResult', 'POST singleResult', 'GET list', 'POST list', 'GET count', 'POST count']);
    expect((await rest.request('OPTIONS', `/filter/${id}`, { headers: mary })).body.links[0]).toEqual({ method: 'GET', href: `${rest.url}/filter/${id}`, rel: 'self' });
  });
});

function deployment(): FormData {
  const form = new FormData();
  form.append('deployment-name', 'review');
  form.append('review.bpmn', new Blob([MODEL]), 'review.bpmn');
  return form;
}
