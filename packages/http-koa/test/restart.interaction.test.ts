import { afterEach, describe, expect, it } from 'vitest';
import { externalTaskProcessXml } from '@trellis/core/testing';
import { basic } from './support/basic-auth.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const model = (key: string, tasks: string[]) => {
  const nodes = ['start', ...tasks, 'end'];
  const elements = tasks.map((task) => `<bpmn:userTask id="${task}" />`).join('');
  const flows = nodes.slice(1).map((to, i) => `<bpmn:sequenceFlow id="f${i}" sourceRef="${nodes[i]}" targetRef="${to}" />`).join('');
  return `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d_${key}" targetNamespace="http://trellis.test">
  <bpmn:process id="${key}" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />${elements}<bpmn:endEvent id="end" />${flows}
  </bpmn:process>
</bpmn:definitions>`;
};

let rest: RestHarness;
/** Three finished instances (deleted at review), business keys bk0..bk2, variable amount = 7. */
let finished: string[];
let definitionId: string;
let otherId: string;

async function setUp(engineOptions: Parameters<typeof startRestHarness>[0] = {}, restOptions: Parameters<typeof startRestHarness>[1] = {}) {
  rest = await startRestHarness(engineOptions, restOptions);
  const { processDefinitions } = await rest.engine.deployment.deploy({
    resources: [
      { name: 'restarted.bpmn', bytes: Buffer.from(model('restarted', ['review', 'approve'])) },
      { name: 'other.bpmn', bytes: Buffer.from(model('other', ['review'])) },
    ],
  });
  definitionId = processDefinitions!.find((each) => each.key === 'restarted')!.id;
  otherId = processDefinitions!.find((each) => each.key === 'other')!.id;
  finished = [];
  for (let i = 0; i < 3; i++) {
    const variables = { amount: { type: 'integer', valueInfo: {}, value: 7 } } as never;
    const id = (await rest.engine.runtime.startProcessInstanceById(definitionId, { businessKey: `bk${i}`, variables })).id;
    await rest.engine.runtime.deleteProcessInstance(id);
    finished.push(id);
  }
}
afterEach(async () => rest.close());

const expectError = (response: { status: number; body: any }, status: number, type: string, message: string) => {
  expect({ status: response.status, type: response.body.type, message: response.body.message }).toEqual({ status, type, message });
};

const AT_APPROVE = [{ type: 'startBeforeActivity', activityId: 'approve' }];

/** Running instances of the definition: business key, where each waits, its amount. */
async function running(headers: Record<string, string> = {}) {
  const instances = (await rest.request('GET', '/process-instance', { query: { processDefinitionId: definitionId, sortBy: 'businessKey', sortOrder: 'asc' }, headers })).body;
  return Promise.all(
    instances.map(async (instance: { id: string; businessKey: string | null }) => {
      const tree = (await rest.request('GET', `/process-instance/${instance.id}/activity-instances`, { headers })).body;
      const amount = await rest.request('GET', `/process-instance/${instance.id}/variables/amount`, { headers });
      return { businessKey: instance.businessKey, at: tree.childActivityInstances.map((child: { activityId: string }) => child.activityId), amount: amount.body.value ?? null };
    }),
  );
}

async function runBatches() {
  await rest.engine.jobExecutor.runDueJobs();
  rest.engine.clock.advance(30_000);
  await rest.engine.jobExecutor.runDueJobs();
  expect((await rest.request('GET', '/batch/count')).body).toEqual({ count: 0 });
}

