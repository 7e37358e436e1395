import { describe, expect, it } from 'vitest';
import { parseBpmnResource } from '../../src/bpmn/index.js';
import { ParseException } from '../../src/errors/index.js';

const wrap = (process: string, attributes = 'isExecutable="true" camunda:historyTimeToLive="5"') => `<?xml version="1.0"?>
<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" xmlns:camunda="http://camunda.org/schema/1.0/bpmn" id="defs">
  <bpmn:process id="p" ${attributes}>
${process}
  </bpmn:process>
</bpmn:definitions>`;

async function parseError(xml: string, resourceName = 'model.bpmn'): Promise<ParseException> {
  const error = await parseBpmnResource(resourceName, xml).then(
    () => null,
    (failure: unknown) => failure,
  );
  expect(error).toBeInstanceOf(ParseException);
  return error as ParseException;
}

describe('parseBpmnResource rejects', () => {
  it('a document that is not XML', async () => {
    const error = await parseError('this is not xml');

    expect(error.message).toMatch(/^ENGINE-09005 Could not parse BPMN process\. Errors: \n\* The document is not well-formed XML/);
    expect(error.details['model.bpmn'].errors).toHaveLength(1);
  });

  it('XML that is not BPMN', async () => {
    const error = await parseError('<invoice><total>3</total></invoice>');

    expect(error.details['model.bpmn'].errors[0].message).toContain('root element must be bpmn:definitions');
  });

  it('a sequence flow whose targetRef does not exist, naming the flow and its line', async () => {
    const error = await parseError(
      wrap(`    <bpmn:startEvent id="start" />
    <bpmn:sequenceFlow id="flow" sourceRef="start" targetRef="missing" />`),
    );

    const [problem] = error.details['model.bpmn'].errors;
    expect(problem).toMatchObject({ message: "Invalid destination 'missing' of sequence flow 'flow'", mainElementId: 'flow', line: 5, column: 5 });
    expect(problem.elementIds).toEqual(['flow']);
    expect(error.message).toContain("| resource model.bpmn | line 5 | column 5");
  });

  it('a default flow that does not resolve', async () => {
    const error = await parseError(wrap(`    <bpmn:exclusiveGateway id="gw" default="nowhere" />`));

    expect(error.details['model.bpmn'].errors[0]).toMatchObject({ mainElementId: 'gw' });
    expect(error.details['model.bpmn'].errors[0].message).toContain("'nowhere'");
  });

  it('a sequence flow without a source', async () => {
    const error = await parseError(wrap(`    <bpmn:endEvent id="end" />\n    <bpmn:sequenceFlow id="orphan" targetRef="end" />`));

    expect(error.details['model.bpmn'].errors[0]).toMatchObject({ message: "Invalid source '' of sequence flow 'orphan'", mainElementId: 'orphan' });
  });

  it('a duplicate id, at the second occurrence', async () => {
    const error = await parseError(wrap(`    <bpmn:startEvent id="same" />\n    <bpmn:endEvent id="same" />`));

    const [problem] = error.details['model.bpmn'].errors;
    expect(problem.message).toBe("cvc-id.2: There are multiple occurrences of ID value 'same'.");
    expect(problem.mainElementId).toBe('same');
    expect(problem.line).toBe(5);
  });

  it('a model without an executable process', async () => {
    const error = await parseError(wrap('    <bpmn:startEvent id="s" />', 'isExecutable="false"'));

    const report = error.details['model.bpmn'];
    expect(report.errors[0].message).toContain('No executable process found');
    expect(report.warnings[0].message).toContain("ENGINE-01002 Ignoring non-executable process with id 'p'");
  });

  it('a history time to live that is not a number of days', async () => {
    const error = await parseError(wrap('    <bpmn:startEvent id="s" />', 'isExecutable="true" camunda:historyTimeToLive="soon"'));

    expect(error.details['model.bpmn'].errors[0]).toMatchObject({ mainElementId: 'p', line: 3 });
  });

  it('a process without history time to live when TTL is enforced and there is no default', async () => {
    const xml = wrap('    <bpmn:startEvent id="s" />', 'isExecutable="true"');

    const attempt = parseBpmnResource('m.bpmn', xml, { historyTimeToLive: null, enforceHistoryTimeToLive: true });

    await expect(attempt).rejects.toThrow(/ENGINE-12018 History Time To Live \(TTL\) cannot be null/);
  });
});

