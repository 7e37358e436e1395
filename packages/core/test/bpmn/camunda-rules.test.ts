import { describe, expect, it } from 'vitest';
import { parseBpmnResource } from '../../src/bpmn/index.js';
import { parseErrors, parseFailure, parseProcess, processXml, startAndEnd } from './bpmn-xml.js';

const flow = (id: string, source: string, target: string, condition?: string) =>
  condition === undefined
    ? `    <bpmn:sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}" />`
    : `    <bpmn:sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression">${condition}</bpmn:conditionExpression></bpmn:sequenceFlow>`;

const messages = async (body: string, outside = '') => (await parseErrors(processXml(body, undefined, outside))).map((problem) => problem.message);

describe('Camunda rules on exclusive gateways', () => {
  const gateway = (...flows: string[]) => startAndEnd(['    <bpmn:exclusiveGateway id="gw" default="f2" />', ...flows].join('\n'));

  it('rejects a gateway without outgoing flows', async () => {
    const errors = await parseErrors(processXml(startAndEnd('    <bpmn:exclusiveGateway id="gw" />')));

    expect(errors).toMatchObject([{ message: "Exclusive Gateway 'gw' has no outgoing sequence flows.", mainElementId: 'gw', line: 5 }]);
  });

  it('rejects a default flow that also has a condition', async () => {
    const errors = await parseErrors(processXml(gateway(flow('f1', 'gw', 'end', '${a}'), flow('f2', 'gw', 'end', '${b}'))));

    expect(errors).toMatchObject([
      { message: "Exclusive Gateway 'gw' has outgoing sequence flow 'f2' which is the default flow but has a condition too.", elementIds: ['gw', 'f2'] },
    ]);
  });

  it('rejects a flow without condition beside a default flow', async () => {
    expect(await messages(gateway(flow('f1', 'gw', 'end'), flow('f2', 'gw', 'end')))).toEqual([
      "Exclusive Gateway 'gw' has outgoing sequence flow 'f1' without condition which is not the default flow.",
    ]);
  });

  it('warns, and takes it as the default, about a single flow without condition', async () => {
    const xml = processXml(startAndEnd(['    <bpmn:exclusiveGateway id="gw" />', flow('f1', 'gw', 'end', '${a}'), flow('f2', 'gw', 'end')].join('\n')));

    const result = await parseBpmnResource('model.bpmn', xml);

    expect(result.warnings).toMatchObject([{ message: expect.stringMatching(/^Exclusive Gateway 'gw' has outgoing sequence flow 'f2' without condition/), elementIds: ['gw', 'f2'] }]);
  });
});

describe('Camunda rules on start events', () => {
  it('rejects a process without a start event', async () => {
    expect(await messages('    <bpmn:endEvent id="end" />')).toEqual(['process must define a startEvent element']);
  });

  it.each(['<bpmn:subProcess id="sub"><bpmn:task id="t" /></bpmn:subProcess>', '<bpmn:subProcess id="sub" />'])(
    'rejects a sub-process without a start event: %s',
    async (subProcess) => {
      expect(await messages(startAndEnd(`    ${subProcess}`))).toEqual(['subProcess must define a startEvent element']);
    },
  );

  it('rejects a second none start event, pointing at the process', async () => {
    const errors = await parseErrors(processXml(startAndEnd('    <bpmn:startEvent id="again" />')));

    expect(errors).toMatchObject([
      { message: 'multiple none start events or timer start events not supported on process definition', mainElementId: 'again', elementIds: ['again', 'p'], line: 3 },
    ]);
  });

  it('rejects a timer start event inside a plain sub-process', async () => {
    const body = '    <bpmn:subProcess id="sub"><bpmn:startEvent id="s2"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1M</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:startEvent></bpmn:subProcess>';

    expect(await messages(startAndEnd(body))).toEqual(['timerEventDefinition is not allowed on start event within a subprocess']);
  });

  it('rejects an event sub-process whose start event has no trigger', async () => {
    const body = '    <bpmn:subProcess id="events" triggeredByEvent="true"><bpmn:startEvent id="s2" /></bpmn:subProcess>';

    expect(await messages(startAndEnd(body))).toEqual([
      "start event of event subprocess must be of type 'error', 'message', 'timer', 'signal', 'compensation' or 'escalation'",
    ]);
  });

  it('rejects an expression in the name of a start message', async () => {
    const body = '    <bpmn:startEvent id="start"><bpmn:messageEventDefinition messageRef="m" /></bpmn:startEvent>';
    const outside = '  <bpmn:message id="m" name="order-${kind}" />\n';

    expect(await messages(body, outside)).toEqual([
      "Invalid message name 'order-${kind}' for element 'messageEventDefinition': expressions in the message start event name are not allowed!",
    ]);
  });

  it('rejects two message start events waiting for the same message name', async () => {
    const start = (id: string, ref: string) => `    <bpmn:startEvent id="${id}"><bpmn:messageEventDefinition messageRef="${ref}" /></bpmn:startEvent>`;
    const outside = '  <bpmn:message id="m1" name="go" />\n  <bpmn:message id="m2" name="go" />\n';

    expect(await messages([start('a', 'm1'), start('b', 'm2')].join('\n'), outside)).toEqual([
      "Cannot have more than one message event subscription with name 'go' for scope 'p'",
    ]);
  });

  it('rejects a message catch event without messageRef', async () => {
    const body = '    <bpmn:intermediateCatchEvent id="wait"><bpmn:messageEventDefinition /></bpmn:intermediateCatchEvent>';

    expect(await messages(startAndEnd(body))).toEqual(["attribute 'messageRef' is required"]);
  });
});

