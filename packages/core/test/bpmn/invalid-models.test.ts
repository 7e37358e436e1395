import { describe, expect, it } from 'vitest';
import { parseBpmnResource } from '../../src/bpmn/index.js';
import { ParseException } from '../../src/errors/index.js';
import { parseErrors, parseFailure, processXml, startAndEnd } from './bpmn-xml.js';

const flow = (id: string, source: string, target: string) => `    <bpmn:sequenceFlow id="${id}" sourceRef="${source}" targetRef="${target}" />`;

describe('parseBpmnResource rejects a document', () => {
  it('that is not XML at all, with the resource name in the details', async () => {
    const error = await parseFailure('this is not xml', undefined, 'invoice.bpmn');

    expect(error).toBeInstanceOf(ParseException);
    expect(error.message).toBe(
      'ENGINE-09005 Could not parse BPMN process. Errors: \n* Content is not allowed in prolog. | resource invoice.bpmn | line 1 | column 1',
    );
    expect(error.details['invoice.bpmn']).toEqual({
      errors: [{ message: 'Content is not allowed in prolog.', line: 1, column: 1, mainElementId: null, elementIds: [] }],
      warnings: [],
    });
  });

  it('that is empty', async () => {
    expect(await parseErrors('')).toMatchObject([{ message: 'Premature end of file.', line: 1, column: 1 }]);
  });

  it('that is not well-formed, pointing at the offending tag', async () => {
    const [problem] = await parseErrors(processXml(startAndEnd('    <bpmn:task id="open">')));

    expect(problem.message).toMatch(/^The document is not well-formed XML/);
    expect(problem.line).toBe(7);
  });

  it('whose root is not bpmn:definitions, as the BPMN schema would', async () => {
    const errors = await parseErrors('<?xml version="1.0"?>\n<invoice id="i1">\n  <total>3</total>\n</invoice>');

    expect(errors).toEqual([
      { message: "cvc-elt.1.a: Cannot find the declaration of element 'invoice'.", line: 2, column: 18, mainElementId: 'i1', elementIds: ['i1'] },
    ]);
  });

  it('with a duplicate id, at its second occurrence', async () => {
    const [problem] = await parseErrors(processXml(startAndEnd('    <bpmn:task id="start" />')));

    expect(problem).toEqual({
      message: "cvc-id.2: There are multiple occurrences of ID value 'start'.",
      line: 5,
      column: 29,
      mainElementId: 'start',
      elementIds: ['start'],
    });
  });

  it('with an element BPMN does not define', async () => {
    const [problem] = await parseErrors(processXml(startAndEnd('    <bpmn:fooTask id="x" />')));

    expect(problem).toMatchObject({ message: "cvc-complex-type.2.4.a: Invalid content was found starting with element 'bpmn:fooTask'.", line: 5 });
  });

  it('with an attribute BPMN does not define, but only warns about an unknown camunda attribute', async () => {
    const errors = await parseErrors(processXml(startAndEnd('    <bpmn:task id="t" bogus="1" camunda:nonsense="2" />')));

    expect(errors).toEqual([
      expect.objectContaining({ message: "cvc-complex-type.3.2.2: Attribute 'bogus' is not allowed to appear in element 'bpmn:task'.", mainElementId: 't' }),
    ]);
  });

  it('that collects every problem before it throws once', async () => {
    const xml = processXml(startAndEnd([flow('f1', 'start', 'nowhere'), flow('f2', 'nobody', 'end')].join('\n')), 'isExecutable="true" camunda:historyTimeToLive="x"');

    const error = await parseFailure(xml);

    expect(error.details['model.bpmn'].errors.map((problem) => problem.mainElementId)).toEqual(['f1', 'f2', 'p']);
    expect(error.message.split('\n* ')).toHaveLength(4);
  });
});

