import { describe, expect, it } from 'vitest';
import { parseBpmnResource } from '../../src/bpmn/index.js';
import { parseProcess, processXml } from './bpmn-xml.js';

// No bpmn:incoming / bpmn:outgoing elements: the graph comes from the sequence flows alone.
const ORDER = processXml(`
    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="gw" />
    <bpmn:exclusiveGateway id="gw" name="Amount?" default="f3" />
    <bpmn:sequenceFlow id="f2" name="big" sourceRef="gw" targetRef="review">
      <bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">  \${amount > 1000}  </bpmn:conditionExpression>
    </bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="f3" sourceRef="gw" targetRef="end" />
    <bpmn:subProcess id="review">
      <bpmn:startEvent id="reviewStart" />
      <bpmn:sequenceFlow id="r1" sourceRef="reviewStart" targetRef="approve" />
      <bpmn:userTask id="approve" name="Approve" camunda:assignee="demo" camunda:candidateGroups="managers" />
      <bpmn:sequenceFlow id="r2" sourceRef="approve" targetRef="reviewEnd" />
      <bpmn:endEvent id="reviewEnd" />
    </bpmn:subProcess>
    <bpmn:boundaryEvent id="timeout" attachedToRef="review" cancelActivity="false">
      <bpmn:timerEventDefinition><bpmn:timeDuration>PT5M</bpmn:timeDuration></bpmn:timerEventDefinition>
    </bpmn:boundaryEvent>
    <bpmn:sequenceFlow id="f4" sourceRef="review" targetRef="end" />
    <bpmn:endEvent id="end" />`);

describe('ProcessModel graph', () => {
  it('derives incoming and outgoing flows from the sequence flows, in document order', async () => {
    const model = await parseProcess(ORDER);

    expect(model.activity('gw')).toMatchObject({ incoming: ['f1'], outgoing: ['f2', 'f3'], defaultFlow: 'f3', name: 'Amount?' });
    expect(model.activity('end')?.incoming).toEqual(['f3', 'f4']);
    expect(model.flowsFrom('gw').map((flow) => flow.id)).toEqual(['f2', 'f3']);
    expect(model.flowsTo('end').map((flow) => flow.id)).toEqual(['f3', 'f4']);
    expect(model.flowsFrom('nothing')).toEqual([]);
  });

  it('marks the default flow and keeps the trimmed condition text', async () => {
    const model = await parseProcess(ORDER);

    expect(model.flows.get('f2')).toMatchObject({ name: 'big', sourceRef: 'gw', targetRef: 'review', condition: '${amount > 1000}', conditionScript: null, isDefault: false });
    expect(model.flows.get('f3')).toMatchObject({ condition: null, isDefault: true });
  });

  it('puts every flow node in its scope: the process key or the enclosing sub-process', async () => {
    const model = await parseProcess(ORDER);

    expect(model.activity('approve')).toMatchObject({ scopeId: 'review', activityType: 'userTask', camunda: { assignee: 'demo', candidateGroups: 'managers' } });
    expect(model.flows.get('r1')?.scopeId).toBe('review');
    expect(model.childrenOf('review').map((element) => element.id)).toEqual(['reviewStart', 'approve', 'reviewEnd']);
    expect(model.childrenOf('p').map((element) => element.id)).toEqual(['start', 'gw', 'review', 'timeout', 'end']);
  });

  it('links a boundary event and the activity it is attached to', async () => {
    const model = await parseProcess(ORDER);

    expect(model.activity('timeout')).toMatchObject({ attachedTo: 'review', cancelActivity: false, activityType: 'boundaryTimer' });
    expect(model.activity('timeout')?.eventDefinitions[0].timer).toEqual({ kind: 'duration', expression: 'PT5M', exclusive: true });
    expect(model.activity('review')?.boundaryEvents).toEqual(['timeout']);
  });

  it('knows the process-level start events and the initial one', async () => {
    const model = await parseProcess(ORDER);

    expect(model.initialStartEvents).toEqual(['start']);
    expect(model.initialActivity()?.id).toBe('start');
  });

  it('is frozen, its maps included', async () => {
    const model = await parseProcess(ORDER);

    expect(Object.isFrozen(model)).toBe(true);
    expect(Object.isFrozen(model.activity('gw'))).toBe(true);
    expect(Object.isFrozen(model.activity('gw')?.outgoing)).toBe(true);
    expect(() => (model.elements as Map<string, unknown>).set('x', {})).toThrow(TypeError);
    expect(() => (model.flows as Map<string, unknown>).delete('f1')).toThrow(TypeError);
  });
});

