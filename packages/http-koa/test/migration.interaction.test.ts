import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { expectConforms } from './support/contract.js';
import { startRestHarness, type RestHarness } from './support/rest-harness.js';

const model = (taskName: string) => `<?xml version="1.0" encoding="UTF-8"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn"
  id="d" targetNamespace="http://trellis.test">
  <bpmn:process id="order" isExecutable="true" camunda:historyTimeToLive="5">
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="sub" />
    <bpmn:subProcess id="sub">
      <bpmn:startEvent id="subStart" />
      <bpmn:sequenceFlow id="s1" sourceRef="subStart" targetRef="approve" />
      <bpmn:userTask id="approve" name="${taskName}" />
      <bpmn:sequenceFlow id="s2" sourceRef="approve" targetRef="subEnd" />
      <bpmn:endEvent id="subEnd" />
      <bpmn:boundaryEvent id="late" attachedToRef="approve"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1H</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
      <bpmn:sequenceFlow id="s3" sourceRef="late" targetRef="lateEnd" />
      <bpmn:endEvent id="lateEnd" />
    </bpmn:subProcess>
    <bpmn:sequenceFlow id="f2" sourceRef="sub" targetRef="ship" />
    <bpmn:serviceTask id="ship" camunda:type="external" camunda:topic="ship" />
    <bpmn:sequenceFlow id="f3" sourceRef="ship" targetRef="end" />
    <bpmn:endEvent id="end" />
  </bpmn:process>
</bpmn:definitions>`;

let rest: RestHarness;
let v1: string;
let v2: string;
beforeEach(async () => {
  rest = await startRestHarness();
  const deploy = async (xml: string) => (await rest.engine.deployment.deploy({ resources: [{ name: 'order.bpmn', bytes: Buffer.from(xml) }] })).processDefinitions![0].id;
  v1 = await deploy(model('Approve'));
  v2 = await deploy(model('Approve order'));
});
afterEach(async () => rest.close());

/**
 * The contract documents ExceptionDto for these 400s, but Camunda's MigrationPlanValidationExceptionDto and
 * MigratingProcessInstanceValidationExceptionDto add `validationReport`: check the rest against the contract.
 */
async function executeRejected(body: unknown) {
  const response = await rest.request('POST', '/migration/execute', { json: body, outsideContract: true });
  const { validationReport: _report, ...exception } = response.body as Record<string, unknown>;
  expectConforms('POST', '/migration/execute', response.status, exception);
  return response;
}

const instruction = (source: string, target: string, updateEventTrigger = false) => ({ sourceActivityIds: [source], targetActivityIds: [target], updateEventTrigger });
const bySource = (a: { sourceActivityIds: string[] }, b: { sourceActivityIds: string[] }) => a.sourceActivityIds[0].localeCompare(b.sourceActivityIds[0]);

