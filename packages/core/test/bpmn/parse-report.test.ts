import { describe, expect, it } from 'vitest';
import { ParseReport } from '../../src/bpmn/parse/parse-report.js';
import { XmlPositions } from '../../src/bpmn/parse/xml-positions.js';
import { ParseException } from '../../src/errors/index.js';

const XML = `<?xml version="1.0"?>
<root id="r">
  <!-- <a id="commented" /> -->
  <a id="first"
     name="x>y" />
  <![CDATA[ <b id="cdata"/> ]]>
  <b id='second' flag="TRUE"></b>
</root>`;

describe('XmlPositions', () => {
  it('places an element just after its start tag, across lines and past a > in an attribute value', () => {
    const positions = new XmlPositions(XML);

    expect(positions.ofId('r')).toEqual({ line: 2, column: 14 });
    expect(positions.ofId('first')).toEqual({ line: 5, column: 19 });
    expect(positions.ofId('second')).toEqual({ line: 7, column: 30 });
  });

  it('skips comments and CDATA sections', () => {
    const positions = new XmlPositions(XML);

    expect(positions.ofId('commented')).toBeUndefined();
    expect(positions.ofId('cdata')).toBeUndefined();
  });

  it('finds a tag by the 0-based start position moddle reports, and attributes as written', () => {
    const positions = new XmlPositions(XML);

    expect(positions.tagAt(3, 2)).toMatchObject({ qName: 'a', id: 'first' });
    expect(positions.root).toMatchObject({ qName: 'root', id: 'r' });
    expect(positions.rawAttribute('second', 'flag')).toBe('TRUE');
    expect(positions.rawAttribute('second', 'missing')).toBeUndefined();
  });
});

describe('ParseReport', () => {
  it('throws nothing while it holds only warnings', () => {
    const report = new ParseReport('a.bpmn', new XmlPositions(XML));

    report.warning('careful', ['first']);

    expect(() => report.throwIfErrors()).not.toThrow();
  });

  it("throws one ParseException in Camunda's format, leaving out an unknown line and column", () => {
    const report = new ParseReport('a.bpmn', new XmlPositions(XML));
    report.error('first problem', ['second', 'first']);
    report.error('second problem', []);
    report.warning('a warning', ['r']);

    let thrown: unknown;
    try {
      report.throwIfErrors();
    } catch (error) {
      thrown = error;
    }

    expect(thrown).toBeInstanceOf(ParseException);
    const exception = thrown as ParseException;
    expect(exception.message).toBe(
      'ENGINE-09005 Could not parse BPMN process. Errors: \n* first problem | resource a.bpmn | line 7 | column 30\n* second problem | resource a.bpmn',
    );
    expect(exception.details['a.bpmn'].errors[0]).toEqual({ message: 'first problem', line: 7, column: 30, mainElementId: 'second', elementIds: ['second', 'first'] });
    expect(exception.details['a.bpmn'].warnings).toEqual([{ message: 'a warning', line: 2, column: 14, mainElementId: 'r', elementIds: ['r'] }]);
  });
});