describe('parseBpmnResource accepts', () => {
  it('P180D as 180 days of history', async () => {
    const result = await parseBpmnResource('m.bpmn', wrap('<bpmn:startEvent id="s" />', 'isExecutable="true" camunda:historyTimeToLive="P180D"'));

    expect(result.processes[0].historyTimeToLive).toBe(180);
  });

  it('a collaboration whose non-executable participant is skipped', async () => {
    const xml = `<bpmn:definitions xmlns:bpmn="http://www.omg.org/spec/BPMN/20100524/MODEL" id="d">
      <bpmn:collaboration id="c"><bpmn:participant id="a" processRef="one" /><bpmn:participant id="b" processRef="two" /></bpmn:collaboration>
      <bpmn:process id="one" isExecutable="true"><bpmn:startEvent id="s1" /></bpmn:process>
      <bpmn:process id="two" isExecutable="false"><bpmn:startEvent id="s2" /></bpmn:process>
    </bpmn:definitions>`;

    const result = await parseBpmnResource('c.bpmn', xml);

    expect(result.processes.map((process) => process.key)).toEqual(['one']);
    expect(result.warnings).toHaveLength(1);
  });

  it('sub-process scopes, default flows, conditions and boundary events', async () => {
    const xml = wrap(`
    <bpmn:startEvent id="start"><bpmn:outgoing>f1</bpmn:outgoing></bpmn:startEvent>
    <bpmn:sequenceFlow id="f1" sourceRef="start" targetRef="gw" />
    <bpmn:exclusiveGateway id="gw" default="f3"><bpmn:incoming>f1</bpmn:incoming><bpmn:outgoing>f2</bpmn:outgoing><bpmn:outgoing>f3</bpmn:outgoing></bpmn:exclusiveGateway>
    <bpmn:sequenceFlow id="f2" sourceRef="gw" targetRef="sub"><bpmn:conditionExpression xsi:type="bpmn:tFormalExpression" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\${amount > 10}</bpmn:conditionExpression></bpmn:sequenceFlow>
    <bpmn:sequenceFlow id="f3" sourceRef="gw" targetRef="end" />
    <bpmn:subProcess id="sub"><bpmn:incoming>f2</bpmn:incoming>
      <bpmn:userTask id="inner" camunda:assignee="demo" />
    </bpmn:subProcess>
    <bpmn:boundaryEvent id="timeout" attachedToRef="sub" cancelActivity="false"><bpmn:timerEventDefinition><bpmn:timeDuration>PT5M</bpmn:timeDuration></bpmn:timerEventDefinition></bpmn:boundaryEvent>
    <bpmn:endEvent id="end"><bpmn:incoming>f3</bpmn:incoming></bpmn:endEvent>`);

    const [model] = (await parseBpmnResource('m.bpmn', xml)).processes;

    expect(model.elements.get('gw')).toMatchObject({ defaultFlow: 'f3', outgoing: ['f2', 'f3'] });
    expect(model.flows.get('f2')?.condition).toBe('${amount > 10}');
    expect(model.elements.get('inner')).toMatchObject({ parentId: 'sub', camunda: { assignee: 'demo' } });
    expect(model.elements.get('timeout')).toMatchObject({ attachedToRef: 'sub', cancelActivity: false });
    expect(model.elements.get('timeout')?.eventDefinitions[0]).toMatchObject({ timeDuration: 'PT5M' });
    expect(model.initialStartEvents).toEqual(['start']);
    expect(Object.isFrozen(model)).toBe(true);
  });
});