describe('the Migration group', () => {
  it('generates a plan of the equal activities, with variables null when none were given', async () => {
    const generated = await rest.request('POST', '/migration/generate', { json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 } });
    const updating = await rest.request('POST', '/migration/generate', {
      json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, updateEventTriggers: true, variables: { foo: { type: 'String', value: 'bar' } } },
    });
    const missing = await rest.request('POST', '/migration/generate', { json: { sourceProcessDefinitionId: 'nope', targetProcessDefinitionId: v2 } });

    expect(generated.status).toBe(200);
    expect(generated.body.sourceProcessDefinitionId).toBe(v1);
    expect(generated.body.targetProcessDefinitionId).toBe(v2);
    expect(generated.body.variables).toBeNull();
    expect(Object.keys(generated.body)).toContain('variables');
    expect(generated.body.instructions.sort(bySource)).toEqual([instruction('approve', 'approve'), instruction('late', 'late'), instruction('ship', 'ship'), instruction('sub', 'sub')]);
    expect(updating.body.instructions.sort(bySource)).toEqual([instruction('approve', 'approve'), instruction('late', 'late', true), instruction('ship', 'ship'), instruction('sub', 'sub')]);
    expect(updating.body.variables).toEqual({ foo: { type: 'String', value: 'bar', valueInfo: {} } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ type: 'InvalidRequestException', message: "ENGINE-23008 Source process definition with id 'nope' does not exist", code: 0 });
  });

  it('validates a plan: an empty report when valid, the failing instructions otherwise', async () => {
    const valid = await rest.request('POST', '/migration/validate', {
      json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('sub', 'sub'), { sourceActivityIds: ['approve'], targetActivityIds: ['approve'] }] },
    });
    const invalid = await rest.request('POST', '/migration/validate', {
      json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('approve', 'ship'), instruction('late', 'late')] },
    });
    const noSource = await rest.request('POST', '/migration/validate', { json: { targetProcessDefinitionId: v2, instructions: [] } });

    expect(valid.status).toBe(200);
    expect(valid.body).toEqual({ instructionReports: [], variableReports: {} });
    expect(invalid.status).toBe(200);
    expect(invalid.body).toEqual({
      instructionReports: [
        { instruction: instruction('approve', 'ship'), failures: ['Activities have incompatible types (UserTaskActivityBehavior is not compatible with ExternalTaskActivityBehavior)'] },
        { instruction: instruction('late', 'late'), failures: ["The source activity's event scope (approve) must be mapped to the target activity's event scope (approve)"] },
      ],
      variableReports: {},
    });
    // Camunda reports the instructions with missing activities first, then those a validator refuses.
    const mixed = await rest.request('POST', '/migration/validate', {
      json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('late', 'late'), instruction('nope', 'approve')] },
    });
    expect(mixed.body.instructionReports.map((each: { instruction: unknown; failures: string[] }) => [each.instruction, each.failures])).toEqual([
      [instruction('nope', 'approve'), ["Source activity 'nope' does not exist"]],
      [instruction('late', 'late'), ["The source activity's event scope (approve) must be mapped to the target activity's event scope (approve)"]],
    ]);
    // The source is looked for before the target's id is asked for; a variable's conversion has no prefix.
    const unknownSource = await rest.request('POST', '/migration/validate', { json: { sourceProcessDefinitionId: 'nope', instructions: [] } });
    expect(unknownSource.body.message).toBe("ENGINE-23008 Source process definition with id 'nope' does not exist");
    const badVariable = await rest.request('POST', '/migration/validate', {
      json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [], variables: { a: { type: 'Integer', value: 'x' } } },
    });
    expect([badVariable.status, badVariable.body.message]).toEqual([400, "Cannot convert value 'x' of type 'Integer' to java type java.lang.Integer"]);
    const javaVariable = await rest.request('POST', '/migration/validate', {
      json: {
        sourceProcessDefinitionId: v1,
        targetProcessDefinitionId: v2,
        instructions: [],
        variables: { foo: { type: 'Object', value: 'rO0AB', valueInfo: { objectTypeName: 'com.Foo', serializationDataFormat: 'application/x-java-serialized-object' } } },
      },
    });
    expect(javaVariable.body).toEqual({
      instructionReports: [],
      variableReports: {
        foo: {
          type: 'Object',
          value: 'rO0AB',
          valueInfo: { objectTypeName: 'com.Foo', serializationDataFormat: 'application/x-java-serialized-object' },
          failures: ['Cannot set variable with name foo. Java serialization format is prohibited'],
        },
      },
    });
    expect(noSource.status).toBe(400);
    expect(noSource.body).toEqual({ type: 'InvalidRequestException', message: 'Source process definition id is null', code: 0 });
  });

  it('migrates instances; the task then completes on the target definition', async () => {
    const first = await rest.engine.runtime.startProcessInstanceById(v1);
    const second = await rest.engine.runtime.startProcessInstanceById(v1);
    const plan = (await rest.request('POST', '/migration/generate', { json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 } })).body;

    const executed = await rest.request('POST', '/migration/execute', {
      json: { migrationPlan: { ...plan, variables: { migrated: { type: 'Boolean', value: true } } }, processInstanceIds: [first.id], processInstanceQuery: { processInstanceIds: [second.id] } },
    });

    expect(executed.status).toBe(204);
    for (const id of [first.id, second.id]) {
      const instance = await rest.request('GET', `/process-instance/${id}`);
      expect(instance.body.definitionId).toBe(v2);
      const [task] = (await rest.request('GET', '/task', { query: { processInstanceId: id } })).body;
      expect(task).toMatchObject({ processDefinitionId: v2, taskDefinitionKey: 'approve', name: 'Approve' });
      const variable = await rest.request('GET', `/process-instance/${id}/variables/migrated`);
      expect(variable.body).toMatchObject({ type: 'Boolean', value: true });
      const [job] = (await rest.request('GET', '/job', { query: { processInstanceId: id } })).body;
      expect(job.processDefinitionId).toBe(v2);
      const tree = await rest.request('GET', `/process-instance/${id}/activity-instances`);
      expect(tree.body.activityId).toBe(v2);
      expect(tree.body.childActivityInstances[0].activityId).toBe('sub');

      const completed = await rest.request('POST', `/task/${task.id}/complete`, { json: {} });
      expect(completed.status).toBe(204);
    }
    const locked = await rest.request('POST', '/external-task/fetchAndLock', { json: { workerId: 'w', maxTasks: 5, topics: [{ topicName: 'ship', lockDuration: 10_000 }] } });
    expect(locked.body).toHaveLength(2);
    for (const task of locked.body) {
      expect(task.processDefinitionId).toBe(v2);
      expect((await rest.request('POST', `/external-task/${task.id}/complete`, { json: { workerId: 'w' } })).status).toBe(204);
    }
    expect((await rest.request('GET', '/process-instance/count')).body).toEqual({ count: 0 });
  });

  it('answers an invalid plan with MigrationPlanValidationException and its report', async () => {
    const started = await rest.engine.runtime.startProcessInstanceById(v1);
    const response = await executeRejected({
      migrationPlan: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('approve', 'nope')] },
      processInstanceIds: [started.id],
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      type: 'MigrationPlanValidationException',
      message:
        `ENGINE-23001 Migration plan for process definition '${v1}' to '${v2}' is not valid:\n` +
        "\t Migration instruction MigrationInstructionImpl{sourceActivityId='approve', targetActivityId='nope', updateEventTrigger='false'} is not valid:\n" +
        "\t\tTarget activity 'nope' does not exist\n",
      code: 0,
      validationReport: { instructionReports: [{ instruction: instruction('approve', 'nope'), failures: ["Target activity 'nope' does not exist"] }], variableReports: {} },
    });
  });

  it('answers an instance the plan does not cover with MigratingProcessInstanceValidationException', async () => {
    const started = await rest.engine.runtime.startProcessInstanceById(v1);
    const [task] = await rest.engine.task.findTasks({ processInstanceId: started.id });
    const response = await executeRejected({
      migrationPlan: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2, instructions: [instruction('sub', 'sub')] },
      processInstanceIds: [started.id],
    });

    expect(response.status).toBe(400);
    expect(response.body).toEqual({
      type: 'MigratingProcessInstanceValidationException',
      message: `ENGINE-23004 Cannot migrate process instance '${started.id}':\n\tCannot migrate activity instance '${task.activityInstanceId}':\n\t\tThere is no migration instruction for this instance's activity\n`,
      code: 0,
      validationReport: {
        processInstanceId: started.id,
        failures: [],
        activityInstanceValidationReports: [
          { migrationInstruction: null, activityInstanceId: task.activityInstanceId, sourceScopeId: 'approve', failures: ["There is no migration instruction for this instance's activity"] },
        ],
        transitionInstanceValidationReports: [],
      },
    });
  });

  it('refuses an empty selection and unknown instances', async () => {
    const plan = (await rest.request('POST', '/migration/generate', { json: { sourceProcessDefinitionId: v1, targetProcessDefinitionId: v2 } })).body;
    const empty = await rest.request('POST', '/migration/execute', { json: { migrationPlan: plan, processInstanceIds: [] } });
    const unknown = await rest.request('POST', '/migration/execute', { json: { migrationPlan: plan, processInstanceIds: ['nope'] } });

    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({ type: 'BadUserRequestException', message: 'Process instance ids cannot empty: process instance ids is empty', code: 0 });
    expect(unknown.status).toBe(500);
    expect(unknown.body).toEqual({ type: 'ProcessEngineException', message: "ENGINE-23003 Process instance 'nope' cannot be migrated. The process instance does not exist", code: 0 });
  });
});
