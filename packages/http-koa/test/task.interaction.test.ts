import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

let rest: RestHarness;

// A user task inside an embedded sub-process whose input mapping creates a variable on the
// sub-process scope: the task sees variables from two scopes (the instance and the sub-process).
const REVIEW = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="review" name="Review" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="sub" />
    <bpmn:subProcess id="sub">
      <bpmn:extensionElements>
        <camunda:inputOutput>
          <camunda:inputParameter name="limit">\${amount * 2}</camunda:inputParameter>
        </camunda:inputOutput>
      </bpmn:extensionElements>
      <bpmn:startEvent id="subStart" />
      <bpmn:sequenceFlow id="s1" sourceRef="subStart" targetRef="check" />
      <bpmn:userTask id="check" name="Check" camunda:formKey="embedded:app:forms/check.html" camunda:candidateGroups="sales" camunda:candidateUsers="mary" />
      <bpmn:sequenceFlow id="s2" sourceRef="check" targetRef="subEnd" />
      <bpmn:endEvent id="subEnd" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="sub" targetRef="after" />
    <bpmn:userTask id="after" name="After" />
    <bpmn:sequenceFlow id="f3" sourceRef="after" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

async function deployAndStart(harness: RestHarness, headers?: Record<string, string>) {
  await harness.engine.deployment.deploy({ resources: [{ name: 'review.bpmn', bytes: Buffer.from(REVIEW) }] });
  const started = await harness.request('POST', '/process-definition/key/review/start', {
    json: { variables: { amount: { value: 50, type: 'Integer' }, customer: { value: 'acme', type: 'String' } } },
    headers,
  });
  expect(started.status).toBe(200);
  const tasks = await harness.engine.task.findTasks({ processInstanceId: started.body.id });
  expect(tasks.map((task) => task.taskDefinitionKey)).toEqual(['check']);
  return { instanceId: started.body.id as string, taskId: tasks[0].id };
}

const int = (value: number) => ({ type: 'Integer', value, valueInfo: {} });
const str = (value: string) => ({ type: 'String', value, valueInfo: {} });