describe('POST /process-definition/{id}/restart and /restart-async', () => {
  it('restarts the given and queried finished instances where the instructions say (204), with variables and business keys', async () => {
    await setUp();
    const json = { processInstanceIds: [finished[0]], historicProcessInstanceQuery: { processInstanceBusinessKey: 'bk1' }, instructions: AT_APPROVE };
    const answer = await rest.request('POST', `/process-definition/${definitionId}/restart`, { json });
    expect(answer.status).toBe(204);
    expect(await running()).toEqual([
      { businessKey: 'bk0', at: ['approve'], amount: 7 },
      { businessKey: 'bk1', at: ['approve'], amount: 7 },
    ]);
    const history = (await rest.request('POST', '/history/process-instance', { json: { unfinished: true } })).body;
    expect(history.map((each: { restartedProcessInstanceId: string }) => each.restartedProcessInstanceId).sort()).toEqual([finished[0], finished[1]].sort());
  });

  it('answers a BatchDto of type instance-restart; its jobs restart without business keys', async () => {
    await setUp();
    const json = { historicProcessInstanceQuery: { processDefinitionId: definitionId, finished: true }, instructions: [{ type: 'startTransition', transitionId: 'f1' }], withoutBusinessKey: true };
    const answer = await rest.request('POST', `/process-definition/${definitionId}/restart-async`, { json });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type: 'instance-restart', totalJobs: 3, batchJobsPerSeed: 100, invocationsPerBatchJob: 1, suspended: false });
    await runBatches();
    expect(await running()).toEqual(finished.map(() => ({ businessKey: null, at: ['approve'], amount: 7 })));
  });

  it("answers Camunda's 400s and the engine's refusals", async () => {
    await setUp();
    const restart = (json: unknown, async = false) => rest.request('POST', `/process-definition/${definitionId}/restart${async ? '-async' : ''}`, { json });
    expectError(await restart({ processInstanceIds: [], instructions: AT_APPROVE }), 400, 'InvalidRequestException', 'processInstanceIds is empty');
    expectError(await restart({ instructions: AT_APPROVE }, true), 400, 'InvalidRequestException', 'processInstanceIds is empty');
    expectError(await restart({ processInstanceIds: finished, instructions: [] }), 400, 'InvalidRequestException', 'Restart instructions cannot be empty: instructions is empty');
    expectError(await restart({ processInstanceIds: finished, instructions: [] }, true), 400, 'InvalidRequestException', 'Restart instructions cannot be empty: instructions is empty');
    expectError(await restart({ processInstanceIds: ['nope'], instructions: AT_APPROVE }), 400, 'InvalidRequestException', 'Historic process instance cannot be found: historicProcessInstanceId is null');
    for (const suffix of ['', '-async']) {
      const unknown = await rest.request('POST', `/process-definition/nope/restart${suffix}`, { json: { processInstanceIds: finished, instructions: AT_APPROVE } });
      // Camunda's NotFoundException is a BadUserRequestException, which this resource turns into a 400.
      expectError(unknown, 400, 'InvalidRequestException', "no deployed process definition found with id 'nope': processDefinition is null");
    }
    expectError(await restart({ processInstanceIds: finished, instructions: [{ type: 'startBeforeActivity' }] }), 400, 'InvalidRequestException', "For instruction type 'startBeforeActivity': 'activityId' must be set");

    const active = (await rest.engine.runtime.startProcessInstanceById(definitionId)).id;
    expectError(
      await restart({ processInstanceIds: [active], instructions: AT_APPROVE }),
      500,
      'ProcessEngineException',
      `ENGINE-13040 Historic process instance '${active}' cannot be restarted. It is not completed or terminated.`,
    );
    const stranger = (await rest.engine.runtime.startProcessInstanceById(otherId)).id;
    await rest.engine.runtime.deleteProcessInstance(stranger);
    expectError(
      await restart({ processInstanceIds: [stranger], instructions: AT_APPROVE }),
      500,
      'ProcessEngineException',
      `ENGINE-13039 Historic process instance '${stranger}' cannot be restarted. Its process definition '${otherId}' does not match given process definition '${definitionId}'`,
    );
    // The batch checks only the request; its job meets the running instance.
    expect((await restart({ processInstanceIds: [active], instructions: AT_APPROVE }, true)).status).toBe(200);
  });
});