describe('Camunda rules on activities and events', () => {
  it.each([
    ['<bpmn:serviceTask id="t" />', "One of the attributes 'class', 'delegateExpression', 'type', or 'expression' is mandatory on serviceTask. If you are using a connector, make sure theconnect process engine plugin is registered with the process engine."],
    ['<bpmn:serviceTask id="t" camunda:type="external" />', "External tasks must specify a 'topic' attribute in the camunda namespace"],
    ['<bpmn:serviceTask id="t" camunda:type="rest" />', "Invalid usage of type attribute on serviceTask: 'rest'"],
    ['<bpmn:serviceTask id="t" camunda:class="A" camunda:resultVariable="r" />', "'resultVariableName' not supported for serviceTask elements using 'class'"],
    ['<bpmn:businessRuleTask id="t" />', "One of the attributes 'class', 'delegateExpression', 'type', or 'expression' is mandatory on businessRuleTask. If you are using a connector, make sure theconnect process engine plugin is registered with the process engine."],
    ['<bpmn:sendTask id="t" />', "One of the attributes 'class', 'delegateExpression', 'type', or 'expression' is mandatory on sendTask."],
    ['<bpmn:callActivity id="t" />', "Missing attribute 'calledElement' or 'caseRef'"],
    ['<bpmn:intermediateCatchEvent id="t"><bpmn:timerEventDefinition /></bpmn:intermediateCatchEvent>', 'Timer needs configuration (either timeDate, timeCycle or timeDuration is needed).'],
    ['<bpmn:endEvent id="t"><bpmn:errorEventDefinition /></bpmn:endEvent>', "'errorRef' attribute is mandatory on error end event"],
    ['<bpmn:intermediateThrowEvent id="t"><bpmn:escalationEventDefinition /></bpmn:intermediateThrowEvent>', "escalationEventDefinition does not have required attribute 'escalationRef'"],
    ['<bpmn:userTask id="t" camunda:formRef="invoice" />', 'Invalid element definition: value for formRefBinding attribute has to be one of [deployment, latest, version] but was null'],
    ['<bpmn:userTask id="t" camunda:formRef="invoice" camunda:formRefBinding="newest" />', 'Invalid element definition: value for formRefBinding attribute has to be one of [deployment, latest, version] but was newest'],
    ['<bpmn:userTask id="t" camunda:formKey="embedded:app:a.html" camunda:formRef="invoice" camunda:formRefBinding="latest" />', 'Invalid element definition: only one of the attributes formKey and formRef is allowed.'],
  ])('rejects %s', async (element, message) => {
    const errors = await parseErrors(processXml(startAndEnd(`    ${element}`)));

    expect(errors).toMatchObject([{ message, mainElementId: 't', line: 5 }]);
  });

  it.each([
    '<bpmn:serviceTask id="t" camunda:type="external" camunda:topic="invoices" />',
    '<bpmn:serviceTask id="t" camunda:expression="${true}" camunda:resultVariable="r" />',
    '<bpmn:businessRuleTask id="t" camunda:decisionRef="approve" />',
    '<bpmn:sendTask id="t" camunda:delegateExpression="${sender}" />',
    '<bpmn:callActivity id="t" calledElement="other" />',
    '<bpmn:receiveTask id="t" />',
    '<bpmn:userTask id="t" camunda:formRef="invoice" camunda:formRefBinding="version" />',
  ])('accepts %s', async (element) => {
    await expect(parseBpmnResource('model.bpmn', processXml(startAndEnd(`    ${element}`)))).resolves.toBeDefined();
  });

  it('builds a deployed resource\'s processes again even where a rule refuses them (a rule added later keeps deployed definitions usable)', async () => {
    const xml = processXml(startAndEnd('    <bpmn:userTask id="t" camunda:formRef="invoice" />'));

    await expect(parseBpmnResource('model.bpmn', xml)).rejects.toThrow(/formRefBinding attribute/);
    const { processes } = await parseBpmnResource('model.bpmn', xml, { historyTimeToLive: null, enforceHistoryTimeToLive: false, deployed: true });
    expect(processes.map((process) => process.key)).toEqual(['p']);
    await expect(parseBpmnResource('model.bpmn', 'not xml', { historyTimeToLive: null, enforceHistoryTimeToLive: false, deployed: true })).rejects.toThrow(/Content is not allowed in prolog/);
  });

  it('checks the form reference of the initial start event only, as Camunda parses no other start form', async () => {
    const withStart = (initial: string, other: string) =>
      processXml(`    <bpmn:startEvent id="start" ${initial} />\n    <bpmn:startEvent id="other" ${other}><bpmn:messageEventDefinition messageRef="m" /></bpmn:startEvent>\n    <bpmn:endEvent id="end" />`, undefined, '  <bpmn:message id="m" name="go" />\n');

    expect(await parseErrors(withStart('camunda:formRef="invoice"', ''))).toMatchObject([{ message: expect.stringMatching(/formRefBinding attribute .* but was null$/), mainElementId: 'start' }]);
    await expect(parseBpmnResource('model.bpmn', withStart('', 'camunda:formRef="invoice"'))).resolves.toBeDefined();
  });

  it('rejects a boundary event attached to an activity of another scope', async () => {
    const body = [
      '    <bpmn:subProcess id="sub"><bpmn:startEvent id="s2" /><bpmn:userTask id="inner" /></bpmn:subProcess>',
      '    <bpmn:boundaryEvent id="b" attachedToRef="inner"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1M</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>',
    ].join('\n');

    expect(await messages(startAndEnd(body))).toEqual([
      'Invalid reference in boundary event. Make sure that the referenced activity is defined in the same scope as the boundary event',
    ]);
  });
});

