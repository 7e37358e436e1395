import { afterEach, describe, expect, it } from 'vitest';
import type { ProcessEngine } from '../../src/engine.js';
import { createTestEngine } from '../../src/testing/index.js';
import { flow, wrap } from './scope-models.js';

const integer = (value: number) => ({ type: 'integer' as const, value, valueInfo: {} });
const scriptFlow = (id: string, from: string, to: string, script: string, attributes = 'language="JavaScript"') =>
  `<bpmn:sequenceFlow id="${id}" sourceRef="${from}" targetRef="${to}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" ${attributes}>${script}</bpmn:conditionExpression></bpmn:sequenceFlow>`;

/** start → exclusive gateway: script conditions to `big` and `small`, `other` by default. */
const gatewayModel = (big: string, small = 'amount &lt;= 10') =>
  wrap(
    'scripted',
    `<bpmn:startEvent id="start" />${flow('f0', 'start', 'gw')}<bpmn:exclusiveGateway id="gw" default="f3" />
     ${scriptFlow('f1', 'gw', 'big', big)}<bpmn:userTask id="big" />
     ${scriptFlow('f2', 'gw', 'small', small)}<bpmn:userTask id="small" />
     ${flow('f3', 'gw', 'other')}<bpmn:userTask id="other" />`,
  );

