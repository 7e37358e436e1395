import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testStoreConfigs } from '@trellis/core/testing';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

// Three user tasks per instance of `tq` (candidate group, candidate user, assignee), one of `other`.
const TQ = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="tq" name="Task Query Process" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f0" sourceRef="start" targetRef="fork" />
    <bpmn:parallelGateway id="fork" />
    <bpmn:sequenceFlow id="f1" sourceRef="fork" targetRef="approve" />
    <bpmn:sequenceFlow id="f2" sourceRef="fork" targetRef="review" />
    <bpmn:sequenceFlow id="f3" sourceRef="fork" targetRef="archive" />
    <bpmn:userTask id="approve" name="Approve Invoice" camunda:priority="\${prio}" camunda:dueDate="\${due}" camunda:candidateGroups="accounting" />
    <bpmn:userTask id="review" name="Review Invoice" camunda:candidateUsers="mary" camunda:followUpDate="\${followUp}" />
    <bpmn:userTask id="archive" name="Archive" camunda:priority="10" camunda:assignee="\${clerk}" />
  </bpmn:process>
</bpmn:definitions>`;

const OTHER = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d2" targetNamespace="http://trellis.test">
  <bpmn:process id="other" name="Other Process" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f0" sourceRef="start" targetRef="otherTask" />
    <bpmn:userTask id="otherTask" name="Other Work" camunda:candidateGroups="sales" />
  </bpmn:process>
</bpmn:definitions>`;

const T0 = '2026-01-15T10:00:00.000+0000';
const date = (value: string) => ({ type: 'Date', value });