/** A process `key`: start → user task `decide` with these extension elements → user task `after`. */
const decideThenAfter = (key: string, extensions: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="decide" />
    <bpmn:userTask id="decide"><bpmn:extensionElements>${extensions}</bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="decide" targetRef="after" />
    <bpmn:userTask id="after" />
  </bpmn:process>
</bpmn:definitions>`;

describe('the Task group', () => {
  let instanceId: string;
  let taskId: string;

  beforeEach(async () => {
    rest = await startRestHarness();
    ({ instanceId, taskId } = await deployAndStart(rest));
  });
  afterEach(async () => rest.close());

  it("shows the task's state: Created until its first update, then Updated (not in HAL, as Camunda's HalTask)", async () => {
    const created = await rest.request('GET', `/task/${taskId}`);
    await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'mary' } });
    const updated = await rest.request('GET', `/task/${taskId}`);
    // The 7.22 document lists only the JSON variant of this resource.
    const halResponse = await rest.request('GET', `/task/${taskId}`, { headers: { accept: 'application/hal+json' }, outsideContract: true });
    const hal = Buffer.isBuffer(halResponse.body) ? JSON.parse(halResponse.body.toString('utf8')) : halResponse.body;

    expect([created.body.taskState, created.body.lastUpdated]).toEqual(['Created', null]);
    expect([updated.body.taskState, updated.body.lastUpdated]).toEqual(['Updated', expect.any(String)]);
    expect(hal).not.toHaveProperty('taskState');
    expect(hal).toMatchObject({ id: taskId, assignee: 'mary', _links: { processDefinition: expect.any(Object) }, _embedded: { processDefinition: [expect.objectContaining({ key: 'review' })] } });
    expect(halResponse.headers.get('content-type')).toMatch(/^application\/hal\+json/);
  });

  it('tells whether the task has comments and attachments when asked', async () => {
    await rest.request('POST', `/task/${taskId}/comment/create`, { json: { message: 'looks fine' } });
    const plain = await rest.request('GET', `/task/${taskId}`);
    const withInfo = await rest.request('GET', `/task/${taskId}`, { query: { withCommentAttachmentInfo: 'true' } });

    expect(plain.body).not.toHaveProperty('comment');
    expect(withInfo.body).toMatchObject({ id: taskId, comment: true, attachment: false });
  });

  describe('variables', () => {
    it('shows the variables of both scopes, and the task-local ones only under localVariables', async () => {
      const put = await rest.request('PUT', `/task/${taskId}/localVariables/note`, { json: { value: 'local', type: 'String' } });
      const all = await rest.request('GET', `/task/${taskId}/variables`);
      const local = await rest.request('GET', `/task/${taskId}/localVariables`);
      const one = await rest.request('GET', `/task/${taskId}/variables/limit`);
      const localOne = await rest.request('GET', `/task/${taskId}/localVariables/note`);
      const notLocal = await rest.request('GET', `/task/${taskId}/localVariables/limit`);
      const instance = await rest.request('GET', `/process-instance/${instanceId}/variables`);

      expect(put.status).toBe(204);
      expect(all.body).toEqual({ amount: int(50), customer: str('acme'), limit: int(100), note: str('local') });
      expect(local.body).toEqual({ note: str('local') });
      expect(one.body).toEqual(int(100));
      expect(localOne.body).toEqual(str('local'));
      expect(notLocal.status).toBe(404);
      expect(notLocal.body).toEqual({ type: 'InvalidRequestException', message: 'task variable with name limit does not exist', code: null });
      // The task-local variable is not the instance's, nor is the sub-process one.
      expect(instance.body).toEqual({ amount: int(50), customer: str('acme') });
      // Its variable scope is the task (Camunda's VAR_SCOPE_), not the task's execution.
      const { executionId } = (await rest.request('GET', `/task/${taskId}`)).body;
      const names = async (scope: string) => ((await rest.request('GET', '/variable-instance', { query: { variableScopeIdIn: scope } })).body as Array<{ name: string }>).map((each) => each.name);
      expect(await names(taskId)).toEqual(['note']);
      expect(await names(executionId)).not.toContain('note');
    });

    it('sets variables where they live, else on the process instance, and removes them there', async () => {
      await rest.request('PUT', `/task/${taskId}/localVariables/note`, { json: { value: 'local', type: 'String' } });
      const modified = await rest.request('POST', `/task/${taskId}/variables`, {
        json: {
          modifications: { limit: { value: 7, type: 'Integer' }, note: { value: 'changed', type: 'String' }, fresh: { value: true, type: 'Boolean' } },
          deletions: ['customer'],
        },
      });
      const local = await rest.request('GET', `/task/${taskId}/localVariables`);
      const instance = await rest.request('GET', `/process-instance/${instanceId}/variables`);
      const all = await rest.request('GET', `/task/${taskId}/variables`);

      expect(modified.status).toBe(204);
      expect(local.body).toEqual({ note: str('changed') });
      // limit stayed on the sub-process scope (not visible on the instance), fresh went to the instance, customer is gone.
      expect(instance.body).toEqual({ amount: int(50), fresh: { type: 'Boolean', value: true, valueInfo: {} } });
      expect(all.body).toEqual({ amount: int(50), fresh: { type: 'Boolean', value: true, valueInfo: {} }, limit: int(7), note: str('changed') });

      const put = await rest.request('PUT', `/task/${taskId}/variables/amount`, { json: { value: 60, type: 'Integer' } });
      const deleted = await rest.request('DELETE', `/task/${taskId}/variables/note`);
      expect(put.status).toBe(204);
      expect(deleted.status).toBe(204);
      expect((await rest.request('GET', `/process-instance/${instanceId}/variables`)).body.amount).toEqual(int(60));
      expect((await rest.request('GET', `/task/${taskId}/localVariables`)).body).toEqual({});
    });

    it('modifies and deletes local variables without touching the execution', async () => {
      const modified = await rest.request('POST', `/task/${taskId}/localVariables`, {
        json: { modifications: { amount: { value: 1, type: 'Long' }, note: { value: 'x', type: 'String' } } },
      });
      const shadowed = await rest.request('GET', `/task/${taskId}/variables/amount`);
      const deleted = await rest.request('DELETE', `/task/${taskId}/localVariables/amount`);
      const deletedAgain = await rest.request('POST', `/task/${taskId}/localVariables`, { json: { deletions: ['amount', 'unknown'] } });
      const visible = await rest.request('GET', `/task/${taskId}/variables/amount`);

      expect(modified.status).toBe(204);
      expect(shadowed.body).toEqual({ type: 'Long', value: 1, valueInfo: {} });
      expect(deleted.status).toBe(204);
      expect(deletedAgain.status).toBe(204);
      expect(visible.body).toEqual(int(50));
      expect((await rest.request('GET', `/task/${taskId}/localVariables`)).body).toEqual({ note: str('x') });
    });

    it('answers 400 for a value it cannot convert, naming the variable', async () => {
      const response = await rest.request('PUT', `/task/${taskId}/variables/amount`, { json: { value: 'abc', type: 'Integer' } });
      expect(response.status).toBe(400);
      expect(response.body.message).toMatch(/^Cannot put task variable amount: /);
      expect((await rest.request('GET', `/task/${taskId}/variables/amount`)).body).toEqual(int(50));
    });

    it('deletes the task-local variables when the task completes', async () => {
      await rest.request('PUT', `/task/${taskId}/localVariables/note`, { json: { value: 'local', type: 'String' } });
      const completed = await rest.request('POST', `/task/${taskId}/complete`, { json: {} });
      const variableInstances = await rest.request('GET', '/variable-instance', { query: { processInstanceIdIn: instanceId } });

      expect(completed.status).toBe(204);
      expect(variableInstances.body.map((variable: any) => variable.name).sort()).toEqual(['amount', 'customer']);
    });
  });

  describe('forms', () => {
    it('answers the form key, the form variables and submits the form with the variables in return', async () => {
      await rest.request('PUT', `/task/${taskId}/localVariables/note`, { json: { value: 'local', type: 'String' } });
      const form = await rest.request('GET', `/task/${taskId}/form`);
      const formVariables = await rest.request('GET', `/task/${taskId}/form-variables`);
      const some = await rest.request('GET', `/task/${taskId}/form-variables`, { query: { variableNames: 'limit,note,unknown' } });

      expect(form.body).toEqual({ key: 'embedded:app:forms/check.html', camundaFormRef: null, contextPath: null });
      expect(formVariables.body).toEqual({ amount: int(50), customer: str('acme'), limit: int(100), note: str('local') });
      expect(some.body).toEqual({ limit: int(100), note: str('local') });

      const submitted = await rest.request('POST', `/task/${taskId}/submit-form`, {
        json: { variables: { approved: { value: true, type: 'Boolean' }, limit: { value: 3, type: 'Integer' } }, withVariablesInReturn: true },
      });
      const tasks = await rest.request('GET', '/task', { query: { processInstanceId: instanceId } });

      expect(submitted.status).toBe(200);
      // limit went to the sub-process scope, which has ended; approved went to the instance.
      expect(submitted.body).toEqual({ amount: int(50), customer: str('acme'), approved: { type: 'Boolean', value: true, valueInfo: {} } });
      expect(tasks.body.map((task: any) => task.taskDefinitionKey)).toEqual(['after']);
    });

    it('evaluates a form key expression when the task is read, on its variables (its own over its execution\'s), as Camunda', async () => {
      const model = REVIEW.replace('id="review" name="Review"', 'id="keyed"').replace('camunda:formKey="embedded:app:forms/check.html"', 'camunda:formKey="embedded:app:forms/${customer}.html"');
      await rest.engine.deployment.deploy({ resources: [{ name: 'keyed.bpmn', bytes: Buffer.from(model) }] });
      const started = await rest.request('POST', '/process-definition/key/keyed/start', { json: { variables: { amount: { value: 1, type: 'Integer' }, customer: { value: 'acme', type: 'String' } } } });
      const [task] = await rest.engine.task.findTasks({ processInstanceId: started.body.id });
      const formKeys = async () => [
        (await rest.request('GET', `/task/${task!.id}`)).body.formKey,
        (await rest.request('GET', `/task?processInstanceId=${started.body.id}`)).body[0].formKey,
        (await rest.request('GET', `/task/${task!.id}/form`)).body.key,
      ];
      expect(await formKeys()).toEqual(Array(3).fill('embedded:app:forms/acme.html'));

      await rest.request('PUT', `/process-instance/${started.body.id}/variables/customer`, { json: { value: 'globex', type: 'String' } });
      expect(await formKeys()).toEqual(Array(3).fill('embedded:app:forms/globex.html'));
      await rest.request('PUT', `/task/${task!.id}/localVariables/customer`, { json: { value: 'initech', type: 'String' } });
      expect(await formKeys()).toEqual(Array(3).fill('embedded:app:forms/initech.html'));
    });

    it('serves the deployed form its form key names (HTML, or JSON for Camunda Forms), 400 for a key that names none', async () => {
      const withForms = (formKey: string) =>
        REVIEW.replace('id="review" name="Review"', 'id="forms"').replace('camunda:formKey="embedded:app:forms/check.html"', `camunda:formKey="${formKey}"`);
      const deployed = async (formKey: string, file: { name: string; content: string }) => {
        await rest.engine.deployment.deploy({ resources: [{ name: 'forms.bpmn', bytes: Buffer.from(withForms(formKey)) }, { name: file.name, bytes: Buffer.from(file.content) }] });
        const started = await rest.request('POST', '/process-definition/key/forms/start', { json: { variables: { amount: { value: 1, type: 'Integer' } } } });
        return (await rest.engine.task.findTasks({ processInstanceId: started.body.id }))[0].id;
      };
      const htmlTask = await deployed('embedded:deployment:forms/check.html', { name: 'forms/check.html', content: '<form>check</form>' });
      const jsonTask = await deployed('camunda-forms:deployment:forms/check.form', { name: 'forms/check.form', content: '{"id":"check","components":[]}' });
      const goneTask = await deployed('embedded:deployment:forms/gone.html', { name: 'forms/other.html', content: '<form />' });

      // The contract documents the form files as a binary string; their content is checked here.
      const html = await rest.request('GET', `/task/${htmlTask}/deployed-form`, { outsideContract: true });
      const json = await rest.request('GET', `/task/${jsonTask}/deployed-form`, { outsideContract: true });
      const notDeployed = await rest.request('GET', `/task/${taskId}/deployed-form`);
      const gone = await rest.request('GET', `/task/${goneTask}/deployed-form`);
      const unknown = await rest.request('GET', '/task/nope/deployed-form');

      expect(html.status).toBe(200);
      expect(html.headers.get('content-type')).toContain('application/xhtml+xml');
      expect(html.body.toString()).toBe('<form>check</form>');
      expect(json.body).toEqual({ id: 'check', components: [] });
      expect(json.headers.get('content-type')).toBe('application/json');
      expect(notDeployed.status).toBe(400);
      expect(notDeployed.body).toEqual({ type: 'InvalidRequestException', message: "The form key 'embedded:app:forms/check.html' does not reference a deployed form.", code: null });
      expect(gone.status).toBe(404);
      expect(gone.body.message).toMatch(/^The form with the resource name 'forms\/gone.html' cannot be found in deployment with id /);
      expect(unknown.status).toBe(400);
      expect(unknown.body.message).toBe("No task found for taskId 'nope': task is null");

      // A user task's camunda:formRef shows in its form (Camunda's FormDto.camundaFormRef).
      await rest.engine.deployment.deploy({ resources: [{ name: 'ref.bpmn', bytes: Buffer.from(REVIEW.replace('id="review" name="Review"', 'id="refd"').replace('camunda:formKey="embedded:app:forms/check.html"', 'camunda:formRef="invoice" camunda:formRefBinding="version" camunda:formRefVersion="2"')) }] });
      const refStarted = await rest.request('POST', '/process-definition/key/refd/start', { json: { variables: { amount: { value: 1, type: 'Integer' } } } });
      const [refTask] = await rest.engine.task.findTasks({ processInstanceId: refStarted.body.id });
      expect((await rest.request('GET', `/task/${refTask.id}/form`)).body).toEqual({ key: null, camundaFormRef: { key: 'invoice', binding: 'version', version: 2 }, contextPath: null });
    });

    it('submits without a body in return', async () => {
      const submitted = await rest.request('POST', `/task/${taskId}/submit-form`, { json: {} });
      expect(submitted.status).toBe(204);
      expect((await rest.engine.task.findTasks({ processInstanceId: instanceId })).map((task) => task.taskDefinitionKey)).toEqual(['after']);
    });
  });

  describe('assignment and delegation', () => {
    it('delegates to another user and resolves back to the owner', async () => {
      await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'john' } });
      const delegated = await rest.request('POST', `/task/${taskId}/delegate`, { json: { userId: 'mary' } });
      const pending = await rest.request('GET', `/task/${taskId}`);
      const resolved = await rest.request('POST', `/task/${taskId}/resolve`, { json: { variables: { checked: { value: 'yes', type: 'String' } } } });
      const after = await rest.request('GET', `/task/${taskId}`);

      expect(delegated.status).toBe(204);
      expect(pending.body).toMatchObject({ assignee: 'mary', owner: 'john', delegationState: 'PENDING' });
      expect(resolved.status).toBe(204);
      expect(after.body).toMatchObject({ assignee: 'john', owner: 'john', delegationState: 'RESOLVED' });
      // The task stays; the variable went to the process instance.
      expect((await rest.request('GET', `/process-instance/${instanceId}/variables`)).body.checked).toEqual(str('yes'));
    });

    it('resolves a pending delegated task on submit-form instead of completing it', async () => {
      await rest.request('POST', `/task/${taskId}/assignee`, { json: { userId: 'john' } });
      await rest.request('POST', `/task/${taskId}/delegate`, { json: { userId: 'mary' } });
      const submitted = await rest.request('POST', `/task/${taskId}/submit-form`, { json: {} });
      const task = await rest.request('GET', `/task/${taskId}`);

      expect(submitted.status).toBe(204);
      expect(task.body).toMatchObject({ assignee: 'john', delegationState: 'RESOLVED' });
    });

    it('unclaims a task', async () => {
      await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'john' } });
      const unclaimed = await rest.request('POST', `/task/${taskId}/unclaim`);
      const task = await rest.request('GET', `/task/${taskId}`);

      expect(unclaimed.status).toBe(204);
      expect(task.body.assignee).toBeNull();
    });
  });

  describe('identity links', () => {
    it('lists candidates, then assignee and owner, filters by type, adds and deletes links', async () => {
      await rest.request('POST', `/task/${taskId}/assignee`, { json: { userId: 'john' } });
      const addedGroup = await rest.request('POST', `/task/${taskId}/identity-links`, { json: { groupId: 'management', type: 'candidate' } });
      const addedOwner = await rest.request('POST', `/task/${taskId}/identity-links`, { json: { userId: 'boss', type: 'owner' } });
      const links = await rest.request('GET', `/task/${taskId}/identity-links`);
      const candidates = await rest.request('GET', `/task/${taskId}/identity-links`, { query: { type: 'candidate' } });

      expect(addedGroup.status).toBe(204);
      expect(addedOwner.status).toBe(204);
      expect(links.body).toEqual([
        { userId: 'mary', groupId: null, type: 'candidate' },
        { userId: null, groupId: 'sales', type: 'candidate' },
        { userId: null, groupId: 'management', type: 'candidate' },
        { userId: 'john', groupId: null, type: 'assignee' },
        { userId: 'boss', groupId: null, type: 'owner' },
      ]);
      expect([...candidates.body].sort(byLink)).toEqual([
        { userId: 'mary', groupId: null, type: 'candidate' },
        { userId: null, groupId: 'sales', type: 'candidate' },
        { userId: null, groupId: 'management', type: 'candidate' },
      ].sort(byLink));
      expect((await rest.request('GET', `/task/${taskId}`)).body.owner).toBe('boss');

      const deletedUser = await rest.request('POST', `/task/${taskId}/identity-links/delete`, { json: { userId: 'mary', type: 'candidate' } });
      const deletedAssignee = await rest.request('POST', `/task/${taskId}/identity-links/delete`, { json: { userId: 'john', type: 'assignee' } });
      const left = await rest.request('GET', `/task/${taskId}/identity-links`);

      expect(deletedUser.status).toBe(204);
      expect(deletedAssignee.status).toBe(204);
      expect([...left.body].sort(byLink)).toEqual([
        { userId: null, groupId: 'sales', type: 'candidate' },
        { userId: null, groupId: 'management', type: 'candidate' },
        { userId: 'boss', groupId: null, type: 'owner' },
      ].sort(byLink));
      expect(await rest.engine.task.countTasks({ candidateGroup: 'management' })).toBe(1);
      expect(await rest.engine.task.countTasks({ candidateUser: 'mary' })).toBe(0);
    });

    it('stores links of a custom type or none, which no candidate criterion reads, and logs them in history', async () => {
      const watcher = await rest.request('POST', `/task/${taskId}/identity-links`, { json: { userId: 'walter', type: 'watcher' } });
      await rest.request('POST', `/task/${taskId}/identity-links`, { json: { groupId: 'auditors', type: 'watcher' } });
      await rest.request('POST', `/task/${taskId}/identity-links`, { json: { userId: 'nobody' } });

      expect(watcher.status).toBe(204);
      const links = (await rest.request('GET', `/task/${taskId}/identity-links`)).body;
      expect(links.slice(2)).toEqual([
        { userId: 'walter', groupId: null, type: 'watcher' },
        { userId: null, groupId: 'auditors', type: 'watcher' },
        { userId: 'nobody', groupId: null, type: null },
      ]);
      expect((await rest.request('GET', `/task/${taskId}/identity-links`, { query: { type: 'watcher' } })).body).toHaveLength(2);
      expect(await rest.engine.task.countTasks({ candidateUser: 'walter' })).toBe(0);
      expect(await rest.engine.task.countTasks({ candidateGroup: 'auditors' })).toBe(0);
      expect(await rest.engine.task.countTasks({ involvedUser: 'walter' })).toBe(1);
      // withoutCandidateUsers looks at candidate links only: mary is one, so the task has them.
      expect(await rest.engine.task.countTasks({ withCandidateUsers: true })).toBe(1);
      const byGroup = (await rest.request('GET', '/task/report/candidate-group-count')).body as Array<{ groupName: string | null }>;
      expect(byGroup.map((each) => each.groupName)).not.toContain('auditors');

      const removed = await rest.request('POST', `/task/${taskId}/identity-links/delete`, { json: { userId: 'walter', type: 'watcher' } });
      const wrongType = await rest.request('POST', `/task/${taskId}/identity-links/delete`, { json: { groupId: 'auditors', type: 'candidate' } });
      expect([removed.status, wrongType.status]).toEqual([204, 204]);
      expect((await rest.request('GET', `/task/${taskId}/identity-links`, { query: { type: 'watcher' } })).body).toEqual([{ userId: null, groupId: 'auditors', type: 'watcher' }]);
      const logged = (await rest.request('GET', '/history/identity-link-log', { query: { taskId, userId: 'walter' } })).body;
      expect(logged.map((each: { type: string; operationType: string }) => `${each.type} ${each.operationType}`).sort()).toEqual(['watcher add', 'watcher delete']);
      // Deleting a link that is not there logs no history (Camunda logs each link it removes).
      expect(await rest.engine.history.tasks.countIdentityLinkLogs({ taskId, groupId: 'auditors', type: 'candidate' })).toBe(0);
      // The same link added twice is there twice (Camunda's TaskEntity.addIdentityLink); deleting removes both, logging each.
      await rest.request('POST', `/task/${taskId}/identity-links`, { json: { userId: 'twice', type: 'watcher' } });
      await rest.request('POST', `/task/${taskId}/identity-links`, { json: { userId: 'twice', type: 'watcher' } });
      expect((await rest.request('GET', `/task/${taskId}/identity-links`, { query: { type: 'watcher' } })).body.filter((link: { userId: string }) => link.userId === 'twice')).toHaveLength(2);
      await rest.request('POST', `/task/${taskId}/identity-links/delete`, { json: { userId: 'twice', type: 'watcher' } });
      expect(await rest.engine.history.tasks.countIdentityLinkLogs({ taskId, userId: 'twice', operationType: 'delete' })).toBe(2);
      // Several type parameters: the first counts.
      expect((await rest.request('GET', `/task/${taskId}/identity-links?type=watcher&type=candidate`)).body).toEqual([{ userId: null, groupId: 'auditors', type: 'watcher' }]);
      // The operation log names the removed group as the new value, as Camunda's Delete…IdentityLinkCmd does.
      await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.task.deleteGroupIdentityLink(taskId, 'auditors', 'watcher'));
      const deletion = (await rest.request('GET', '/history/user-operation', { query: { taskId, operationType: 'DeleteGroupLink' } })).body;
      expect(deletion).toMatchObject([{ property: 'watcher', orgValue: null, newValue: 'auditors', userId: 'demo' }]);
    });

    it('refuses a link with both or neither of userId and groupId', async () => {
      const both = await rest.request('POST', `/task/${taskId}/identity-links`, { json: { userId: 'a', groupId: 'b', type: 'candidate' } });
      const neither = await rest.request('POST', `/task/${taskId}/identity-links/delete`, { json: { type: 'candidate' } });
      const groupAssignee = await rest.request('POST', `/task/${taskId}/identity-links`, { json: { groupId: 'b', type: 'assignee' } });
      const deleteGroupOwner = await rest.request('POST', `/task/${taskId}/identity-links/delete`, { json: { groupId: 'b', type: 'owner' } });

      expect(both.status).toBe(400);
      expect(both.body.message).toBe('Identity Link requires userId or groupId, but not both.');
      expect(neither.status).toBe(400);
      expect(neither.body.message).toBe('Identity Link requires userId or groupId.');
      // Camunda's AbstractAddIdentityLinkCmd and DeleteIdentityLinkCmd check differently (and an owner added with a group clears the owner).
      expect([groupAssignee.status, groupAssignee.body]).toEqual([400, { type: 'BadUserRequestException', message: 'Incompatible usage: cannot use ASSIGNEE together with a groupId', code: 0 }]);
      expect([deleteGroupOwner.status, deleteGroupOwner.body.type, deleteGroupOwner.body.message]).toEqual([500, 'ProcessEngineException', "Incompatible usage: cannot use type 'owner' together with a groupId"]);
      await rest.request('POST', `/task/${taskId}/identity-links`, { json: { userId: 'olga', type: 'owner' } });
      expect((await rest.request('POST', `/task/${taskId}/identity-links`, { json: { groupId: 'b', type: 'owner' } })).status).toBe(204);
      expect((await rest.request('GET', `/task/${taskId}`)).body.owner).toBeNull();
    });
  });

  it('counts unassigned tasks by candidate group, as JSON or CSV (a task with user candidates counts under no group)', async () => {
    const { taskId: assigned } = await deployAndStart(rest);
    await rest.request('POST', `/task/${assigned}/assignee`, { json: { userId: 'john' } });
    await rest.request('POST', `/task/${taskId}/identity-links`, { json: { groupId: 'management', type: 'candidate' } });

    const json = await rest.request('GET', '/task/report/candidate-group-count');
    // The harness checks JSON bodies against the contract; the CSV body is checked here.
    const csv = await rest.request('GET', '/task/report/candidate-group-count', { headers: { accept: 'text/csv' }, outsideContract: true });
    const xml = await rest.request('GET', '/task/report/candidate-group-count', { headers: { accept: 'application/xml' } });

    // No group first, as Camunda's documented example (and its H2 database) orders them.
    expect(json.body).toEqual([
      { groupName: null, taskCount: 1 },
      { groupName: 'management', taskCount: 1 },
      { groupName: 'sales', taskCount: 1 },
    ]);
    expect(csv.headers.get('content-type')).toBe('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('filename="task-count-by-candidate-group.csv"');
    expect(csv.body.toString()).toBe('CANDIDATE_GROUP_NAME,TASK_COUNT\nnull,1\nmanagement,1\nsales,1');
    expect(xml.status).toBe(406);
  });

  it('updates a task with PUT: every field as given, its history with it', async () => {
    const before = (await rest.request('GET', `/task/${taskId}`)).body;
    const put = await rest.request('PUT', `/task/${taskId}`, {
      json: { ...before, name: 'Check twice', priority: 80, assignee: 'mary', due: '2026-12-01T10:00:00.000+0000', delegationState: 'pending', description: undefined },
    });
    const after = (await rest.request('GET', `/task/${taskId}`)).body;
    const historic = (await rest.request('GET', `/history/task?taskId=${taskId}`)).body[0];
    const cleared = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'Bare' } });
    const bare = (await rest.request('GET', `/task/${taskId}`)).body;

    expect(put.status).toBe(204);
    expect(after).toMatchObject({ name: 'Check twice', priority: 80, assignee: 'mary', due: '2026-12-01T10:00:00.000+0000', delegationState: 'PENDING', description: null });
    expect(historic).toMatchObject({ name: 'Check twice', priority: 80, assignee: 'mary' });
    // What the body leaves out is cleared (priority to 0), as Camunda's TaskDto does.
    expect(cleared.status).toBe(204);
    expect(bare).toMatchObject({ name: 'Bare', priority: 0, assignee: null, due: null, delegationState: null });
  });

  it('stamps lastUpdated at every update event and filters and sorts by it (updatedAfter: updated, or never updated and created, after)', async () => {
    const fresh = (await rest.request('GET', `/task/${taskId}`)).body;
    rest.engine.clock.advance(60_000);
    const before = rest.engine.clock.now();
    rest.engine.clock.advance(1_000);
    await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'mary' } });
    const claimed = (await rest.request('GET', `/task/${taskId}`)).body;
    const since = (at: Date) => rest.request('GET', '/task', { query: { updatedAfter: at.toISOString().replace('Z', '+0000') } });

    expect(fresh.lastUpdated).toBeNull();
    expect(claimed.lastUpdated).toBe(rest.engine.clock.now().toISOString().replace('Z', '+0000'));
    expect((await since(before)).body.map((task: { id: string }) => task.id)).toEqual([taskId]);
    expect((await since(rest.engine.clock.now())).body).toEqual([]);
    expect((await rest.request('GET', '/task', { query: { sortBy: 'lastUpdated', sortOrder: 'desc' } })).status).toBe(200);

    // Camunda's SetTaskVariablesCmd: a variable set on the task itself is an update; one set on the
    // instance, or a removal, is none.
    const lastUpdated = async () => (await rest.request('GET', `/task/${taskId}`)).body.lastUpdated as string;
    const stamp = () => rest.engine.clock.now().toISOString().replace('Z', '+0000');
    rest.engine.clock.advance(1_000);
    await rest.request('PUT', `/task/${taskId}/localVariables/note`, { json: { value: 'x', type: 'String' } });
    expect(await lastUpdated()).toBe(stamp());
    const noted = stamp();
    rest.engine.clock.advance(1_000);
    await rest.request('PUT', `/task/${taskId}/variables/onInstance`, { json: { value: 1, type: 'Integer' } });
    await rest.request('DELETE', `/task/${taskId}/localVariables/note`);
    expect(await lastUpdated()).toBe(noted);
    await rest.request('POST', `/task/${taskId}/localVariables`, { json: { modifications: { note: { value: 'y', type: 'String' } } } });
    expect(await lastUpdated()).toBe(stamp());
  });

  it('binds a PUT body as Jackson does: epoch milliseconds for a date, text for a number; an unbindable date is a 400 with an empty message', async () => {
    const due = Date.parse('2026-12-01T10:00:00.000Z');
    const put = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'Timed', priority: '70', due, followUp: null } });
    const bad = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'Bad', due: 'next monday' } });

    expect(put.status).toBe(204);
    expect((await rest.request('GET', `/task/${taskId}`)).body).toMatchObject({ name: 'Timed', priority: 70, due: '2026-12-01T10:00:00.000+0000', followUp: null });
    expect([bad.status, bad.body.type, bad.body.message]).toEqual([400, 'InvalidRequestException', '']);

    // Blank text binds as a null Date, "null" as 0 into the int priority (Jackson's coercions).
    expect((await rest.request('PUT', `/task/${taskId}`, { json: { name: 'Cleared', due: '  ', followUp: '', priority: 'null' } })).status).toBe(204);
    expect((await rest.request('GET', `/task/${taskId}`)).body).toMatchObject({ name: 'Cleared', due: null, followUp: null, priority: 0 });
  });

  it('refuses a PUT with a bad delegation state, a tenant change, or a task it cannot find', async () => {
    const badState = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'x', delegationState: 'done' } });
    const tenant = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'x', tenantId: 'acme' } });
    const unknown = await rest.request('PUT', '/task/nope', { json: { name: 'x' } });
    const caseTask = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'x', caseInstanceId: 'case-1' } });

    expect(badState.status).toBe(400);
    expect(badState.body.message).toBe("Valid values for property 'delegationState' are 'PENDING' or 'RESOLVED', but was 'done'");
    expect(tenant.status).toBe(500);
    expect(tenant.body.message).toBe(`ENGINE-03072 Cannot change tenantId of Task '${taskId}'. Current tenant id 'null', Tenant id to set 'acme'`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ type: 'InvalidRequestException', message: 'No matching task with id nope', code: null });
    // Trellis has no case instances.
    expect(caseTask.status).toBe(400);
    expect((await rest.request('GET', `/task/${taskId}`)).body.name).toBe('Check');
  });

  it('refuses to change a suspended task as TaskEntity does (after the permission checks), and claims as ClaimTaskCmd', async () => {
    await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'mary' } });
    const taken = await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'john' } });
    expect([taken.status, taken.body.type, taken.body.message]).toEqual([500, 'TaskAlreadyClaimedException', `Task '${taskId}' is already claimed by someone else.`]);
    // Claiming without a user unclaims.
    expect((await rest.request('POST', `/task/${taskId}/claim`, { json: {} })).status).toBe(204);
    expect((await rest.request('GET', `/task/${taskId}`)).body.assignee).toBeNull();
    await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'mary' } });

    await rest.request('PUT', `/process-instance/${instanceId}/suspended`, { json: { suspended: true } });
    const suspended = { type: 'SuspendedEntityInteractionException', message: `ENGINE-03043 task with id '${taskId}' is suspended.` };
    const refused: Array<[string, string, unknown]> = [
      ['POST', `/task/${taskId}/unclaim`, undefined],
      ['POST', `/task/${taskId}/assignee`, { userId: 'john' }],
      ['POST', `/task/${taskId}/delegate`, { userId: 'john' }],
      ['POST', `/task/${taskId}/resolve`, {}],
      ['POST', `/task/${taskId}/identity-links`, { groupId: 'sales', type: 'candidate' }],
      ['POST', `/task/${taskId}/identity-links/delete`, { userId: 'mary', type: 'assignee' }],
      // TaskDto.updateTask sets the assignee before it reads the delegation state.
      ['PUT', `/task/${taskId}`, { name: 'x', delegationState: 'done' }],
    ];
    for (const [method, path, json] of refused) {
      const response = await rest.request(method, path, json === undefined ? {} : { json });
      expect([response.status, response.body.type, response.body.message], `${method} ${path}`).toEqual([400, suspended.type, suspended.message]);
    }
    // The holder claiming again changes nothing and is no error; unclaiming by claim is refused.
    expect((await rest.request('POST', `/task/${taskId}/claim`, { json: { userId: 'mary' } })).status).toBe(204);
    const unclaim = await rest.request('POST', `/task/${taskId}/claim`, { json: {} });
    expect([unclaim.status, unclaim.body.type]).toEqual([400, suspended.type]);
    expect((await rest.request('GET', `/task/${taskId}`)).body).toMatchObject({ assignee: 'mary', delegationState: null, suspended: true });
  });

  it('answers unknown tasks as Camunda 7.22 does, command by command', async () => {
    const missing = 'Cannot find task with id nope: task is null';
    const gone = "task nope doesn't exist: task is null";
    const cases: Array<[string, string, unknown, number, string, string]> = [
      ['GET', '/task/nope/variables', undefined, 500, 'NullValueException', gone],
      ['GET', '/task/nope/localVariables', undefined, 500, 'NullValueException', gone],
      ['GET', '/task/nope/variables/amount', undefined, 500, 'RestException', `Cannot get task variable amount: ${gone}`],
      ['PUT', '/task/nope/localVariables/x', { value: 1, type: 'Integer' }, 500, 'RestException', `Cannot put task variable x: ${gone}`],
      ['POST', '/task/nope/variables', { modifications: {} }, 500, 'RestException', `Cannot modify variables for task nope: ${gone}`],
      ['DELETE', '/task/nope/variables/amount', undefined, 500, 'RestException', `Cannot delete task variable amount: ${missing}`],
      ['GET', '/task/nope/identity-links', undefined, 500, 'NullValueException', missing],
      ['POST', '/task/nope/identity-links', { userId: 'a', type: 'candidate' }, 400, 'NotFoundException', missing],
      ['POST', '/task/nope/identity-links/delete', { userId: 'a', type: 'candidate' }, 500, 'NullValueException', missing],
      ['POST', '/task/nope/claim', { userId: 'a' }, 500, 'NullValueException', missing],
      ['POST', '/task/nope/unclaim', undefined, 400, 'NotFoundException', missing],
      ['POST', '/task/nope/assignee', { userId: 'a' }, 400, 'NotFoundException', missing],
      ['POST', '/task/nope/delegate', { userId: 'a' }, 500, 'NullValueException', missing],
      ['POST', '/task/nope/resolve', {}, 500, 'NullValueException', missing],
      ['POST', '/task/nope/complete', {}, 500, 'RestException', `Cannot complete task nope: ${missing}`],
      ['POST', '/task/nope/submit-form', {}, 500, 'RestException', `Cannot submit task form nope: ${missing}`],
      ['POST', '/task/nope/bpmnError', { errorCode: 'E' }, 404, 'RestException', missing],
      ['POST', '/task/nope/bpmnEscalation', { escalationCode: 'E' }, 404, 'RestException', missing],
      // The variables convert first, with no prefix.
      ['POST', '/task/nope/bpmnError', { errorCode: 'E', variables: { x: { value: 1, type: 'Sandwich' } } }, 400, 'InvalidRequestException', "Unsupported value type 'Sandwich'"],
      ['GET', '/task/nope/form-variables', undefined, 400, 'BadUserRequestException', "Cannot find task with id 'nope'.: task is null"],
      ['GET', '/task/nope/rendered-form', undefined, 500, 'NullValueException', "Task 'nope' not found: task is null"],
    ];
    for (const [method, path, json, status, type, message] of cases) {
      const response = await rest.request(method, path, json === undefined ? {} : { json });
      expect([response.status, response.body.type, response.body.message], `${method} ${path}`).toEqual([status, type, message]);
    }
    const form = await rest.request('GET', '/task/nope/form');
    expect(form.status).toBe(400);
    expect(form.body).toEqual({ type: 'RestException', message: 'Cannot get form for task nope', code: 0 });
  });

  it('renders the generated form of a user task with camunda:formData, as the start form of the same fields, and points its form key at it', async () => {
    const formData = `<camunda:formData>
      <camunda:formField id="amount" label="Amount" type="long" defaultValue="42"><camunda:validation><camunda:constraint name="required" /></camunda:validation></camunda:formField>
      <camunda:formField id="approved" type="boolean" />
    </camunda:formData>`;
    const xml = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="generated" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start"><bpmn:extensionElements>${formData}</bpmn:extensionElements></bpmn:startEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="decide" />
    <bpmn:userTask id="decide"><bpmn:extensionElements>${formData}</bpmn:extensionElements></bpmn:userTask>
    <bpmn:sequenceFlow id="f2" sourceRef="decide" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
    const { processDefinitions } = await rest.engine.deployment.deploy({ resources: [{ name: 'generated.bpmn', bytes: Buffer.from(xml) }] });
    const instance = await rest.engine.runtime.startProcessInstanceById(processDefinitions![0]!.id);
    const [decide] = await rest.engine.task.findTasks({ processInstanceId: instance.id });

    const form = await rest.request('GET', `/task/${decide!.id}/form`);
    expect(form.body).toEqual({ key: `embedded:engine://engine/:engine/task/${decide!.id}/rendered-form`, camundaFormRef: null, contextPath: null });
    const rendered = await rest.request('GET', `/task/${decide!.id}/rendered-form`);
    expect(rendered.status).toBe(200);
    expect(rendered.headers.get('content-type')).toContain('application/xhtml+xml');
    const startForm = await rest.request('GET', '/process-definition/key/generated/rendered-form');
    expect(rendered.body.toString('utf8')).toBe(startForm.body.toString('utf8'));
    expect(rendered.body.toString('utf8')).toContain('name="amount"');

    // A task without form fields has no generated form (the review task here has a form key instead).
    expect((await rest.request('GET', `/task/${taskId}/form`)).body.key).toBe('embedded:app:forms/check.html');
    const none = await rest.request('GET', `/task/${taskId}/rendered-form`);
    expect(none.status).toBe(404);
    expect(none.body.message).toBe(`No matching rendered form for task with the id ${taskId} found.`);
    // The task's form variables: each field with the execution's variable converted to the field's type, else its default.
    await rest.request('PUT', `/process-instance/${instance.id}/variables/approved`, { json: { value: 'TRUE', type: 'String' } });
    const formVariables = await rest.request('GET', `/task/${decide!.id}/form-variables`);
    expect(formVariables.body).toEqual({ amount: { type: 'Long', value: 42, valueInfo: {} }, approved: { type: 'Boolean', value: true, valueInfo: {} } });
    await rest.request('PUT', `/process-instance/${instance.id}/variables/amount`, { json: { value: 7, type: 'Integer' } });
    expect((await rest.request('GET', `/task/${decide!.id}/form-variables`, { query: { variableNames: 'amount' } })).body).toEqual({ amount: { type: 'Long', value: 7, valueInfo: {} } });
    await rest.request('PUT', `/process-instance/${instance.id}/variables/amount`, { json: { value: 'many', type: 'String' } });
    const unconvertible = await rest.request('GET', `/task/${decide!.id}/form-variables`);
    expect([unconvertible.status, unconvertible.body.type, unconvertible.body.message]).toEqual([500, 'FormFieldValidationException', "failed to convert 'amount'"]);
    // A task without a process has no task definition to render a form of.
    await rest.request('POST', '/task/create', { json: { id: 'loose' } });
    const loose = await rest.request('GET', '/task/loose/rendered-form');
    expect([loose.status, loose.body.type, loose.body.message]).toEqual([500, 'NullValueException', "Task form definition for 'loose' not found: task.getTaskDefinition() is null"]);
  });

  it('evaluates form field labels and defaults on the task\'s execution when read, on the task when submitted, as Camunda', async () => {
    // Camunda's createTaskForm reads the fields on task.getExecution(); submitFormVariables hands them the task.
    const xml = decideThenAfter('limited', `<camunda:formData>
      <camunda:formField id="amount" label="Amount up to \${limit}" type="long" defaultValue="\${limit}" />
    </camunda:formData>`);
    await rest.engine.deployment.deploy({ resources: [{ name: 'limited.bpmn', bytes: Buffer.from(xml) }] });
    const started = await rest.request('POST', '/process-definition/key/limited/start', { json: { variables: { limit: { value: 100, type: 'Integer' } } } });
    const [decide] = await rest.engine.task.findTasks({ processInstanceId: started.body.id });
    await rest.request('PUT', `/task/${decide!.id}/localVariables/limit`, { json: { value: 5, type: 'Integer' } });

    const formVariables = await rest.request('GET', `/task/${decide!.id}/form-variables`);
    expect(formVariables.body).toEqual({ amount: { type: 'Long', value: 100, valueInfo: {} }, limit: int(5) });
    const rendered = (await rest.request('GET', `/task/${decide!.id}/rendered-form`)).body.toString('utf8');
    expect(rendered).toContain('<label for="amount">\n      Amount up to 100\n');
    expect(rendered).toContain('cam-variable-name="amount" type="text" value="100" />');

    await rest.request('POST', `/task/${decide!.id}/submit-form`, { json: {} });
    expect(await rest.engine.runtime.getVariables(started.body.id)).toMatchObject({ amount: { type: 'long', value: 5 } });
  });

  it('evaluates a user task\'s camunda:formRef key and version when its form is read, as its form key', async () => {
    const withRef = (id: string, attributes: string) => REVIEW.replace('id="review" name="Review"', `id="${id}"`).replace('camunda:formKey="embedded:app:forms/check.html"', attributes);
    await rest.engine.deployment.deploy({ resources: [{ name: 'ref.bpmn', bytes: Buffer.from(withRef('refd', 'camunda:formRef="\${form}" camunda:formRefBinding="version" camunda:formRefVersion="\${formVersion}"')) }] });
    const started = await rest.request('POST', '/process-definition/key/refd/start', {
      json: { variables: { amount: int(1), form: str('invoice'), formVersion: str('2') } },
    });
    const [task] = await rest.engine.task.findTasks({ processInstanceId: started.body.id });
    const formRef = async () => (await rest.request('GET', `/task/${task!.id}/form`)).body.camundaFormRef;

    expect(await formRef()).toEqual({ key: 'invoice', binding: 'version', version: 2 });
    await rest.request('PUT', `/task/${task!.id}/localVariables/formVersion`, { json: { value: '3', type: 'String' } });
    expect(await formRef()).toEqual({ key: 'invoice', binding: 'version', version: 3 });
    await rest.request('PUT', `/process-instance/${started.body.id}/variables/form`, { json: { value: null, type: 'Null' } });
    expect(await formRef()).toBeNull();

    // The deployed form endpoint resolves the evaluated reference.
    const deployment = { resources: [{ name: 'ref.bpmn', bytes: Buffer.from(withRef('deployedRef', 'camunda:formRef="\${form}" camunda:formRefBinding="deployment"')) }, { name: 'invoice.form', bytes: Buffer.from('{"id":"invoice","components":[]}') }] };
    await rest.engine.deployment.deploy(deployment);
    const deployedStart = await rest.request('POST', '/process-definition/key/deployedRef/start', { json: { variables: { amount: int(1), form: str('invoice') } } });
    const [deployedTask] = await rest.engine.task.findTasks({ processInstanceId: deployedStart.body.id });
    const deployed = await rest.request('GET', `/task/${deployedTask!.id}/deployed-form`, { outsideContract: true });
    expect(deployed.body).toEqual({ id: 'invoice', components: [] });
    // The first task's reference by version finds version 1 of that form (it has no tenant), and a
    // version that is no Java int fails as Integer.parseInt does.
    await rest.request('PUT', `/process-instance/${started.body.id}/variables/form`, { json: { value: 'invoice', type: 'String' } });
    await rest.request('PUT', `/task/${task!.id}/localVariables/formVersion`, { json: { value: '1', type: 'String' } });
    expect((await rest.request('GET', `/task/${task!.id}/deployed-form`, { outsideContract: true })).body).toEqual({ id: 'invoice', components: [] });
    await rest.request('PUT', `/task/${task!.id}/localVariables/formVersion`, { json: { value: 'x', type: 'String' } });
    const unreadable = await rest.request('GET', `/task/${task!.id}/deployed-form`);
    expect(unreadable.status).toBe(500);
    expect(unreadable.body).toEqual({ type: 'NumberFormatException', message: 'For input string: "x"', code: null });
  });

  it('shows a user task\'s camunda:formRef, evaluated when read, in the tasks listed, queried and read, as Camunda\'s TaskDto', async () => {
    const withRef = REVIEW.replace('id="review" name="Review"', 'id="refd"').replace('camunda:formKey="embedded:app:forms/check.html"', 'camunda:formRef="\${form}" camunda:formRefBinding="version" camunda:formRefVersion="\${formVersion}"');
    await rest.engine.deployment.deploy({ resources: [{ name: 'ref.bpmn', bytes: Buffer.from(withRef) }] });
    const start = (form: string) => rest.request('POST', '/process-definition/key/refd/start', { json: { variables: { amount: int(1), form: str(form), formVersion: str('2') } } });
    const [first, second] = [(await start('invoice')).body.id, (await start('order')).body.id];
    const [task] = await rest.engine.task.findTasks({ processInstanceId: first });
    const refs = (tasks: Array<{ processInstanceId: string; camundaFormRef: unknown }>) => Object.fromEntries(tasks.map((each) => [each.processInstanceId, each.camundaFormRef]));
    const expected = { [instanceId]: null, [first]: { key: 'invoice', binding: 'version', version: 2 }, [second]: { key: 'order', binding: 'version', version: 2 } };

    // Two tasks of one definition, one with a form key of another: each evaluated on its own variables.
    expect(refs((await rest.request('GET', '/task')).body)).toEqual(expected);
    expect(refs((await rest.request('GET', '/task', { query: { withCommentAttachmentInfo: 'true' } })).body)).toEqual(expected);
    expect(refs((await rest.request('POST', '/task', { json: {} })).body)).toEqual(expected);
    const hal = await rest.request('GET', '/task', { headers: { accept: 'application/hal+json' }, outsideContract: true });
    expect(refs(JSON.parse(hal.body.toString('utf8'))._embedded.task)).toEqual(expected);

    await rest.request('PUT', `/task/${task!.id}/localVariables/formVersion`, { json: { value: '3', type: 'String' } });
    expect((await rest.request('GET', `/task/${task!.id}`)).body.camundaFormRef).toEqual({ key: 'invoice', binding: 'version', version: 3 });
    expect((await rest.request('GET', `/task/${taskId}`)).body).toMatchObject({ formKey: 'embedded:app:forms/check.html', camundaFormRef: null });
  });

  it('renders and submits a user task\'s legacy form properties on its execution: variable, expression, default, not writable', async () => {
    const xml = decideThenAfter('legacy', `
      <camunda:formProperty id="limitShown" name="Limit" type="long" variable="limit" writable="false" />
      <camunda:formProperty id="approval" name="Approved" type="boolean" expression="\${approved}" />
      <camunda:formProperty id="comment" name="Comment" default="about \${customer}" />
    `);
    await rest.engine.deployment.deploy({ resources: [{ name: 'legacy.bpmn', bytes: Buffer.from(xml) }] });
    const started = await rest.request('POST', '/process-definition/key/legacy/start', {
      json: { variables: { limit: int(100), approved: { value: false, type: 'Boolean' }, customer: str('acme') } },
    });
    const [decide] = await rest.engine.task.findTasks({ processInstanceId: started.body.id });

    const rendered = (await rest.request('GET', `/task/${decide!.id}/rendered-form`)).body.toString('utf8');
    expect(rendered).toContain('cam-variable-name="limitShown" disabled type="text" value="100" />');
    expect(rendered).toContain('cam-variable-name="approval" type="checkbox" value="false" />');
    expect(rendered).toContain('cam-variable-name="comment" type="text" value="about acme" />');
    expect((await rest.request('GET', `/task/${decide!.id}/form`)).body.key).toBeNull();

    const refused = await rest.request('POST', `/task/${decide!.id}/submit-form`, { json: { variables: { limitShown: { value: 5 } } } });
    expect([refused.status, refused.body.message]).toEqual([500, expect.stringContaining("form property 'limitShown' is not writable")]);
    await rest.request('POST', `/task/${decide!.id}/submit-form`, { json: { variables: { approval: { value: 'true' } } } });
    expect(await rest.engine.runtime.getVariables(started.body.id)).toMatchObject({ approved: { type: 'boolean', value: true }, comment: { type: 'string', value: 'about acme' } });
  });

  describe('attachments (the Task Attachment group)', () => {
    const create = (id: string, fields: Record<string, string>, content?: string) => {
      const form = new FormData();
      for (const [name, value] of Object.entries(fields)) form.append(name, value);
      if (content !== undefined) form.append('content', new Blob([content]), 'notes.txt');
      return rest.request('POST', `/task/${id}/attachment/create`, { form });
    };

    it('adds uploaded content and links, lists, reads, serves the content and deletes, also after the task ended; they go with the history (comments too)', async () => {
      const uploaded = await create(taskId, { 'attachment-name': 'notes', 'attachment-description': 'what we found', 'attachment-type': 'text/plain' }, 'checked twice');
      const linked = await create(taskId, { 'attachment-name': 'spec', url: 'https://example.com/spec.pdf' });
      await rest.engine.task.createComment(taskId, 'attached the notes');
      expect(uploaded.status).toBe(200);
      expect(uploaded.body).toMatchObject({ name: 'notes', description: 'what we found', type: 'text/plain', taskId, url: null, rootProcessInstanceId: instanceId, removalTime: null });
      expect(uploaded.body.links).toEqual([{ method: 'GET', href: `${rest.url}/task/${taskId}/attachment/${uploaded.body.id}`, rel: 'self' }]);
      expect(linked.body).toMatchObject({ name: 'spec', url: 'https://example.com/spec.pdf', type: null });

      const list = await rest.request('GET', `/task/${taskId}/attachment`);
      const ids = (body: Array<{ id: string }>) => body.map((each) => each.id).sort();
      expect(ids(list.body)).toEqual([uploaded.body.id, linked.body.id].sort());
      expect((await rest.request('GET', `/task/${taskId}/attachment/${linked.body.id}`)).body).toMatchObject({ id: linked.body.id, links: [] });
      const data = await rest.request('GET', `/task/${taskId}/attachment/${uploaded.body.id}/data`);
      expect(data.headers.get('content-type')).toBe('application/octet-stream');
      expect(data.body.toString('utf8')).toBe('checked twice');
      const noData = await rest.request('GET', `/task/${taskId}/attachment/${linked.body.id}/data`);
      expect(noData.status).toBe(404);
      expect(noData.body.message).toBe(`Attachment content for attachment with id '${linked.body.id}' does not exist for task id '${taskId}'.`);

      // Attachments are history: they stay when the task ends, and more can be added then.
      await rest.engine.task.complete(taskId);
      const late = await create(taskId, { url: 'https://example.com/late' });
      expect(late.status).toBe(200);
      expect((await rest.request('DELETE', `/task/${taskId}/attachment/${linked.body.id}`)).status).toBe(204);
      expect(ids((await rest.request('GET', `/task/${taskId}/attachment`)).body)).toEqual([uploaded.body.id, late.body.id].sort());

      // They go with their process instance's history.
      const [after] = await rest.engine.task.findTasks({ processInstanceId: instanceId });
      await rest.engine.task.complete(after!.id);
      expect((await rest.request('DELETE', `/history/process-instance/${instanceId}`)).status).toBe(204);
      expect((await rest.request('GET', `/task/${taskId}/attachment`)).status).toBe(404);
      expect(await rest.engine.task.getTaskAttachments(taskId)).toEqual([]);
      expect(await rest.engine.task.getProcessInstanceComments(instanceId)).toEqual([]);
    });

    it("answers Camunda's errors", async () => {
      const missingTask = await create('nope', { url: 'https://example.com' });
      expect(missingTask.status).toBe(400);
      expect(missingTask.body).toMatchObject({ type: 'InvalidRequestException', message: 'No task found for task id nope' });
      const nothing = await create(taskId, { 'attachment-name': 'empty' });
      expect(nothing.status).toBe(400);
      expect(nothing.body.message).toBe('No content or url to remote content exists to create the task attachment.');
      expect((await rest.request('GET', '/task/nope/attachment')).body.message).toBe('No task found for task id nope');
      const unknown = await rest.request('GET', `/task/${taskId}/attachment/nope`);
      expect(unknown.status).toBe(404);
      expect(unknown.body.message).toBe(`Task attachment with id nope does not exist for task id '${taskId}'.`);
      const deleteUnknown = await rest.request('DELETE', `/task/${taskId}/attachment/nope`);
      expect(deleteUnknown.status).toBe(404);
      expect(deleteUnknown.body.message).toBe(`Deletion is not possible. No attachment exists for task id '${taskId}' and attachment id 'nope'.`);
    });

    it('logs AddAttachment and DeleteAttachment for an authenticated user, and has nothing without history', async () => {
      const created = await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.task.createAttachment(taskId, { name: 'notes', url: 'https://example.com' }));
      await rest.engine.runAs({ userId: 'demo', groupIds: [], tenantIds: [] }, () => rest.engine.task.deleteTaskAttachment(taskId, created.id));
      const entries = await rest.engine.history.userOperations.find({ entityType: 'Attachment' } as never);
      expect(entries.map(({ operationType, property, newValue, taskId: onTask, category }) => ({ operationType, property, newValue, onTask, category }))).toEqual(
        expect.arrayContaining([
          { operationType: 'AddAttachment', property: 'name', newValue: 'notes', onTask: taskId, category: 'TaskWorker' },
          { operationType: 'DeleteAttachment', property: 'name', newValue: 'notes', onTask: taskId, category: 'TaskWorker' },
        ]),
      );

      const none = await startRestHarness({ historyLevel: 'none' });
      try {
        const { taskId: task } = await deployAndStart(none);
        expect((await none.request('GET', `/task/${task}/attachment`)).body).toEqual([]);
        const refused = await none.request('POST', `/task/${task}/attachment/create`, { form: new FormData() });
        expect(refused.status).toBe(403);
        expect(refused.body.message).toBe('History is not enabled');
        expect((await none.request('GET', `/task/${task}/attachment/any`)).status).toBe(404);
        expect((await none.request('DELETE', `/task/${task}/attachment/any`)).status).toBe(403);
      } finally {
        await none.close();
      }
    });
  });
});