describe('ProcessModel event definitions', () => {
  const EVENTS = processXml(
    `
    <bpmn:startEvent id="byTimer"><bpmn:timerEventDefinition>
      <bpmn:timeDate>2030-01-01T00:00:00Z</bpmn:timeDate><bpmn:timeCycle>R3/PT1H</bpmn:timeCycle>
    </bpmn:timerEventDefinition></bpmn:startEvent>
    <bpmn:startEvent id="byMessage"><bpmn:messageEventDefinition messageRef="order" /></bpmn:startEvent>
    <bpmn:startEvent id="bySignal"><bpmn:signalEventDefinition signalRef="alarm" /></bpmn:startEvent>
    <bpmn:intermediateCatchEvent id="cycle"><bpmn:timerEventDefinition><bpmn:timeCycle>0 0 9 * * ?</bpmn:timeCycle></bpmn:timerEventDefinition></bpmn:intermediateCatchEvent>
    <bpmn:endEvent id="fail"><bpmn:errorEventDefinition errorRef="err" camunda:errorMessageVariable="msg" /></bpmn:endEvent>
    <bpmn:endEvent id="stop"><bpmn:terminateEventDefinition /></bpmn:endEvent>`,
    'isExecutable="true"',
    `  <bpmn:message id="order" name="OrderPlaced" />
  <bpmn:signal id="alarm" name="Alarm" />
  <bpmn:error id="err" errorCode="E42" />\n`,
  );

  it('reads timers with Camunda precedence: timeDate before timeCycle before timeDuration', async () => {
    const model = await parseProcess(EVENTS);

    expect(model.timerStartEvents).toEqual([{ activityId: 'byTimer', timer: { kind: 'date', expression: '2030-01-01T00:00:00Z', exclusive: true } }]);
    expect(model.activity('cycle')).toMatchObject({ activityType: 'intermediateTimer', eventDefinitions: [{ timer: { kind: 'cycle', expression: '0 0 9 * * ?' } }] });
  });

  it('lists the messages and signals that start the process', async () => {
    const model = await parseProcess(EVENTS);

    expect(model.messageStartEvents).toEqual([{ activityId: 'byMessage', messageRef: 'order', messageName: 'OrderPlaced' }]);
    expect(model.signalStartEvents).toEqual([{ activityId: 'bySignal', signalRef: 'alarm', signalName: 'Alarm' }]);
    expect(model.initialActivityId).toBe('byTimer');
  });

  it('resolves error references to their code and names end events as Camunda does', async () => {
    const model = await parseProcess(EVENTS);

    expect(model.activity('fail')).toMatchObject({
      activityType: 'errorEndEvent',
      eventDefinitions: [{ type: 'bpmn:ErrorEventDefinition', errorRef: 'err', errorCode: 'E42', camunda: { errorMessageVariable: 'msg' } }],
    });
    expect(model.activity('stop')?.activityType).toBe('terminateEndEvent');
    expect(model.activity('byMessage')?.activityType).toBe('messageStartEvent');
  });
});