describe('parseBpmnResource rejects a sequence flow', () => {
  it('whose targetRef does not exist, naming the flow and where its tag ends', async () => {
    const error = await parseFailure(processXml(startAndEnd(flow('flow', 'start', 'missing'))));

    const [problem] = error.details['model.bpmn'].errors;
    expect(problem).toEqual({ message: "Invalid destination 'missing' of sequence flow 'flow'", line: 5, column: 74, mainElementId: 'flow', elementIds: ['flow'] });
    expect(error.message).toBe(
      "ENGINE-09005 Could not parse BPMN process. Errors: \n* Invalid destination 'missing' of sequence flow 'flow' | resource model.bpmn | line 5 | column 74",
    );
  });

  it('whose sourceRef does not exist', async () => {
    expect(await parseErrors(processXml(startAndEnd(flow('flow', 'ghost', 'end'))))).toMatchObject([
      { message: "Invalid source 'ghost' of sequence flow 'flow'", mainElementId: 'flow', line: 5 },
    ]);
  });

  it('without a sourceRef, printing it as Java prints null', async () => {
    const errors = await parseErrors(processXml(startAndEnd('    <bpmn:sequenceFlow id="orphan" targetRef="end" />')));

    expect(errors).toMatchObject([{ message: "Invalid source 'null' of sequence flow 'orphan'", mainElementId: 'orphan', line: 5 }]);
  });

  it('that crosses a sub-process boundary', async () => {
    const body = '    <bpmn:subProcess id="sub">\n      <bpmn:startEvent id="inner" />\n    </bpmn:subProcess>\n' + flow('f', 'inner', 'end');

    expect(await parseErrors(processXml(startAndEnd(body)))).toMatchObject([{ message: "Invalid source 'inner' of sequence flow 'f'", mainElementId: 'f' }]);
  });

  it('that leaves an event sub-process', async () => {
    const body = '    <bpmn:subProcess id="events" triggeredByEvent="true">\n      <bpmn:startEvent id="s2"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1M</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:startEvent>\n    </bpmn:subProcess>\n' + flow('out', 'events', 'end');

    expect(await parseErrors(processXml(startAndEnd(body)))).toMatchObject([{ message: 'Invalid outgoing sequence flow of event subprocess', mainElementId: 'out' }]);
  });
});

describe('parseBpmnResource rejects a reference that does not resolve', () => {
  it('in a default flow, with the schema message and the gateway as main element', async () => {
    const body = '    <bpmn:exclusiveGateway id="gw" default="nowhere" />\n' + flow('f1', 'start', 'gw') + '\n' + flow('f2', 'gw', 'end');

    expect(await parseErrors(processXml(startAndEnd(body)))).toContainEqual(
      expect.objectContaining({ message: "cvc-id.1: There is no ID/IDREF binding for IDREF 'nowhere'.", mainElementId: 'gw', line: 5 }),
    );
  });

  it('in the messageRef of a message start event', async () => {
    const xml = processXml('    <bpmn:startEvent id="start">\n      <bpmn:messageEventDefinition id="med" messageRef="nothing" />\n    </bpmn:startEvent>');

    expect(await parseErrors(xml)).toEqual([
      { message: "Invalid 'messageRef': no message with id 'nothing' found.", line: 5, column: 68, mainElementId: 'start', elementIds: ['start'] },
    ]);
  });

  it('in the signalRef of a signal catch event', async () => {
    const body = '    <bpmn:intermediateCatchEvent id="wait"><bpmn:signalEventDefinition signalRef="nope" /></bpmn:intermediateCatchEvent>';

    expect(await parseErrors(processXml(startAndEnd(body)))).toMatchObject([{ message: "Could not find signal with id 'nope'", mainElementId: 'wait' }]);
  });

  it('in the attachedToRef of a boundary event', async () => {
    const body = '    <bpmn:boundaryEvent id="b" attachedToRef="ghost"><bpmn:timerEventDefinition><bpmn:timeDuration>PT1M</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>';

    expect(await parseErrors(processXml(startAndEnd(body)))).toMatchObject([
      { message: 'Invalid reference in boundary event. Make sure that the referenced activity is defined in the same scope as the boundary event', mainElementId: 'b' },
    ]);
  });

  it('in a diagram shape', async () => {
    const diagram = `  <bpmndi:BPMNDiagram id="d" xmlns:bpmndi="http://www.omg.org/spec/BPMN/20100524/DI" xmlns:dc="http://www.omg.org/spec/DD/20100524/DC">
    <bpmndi:BPMNPlane id="plane" bpmnElement="p">
      <bpmndi:BPMNShape id="shape" bpmnElement="gone"><dc:Bounds x="1" y="2" width="3" height="4" /></bpmndi:BPMNShape>
    </bpmndi:BPMNPlane>
  </bpmndi:BPMNDiagram>\n`;

    expect(await parseErrors(processXml(startAndEnd(), undefined, diagram))).toMatchObject([
      { message: "Invalid reference in 'bpmnElement' attribute, activity gone not found", mainElementId: 'shape' },
    ]);
  });

  it('but reads an errorRef that names no bpmn:error as the error code, as Camunda does', async () => {
    const body = '    <bpmn:endEvent id="fail"><bpmn:errorEventDefinition errorRef="CODE_42" /></bpmn:endEvent>';

    const { processes } = await parseBpmnResource('model.bpmn', processXml(startAndEnd(body)));

    expect(processes[0].activity('fail')?.eventDefinitions[0]).toMatchObject({ errorRef: 'CODE_42', errorCode: 'CODE_42' });
  });
});