const byLink = (a: { userId: string | null; groupId: string | null; type: string }, b: typeof a) =>
  `${a.type}/${a.userId}/${a.groupId}`.localeCompare(`${b.type}/${b.userId}/${b.groupId}`);

describe('standalone tasks and sub-tasks', () => {
  beforeEach(async () => {
    rest = await startRestHarness();
  });
  afterEach(async () => rest.close());

  const create = (json: Record<string, unknown>) => rest.request('POST', '/task/create', { json });
  const historic = async (taskId: string) => (await rest.request('GET', '/history/task', { query: { taskId } })).body[0];

  it('creates a task without a process, with sub-tasks; completing it completes them, its variables are its own', async () => {
    const created = await create({ id: 't-1', name: 'Call Acme', assignee: 'john', due: '2026-12-01T10:00:00.000+0000' });
    const unnamed = await create({ name: 'No id' });
    const again = await create({ id: 't-1' });
    const sub = await create({ id: 't-2', name: 'Prepare', parentTaskId: 't-1', tenantId: null });
    const orphan = await create({ id: 't-3', parentTaskId: 'nope' });
    const task = await rest.request('GET', '/task/t-1');
    const generated = await rest.request('GET', '/task', { query: { name: 'No id' } });
    const subTasks = await rest.request('GET', '/task', { query: { parentTaskId: 't-1' } });

    expect([created.status, unnamed.status, sub.status]).toEqual([204, 204, 204]);
    expect(task.body).toMatchObject({
      id: 't-1', name: 'Call Acme', assignee: 'john', priority: 0, due: '2026-12-01T10:00:00.000+0000',
      processInstanceId: null, executionId: null, processDefinitionId: null, taskDefinitionKey: null, parentTaskId: null, suspended: false,
    });
    expect(generated.body).toMatchObject([{ name: 'No id', priority: 0 }]);
    expect(generated.body[0].id).toEqual(expect.any(String));
    expect(again.status).toBe(500);
    expect(again.body.message).toMatch(/^ENGINE-03004 Exception while executing Database Operation 'INSERT TaskEntity\[t-1\]'/);
    expect(subTasks.body).toMatchObject([{ id: 't-2', parentTaskId: 't-1' }]);
    expect(orphan.status).toBe(400);
    expect(orphan.body).toEqual({ type: 'InvalidRequestException', message: "Could not save task: Parent task with id 'nope' does not exist: parentTask is null", code: null });

    await rest.request('PUT', '/task/t-1/localVariables/note', { json: { value: 'hi', type: 'String' } });
    await rest.request('POST', '/task/t-1/variables', { json: { modifications: { call: { value: 'done', type: 'String' } } } });
    const variables = await rest.request('GET', '/task/t-1/variables');
    const completed = await rest.request('POST', '/task/t-1/complete', { json: { variables: { dropped: { value: 1, type: 'Integer' } }, withVariablesInReturn: true } });

    expect(variables.body).toEqual({ note: { type: 'String', value: 'hi', valueInfo: {} }, call: { type: 'String', value: 'done', valueInfo: {} } });
    // Camunda answers no variables for a task without a process.
    expect(completed.status).toBe(200);
    expect(completed.body).toEqual({});
    expect((await rest.request('GET', '/task/t-1')).status).toBe(404);
    expect((await rest.request('GET', '/task/t-2')).status).toBe(404);
    expect(await historic('t-1')).toMatchObject({ deleteReason: 'completed', processInstanceId: null, assignee: 'john', parentTaskId: null });
    expect((await historic('t-1')).endTime).not.toBeNull();
    expect(await historic('t-2')).toMatchObject({ deleteReason: 'completed', parentTaskId: 't-1', name: 'Prepare' });
  });

  it("gives a sub-task its parent task's variables: what it does not hold itself it reads and writes through the parent (to the process)", async () => {
    const { instanceId, taskId } = await deployAndStart(rest);
    await rest.request('PUT', `/task/${taskId}/localVariables/review`, { json: { value: 'open', type: 'String' } });
    await create({ id: 'sub', parentTaskId: taskId });
    await rest.request('PUT', '/task/sub/localVariables/note', { json: { value: 'mine', type: 'String' } });
    await rest.request('PUT', '/task/sub/variables/amount', { json: { value: 7, type: 'Integer' } });
    await rest.request('PUT', '/task/sub/variables/review', { json: { value: 'done', type: 'String' } });
    const seen = await rest.request('GET', '/task/sub/variables');
    const completed = await rest.request('POST', '/task/sub/complete', { json: { variables: { approved: { value: true, type: 'Boolean' } } } });
    const processVariables = (await rest.request('GET', `/process-instance/${instanceId}/variables`)).body;

    expect(Object.keys(seen.body).sort()).toEqual(['amount', 'customer', 'limit', 'note', 'review']);
    expect(seen.body.amount).toEqual(int(7));
    expect(completed.status).toBe(204);
    expect(processVariables).toMatchObject({ amount: int(7), approved: { type: 'Boolean', value: true, valueInfo: {} } });
    expect(processVariables).not.toHaveProperty('note');
    // The parent task held 'review' itself: the sub-task changed it there.
    expect((await rest.request('GET', `/task/${taskId}/localVariables`)).body.review).toEqual(str('done'));
  });

  it('deletes the sub-tasks of a process task its process cancels (here, the instance deleted)', async () => {
    const { instanceId, taskId } = await deployAndStart(rest);
    await create({ id: 'sub', parentTaskId: taskId });
    await create({ id: 'sub-sub', parentTaskId: 'sub' });
    await create({ id: 'other' });

    const deleted = await rest.request('DELETE', `/process-instance/${instanceId}`);

    expect(deleted.status).toBe(204);
    expect((await rest.request('GET', '/task/sub')).status).toBe(404);
    expect((await rest.request('GET', '/task/sub-sub')).status).toBe(404);
    expect((await rest.request('GET', '/task/other')).status).toBe(200);
    expect(await historic('sub')).toMatchObject({ deleteReason: 'deleted', parentTaskId: taskId });
    expect(await historic('sub-sub')).toMatchObject({ deleteReason: 'deleted', parentTaskId: 'sub' });
  });

  it('deletes a task without a process with its sub-tasks (its history stays), no task of a process, and nothing for an unknown id', async () => {
    await create({ id: 'p', name: 'Parent' });
    await create({ id: 'c', parentTaskId: 'p' });
    await rest.request('PUT', '/task/c', { json: { name: 'Child', parentTaskId: 'p', priority: 7 } });
    const updated = await rest.request('GET', '/task/c');
    const deleted = await rest.request('DELETE', '/task/p');
    const unknown = await rest.request('DELETE', '/task/nope');
    const { taskId } = await deployAndStart(rest);
    const processTask = await rest.request('DELETE', `/task/${taskId}`);

    expect(updated.body).toMatchObject({ name: 'Child', parentTaskId: 'p', priority: 7 });
    expect(deleted.status).toBe(204);
    expect((await rest.request('GET', '/task/p')).status).toBe(404);
    expect((await rest.request('GET', '/task/c')).status).toBe(404);
    expect(await historic('p')).toMatchObject({ deleteReason: 'deleted' });
    expect(await historic('c')).toMatchObject({ deleteReason: 'deleted', name: 'Child', priority: 7 });
    expect(unknown.status).toBe(204);
    expect(processTask.status).toBe(500);
    expect(processTask.body).toEqual({ type: 'ProcessEngineException', message: 'The task cannot be deleted because is part of a running process', code: 0 });
    expect((await rest.request('GET', `/task/${taskId}`)).status).toBe(200);
  });
});