describe('ProcessModel process attributes and camunda extensions', () => {
  it('reads the process attributes Camunda stores on a definition', async () => {
    const xml = processXml(
      `    <bpmn:documentation>First</bpmn:documentation>
    <bpmn:documentation>  Second  </bpmn:documentation>
    <bpmn:startEvent id="start" camunda:formKey="embedded:app:start.html" />`,
      'name="Invoice" isExecutable="true" camunda:versionTag="1.2" camunda:isStartableInTasklist="false" ' +
        'camunda:candidateStarterUsers="demo, ${starter(a, b)}" camunda:candidateStarterGroups="sales,management" camunda:jobPriority="5"',
    );

    const result = await parseBpmnResource('invoice.bpmn', xml);

    expect(result).toMatchObject({ targetNamespace: 'http://trellis.test/bpmn', diagramPresent: false, warnings: [] });
    expect(result.processes[0]).toMatchObject({
      key: 'p',
      name: 'Invoice',
      documentation: 'First\n\nSecond',
      category: 'http://trellis.test/bpmn',
      isExecutable: true,
      versionTag: '1.2',
      isStartableInTasklist: false,
      candidateStarterUsers: ['demo', '${starter(a, b)}'],
      candidateStarterGroups: ['sales', 'management'],
      jobPriority: '5',
      hasStartFormKey: true,
      // Just after the process start tag, where a SAX locator (and so Camunda) places the element.
      position: { line: 3, column: xml.split('\n')[2].length + 1 },
    });
  });

  it.each([
    ['camunda:isStartableInTasklist="TRUE"', true, null],
    ['camunda:isStartableInTasklist="yes"', false, null],
    ['camunda:isStartableInTasklist=""', false, null],
    ['camunda:versionTag=""', true, ''],
  ])('reads %s as Camunda does (equalsIgnoreCase "true"; the version tag as written)', async (attribute, startable, versionTag) => {
    const { processes } = await parseBpmnResource('m.bpmn', processXml('    <bpmn:startEvent id="start" />', `isExecutable="true" ${attribute}`));

    expect(processes[0]).toMatchObject({ isStartableInTasklist: startable, versionTag });
  });

  it('keeps input/output mappings, listeners, retry cycles and multi-instance settings as data', async () => {
    const xml = processXml(`    <bpmn:startEvent id="start" />
    <bpmn:serviceTask id="send" camunda:asyncBefore="true" camunda:exclusive="false" camunda:delegateExpression="\${mailer}">
      <bpmn:extensionElements>
        <camunda:failedJobRetryTimeCycle>R5/PT5M</camunda:failedJobRetryTimeCycle>
        <camunda:inputOutput>
          <camunda:inputParameter name="to">\${customer.email}</camunda:inputParameter>
          <camunda:inputParameter name="tags"><camunda:list><camunda:value>a</camunda:value><camunda:value>b</camunda:value></camunda:list></camunda:inputParameter>
          <camunda:inputParameter name="headers"><camunda:map><camunda:entry key="X">1</camunda:entry></camunda:map></camunda:inputParameter>
        </camunda:inputOutput>
        <camunda:executionListener event="end" class="org.example.Audit"><camunda:field name="level" stringValue="info" /></camunda:executionListener>
      </bpmn:extensionElements>
      <bpmn:multiInstanceLoopCharacteristics isSequential="true" camunda:collection="\${customers}" camunda:elementVariable="customer">
        <bpmn:completionCondition>\${nrOfCompletedInstances == 2}</bpmn:completionCondition>
      </bpmn:multiInstanceLoopCharacteristics>
    </bpmn:serviceTask>`);

    const send = (await parseProcess(xml)).activity('send')!;

    expect(send.camunda).toEqual({ asyncBefore: true, exclusive: false, delegateExpression: '${mailer}' });
    expect(send.failedJobRetryTimeCycle).toBe('R5/PT5M');
    expect(send.inputOutput).toEqual({
      inputParameters: [
        { name: 'to', value: { kind: 'text', text: '${customer.email}' } },
        { name: 'tags', value: { kind: 'list', items: [{ kind: 'text', text: 'a' }, { kind: 'text', text: 'b' }] } },
        { name: 'headers', value: { kind: 'map', entries: [{ key: 'X', value: { kind: 'text', text: '1' } }] } },
      ],
      // Camunda refuses output parameters on a multi-instance activity.
      outputParameters: [],
    });
    expect(send.executionListeners).toEqual([
      { event: 'end', id: null, timer: null, class: 'org.example.Audit', expression: null, delegateExpression: null, script: null, fields: [{ name: 'level', stringValue: 'info', expression: null }] },
    ]);
    expect(send.multiInstance).toEqual({
      isSequential: true,
      loopCardinality: null,
      collection: '${customers}',
      elementVariable: 'customer',
      completionCondition: '${nrOfCompletedInstances == 2}',
      camunda: { collection: '${customers}', elementVariable: 'customer' },
      failedJobRetryTimeCycle: null,
    });
    expect(send.extensions.map((extension) => (extension as { $type: string }).$type)).toEqual([
      'camunda:FailedJobRetryTimeCycle',
      'camunda:InputOutput',
      'camunda:ExecutionListener',
    ]);
  });

  it('reads call activity bindings for static resolution', async () => {
    const xml = processXml(`    <bpmn:startEvent id="start" />
    <bpmn:callActivity id="byVersion" calledElement="billing" camunda:calledElementBinding="version" camunda:calledElementVersion="3" />
    <bpmn:callActivity id="byTag" calledElement="\${target}" camunda:calledElementBinding="versionTag" camunda:calledElementVersionTag="v2" />
    <bpmn:callActivity id="byCase" camunda:caseRef="someCase" />`);

    const model = await parseProcess(xml);

    expect(model.callActivities).toEqual([
      { activityId: 'byVersion', calledElement: 'billing', binding: 'version', version: '3', versionTag: null, tenantId: null },
      { activityId: 'byTag', calledElement: '${target}', binding: 'versionTag', version: null, versionTag: 'v2', tenantId: null },
    ]);
  });
});