describe.each(testStoreConfigs())('task query ($name)', (store) => {
  let rest: RestHarness;
  /** Task id → label like `A.approve` (instance letter, task definition key). */
  const labels = new Map<string, string>();
  let approveActivityInstance: string;

  const start = async (key: string, businessKey: string, variables: Record<string, unknown>) => {
    const started = await rest.request('POST', `/process-definition/key/${key}/start`, { json: { businessKey, variables } });
    expect(started.status).toBe(200);
    return started.body.id as string;
  };

  beforeAll(async () => {
    rest = await startRestHarness({ store: store.config('task-query') });
    const { engine } = rest;
    await engine.deployment.deploy({ resources: [{ name: 'tq.bpmn', bytes: Buffer.from(TQ) }, { name: 'other.bpmn', bytes: Buffer.from(OTHER) }] });
    await engine.identity.createUser({ id: 'mary', firstName: null, lastName: null, email: null }, null);
    await engine.identity.createGroup({ id: 'sales', name: null, type: null });
    await engine.identity.createMembership('mary', 'sales');

    const instances: Record<string, string> = {};
    instances.A = await start('tq', 'order-1', {
      prio: { type: 'Integer', value: 80 }, due: date('2026-02-01T10:00:00.000+0000'), followUp: date('2026-01-20T10:00:00.000+0000'),
      clerk: { type: 'String', value: 'john' }, amount: { type: 'Integer', value: 100 }, customer: { type: 'String', value: 'Acme' },
    });
    engine.clock.advance(3_600_000);
    instances.B = await start('tq', 'order-2', {
      prio: { type: 'Integer', value: 20 }, due: date('2026-03-01T10:00:00.000+0000'), followUp: { type: 'Null', value: null },
      clerk: { type: 'String', value: 'demo' }, amount: { type: 'Integer', value: 200 }, customer: { type: 'String', value: 'Globex' },
    });
    engine.clock.advance(3_600_000);
    instances.C = await start('other', 'misc-3', {});

    for (const [letter, id] of Object.entries(instances)) {
      for (const task of await engine.task.findTasks({ processInstanceId: id })) labels.set(task.id, `${letter}.${task.taskDefinitionKey}`);
    }
    expect(labels.size).toBe(7);
    const id = (label: string) => [...labels].find(([, each]) => each === label)![0];
    approveActivityInstance = (await engine.task.getTask(id('A.approve')))!.activityInstanceId!;
    await engine.task.delegateTask(id('A.approve'), 'peter');
    await engine.task.setOwner(id('B.archive'), 'mary');
    await engine.task.setVariablesLocal(id('A.review'), { note: { type: 'string', value: 'urgent', valueInfo: {} } });
  });
  afterAll(async () => rest?.close());

  const found = (body: Array<{ id: string }>) => body.map((task) => labels.get(task.id) ?? task.id).sort();

  /** GET /task and GET /task/count agree, and give these tasks. */
  async function get(query: Record<string, string | number | boolean>): Promise<string[]> {
    const list = await rest.request('GET', '/task', { query });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const count = await rest.request('GET', '/task/count', { query });
    expect(count.body).toEqual({ count: list.body.length });
    return found(list.body);
  }

  async function post(json: Record<string, unknown>, query?: Record<string, number>): Promise<string[]> {
    const list = await rest.request('POST', '/task', { json, query });
    expect(list.status, JSON.stringify(list.body)).toBe(200);
    const count = await rest.request('POST', '/task/count', { json });
    expect(count.status).toBe(200);
    if (!query) expect(count.body).toEqual({ count: list.body.length });
    return found(list.body);
  }

  const ALL_A = ['A.approve', 'A.archive', 'A.review'];
  const ALL_B = ['B.approve', 'B.archive', 'B.review'];

  it('filters by business key, process definition and task definition key', async () => {
    expect(await get({ processInstanceBusinessKey: 'order-1' })).toEqual(ALL_A);
    expect(await get({ processInstanceBusinessKeyIn: 'order-2,misc-3' })).toEqual([...ALL_B, 'C.otherTask']);
    // Lists split as Java's String.split (TaskQueryDto's String[]): `tenantIdIn=,` holds no tenant and
    // filters nothing; `tenantIdIn=` holds the tenant '' and matches nothing.
    expect(await get({ tenantIdIn: ',' })).toEqual(await get({}));
    expect(await get({ tenantIdIn: '' })).toEqual([]);
    // Dates and flags read as Jackson reads them: blank or "null" is no date, "null" no flag.
    expect(await get({ dueBefore: '', assigned: 'null' })).toEqual(await get({}));
    expect(await get({ tenantIdIn: ',' })).toHaveLength(ALL_A.length + ALL_B.length + 1);
    expect(await get({ processInstanceBusinessKeyLike: 'order-%' })).toEqual([...ALL_A, ...ALL_B]);
    expect(await get({ processDefinitionKeyIn: 'other' })).toEqual(['C.otherTask']);
    expect(await get({ processDefinitionName: 'Task Query Process' })).toEqual([...ALL_A, ...ALL_B]);
    expect(await get({ processDefinitionNameLike: 'Other%' })).toEqual(['C.otherTask']);
    expect(await get({ taskDefinitionKeyIn: 'approve,review' })).toEqual(['A.approve', 'A.review', 'B.approve', 'B.review']);
    expect(await get({ taskDefinitionKeyLike: '%rchiv%' })).toEqual(['A.archive', 'B.archive']);
    expect(await get({ activityInstanceIdIn: approveActivityInstance })).toEqual(['A.approve']);
    expect(await post({ processInstanceBusinessKeyIn: ['order-1'], taskDefinitionKeyIn: ['archive', 'otherTask'] })).toEqual(['A.archive']);
  });

  it('filters by assignee, owner, name, description and priority', async () => {
    expect(await get({ assigneeIn: 'john,demo' })).toEqual(['A.archive', 'B.archive']);
    expect(await get({ assigneeNotIn: 'john' })).toEqual(['A.approve', 'B.archive']);
    expect(await get({ owner: 'mary' })).toEqual(['B.archive']);
    // Names and descriptions ignore case, as in Camunda.
    expect(await get({ name: 'APPROVE INVOICE' })).toEqual(['A.approve', 'B.approve']);
    expect(await get({ nameLike: '%invoice' })).toEqual(['A.approve', 'A.review', 'B.approve', 'B.review']);
    expect(await get({ nameNotEqual: 'approve invoice' })).toEqual(['A.archive', 'A.review', 'B.archive', 'B.review', 'C.otherTask']);
    expect(await get({ nameNotLike: '%INVOICE' })).toEqual(['A.archive', 'B.archive', 'C.otherTask']);
    expect(await get({ description: 'anything' })).toEqual([]);
    expect(await get({ descriptionLike: '%' })).toEqual([]);
    expect(await get({ priority: 50 })).toEqual(['A.review', 'B.review', 'C.otherTask']);
    expect(await get({ minPriority: 20, maxPriority: 50 })).toEqual(['A.review', 'B.approve', 'B.review', 'C.otherTask']);
    expect(await post({ minPriority: 60 })).toEqual(['A.approve']);
    expect(await get({ delegationState: 'PENDING' })).toEqual(['A.approve']);
    expect(await post({ delegationState: 'resolved' })).toEqual([]);
  });

  it('filters by due, follow-up and creation dates', async () => {
    expect(await get({ dueDate: '2026-02-01T10:00:00.000+0000' })).toEqual(['A.approve']);
    expect(await get({ dueAfter: '2026-02-15T00:00:00.000+0000' })).toEqual(['B.approve']);
    expect(await get({ dueBefore: '2026-02-15T00:00:00.000+0000' })).toEqual(['A.approve']);
    expect(await get({ withoutDueDate: true })).toEqual(['A.archive', 'A.review', 'B.archive', 'B.review', 'C.otherTask']);
    expect(await get({ followUpDate: '2026-01-20T11:00:00.000+0100' })).toEqual(['A.review']);
    expect(await get({ followUpAfter: '2026-01-01T00:00:00.000+0000' })).toEqual(['A.review']);
    expect(await get({ followUpBefore: '2026-01-25T00:00:00.000+0000' })).toEqual(['A.review']);
    expect(await get({ followUpBeforeOrNotExistent: '2026-01-10T00:00:00.000+0000' })).toEqual(['A.approve', 'A.archive', ...ALL_B, 'C.otherTask']);
    expect(await get({ createdOn: T0 })).toEqual(ALL_A);
    expect(await get({ createdAfter: T0 })).toEqual([...ALL_B, 'C.otherTask']);
    expect(await get({ createdBefore: '2026-01-15T11:30:00.000+0000' })).toEqual([...ALL_A, ...ALL_B]);
    expect(await post({ dueAfter: '2026-01-01T00:00:00.000+0000', dueBefore: '2026-12-31T00:00:00.000+0000' })).toEqual(['A.approve', 'B.approve']);
  });

  it('filters by candidates like Camunda: unassigned tasks only unless includeAssignedTasks', async () => {
    // A.approve is delegated to peter, so assigned.
    expect(await get({ candidateGroup: 'accounting' })).toEqual(['B.approve']);
    expect(await get({ candidateGroup: 'accounting', includeAssignedTasks: true })).toEqual(['A.approve', 'B.approve']);
    expect(await get({ candidateGroups: 'accounting,sales' })).toEqual(['B.approve', 'C.otherTask']);
    // mary is a candidate user of the reviews and a member of sales.
    expect(await get({ candidateUser: 'mary' })).toEqual(['A.review', 'B.review', 'C.otherTask']);
    expect(await get({ withCandidateGroups: true })).toEqual(['B.approve', 'C.otherTask']);
    expect(await get({ withoutCandidateGroups: true })).toEqual(['A.review', 'B.review']);
    expect(await get({ withCandidateUsers: true })).toEqual(['A.review', 'B.review']);
    expect(await get({ withoutCandidateUsers: true })).toEqual(['B.approve', 'C.otherTask']);
    expect(await post({ withoutCandidateUsers: true, includeAssignedTasks: true })).toEqual(['A.approve', 'A.archive', 'B.approve', 'B.archive', 'C.otherTask']);
    expect(await post({ candidateGroups: ['sales'], candidateGroup: 'sales' })).toEqual(['C.otherTask']);
    expect(await get({ candidateGroupLike: 'acc%' })).toEqual(['B.approve']);
    expect(await get({ candidateGroupLike: '%a%', includeAssignedTasks: true })).toEqual(['A.approve', 'B.approve', 'C.otherTask']);
    // A group pattern is an alternative to the candidate user.
    expect(await get({ candidateUser: 'mary', candidateGroupLike: 'acc%' })).toEqual(['A.review', 'B.approve', 'B.review', 'C.otherTask']);
    // Assignee, owner or candidate user; not through a group.
    expect(await get({ involvedUser: 'mary' })).toEqual(['A.review', 'B.archive', 'B.review']);
    expect(await get({ involvedUser: 'john' })).toEqual(['A.archive']);
  });

  it('takes or-queries: each holds when any of its criteria does, and the rest of the query must hold too', async () => {
    // Assigned to john or a candidate of accounting (unassigned).
    expect(await post({ orQueries: [{ assignee: 'john', candidateGroup: 'accounting' }] })).toEqual(['A.archive', 'B.approve']);
    // A candidate user and groups are alternatives inside an or-query.
    expect(await post({ orQueries: [{ candidateUser: 'mary', candidateGroups: ['accounting'], includeAssignedTasks: true }] })).toEqual(['A.approve', 'A.review', 'B.approve', 'B.review', 'C.otherTask']);
    // ANDed with the query's own criteria and with the other or-queries.
    expect(await post({ processInstanceBusinessKey: 'order-2', orQueries: [{ name: 'Archive', priority: 20 }] })).toEqual(['B.approve', 'B.archive']);
    expect(await post({ orQueries: [{ name: 'Archive', priority: 20 }, { processVariables: [{ name: 'customer', operator: 'eq', value: 'Acme' }], owner: 'mary' }] })).toEqual(['A.archive', 'B.archive']);
    // An empty or-query restricts nothing; one inside another is Camunda's invalid usage.
    expect(await post({ orQueries: [{}] })).toHaveLength(7);
    const nested = await rest.request('POST', '/task', { json: { orQueries: [{ orQueries: [{ name: 'x' }] }] } });
    // Camunda's DTO attaches or-queries inside an or-query to it, where its mapping never reads them: ignored.
    expect(nested.body.length).toBe((await rest.request('POST', '/task', { json: {} })).body.length);
  });

  it('tells whether each task has comments and attachments when asked (withCommentAttachmentInfo)', async () => {
    const review = [...labels].find(([, label]) => label === 'A.review')![0];
    await rest.engine.task.createComment(review, 'looks fine');
    const asked = await rest.request('GET', '/task', { query: { processInstanceBusinessKey: 'order-1', withCommentAttachmentInfo: true } });
    const plain = await rest.request('POST', '/task', { json: { processInstanceBusinessKey: 'order-1' } });

    expect(Object.fromEntries(asked.body.map((task: { id: string; comment: boolean; attachment: boolean }) => [labels.get(task.id), [task.comment, task.attachment]]))).toEqual({
      'A.approve': [false, false],
      'A.archive': [false, false],
      'A.review': [true, false],
    });
    expect(plain.body.every((task: object) => !('comment' in task) && !('attachment' in task))).toBe(true);
  });

  it('filters by process and task variables', async () => {
    expect(await get({ processVariables: 'customer_eq_Acme' })).toEqual(ALL_A);
    expect(await get({ processVariables: 'customer_like_G%' })).toEqual(ALL_B);
    expect(await get({ processVariables: 'customer_neq_Acme,clerk_eq_demo' })).toEqual(ALL_B);
    expect(await get({ processVariables: 'customer_eq_acme', variableValuesIgnoreCase: true })).toEqual(ALL_A);
    expect(await get({ processVariables: 'CUSTOMER_eq_Acme', variableNamesIgnoreCase: true })).toEqual(ALL_A);
    expect(await get({ processVariables: 'CUSTOMER_eq_Acme' })).toEqual([]);
    expect(await get({ taskVariables: 'note_eq_urgent' })).toEqual(['A.review']);
    // Task-local variables are not process variables, nor the other way round.
    expect(await get({ processVariables: 'note_eq_urgent' })).toEqual([]);
    expect(await get({ taskVariables: 'customer_eq_Acme' })).toEqual([]);
    expect(await post({ processVariables: [{ name: 'amount', operator: 'gt', value: 150 }] })).toEqual(ALL_B);
    expect(await post({ processVariables: [{ name: 'amount', operator: 'lteq', value: 100 }, { name: 'customer', operator: 'eq', value: 'Acme' }] })).toEqual(ALL_A);
    expect(await post({ processVariables: [{ name: 'due', operator: 'lt', value: '2026-02-15T00:00:00.000+0000' }] })).toEqual(ALL_A);
    expect(await post({ taskVariables: [{ name: 'note', operator: 'eq', value: 'urgent' }], processVariables: [{ name: 'amount', operator: 'eq', value: 100 }] })).toEqual(['A.review']);
    // Process variables also by notLike (the negated like: any variable of the name whose text is not like it).
    expect(await get({ processVariables: 'customer_notLike_G%' })).toEqual(ALL_A);
    const invalid = await rest.request('GET', '/task', { query: { processVariables: 'customer_is_Acme' } });
    expect([invalid.status, invalid.body.message]).toEqual([400, 'Invalid process variable comparator specified: is']);
    const taskNotLike = await rest.request('POST', '/task', { json: { taskVariables: [{ name: 'note', operator: 'notLike', value: 'x%' }] } });
    expect([taskNotLike.status, taskNotLike.body.message]).toEqual([400, 'Invalid task variable comparator specified: notLike']);
  });

  it('POST /task sorts and pages, and takes the same criteria', async () => {
    const sorted = await rest.request('POST', '/task', {
      json: { processInstanceBusinessKeyLike: 'order-%', sorting: [{ sortBy: 'priority', sortOrder: 'desc' }, { sortBy: 'created', sortOrder: 'asc' }] },
      query: { firstResult: 1, maxResults: 3 },
    });
    expect(sorted.status).toBe(200);
    expect(sorted.body.map((task: { id: string }) => labels.get(task.id))).toEqual(['A.review', 'B.review', 'B.approve']);
    expect((await rest.request('POST', '/task/count', { json: {} })).body).toEqual({ count: 7 });
    const byDescription = await rest.request('GET', '/task', { query: { sortBy: 'description', sortOrder: 'asc' } });
    expect(byDescription.status).toBe(200);
    expect(byDescription.body).toHaveLength(7);
  });

  it("sorts by a process, execution or task variable's value (Camunda's variable sorts), and by name ignoring case", async () => {
    const sortedBy = async (sorting: unknown) => {
      const response = await rest.request('POST', '/task', { json: { taskDefinitionKey: 'archive', sorting } });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      return response.body.map((task: { id: string }) => labels.get(task.id));
    };
    expect(await sortedBy([{ sortBy: 'processVariable', sortOrder: 'desc', parameters: { variable: 'amount', type: 'Integer' } }])).toEqual(['B.archive', 'A.archive']);
    expect(await sortedBy([{ sortBy: 'processVariable', sortOrder: 'asc', parameters: { variable: 'customer', type: 'String' } }])).toEqual(['A.archive', 'B.archive']);
    expect(await sortedBy([{ sortBy: 'executionVariable', sortOrder: 'desc', parameters: { variable: 'amount', type: 'Integer' } }])).toHaveLength(2);
    const byNote = await rest.request('POST', '/task', { json: { taskDefinitionKey: 'review', sorting: [{ sortBy: 'taskVariable', sortOrder: 'desc', parameters: { variable: 'note', type: 'String' } }] } });
    expect(byNote.body.map((task: { id: string }) => labels.get(task.id))).toEqual(['A.review', 'B.review']);
    const noName = await rest.request('POST', '/task', { json: { sorting: [{ sortBy: 'processVariable', sortOrder: 'asc', parameters: { type: 'String' } }] } });
    expect([noName.status, noName.body.message]).toEqual([500, 'variableName is null']);
    const caseInsensitive = await rest.request('GET', '/task', { query: { sortBy: 'nameCaseInsensitive', sortOrder: 'asc', processInstanceBusinessKey: 'order-1' } });
    expect(caseInsensitive.body.map((task: { id: string }) => labels.get(task.id))).toEqual(['A.approve', 'A.archive', 'A.review']);
    expect((await rest.request('GET', '/task', { query: { sortBy: 'tenantId', sortOrder: 'asc' } })).status).toBe(200);
  });

  it("refuses Camunda's invalid combinations and applies its precedences", async () => {
    const failure = async (json: Record<string, unknown>) => {
      const response = await rest.request('POST', '/task', { json });
      return [response.status, response.body.message];
    };
    expect(await failure({ tenantIdIn: ['t'], withoutTenantId: true })).toEqual([500, 'Invalid query usage: cannot set both tenantIdIn and withoutTenantId filters.']);
    expect(await failure({ dueBefore: T0, withoutDueDate: true })).toEqual([500, 'Invalid query usage: cannot set both due date (equal to, before, or after) and withoutDueDate filters.']);
    expect(await failure({ orQueries: [{ withCandidateGroups: true }] })).toEqual([500, "Invalid query usage: cannot set withCandidateGroups() within 'or' query"]);
    expect(await failure({ candidateGroups: [] })).toEqual([500, 'Candidate group list is empty']);
    expect(await failure({ candidateUser: 'mary', candidateGroups: ['sales'] })).toEqual([500, 'Invalid query usage: cannot set both candidateGroupIn and candidateUser']);
    expect(await failure({ candidateUser: 'mary', candidateGroup: 'sales' })).toEqual([500, 'Invalid query usage: cannot set both candidateUser and candidateGroup']);
    // An empty id list filters nothing; both "without" candidate kinds: no candidate at all.
    expect((await post({ taskIdIn: [] })).length).toBe(7);
    expect(await post({ withoutCandidateGroups: true, withoutCandidateUsers: true })).toEqual([]);
    // Camunda's deprecated `due` is dueDate.
    expect(await get({ due: '2026-02-01T10:00:00.000+0000' })).toEqual(['A.approve']);
  });

  it('refuses criteria it does not support yet, and values that do not convert', async () => {
    const refused: Array<Record<string, string | boolean>> = [
      { caseInstanceId: 'x' },
      { dueDate: 'tomorrow' }, { priority: 'high' }, { delegationState: 'DONE' },
    ];
    for (const query of refused) {
      const response = await rest.request('GET', '/task', { query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.type).toBe('InvalidRequestException');
    }
    // Expressions only in stored queries (filters), as Camunda's default configuration has it.
    const adhoc: Array<Record<string, string>> = [{ dueDateExpression: '${now()}' }, { processInstanceBusinessKeyExpression: '${x}' }];
    for (const query of adhoc) {
      const response = await rest.request('GET', '/task', { query });
      expect(response.body).toEqual({ type: 'BadUserRequestException', message: 'Expressions are forbidden in adhoc queries. This behavior can be toggled in the process engine configuration', code: 0 });
    }
    for (const json of [
      { caseInstanceId: 'x' }, { assigneeExpression: '${currentUser()}' }, { orQueries: { name: 'x' } }, { dueDate: true }, { processVariables: 'customer_eq_Acme' },
      { assigned: 'yes' }, { priority: '5.5' }, { nameLike: { like: 'x' } },
    ]) {
      const response = await rest.request('POST', '/task', { json });
      expect(response.status, JSON.stringify(json)).toBe(400);
    }
    // A value Jackson cannot bind: Camunda's JsonMappingExceptionHandler, 400 with an empty message.
    for (const json of [{ assigned: 'yes' }, { priority: '5.5' }, { nameLike: { like: 'x' } }]) {
      expect((await rest.request('POST', '/task', { json })).body).toEqual({ type: 'InvalidRequestException', message: '', code: null });
    }
  });

  it("takes a query body's values as Jackson coerces them: text for booleans and numbers, numbers and dates from text and epoch milliseconds", async () => {
    const ids = async (json: Record<string, unknown>) => ((await rest.request('POST', '/task', { json })).body as Array<{ id: string }>).map((task) => task.id).sort();
    const pairs: Array<[Record<string, unknown>, Record<string, unknown>]> = [
      [{ assigned: 'true' }, { assigned: true }],
      [{ unassigned: 'TRUE', withCandidateGroups: 'True' }, { unassigned: true, withCandidateGroups: true }],
      [{ priority: '80' }, { priority: 80 }],
      [{ minPriority: 79.9 }, { minPriority: 79 }],
      [{ dueBefore: Date.parse('2026-02-02T00:00:00Z') }, { dueBefore: '2026-02-02T00:00:00.000+0000' }],
      [{ processInstanceBusinessKeyIn: ['order-1', 2] }, { processInstanceBusinessKeyIn: ['order-1', '2'] }],
    ];
    for (const [coerced, typed] of pairs) {
      const expected = await ids(typed);
      expect(expected.length, JSON.stringify(typed)).toBeGreaterThan(0);
      expect(await ids(coerced), JSON.stringify(coerced)).toEqual(expected);
    }
    // Blank text and "null" bind as null into a Boolean, Integer or Date (Jackson's scalar coercions):
    // the criterion is not set. A String keeps its empty text.
    const all = await ids({});
    expect(all.length).toBeGreaterThan(1);
    for (const json of [{ assigned: '' }, { unassigned: ' ' }, { priority: 'null' }, { minPriority: '  ' }, { dueBefore: '' }, { createdAfter: ' null ' }]) {
      expect(await ids(json), JSON.stringify(json)).toEqual(all);
    }
    expect(await ids({ assigned: ' true ' })).toEqual(await ids({ assigned: true }));
    expect(await ids({ name: '' })).toEqual([]);
  });
});