describe('Camunda rules on link events', () => {
  const throwLink = (id: string, name: string) => `    <bpmn:intermediateThrowEvent id="${id}"><bpmn:linkEventDefinition name="${name}" /></bpmn:intermediateThrowEvent>`;
  const catchLink = (id: string, name: string, label = name) =>
    `    <bpmn:intermediateCatchEvent id="${id}" name="${label}"><bpmn:linkEventDefinition name="${name}" /></bpmn:intermediateCatchEvent>`;

  it('leads a flow into a link throw event to the link catch event of its name; the throw event is no activity', async () => {
    const body = [throwLink('goto', 'A'), catchLink('landing', 'A'), flow('f1', 'start', 'goto'), flow('f2', 'landing', 'end')].join('\n');

    const model = await parseProcess(processXml(startAndEnd(body)));

    expect(model.flows.get('f1')).toMatchObject({ sourceRef: 'start', targetRef: 'landing' });
    expect(model.elements.get('landing')).toMatchObject({ activityType: 'intermediateLinkCatch', incoming: ['f1'], outgoing: ['f2'] });
    expect(model.elements.has('goto')).toBe(false);
  });

  it('rejects two link catch events of one name, and warns about a link name unlike the event name', async () => {
    const body = [catchLink('c1', 'A', 'Jump'), catchLink('c2', 'A'), flow('f1', 'start', 'end')].join('\n');

    const failure = await parseFailure(processXml(startAndEnd(body)));

    expect(failure.details['model.bpmn'].errors).toMatchObject([
      { message: "Multiple Intermediate Catch Events with the same link event name ('A') are not allowed.", mainElementId: 'c2' },
    ]);
    expect(failure.details['model.bpmn'].warnings).toMatchObject([
      { message: "Link Event named 'Jump' contains link event definition with name 'A' - it is recommended to use the same name for both.", mainElementId: 'c1' },
    ]);
  });

  it('rejects a flow into a link throw event without a target, a flow out of one, and a link catch after an event-based gateway', async () => {
    const body = [
      throwLink('nowhere', 'B'),
      throwLink('goto', 'A'),
      catchLink('landing', 'A'),
      '    <bpmn:eventBasedGateway id="gw" />',
      flow('f1', 'start', 'nowhere'),
      flow('f2', 'goto', 'end'),
      flow('f3', 'gw', 'landing'),
    ].join('\n');

    expect(await messages(startAndEnd(body))).toEqual([
      "sequence flow points to link event source with name 'B' but no event target with that name exists. Most probably your link events are not configured correctly.",
      "Invalid source 'goto' of sequence flow 'f2'",
      'IntermediateCatchLinkEvent is not allowed after an EventBasedGateway.',
    ]);
  });
});