describe('parseBpmnResource on collaborations', () => {
  it('parses every executable participant in document order and skips the others', async () => {
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d" targetNamespace="t">
      <bpmn:collaboration id="c">
        <bpmn:participant id="a" processRef="two" /><bpmn:participant id="b" processRef="one" /><bpmn:participant id="x" processRef="three" />
      </bpmn:collaboration>
      <bpmn:process id="two" isExecutable="true"><bpmn:startEvent id="s2" /></bpmn:process>
      <bpmn:process id="one" isExecutable="TRUE"><bpmn:startEvent id="s1" /></bpmn:process>
      <bpmn:process id="three" isExecutable="false"><bpmn:startEvent id="s3" /></bpmn:process>
    </bpmn:definitions>`;

    const result = await parseBpmnResource('c.bpmn', xml);

    expect(result.processes.map((process) => process.key)).toEqual(['two', 'one']);
    expect(result.warnings.map((warning) => warning.mainElementId)).toEqual(['three']);
  });

  it('accepts a resource whose process is not executable and yields no process, as Camunda does', async () => {
    const xml = processXml('    <bpmn:startEvent id="s" />', 'isExecutable="false"');

    const result = await parseBpmnResource('m.bpmn', xml);

    expect(result.processes).toEqual([]);
    expect(result.warnings).toMatchObject([
      { message: "ENGINE-01002 Ignoring non-executable process with id 'p'. Set the attribute isExecutable=\"true\" to deploy this process.", line: 3 },
    ]);
  });

  it('takes a process without isExecutable as not executable in a new deployment, as Camunda does', async () => {
    const xml = processXml('    <bpmn:startEvent id="s" />', '');

    const result = await parseBpmnResource('m.bpmn', xml);

    expect(result.processes).toEqual([]);
    expect(result.warnings[0].message).toMatch(/^ENGINE-01003 Process with id 'p' has no attribute isExecutable/);
  });
});