describe('the Task group with authorization on', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  beforeEach(async () => {
    rest = await startRestHarness({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
  });
  afterEach(async () => rest.close());

  it("grants READ and UPDATE on a task to its candidates, assignee and owner (Camunda's default task authorizations), and drops them with the task", async () => {
    const { taskId } = await deployAndStart(rest, admin);
    const grants = async () =>
      (await rest.request('GET', `/authorization?resourceType=7&resourceId=${taskId}`, { headers: admin })).body
        .map((each: { userId: string | null; groupId: string | null; permissions: string[]; type: number }) => [each.userId ?? `group:${each.groupId}`, each.type, [...each.permissions].sort()])
        .sort();
    const unseen = await rest.request('GET', `/task/${taskId}`, { headers: jonny });
    const created = await grants();
    await rest.request('POST', `/task/${taskId}/assignee`, { json: { userId: 'jonny' }, headers: admin });
    await rest.request('POST', `/task/${taskId}/assignee`, { json: { userId: 'jonny' }, headers: admin });
    const seen = await rest.request('GET', `/task/${taskId}`, { headers: jonny });
    const assigned = await grants();
    const completed = await rest.request('POST', `/task/${taskId}/complete`, { json: {}, headers: jonny });

    expect(unseen.status).toBe(404);
    expect(created).toEqual([
      ['group:sales', 1, ['READ', 'UPDATE']],
      ['mary', 1, ['READ', 'UPDATE']],
    ]);
    expect(seen.status).toBe(200);
    expect(assigned).toEqual([...created, ['jonny', 1, ['READ', 'UPDATE']]].sort());
    expect(completed.status).toBe(204);
    expect(await grants()).toEqual([]);
  });

  it('creates a task without a process only with CREATE on tasks; its assignee may work on it; deleting needs DELETE; all logged', async () => {
    const denied = await rest.request('POST', '/task/create', { json: { id: 'mine', name: 'Mine', assignee: 'jonny' }, headers: jonny });
    // CREATE is checked before the fields are read (Camunda's taskService.newTask, then TaskDto.updateTask).
    const deniedFirst = await rest.request('POST', '/task/create', { json: { id: 'mine', delegationState: 'done' }, headers: jonny });
    expect(deniedFirst.status).toBe(403);
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 7, resourceId: '*', permissions: ['CREATE'] });
    const created = await rest.request('POST', '/task/create', { json: { id: 'mine', name: 'Mine', assignee: 'jonny' }, headers: jonny });
    const other = await rest.request('POST', '/task/create', { json: { id: 'other', priority: 50 }, headers: jonny });
    const seen = await rest.request('GET', '/task/mine', { headers: jonny });
    const unseen = await rest.request('GET', '/task/other', { headers: jonny });
    const notDeleted = await rest.request('DELETE', '/task/mine', { headers: jonny });
    const completed = await rest.request('POST', '/task/mine/complete', { json: {}, headers: jonny });
    const entries = async (taskId: string) =>
      (await rest.request('GET', '/history/user-operation', { query: { taskId }, headers: admin })).body
        .map((entry: { operationType: string; property: string | null; orgValue: string | null; newValue: string | null }) => [entry.operationType, entry.property, entry.orgValue, entry.newValue])
        .sort();

    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([{ permissionName: 'CREATE', resourceName: 'Task', resourceId: null }]);
    expect([created.status, other.status]).toEqual([204, 204]);
    expect(seen.status).toBe(200);
    expect(unseen.status).toBe(404);
    expect(notDeleted.status).toBe(403);
    expect(notDeleted.body.missingAuthorizations).toEqual([{ permissionName: 'DELETE', resourceName: 'Task', resourceId: 'mine' }]);
    expect(completed.status).toBe(204);
    expect(await entries('mine')).toEqual([
      ['Complete', 'delete', 'false', 'true'],
      ['Create', 'assignee', null, 'jonny'],
      ['Create', 'name', null, 'Mine'],
      ['Create', 'priority', '50', '0'],
    ]);
    // Nothing differs from a new task: one entry without a property.
    expect(await entries('other')).toEqual([['Create', null, null, null]]);
  });

  it('counts tasks by candidate group only with READ on every task', async () => {
    await deployAndStart(rest, admin);
    const denied = await rest.request('GET', '/task/report/candidate-group-count', { headers: jonny });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 7, resourceId: '*', permissions: ['READ'] });
    const allowed = await rest.request('GET', '/task/report/candidate-group-count', { headers: jonny });

    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([{ permissionName: 'READ', resourceName: 'Task', resourceId: '*' }]);
    expect(allowed.body).toEqual([{ groupName: null, taskCount: 1 }, { groupName: 'sales', taskCount: 1 }]);
  });

  it('needs READ on the task (or READ_TASK on the definition) to read variables, UPDATE to change them', async () => {
    const { taskId } = await deployAndStart(rest, admin);

    const denied = await rest.request('GET', `/task/${taskId}/variables`, { headers: jonny });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({
      type: 'AuthorizationException',
      userId: 'jonny',
      missingAuthorizations: [
        { permissionName: 'READ', resourceName: 'Task', resourceId: taskId },
        { permissionName: 'READ_TASK', resourceName: 'ProcessDefinition', resourceId: 'review' },
      ],
    });

    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'review', permissions: ['READ_TASK'] });
    const allowed = await rest.request('GET', `/task/${taskId}/variables`, { headers: jonny });
    const update = await rest.request('PUT', `/task/${taskId}/variables/amount`, { json: { value: 1, type: 'Integer' }, headers: jonny });
    const delegate = await rest.request('POST', `/task/${taskId}/delegate`, { json: { userId: 'jonny' }, headers: jonny });

    expect(allowed.status).toBe(200);
    expect(allowed.body.limit).toEqual(int(100));
    expect(update.status).toBe(403);
    expect(update.body.missingAuthorizations.map((each: any) => each.permissionName)).toEqual(['UPDATE_VARIABLE', 'UPDATE_TASK_VARIABLE', 'UPDATE', 'UPDATE_TASK']);
    expect(delegate.status).toBe(403);
    expect(delegate.body.missingAuthorizations.map((each: any) => each.permissionName)).toEqual(['TASK_ASSIGN', 'TASK_ASSIGN', 'UPDATE', 'UPDATE_TASK']);
  });

  it('updates a task with PUT only with TASK_ASSIGN or UPDATE, and finds it only with READ', async () => {
    const { taskId } = await deployAndStart(rest, admin);

    const unseen = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'x' }, headers: jonny });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 6, resourceId: 'review', permissions: ['READ_TASK'] });
    const denied = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'x' }, headers: jonny });
    await rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType: 7, resourceId: taskId, permissions: ['TASK_ASSIGN'] });
    const allowed = await rest.request('PUT', `/task/${taskId}`, { json: { name: 'x', due: '2026-12-01T10:00:00.000+0000' }, headers: jonny });
    const entries = (await rest.request('GET', `/history/user-operation?taskId=${taskId}&operationType=Update`, { headers: admin })).body;

    expect(unseen.status).toBe(404);
    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations.map((each: any) => each.permissionName)).toEqual(['TASK_ASSIGN', 'TASK_ASSIGN', 'UPDATE', 'UPDATE_TASK']);
    expect(allowed.status).toBe(204);
    // One entry per property that changed (the priority the body left out went to 0), by the user who changed it.
    expect(entries.map((entry: { property: string; orgValue: string | null; newValue: string | null; userId: string }) => [entry.property, entry.orgValue, entry.newValue, entry.userId]).sort()).toEqual([
      ['dueDate', null, String(Date.parse('2026-12-01T10:00:00Z')), 'jonny'],
      ['name', 'Check', 'x', 'jonny'],
      ['priority', '50', '0', 'jonny'],
    ]);
  });
});
