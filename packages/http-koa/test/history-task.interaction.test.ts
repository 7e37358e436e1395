import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

const MODEL = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="approval" name="Approval" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="review" />
    <bpmn:userTask id="review" name="Review" camunda:assignee="mary" camunda:candidateGroups="sales" />
    <bpmn:sequenceFlow id="f2" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
  <bpmn:process id="other" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="oStart" />
    <bpmn:sequenceFlow id="o1" sourceRef="oStart" targetRef="check" />
    <bpmn:userTask id="check" name="Check" />
    <bpmn:sequenceFlow id="o2" sourceRef="check" targetRef="oEnd" />
    <bpmn:endEvent id="oEnd" />
  </bpmn:process>
</bpmn:definitions>`;

type Headers = Record<string, string> | undefined;
const get = (path: string, query: Record<string, string | number | boolean> = {}, headers?: Headers) => rest.request('GET', path, { query, headers });
const post = (path: string, json: unknown, query: Record<string, string | number | boolean> = {}, headers?: Headers) =>
  rest.request('POST', path, { json, query, headers });

async function deployAndStart(headers?: Headers) {
  await rest.engine.deployment.deploy({ resources: [{ name: 'model.bpmn', bytes: Buffer.from(MODEL) }] });
  const start = async (key: string, businessKey: string) =>
    (await post(`/process-definition/key/${key}/start`, { businessKey }, {}, headers)).body.id as string;
  const approval = await start('approval', 'A-1');
  rest.engine.clock.advance(60_000);
  const other = await start('other', 'O-2');
  const [task] = (await get('/task', { processInstanceId: approval }, headers)).body;
  return { approval, other, taskId: task.id as string };
}

const names = (body: Array<{ name: string }>) => body.map((each) => each.name);

describe('the Historic Task Instance and Identity Link Log groups', () => {
  let started: Awaited<ReturnType<typeof deployAndStart>>;

  beforeEach(async () => {
    rest = await startRestHarness();
    started = await deployAndStart();
  });
  afterEach(async () => rest.close());

  it('lists a completed task as HistoricTaskInstanceDto', async () => {
    rest.engine.clock.advance(2_500);
    await post(`/task/${started.taskId}/complete`, {});

    const response = await get('/history/task', { processInstanceId: started.approval });

    expect(response.status).toBe(200);
    expect(response.body).toEqual([
      {
        id: started.taskId,
        processDefinitionKey: 'approval',
        processDefinitionId: expect.stringMatching(/^approval:1:/),
        processInstanceId: started.approval,
        executionId: expect.any(String),
        caseDefinitionKey: null,
        caseDefinitionId: null,
        caseInstanceId: null,
        caseExecutionId: null,
        activityInstanceId: expect.stringMatching(/^review:/),
        name: 'Review',
        description: null,
        deleteReason: 'completed',
        owner: null,
        assignee: 'mary',
        startTime: expect.any(String),
        endTime: expect.any(String),
        duration: 62_500,
        taskDefinitionKey: 'review',
        priority: 50,
        due: null,
        parentTaskId: null,
        followUp: null,
        tenantId: null,
        // The root ended: end time + its definition's time to live (removal time strategy end).
        removalTime: expect.any(String),
        rootProcessInstanceId: started.approval,
        taskState: 'Completed',
      },
    ]);
  });

  it('filters, sorts, pages and counts historic tasks by GET and by POST', async () => {
    await post(`/task/${started.taskId}/complete`, {});

    expect(names((await get('/history/task', { finished: true })).body)).toEqual(['Review']);
    expect(names((await get('/history/task', { unassigned: true })).body)).toEqual(['Check']);
    expect(names((await get('/history/task', { processInstanceBusinessKeyIn: 'O-2,X' })).body)).toEqual(['Check']);
    expect(names((await get('/history/task', { taskNameLike: 'Rev%', processFinished: true })).body)).toEqual(['Review']);
    expect(names((await get('/history/task', { taskHadCandidateGroup: 'sales' })).body)).toEqual(['Review']);
    expect(names((await get('/history/task', { sortBy: 'startTime', sortOrder: 'desc', firstResult: 0, maxResults: 1 })).body)).toEqual(['Check']);
    expect((await get('/history/task/count', { taskDefinitionKeyIn: 'review,check', taskPriority: 50 })).body).toEqual({ count: 2 });
    expect((await post('/history/task/count', { taskAssignee: 'mary', taskDeleteReason: 'completed' })).body).toEqual({ count: 1 });
    const posted = await post('/history/task', { processDefinitionKey: 'other', sorting: [{ sortBy: 'taskName', sortOrder: 'asc' }] }, { maxResults: 5 });
    expect(posted.status).toBe(200);
    expect(names(posted.body)).toEqual(['Check']);
  });

  it('logs identity link changes and serves them as HistoricIdentityLinkLogDto', async () => {
    await post(`/task/${started.taskId}/assignee`, { userId: 'john' });
    await post(`/task/${started.taskId}/identity-links`, { userId: 'fozzie', type: 'candidate' });

    const response = await get('/history/identity-link-log', { taskId: started.taskId, sortBy: 'time', sortOrder: 'asc' });

    expect(response.status).toBe(200);
    expect(response.body).toHaveLength(5);
    expect(response.body).toContainEqual({
      id: expect.any(String),
      time: expect.any(String),
      type: 'candidate',
      userId: 'fozzie',
      groupId: null,
      taskId: started.taskId,
      processDefinitionId: expect.stringMatching(/^approval:1:/),
      processDefinitionKey: 'approval',
      operationType: 'add',
      assignerId: null,
      tenantId: null,
      removalTime: null,
      rootProcessInstanceId: started.approval,
    });
    expect((await get('/history/identity-link-log/count', { type: 'assignee', operationType: 'delete', userId: 'mary' })).body).toEqual({ count: 1 });
    expect((await get('/history/identity-link-log/count', { groupId: 'sales' })).body).toEqual({ count: 1 });
    expect((await get('/history/task/count', { taskInvolvedUser: 'fozzie' })).body).toEqual({ count: 1 });
  });

  it('deletes the task history with its historic process instance', async () => {
    await post(`/task/${started.taskId}/complete`, {});

    const deleted = await rest.request('DELETE', `/history/process-instance/${started.approval}`);

    expect(deleted.status).toBe(204);
    expect((await get('/history/task/count', { processInstanceId: started.approval })).body).toEqual({ count: 0 });
    expect((await get('/history/identity-link-log/count', { taskId: started.taskId })).body).toEqual({ count: 0 });
    expect((await get('/history/task/count')).body).toEqual({ count: 1 });
  });

  it('reports finished tasks counted by task name or definition, and their durations by month and quarter', async () => {
    rest.engine.clock.advance(4_000);
    await post(`/task/${started.taskId}/complete`, {});
    const [check] = (await get('/task', { processInstanceId: started.other })).body;
    rest.engine.clock.advance(6_000);
    await post(`/task/${check.id}/complete`, {});

    const byName = await get('/history/task/report', { reportType: 'count', groupBy: 'taskName' });
    const byDefinition = await get('/history/task/report', { reportType: 'count', groupBy: 'processDefinition', completedAfter: '2000-01-01T00:00:00.000+0000' });
    const monthly = await get('/history/task/report', { reportType: 'duration', periodUnit: 'month' });
    const quarterly = await get('/history/task/report', { reportType: 'duration', periodUnit: 'QUARTER', completedBefore: '2000-01-01T00:00:00.000+0000' });

    expect(byName.status).toBe(200);
    expect(byName.body).toEqual([
      { count: 1, taskName: 'Check', processDefinitionKey: 'other', processDefinitionId: expect.stringMatching(/^other:1:/), processDefinitionName: null, tenantId: null },
      { count: 1, taskName: 'Review', processDefinitionKey: 'approval', processDefinitionId: expect.stringMatching(/^approval:1:/), processDefinitionName: 'Approval', tenantId: null },
    ]);
    expect(byDefinition.body.map((row: { processDefinitionKey: string; taskName: null; count: number }) => [row.processDefinitionKey, row.taskName, row.count])).toEqual([
      ['other', null, 1],
      ['approval', null, 1],
    ]);
    const month = new Date(rest.engine.clock.now()).getUTCMonth() + 1;
    expect(monthly.body).toEqual([{ period: month, periodUnit: 'MONTH', minimum: 10_000, maximum: 64_000, average: 37_000 }]);
    expect(quarterly.body).toEqual([]);
  });

  it('refuses a task report without a valid type, group or period unit as Camunda does', async () => {
    const cases = [
      [{}, 'Parameter reportType is not set.'],
      [{ reportType: 'sum' }, 'reportType parameter has invalid value: sum'],
      [{ reportType: 'count' }, 'groupBy parameter has invalid value: null'],
      [{ reportType: 'duration' }, 'periodUnit is null'],
    ] as const;
    for (const [query, message] of cases) {
      const response = await get('/history/task/report', query);
      expect([response.status, response.body]).toEqual([400, { type: 'InvalidRequestException', message, code: null }]);
    }
  });

  it("filters by the task's own historic variables and its process instance's", async () => {
    await post(`/task/${started.taskId}/localVariables`, { modifications: { verdict: { value: 'ok', type: 'String' } } });
    await post(`/process-instance/${started.approval}/variables`, { modifications: { amount: { value: 300, type: 'Integer' } } });
    await post(`/task/${started.taskId}/complete`, {});

    expect(names((await get('/history/task', { taskVariables: 'verdict_eq_ok' })).body)).toEqual(['Review']);
    expect(names((await get('/history/task', { processVariables: 'verdict_eq_ok' })).body)).toEqual([]);
    expect(names((await post('/history/task', { processVariables: [{ name: 'amount', operator: 'gteq', value: 300 }] })).body)).toEqual(['Review']);
    expect(names((await post('/history/task', { taskVariables: [{ name: 'VERDICT', operator: 'eq', value: 'OK' }], variableNamesIgnoreCase: true, variableValuesIgnoreCase: true })).body)).toEqual(['Review']);
    // notLike and neq negate like and eq: an Integer is not like the text '300'; the variable must exist.
    expect(names((await post('/history/task', { processVariables: [{ name: 'amount', operator: 'notLike', value: 300 }] })).body)).toEqual(['Review']);
    expect(names((await post('/history/task', { processVariables: [{ name: 'amount', operator: 'neq', value: 300 }] })).body)).toEqual([]);
    // Camunda's HistoricTaskInstanceQueryDto takes task variables only by equality, process variables by any comparison.
    const neq = await get('/history/task/count', { taskVariables: 'verdict_neq_ok' });
    expect([neq.status, neq.body]).toEqual([400, { type: 'InvalidRequestException', message: 'Invalid variable comparator specified: neq', code: null }]);
    const bad = await post('/history/task', { processVariables: [{ name: 'amount', operator: 'almost', value: 300 }] });
    expect([bad.status, bad.body.message]).toEqual([400, 'Invalid process variable comparator specified: almost']);
  });

  it('finds tasks matching any criterion of an or-query, as Camunda\'s or()', async () => {
    await post(`/task/${started.taskId}/complete`, {});
    const find = async (body: unknown) => names((await post('/history/task', body)).body).sort();

    // Names compare ignoring case, in or-queries as elsewhere.
    expect(await find({ taskName: 'REVIEW' })).toEqual(['Review']);
    expect(await find({ orQueries: [{ taskName: 'review', taskDefinitionKey: 'check' }] })).toEqual(['Check', 'Review']);
    expect(await find({ finished: true, orQueries: [{ taskName: 'review', taskDefinitionKey: 'check' }] })).toEqual(['Review']);
    // Two or-queries must both hold; an empty one holds always.
    expect(await find({ orQueries: [{ taskAssignee: 'mary', unassigned: true }, { processFinished: true }] })).toEqual(['Review']);
    expect(await find({ orQueries: [{}] })).toEqual(['Check', 'Review']);
    expect(await find({ orQueries: [{ taskHadCandidateGroup: 'nobody', processInstanceBusinessKeyIn: ['O-2'] }] })).toEqual(['Check']);
    expect(await find({ orQueries: [{ taskVariables: [{ name: 'nothing', operator: 'eq', value: 1 }], processUnfinished: true }] })).toEqual(['Check']);
    expect((await post('/history/task/count', { orQueries: [{ taskName: 'nothing', taskOwner: 'nobody' }] })).body).toEqual({ count: 0 });

    const candidates = await post('/history/task', { orQueries: [{ withCandidateGroups: true }] });
    expect([candidates.status, candidates.body.message]).toEqual([500, "Invalid query usage: cannot set withCandidateGroups() within 'or' query"]);
    const nested = await post('/history/task', { orQueries: [{ orQueries: [{ taskName: 'x' }] }] });
    // Camunda's DTO attaches or-queries inside an or-query to it, where its mapping never reads them: ignored.
    expect(nested.body.length).toBe((await post('/history/task', {})).body.length);
    // Due date and no due date exclude each other in the query itself, not in an or-query.
    const due = await post('/history/task', { taskDueDateBefore: '2030-01-01T00:00:00.000+0000', withoutTaskDueDate: true });
    expect([due.status, due.body.message]).toEqual([500, 'Invalid query usage: cannot set both task due date (equal to, before, or after) and withoutTaskDueDate filters.']);
    expect(await find({ orQueries: [{ taskDueDateBefore: '2030-01-01T00:00:00.000+0000', withoutTaskDueDate: true }] })).toEqual(['Check', 'Review']);
  });

  it('refuses bad and not yet supported parameters with 400', async () => {
    const badSort = await get('/history/task', { sortBy: 'nonsense', sortOrder: 'asc' });
    const badPriority = await get('/history/task/count', { taskPriority: 'high' });
    const unsupported = await post('/history/task', { caseInstanceId: 'x' });
    const badLogSort = await get('/history/identity-link-log', { sortBy: 'nonsense', sortOrder: 'asc' });

    expect(badSort.status).toBe(400);
    expect(badSort.body).toEqual({ type: 'InvalidRequestException', message: "Cannot set query parameter 'sortBy' to value 'nonsense'", code: null });
    expect(badPriority.status).toBe(400);
    expect(badPriority.body.message).toBe("Cannot set query parameter 'taskPriority' to value 'high': Cannot convert value high to java type java.lang.Integer");
    expect(unsupported.status).toBe(400);
    expect(unsupported.body.message).toBe("Query parameter 'caseInstanceId' is not supported by Trellis yet");
    expect(badLogSort.status).toBe(400);
  });
});

describe('task history with authorization on', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await post('/user/create', { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } }, {}, admin);
  });
  afterEach(async () => rest.close());

  it('shows tasks and log entries of definitions the user has READ_HISTORY on, and the assigner', async () => {
    const { taskId } = await deployAndStart(admin);
    await post(`/task/${taskId}/assignee`, { userId: 'john' }, {}, admin);

    expect((await get('/history/task/count', {}, admin)).body).toEqual({ count: 2 });
    expect((await get('/history/task/count', {}, jonny)).body).toEqual({ count: 0 });
    expect((await get('/history/identity-link-log/count', {}, jonny)).body).toEqual({ count: 0 });
    const report = await get('/history/task/report', { reportType: 'count', groupBy: 'taskName' }, jonny);
    expect([report.status, report.body.type]).toEqual([403, 'AuthorizationException']);
    expect((await get('/history/task/report', { reportType: 'count', groupBy: 'taskName' }, admin)).status).toBe(200);

    await post('/authorization/create', { type: 1, userId: 'jonny', resourceType: 6, resourceId: 'approval', permissions: ['READ_HISTORY'] }, {}, admin);

    expect((await get('/history/task', {}, jonny)).body.map((each: { id: string }) => each.id)).toEqual([taskId]);
    // Starting the instance as admin logged the creation's links too.
    expect((await get('/history/identity-link-log/count', { assignerId: 'admin' }, jonny)).body).toEqual({ count: 4 });
  });
});