describe('POST /process-instance/delete-historic-query-based and /job-retries-historic-query-based', () => {
  it('delete the instances a historic query selects (running ones end, finished ones are skipped)', async () => {
    await setUp();
    const waiting = [];
    for (let i = 0; i < 2; i++) waiting.push((await rest.engine.runtime.startProcessInstanceById(definitionId, { businessKey: 'keep' })).id);
    const other = (await rest.engine.runtime.startProcessInstanceById(otherId)).id;
    const json = { historicProcessInstanceQuery: { processDefinitionKey: 'restarted' }, processInstanceIds: [other], deleteReason: 'cleanup' };
    const answer = await rest.request('POST', '/process-instance/delete-historic-query-based', { json });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type: 'instance-deletion', totalJobs: 6 });
    await runBatches();
    expect((await rest.request('GET', '/process-instance/count')).body).toEqual({ count: 0 });
    const history = (await rest.request('GET', `/history/process-instance/${waiting[0]}`)).body;
    expect(history).toMatchObject({ state: 'EXTERNALLY_TERMINATED', deleteReason: 'cleanup' });

    expectError(await rest.request('POST', '/process-instance/delete-historic-query-based', { json: { historicProcessInstanceQuery: { processDefinitionKey: 'none' } } }), 400, 'InvalidRequestException', 'processInstanceIds is empty');
  });

  it('set the retries of the jobs of the instances a historic query selects', async () => {
    await setUp();
    const timer = `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="d_t" targetNamespace="http://trellis.test">
  <bpmn:process id="timed" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" /><bpmn:sequenceFlow id="f0" sourceRef="start" targetRef="wait" />
    <bpmn:intermediateCatchEvent id="wait"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="wait" targetRef="end" /><bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;
    const deployed = await rest.engine.deployment.deploy({ resources: [{ name: 'timed.bpmn', bytes: Buffer.from(timer) }] });
    const timedId = deployed.processDefinitions![0]!.id;
    for (let i = 0; i < 2; i++) await rest.engine.runtime.startProcessInstanceById(timedId);
    const json = { historicProcessInstanceQuery: { processDefinitionKey: 'timed' }, retries: 5 };
    const answer = await rest.request('POST', '/process-instance/job-retries-historic-query-based', { json });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ type: 'set-job-retries', totalJobs: 2 });
    await runBatches();
    const jobs = (await rest.request('GET', '/job', { query: { processDefinitionKey: 'timed' } })).body;
    expect(jobs.map((job: { retries: number }) => job.retries)).toEqual([5, 5]);

    expectError(await rest.request('POST', '/process-instance/job-retries-historic-query-based', { json: { historicProcessInstanceQuery: { processDefinitionKey: 'restarted' }, retries: 1 } }), 400, 'InvalidRequestException', 'jobIds is empty');
    expectError(await rest.request('POST', '/process-instance/job-retries-historic-query-based', { json: { processInstances: [] } }), 400, 'InvalidRequestException', 'retries is null');
  });
});

describe('the batch endpoints that select instances by a historicProcessInstanceQuery', () => {
  it('modification, variables-async, suspended-async and external-task retries take the instances the history query finds', async () => {
    await setUp();
    const external = externalTaskProcessXml('worked', { topic: 't', historyTimeToLive: 5 });
    const deployed = await rest.engine.deployment.deploy({ resources: [{ name: 'worked.bpmn', bytes: Buffer.from(external) }] });
    const worker = (await rest.engine.runtime.startProcessInstanceById(deployed.processDefinitions![0]!.id)).id;
    const picked = (await rest.engine.runtime.startProcessInstanceById(definitionId, { businessKey: 'picked' })).id;
    const left = (await rest.engine.runtime.startProcessInstanceById(definitionId, { businessKey: 'left' })).id;
    const query = { historicProcessInstanceQuery: { processInstanceBusinessKey: 'picked' } };

    const modified = await rest.request('POST', '/modification/execute', { json: { processDefinitionId: definitionId, instructions: [{ type: 'startBeforeActivity', activityId: 'approve' }, { type: 'cancel', activityId: 'review' }], ...query } });
    expect(modified.status).toBe(204);
    const variables = await rest.request('POST', '/process-instance/variables-async', { json: { variables: { note: { value: 'x', type: 'String' } }, ...query } });
    expect(variables.body).toMatchObject({ type: 'set-variables', totalJobs: 1 });
    const suspended = await rest.request('POST', '/process-instance/suspended-async', { json: { suspended: true, ...query } });
    expect(suspended.body).toMatchObject({ type: 'instance-update-suspension-state', totalJobs: 1 });
    await runBatches();
    const state = async (id: string) => ({
      at: (await rest.request('GET', `/process-instance/${id}/activity-instances`)).body.childActivityInstances.map((child: { activityId: string }) => child.activityId),
      suspended: (await rest.request('GET', `/process-instance/${id}`)).body.suspended,
      note: (await rest.request('GET', `/process-instance/${id}/variables`)).body.note?.value ?? null,
    });
    expect([await state(picked), await state(left)]).toEqual([
      { at: ['approve'], suspended: true, note: 'x' },
      { at: ['review'], suspended: false, note: null },
    ]);

    const task = (await rest.request('GET', '/external-task', { query: { processInstanceId: worker } })).body[0];
    const retries = await rest.request('PUT', '/external-task/retries', { json: { retries: 4, historicProcessInstanceQuery: { processInstanceId: worker } } });
    expect(retries.status).toBe(204);
    expect((await rest.request('GET', `/external-task/${task.id}`)).body.retries).toBe(4);
  });
});

describe('restart with authorization', () => {
  const admin = basic('admin', 'admin-secret');
  const jonny = basic('jonny', 'jonny-secret');

  it('needs READ_HISTORY, CREATE and CREATE_INSTANCE to restart at once, BATCH CREATE or CREATE_BATCH_RESTART_PROCESS_INSTANCES for a batch (403 otherwise)', async () => {
    await setUp({ authorization: { enabled: true } }, { authentication: 'basic' });
    await rest.engine.identity.setUpAdministrator('admin', 'admin-secret');
    await rest.request('POST', '/user/create', {
      json: { profile: { id: 'jonny', firstName: 'Jonny', lastName: 'Walker' }, credentials: { password: 'jonny-secret' } },
      headers: admin,
    });
    const grant = (resourceType: number, permissions: string[], resourceId = '*') =>
      rest.engine.authorization.createAuthorization({ type: 1, userId: 'jonny', resourceType, resourceId, permissions });
    const json = { processInstanceIds: finished, instructions: AT_APPROVE };

    const deniedAsync = await rest.request('POST', `/process-definition/${definitionId}/restart-async`, { json, headers: jonny });
    expect(deniedAsync.status).toBe(403);
    expect(deniedAsync.body).toMatchObject({
      type: 'AuthorizationException',
      missingAuthorizations: [{ permissionName: 'CREATE_BATCH_RESTART_PROCESS_INSTANCES', resourceName: 'Batch' }, { permissionName: 'CREATE', resourceName: 'Batch' }],
    });
    const denied = await rest.request('POST', `/process-definition/${definitionId}/restart`, { json, headers: jonny });
    expect(denied.status).toBe(403);
    expect(denied.body.missingAuthorizations).toEqual([{ permissionName: 'READ_HISTORY', resourceName: 'ProcessDefinition', resourceId: 'restarted' }]);

    await grant(13, ['CREATE_BATCH_RESTART_PROCESS_INSTANCES']);
    expect((await rest.request('POST', `/process-definition/${definitionId}/restart-async`, { json, headers: jonny })).status).toBe(200);
    await grant(6, ['READ_HISTORY', 'CREATE_INSTANCE'], 'restarted');
    expect((await rest.request('POST', `/process-definition/${definitionId}/restart`, { json, headers: jonny })).status).toBe(403);
    await grant(8, ['CREATE']);
    expect((await rest.request('POST', `/process-definition/${definitionId}/restart`, { json, headers: jonny })).status).toBe(204);
    expect(await running(admin)).toHaveLength(3);
  });
});