// Camunda's ScriptCondition: a condition naming a language is a script (not an expression), its value a Boolean.
describe('script conditions', () => {
  let engine: ProcessEngine | undefined;
  afterEach(async () => {
    await engine?.close();
    engine = undefined;
  });
  const deploy = async (xml: string, scripting = true, extra: Array<{ name: string; text: string }> = []) => {
    engine = await createTestEngine({ scripting: { enabled: scripting } });
    const resources = [{ name: 'model.bpmn', bytes: Buffer.from(xml) }, ...extra.map(({ name, text }) => ({ name, bytes: Buffer.from(text) }))];
    const { processDefinitions } = await engine.deployment.deploy({ resources });
    return processDefinitions![0]!.id;
  };
  const taskKeys = async (processInstanceId: string) => (await engine!.task.findTasks({ processInstanceId })).map((task) => task.taskDefinitionKey).sort();

  it('chooses a gateway flow by a JavaScript condition over the variables and the execution', async () => {
    const definitionId = await deploy(gatewayModel("amount > 10 &amp;&amp; execution.getVariable('region') === 'north'"));
    const north = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { amount: integer(50), region: { type: 'string', value: 'north', valueInfo: {} } } });
    const south = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { amount: integer(50), region: { type: 'string', value: 'south', valueInfo: {} } } });
    const low = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { amount: integer(5), region: { type: 'string', value: 'north', valueInfo: {} } } });
    expect(await taskKeys(north.id)).toEqual(['big']);
    expect(await taskKeys(south.id)).toEqual(['other']);
    expect(await taskKeys(low.id)).toEqual(['small']);
  });

  it('reads a condition script from a deployment resource', async () => {
    const definitionId = await deploy(
      wrap(
        'fromResource',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'gw')}<bpmn:exclusiveGateway id="gw" default="f2" />
         ${scriptFlow('f1', 'gw', 'yes', '', 'language="javascript" camunda:resource="deployment://approve.js"')}<bpmn:userTask id="yes" />
         ${flow('f2', 'gw', 'no')}<bpmn:userTask id="no" />`,
      ),
      true,
      [{ name: 'approve.js', text: 'score >= 700' }],
    );
    const good = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { score: integer(710) } });
    const poor = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { score: integer(500) } });
    expect(await taskKeys(good.id)).toEqual(['yes']);
    expect(await taskKeys(poor.id)).toEqual(['no']);
  });

  it("runs the script an expression source names (Camunda's dynamic script)", async () => {
    const definitionId = await deploy(gatewayModel('${rule}'));
    const rule = { type: 'string' as const, value: 'amount > 100', valueInfo: {} };
    const high = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { amount: integer(500), rule } });
    const mid = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { amount: integer(50), rule } });
    expect(await taskKeys(high.id)).toEqual(['big']);
    expect(await taskKeys(mid.id)).toEqual(['other']);
  });

  it("fails with Camunda's texts when the script gives no Boolean or null, and rolls the start back", async () => {
    const nonBoolean = await deploy(gatewayModel("'yes'"));
    await expect(engine!.runtime.startProcessInstanceById(nonBoolean, { variables: { amount: integer(1) } })).rejects.toThrow(
      'condition script returns non-Boolean: result has class java.lang.String and not java.lang.Boolean',
    );
    expect(await engine!.runtime.findProcessInstances()).toEqual([]);
    await engine!.close();
    const nothing = await deploy(gatewayModel('null'));
    await expect(engine!.runtime.startProcessInstanceById(nothing, { variables: { amount: integer(1) } })).rejects.toThrow('condition script returns null: result is null');
  });

  it('fails naming the activity when the script throws, and refuses to run it while scripting is off', async () => {
    const failing = await deploy(gatewayModel('undefinedName > 1'));
    await expect(engine!.runtime.startProcessInstanceById(failing, { variables: { amount: integer(1) } })).rejects.toThrow(
      /^Unable to evaluate script while executing activity 'gw' in the process definition with id '[^']+': ReferenceError: undefinedName is not defined$/,
    );
    await expect(engine!.runtime.startProcessInstanceById(failing, { variables: { amount: integer(1) } })).rejects.toMatchObject({ name: 'ScriptEvaluationException' });
    const broken = await deploy(gatewayModel('amount &gt; (('));
    await expect(engine!.runtime.startProcessInstanceById(broken, { variables: { amount: integer(1) } })).rejects.toMatchObject({
      name: 'ScriptCompilationException',
      message: expect.stringMatching(/^Unable to compile script: SyntaxError: /),
    });
    await engine!.close();
    const off = await deploy(gatewayModel('amount > 10'), false);
    await expect(engine!.runtime.startProcessInstanceById(off, { variables: { amount: integer(1) } })).rejects.toThrow(
      "Cannot run the JavaScript script of element 'gw': scripting is disabled",
    );
  });

  it('evaluates script conditions of activities leaving through several flows and of inclusive gateways', async () => {
    const definitionId = await deploy(
      wrap(
        'several',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 't')}<bpmn:task id="t" />
         ${scriptFlow('f1', 't', 'a', 'x > 0')}<bpmn:userTask id="a" />${scriptFlow('f2', 't', 'inclusive', 'x > 1')}
         <bpmn:inclusiveGateway id="inclusive" />${scriptFlow('f3', 'inclusive', 'b', 'x > 2')}<bpmn:userTask id="b" />${scriptFlow('f4', 'inclusive', 'c', 'x > 3')}<bpmn:userTask id="c" />`,
      ),
    );
    const three = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { x: integer(3) } });
    expect(await taskKeys(three.id)).toEqual(['a', 'b']);
    const four = await engine!.runtime.startProcessInstanceById(definitionId, { variables: { x: integer(4) } });
    expect(await taskKeys(four.id)).toEqual(['a', 'b', 'c']);
  });

  it('triggers a conditional boundary event by a script condition; a script failing on an unknown variable is false', async () => {
    const definitionId = await deploy(
      wrap(
        'watched',
        `<bpmn:startEvent id="start" />${flow('f0', 'start', 'work')}<bpmn:userTask id="work" />${flow('f1', 'work', 'done')}<bpmn:endEvent id="done" />
         <bpmn:boundaryEvent id="urgent" attachedToRef="work"><bpmn:conditionalEventDefinition>
           <bpmn:condition xsi:type="bpmn:tFormalExpression" language="javascript">level === 'high'</bpmn:condition>
         </bpmn:conditionalEventDefinition></bpmn:boundaryEvent>${flow('f2', 'urgent', 'escalated')}<bpmn:userTask id="escalated" />`,
      ),
    );
    const { id } = await engine!.runtime.startProcessInstanceById(definitionId);
    expect(await taskKeys(id)).toEqual(['work']);
    await engine!.runtime.modifyVariables(id, { level: { type: 'string', value: 'low', valueInfo: {} } });
    expect(await taskKeys(id)).toEqual(['work']);
    await engine!.runtime.modifyVariables(id, { level: { type: 'string', value: 'high', valueInfo: {} } });
    expect(await taskKeys(id)).toEqual(['escalated']);
  });

  it('starts an instance at a conditional start event whose script condition holds for the given variables', async () => {
    await deploy(
      wrap(
        'startedByScript',
        `<bpmn:startEvent id="start"><bpmn:conditionalEventDefinition>
           <bpmn:condition xsi:type="bpmn:tFormalExpression" language="javascript">temperature > 30</bpmn:condition>
         </bpmn:conditionalEventDefinition></bpmn:startEvent>${flow('f0', 'start', 'cool')}<bpmn:userTask id="cool" />`,
      ),
    );
    expect(await engine!.runtime.evaluateStartConditions({ variables: { temperature: integer(20) } })).toEqual([]);
    expect(await engine!.runtime.evaluateStartConditions({ variables: { other: integer(40) } })).toEqual([]);
    const started = await engine!.runtime.evaluateStartConditions({ variables: { temperature: integer(35) } });
    expect(started).toHaveLength(1);
    expect(await taskKeys(started[0]!.id)).toEqual(['cool']);
  });
});