describe('Camunda rules on escalation events', () => {
  const escalations = '<bpmn:escalation id="late" escalationCode="LATE" /><bpmn:escalation id="any" />';
  const catcher = (tag: string, id: string, escalationRef: string | null, attributes = '') =>
    `<bpmn:${tag} id="${id}" ${attributes}><bpmn:escalationEventDefinition${escalationRef ? ` escalationRef="${escalationRef}"` : ''} /></bpmn:${tag}>`;
  const eventSubProcess = (id: string, escalationRef: string | null) =>
    `    <bpmn:subProcess id="${id}" triggeredByEvent="true">${catcher('startEvent', `${id}Start`, escalationRef)}</bpmn:subProcess>`;

  it('rejects an escalation boundary event on a service task', async () => {
    const body = ['    <bpmn:serviceTask id="work" camunda:type="external" camunda:topic="t" />', `    ${catcher('boundaryEvent', 'b', 'late', 'attachedToRef="work"')}`].join('\n');

    expect(await messages(startAndEnd(body), escalations)).toEqual(['An escalation boundary event should only be attached to a subprocess, a call activity or an user task']);
  });

  it('rejects two escalation boundary events of one code on an activity, and a catch-all beside one with a code', async () => {
    const body = [
      '    <bpmn:callActivity id="call" calledElement="other" />',
      `    ${catcher('boundaryEvent', 'b1', 'late', 'attachedToRef="call"')}`,
      `    ${catcher('boundaryEvent', 'b2', 'late', 'attachedToRef="call"')}`,
      '    <bpmn:userTask id="review" />',
      `    ${catcher('boundaryEvent', 'b3', null, 'attachedToRef="review"')}`,
      `    ${catcher('boundaryEvent', 'b4', 'late', 'attachedToRef="review"')}`,
    ].join('\n');

    expect(await messages(startAndEnd(body), escalations)).toEqual([
      "multiple escalation boundary events with the same escalationCode 'LATE' are not supported on same scope",
      'The same scope can not contains an escalation boundary event without escalation code and another one with escalation code. The escalation boundary event without escalation code catch all escalation events.',
    ]);
  });

  it('rejects two catch-all escalation event sub-processes in one scope (an escalation without a code catches all)', async () => {
    const body = [eventSubProcess('first', 'any'), eventSubProcess('second', null)].join('\n');

    expect(await messages(startAndEnd(body), escalations)).toEqual([
      'The same scope can not contains more than one escalation event subprocess without escalation code. An escalation event subprocess without escalation code catch all escalation events.',
    ]);
  });
});