describe('parseBpmnResource applies history time to live rules', () => {
  it('rejects a value that is not a number of days, repeating the text as Camunda does', async () => {
    const errors = await parseErrors(processXml(startAndEnd(), 'isExecutable="true" camunda:historyTimeToLive="soon"'));

    const text = 'Cannot parse historyTimeToLive: For input string: "soon"';
    expect(errors).toEqual([{ message: `${text}: ${text}`, line: 3, column: 77, mainElementId: 'p', elementIds: ['p'] }]);
  });

  it('rejects a negative value', async () => {
    const [problem] = await parseErrors(processXml(startAndEnd(), 'isExecutable="true" camunda:historyTimeToLive="-1"'));

    expect(problem.message).toMatch(/^Cannot parse historyTimeToLive: negative value is not allowed/);
  });

  it('rejects a missing value when TTL is enforced and the engine has no default', async () => {
    const attempt = parseBpmnResource('m.bpmn', processXml(startAndEnd()), { historyTimeToLive: null, enforceHistoryTimeToLive: true });

    await expect(attempt).rejects.toThrow(/ENGINE-12018 History Time To Live \(TTL\) cannot be null/);
  });

  it('takes the engine default for a missing value, enforced or not', async () => {
    const enforced = parseBpmnResource('m.bpmn', processXml(startAndEnd()), { historyTimeToLive: 30, enforceHistoryTimeToLive: true });
    const free = parseBpmnResource('m.bpmn', processXml(startAndEnd()), { historyTimeToLive: 30, enforceHistoryTimeToLive: false });

    await expect(enforced).resolves.toMatchObject({ processes: [{ historyTimeToLive: 30 }] });
    await expect(free).resolves.toMatchObject({ processes: [{ historyTimeToLive: 30 }] });
  });

  it('reads an empty value as null, not as the engine default: ENGINE-12018 when enforced, as Camunda does', async () => {
    const xml = processXml(startAndEnd(), 'isExecutable="true" camunda:historyTimeToLive=""');

    const enforced = parseBpmnResource('m.bpmn', xml, { historyTimeToLive: 30, enforceHistoryTimeToLive: true });
    const free = parseBpmnResource('m.bpmn', xml, { historyTimeToLive: 30, enforceHistoryTimeToLive: false });

    await expect(enforced).rejects.toThrow(/ENGINE-12018 History Time To Live \(TTL\) cannot be null/);
    await expect(free).resolves.toMatchObject({ processes: [{ historyTimeToLive: null }] });
  });

  it.each([
    ['P180D', 180],
    ['7', 7],
    ['0', 0],
  ])('reads %s as %i days', async (written, days) => {
    const { processes } = await parseBpmnResource('m.bpmn', processXml(startAndEnd(), `isExecutable="true" camunda:historyTimeToLive="${written}"`));

    expect(processes[0].historyTimeToLive).toBe(days);
  });
});
