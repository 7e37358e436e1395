import { describe, expect, it } from 'vitest';
import { parseTimer, TimerDefinitionError, type TimerKind } from '../../src/runtime/timers/index.js';
import { prepareRepeat } from '../../src/runtime/timers/timer-definition.js';

const at = (iso: string) => new Date(iso);
const iso = (date: Date | null) => date?.toISOString() ?? null;

/** The due dates a timer goes through, the way the job handler chains follow-up jobs (at most `max`). */
function firings(kind: TimerKind, text: string, now: Date, max = 10): string[] {
  let due = parseTimer(kind, text).firstDueDate(now);
  const dues = [due.toISOString()];
  while (dues.length < max) {
    const schedule = parseTimer(kind, text);
    if (!schedule.repeats()) break;
    const next = schedule.nextDueDate(due);
    if (!next) break;
    text = schedule.afterFiring();
    due = next;
    dues.push(due.toISOString());
  }
  return dues;
}

function expectInvalid(kind: TimerKind, text: string, detail?: RegExp) {
  let error: unknown;
  try {
    parseTimer(kind, text);
  } catch (caught) {
    error = caught;
  }
  expect(error).toBeInstanceOf(TimerDefinitionError);
  expect((error as Error).message).toContain(`Invalid timer expression '${text}' (${kind})`);
  if (detail) expect((error as Error).message).toMatch(detail);
}

describe('timeDate', () => {
  const now = at('2026-11-01T00:00:00Z');

  it.each([
    ['2026-11-23T10:00:00', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00Z', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00+01:00', '2026-11-23T09:00:00.000Z'],
    ['2026-11-23T10:00:00-0530', '2026-11-23T15:30:00.000Z'],
    ['2026-11-23T10:00', '2026-11-23T10:00:00.000Z'],
    ['2026-11-23T10:00:00.250Z', '2026-11-23T10:00:00.250Z'],
    ['2026-11-23', '2026-11-23T00:00:00.000Z'],
    ['  2026-11-23T10:00:00Z ', '2026-11-23T10:00:00.000Z'],
  ])('%s is due at %s (UTC without an offset)', (text, expected) => {
    const schedule = parseTimer('timeDate', text);
    expect(schedule.kind).toBe('timeDate');
    expect(iso(schedule.firstDueDate(now))).toBe(expected);
    expect(schedule.nextDueDate(at(expected))).toBeNull();
    expect(schedule.repeats()).toBe(false);
    expect(schedule.afterFiring()).toBe(text.trim());
  });

  it('reads a duration as "from now", as Camunda does', () => {
    expect(iso(parseTimer('timeDate', 'PT5M').firstDueDate(at('2026-11-23T10:00:00Z')))).toBe('2026-11-23T10:05:00.000Z');
  });

  it.each(['', '   ', 'tomorrow', '23.11.2026', '2026-02-30', '2026-13-01', '2026-11-23T25:00:00Z', '2026-11-23T10:00:00+25:00', 'PXYZ'])(
    'rejects %j',
    (text) => expectInvalid('timeDate', text),
  );
});

describe('timeDuration', () => {
  const now = at('2026-11-23T10:00:00Z');

  it.each([
    ['PT10M', '2026-11-23T10:10:00.000Z'],
    ['PT0.5S', '2026-11-23T10:00:00.500Z'],
    ['PT1,25S', '2026-11-23T10:00:01.250Z'],
    ['P1W', '2026-11-30T10:00:00.000Z'],
    ['P1DT12H', '2026-11-24T22:00:00.000Z'],
    ['P1Y2M3DT4H5M6S', '2028-01-26T14:05:06.000Z'],
    ['PT36H', '2026-11-24T22:00:00.000Z'],
  ])('%s from now is %s', (text, expected) => {
    const schedule = parseTimer('timeDuration', text);
    expect(iso(schedule.firstDueDate(now))).toBe(expected);
    expect(schedule.nextDueDate(now)).toBeNull();
    expect(schedule.repeats()).toBe(false);
    expect(schedule.afterFiring()).toBe(text);
  });

  it('adds months and years by the calendar, clamping to the end of shorter months', () => {
    const due = (text: string, from: string) => iso(parseTimer('timeDuration', text).firstDueDate(at(from)));
    expect(due('P1M', '2026-01-31T08:00:00Z')).toBe('2026-02-28T08:00:00.000Z');
    expect(due('P1M', '2028-01-31T08:00:00Z')).toBe('2028-02-29T08:00:00.000Z');
    expect(due('P1M', '2026-12-15T00:00:00Z')).toBe('2027-01-15T00:00:00.000Z');
    expect(due('P1Y', '2028-02-29T12:00:00Z')).toBe('2029-02-28T12:00:00.000Z');
    expect(due('P13M', '2026-03-31T00:00:00Z')).toBe('2027-04-30T00:00:00.000Z');
    expect(due('P1M1D', '2026-01-31T00:00:00Z')).toBe('2026-03-01T00:00:00.000Z');
  });

  it('takes start/duration, duration/end and a repeating interval (its first firing) as Camunda does', () => {
    expect(iso(parseTimer('timeDuration', '2026-12-01T00:00:00Z/PT1H').firstDueDate(now))).toBe('2026-12-01T01:00:00.000Z');
    expect(iso(parseTimer('timeDuration', 'PT1H/2026-12-01T00:00:00Z').firstDueDate(now))).toBe('2026-12-01T00:00:00.000Z');
    const repeating = parseTimer('timeDuration', 'R3/PT1H');
    expect(iso(repeating.firstDueDate(now))).toBe('2026-11-23T11:00:00.000Z');
    expect(repeating.repeats()).toBe(false);
  });

  it.each(['xyz', '', 'P', 'PT', 'P1H', 'PT1D', 'PT1.5H', 'P-1D', '10 minutes', '2026-11-23T10:00:00Z'])('rejects %j', (text) =>
    expectInvalid('timeDuration', text),
  );

  it('names the text in the message', () => {
    expect(() => parseTimer('timeDuration', 'xyz')).toThrow(/^Invalid timer expression 'xyz' \(timeDuration\): not an ISO 8601 duration/);
  });
});

describe('timeCycle: repeating intervals', () => {
  const now = at('2026-11-23T10:00:00Z');

  it('counts R<n> down with each firing and stops after R1', () => {
    const r3 = parseTimer('timeCycle', 'R3/PT10M');
    expect(iso(r3.firstDueDate(now))).toBe('2026-11-23T10:10:00.000Z');
    expect(r3.repeats()).toBe(true);
    expect(iso(r3.nextDueDate(at('2026-11-23T10:10:00Z')))).toBe('2026-11-23T10:20:00.000Z');
    expect(r3.afterFiring()).toBe('R2/PT10M');

    const r2 = parseTimer('timeCycle', r3.afterFiring());
    expect(r2.repeats()).toBe(true);
    expect(iso(r2.nextDueDate(at('2026-11-23T10:20:00Z')))).toBe('2026-11-23T10:30:00.000Z');
    expect(r2.afterFiring()).toBe('R1/PT10M');

    const r1 = parseTimer('timeCycle', r2.afterFiring());
    expect(r1.repeats()).toBe(false);
    expect(r1.nextDueDate(at('2026-11-23T10:30:00Z'))).toBeNull();

    expect(firings('timeCycle', 'R3/PT10M', now)).toEqual(['2026-11-23T10:10:00.000Z', '2026-11-23T10:20:00.000Z', '2026-11-23T10:30:00.000Z']);
  });

  it('repeats R/ without end', () => {
    const schedule = parseTimer('timeCycle', 'R/PT1H');
    expect(schedule.repeats()).toBe(true);
    expect(schedule.afterFiring()).toBe('R/PT1H');
    expect(firings('timeCycle', 'R/PT1H', now, 4)).toEqual([
      '2026-11-23T11:00:00.000Z',
      '2026-11-23T12:00:00.000Z',
      '2026-11-23T13:00:00.000Z',
      '2026-11-23T14:00:00.000Z',
    ]);
  });

  it('fires R1 once and R0 once, at once (Camunda resolves R0 to "now")', () => {
    expect(firings('timeCycle', 'R1/PT1H', now)).toEqual(['2026-11-23T11:00:00.000Z']);
    const r0 = parseTimer('timeCycle', 'R0/PT1H');
    expect(iso(r0.firstDueDate(now))).toBe('2026-11-23T10:00:00.000Z');
    expect(r0.repeats()).toBe(false);
  });

  it('adds calendar periods one after the other', () => {
    expect(firings('timeCycle', 'R3/P1M', at('2026-01-31T09:00:00Z'))).toEqual([
      '2026-02-28T09:00:00.000Z',
      '2026-03-28T09:00:00.000Z',
      '2026-04-28T09:00:00.000Z',
    ]);
  });

  it('fires first at a future start, then n more periods', () => {
    const schedule = parseTimer('timeCycle', 'R2/2026-12-01T00:00:00Z/P1D');
    expect(iso(schedule.firstDueDate(now))).toBe('2026-12-01T00:00:00.000Z');
    expect(schedule.afterFiring()).toBe('R1/2026-12-02T00:00:00.000Z/P1D');
    expect(firings('timeCycle', 'R2/2026-12-01T00:00:00Z/P1D', now)).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2026-12-02T00:00:00.000Z',
      '2026-12-03T00:00:00.000Z',
    ]);
  });

  it('with a past start, fires first at the next start + k·period after now', () => {
    expect(firings('timeCycle', 'R3/2026-11-23T08:00:00Z/PT1H', at('2026-11-23T09:30:00Z'))).toEqual([
      '2026-11-23T10:00:00.000Z',
      '2026-11-23T11:00:00.000Z',
    ]);
    // A start equal to now counts as past, as in Camunda.
    expect(firings('timeCycle', 'R2/2026-11-23T10:00:00Z/PT1H', now)).toEqual(['2026-11-23T11:00:00.000Z', '2026-11-23T12:00:00.000Z']);
    // Unbounded, far in the past.
    expect(iso(parseTimer('timeCycle', 'R/2020-01-01T00:00:00Z/PT1H').firstDueDate(at('2026-11-23T10:30:00Z')))).toBe('2026-11-23T11:00:00.000Z');
    const monthly = parseTimer('timeCycle', 'R/2026-01-31T00:00:00Z/P1M');
    expect(iso(monthly.firstDueDate(now))).toBe('2026-11-28T00:00:00.000Z');
    expect(iso(monthly.nextDueDate(at('2026-11-28T00:00:00Z')))).toBe('2026-12-28T00:00:00.000Z');
    expect(monthly.afterFiring()).toBe('R/2026-01-31T00:00:00Z/P1M');
  });

  it('fires once, at once, when every instant of a start-date interval has passed', () => {
    expect(firings('timeCycle', 'R1/2026-11-01T00:00:00Z/PT1H', now)).toEqual(['2026-11-23T10:00:00.000Z']);
  });

  it('reads R<n>/<start>/<end> as a period of end − start', () => {
    expect(firings('timeCycle', 'R2/2026-12-01T00:00:00Z/2026-12-01T06:00:00Z', now)).toEqual([
      '2026-12-01T00:00:00.000Z',
      '2026-12-01T06:00:00.000Z',
      '2026-12-01T12:00:00.000Z',
    ]);
  });

  it('counts R<n>/<duration>/<end> back from the end', () => {
    const text = 'R3/PT1H/2026-11-23T15:00:00Z';
    expect(firings('timeCycle', text, at('2026-11-23T10:30:00Z'))).toEqual([
      '2026-11-23T12:00:00.000Z',
      '2026-11-23T13:00:00.000Z',
      '2026-11-23T14:00:00.000Z',
      '2026-11-23T15:00:00.000Z',
    ]);
    expect(parseTimer('timeCycle', text).afterFiring()).toBe('R2/PT1H/2026-11-23T15:00:00Z');
    expect(firings('timeCycle', text, at('2026-11-23T13:30:00Z'))).toEqual(['2026-11-23T14:00:00.000Z', '2026-11-23T15:00:00.000Z']);
    expect(firings('timeCycle', text, at('2026-11-23T16:00:00Z'))).toEqual(['2026-11-23T16:00:00.000Z']);
    expect(iso(parseTimer('timeCycle', 'R/P1D/2027-01-01T00:00:00Z').firstDueDate(now))).toBe('2026-11-24T00:00:00.000Z');
  });

  it.each(['R3', 'R3/', 'R3/xyz', 'RX/PT1H', 'R3/PT1H/garbage', 'R3/2026-11-23T10:00:00Z', 'R/PT0S', 'R3/PT1H/PT2H/PT3H'])('rejects %j', (text) =>
    expectInvalid('timeCycle', text),
  );

  it('hints at R/ when a cycle is a plain duration', () => {
    expectInvalid('timeCycle', 'PT1H', /did you mean R\/PT1H/);
  });
});

describe('timeCycle: cron', () => {
  const next = (text: string, after: string) => iso(parseTimer('timeCycle', text).nextDueDate(at(after)));
  const first = (text: string, now: string) => iso(parseTimer('timeCycle', text).firstDueDate(at(now)));

  it('every five minutes: 0 0/5 * * * ?', () => {
    const schedule = parseTimer('timeCycle', '0 0/5 * * * ?');
    expect(iso(schedule.firstDueDate(at('2026-11-23T10:02:30Z')))).toBe('2026-11-23T10:05:00.000Z');
    expect(iso(schedule.nextDueDate(at('2026-11-23T10:05:00Z')))).toBe('2026-11-23T10:10:00.000Z');
    expect(iso(schedule.nextDueDate(at('2026-11-23T23:55:00Z')))).toBe('2026-11-24T00:00:00.000Z');
    expect(schedule.repeats()).toBe(true);
    expect(schedule.afterFiring()).toBe('0 0/5 * * * ?');
  });

  it('weekdays at 10:15: 0 15 10 ? * MON-FRI', () => {
    expect(first('0 15 10 ? * MON-FRI', '2026-11-23T09:00:00Z')).toBe('2026-11-23T10:15:00.000Z'); // a Monday
    expect(next('0 15 10 ? * MON-FRI', '2026-11-27T10:15:00Z')).toBe('2026-11-30T10:15:00.000Z'); // Friday → Monday
    expect(next('0 15 10 ? * 2-6', '2026-11-27T10:15:00Z')).toBe('2026-11-30T10:15:00.000Z'); // 1 = SUN
  });

  it('last day of the month: 0 0 12 L * ?', () => {
    expect(first('0 0 12 L * ?', '2026-11-23T00:00:00Z')).toBe('2026-11-30T12:00:00.000Z');
    expect(next('0 0 12 L * ?', '2026-11-30T12:00:00Z')).toBe('2026-12-31T12:00:00.000Z');
    expect(next('0 0 12 L * ?', '2027-02-01T00:00:00Z')).toBe('2027-02-28T12:00:00.000Z');
    expect(next('0 0 12 L * ?', '2028-02-01T00:00:00Z')).toBe('2028-02-29T12:00:00.000Z');
    expect(next('0 0 0 L-2 * ?', '2026-11-01T00:00:00Z')).toBe('2026-11-28T00:00:00.000Z');
    expect(next('0 0 0 LW * ?', '2026-10-01T00:00:00Z')).toBe('2026-10-30T00:00:00.000Z'); // Oct 31 is a Saturday
  });

  it('third Friday: 0 0 9 ? * 6#3; last Friday: 6L', () => {
    expect(first('0 0 9 ? * 6#3', '2026-11-01T00:00:00Z')).toBe('2026-11-20T09:00:00.000Z');
    expect(next('0 0 9 ? * 6#3', '2026-11-20T09:00:00Z')).toBe('2026-12-18T09:00:00.000Z');
    expect(next('0 0 9 ? * FRI#3', '2026-11-20T09:00:00Z')).toBe('2026-12-18T09:00:00.000Z');
    expect(next('0 0 0 ? * 6L', '2026-11-01T00:00:00Z')).toBe('2026-11-27T00:00:00.000Z');
  });

  it('nearest weekday to the 1st, staying in the month: 0 0 0 1W * ?', () => {
    expect(first('0 0 0 1W * ?', '2026-10-15T00:00:00Z')).toBe('2026-11-02T00:00:00.000Z'); // Nov 1 is a Sunday
    expect(next('0 0 0 1W * ?', '2026-11-02T00:00:00Z')).toBe('2026-12-01T00:00:00.000Z'); // a Tuesday
    expect(next('0 0 0 1W * ?', '2026-07-15T00:00:00Z')).toBe('2026-08-03T00:00:00.000Z'); // Aug 1 is a Saturday
    expect(next('0 0 0 15W * ?', '2026-11-01T00:00:00Z')).toBe('2026-11-16T00:00:00.000Z'); // Nov 15 is a Sunday
  });

  it('lists, names, wrapping ranges, steps, the year field, and strictly-after', () => {
    expect(next('0 0 0 1 JAN,JUL ?', '2026-11-23T00:00:00Z')).toBe('2027-01-01T00:00:00.000Z');
    expect(next('0 30 9 ? * SUN', '2026-11-23T00:00:00Z')).toBe('2026-11-29T09:30:00.000Z');
    expect(next('0 30 9 ? * 1', '2026-11-23T00:00:00Z')).toBe('2026-11-29T09:30:00.000Z');
    expect(next('0 0 22-2 * * ?', '2026-11-23T03:00:00Z')).toBe('2026-11-23T22:00:00.000Z');
    expect(next('0 0 22-2 * * ?', '2026-11-23T23:00:00Z')).toBe('2026-11-24T00:00:00.000Z');
    expect(next('0 0 0 ? * FRI-MON', '2026-11-24T00:00:00Z')).toBe('2026-11-27T00:00:00.000Z');
    expect(next('*/20 * * * * ?', '2026-11-23T10:00:05.500Z')).toBe('2026-11-23T10:00:20.000Z');
    expect(next('0 0 0 1 1 ? 2030', '2026-11-23T00:00:00Z')).toBe('2030-01-01T00:00:00.000Z');
    expect(next('0 0 0 1 1 ? 2030', '2030-01-01T00:00:00Z')).toBeNull();
    expect(next('0 0 0 29 2 ?', '2026-11-23T00:00:00Z')).toBe('2028-02-29T00:00:00.000Z');
    expect(next('0 0 0 ? 2 MON#5', '2026-11-23T00:00:00Z')).toBe('2044-02-29T00:00:00.000Z');
  });

  it('fails at the first due date when the expression never fires', () => {
    const schedule = parseTimer('timeCycle', '0 0 0 30 FEB ?');
    expect(() => schedule.firstDueDate(at('2026-11-23T00:00:00Z'))).toThrow(TimerDefinitionError);
  });

  it.each([
    ['0 0 12 * * MON', /one of them must be '\?'/],
    ['0 0 12 ? * ?', /not for both/],
    ['0 0 12 * *', /6 or 7 fields/],
    ['0 0 25 * * ?', /hours value '25'/],
    ['0 0 0 ? * 6#6', /1-5/],
    ['0 0 0 ? FOO *', /month value 'FOO'/],
    ['0 0 0 ? * 8', /day-of-week value '8'/],
    ['0 0/0 * * * ?', /step/],
    ['? 0 0 * * ?', /'\?' is only allowed/],
    ['xyz', /6 or 7 fields/],
  ])('rejects %j', (text, detail) => expectInvalid('timeCycle', text, detail));
});

// Camunda reads timers in the JVM's default zone; Trellis in the process's (TZ).
describe('timers in the local time zone', () => {
  const inZone = (zone: string, run: () => void) => {
    const previous = process.env.TZ;
    process.env.TZ = zone;
    try {
      run();
    } finally {
      if (previous === undefined) delete process.env.TZ;
      else process.env.TZ = previous;
    }
  };

  it('reads a date-time without offset as local time, one with an offset as given', () => {
    inZone('Europe/Berlin', () => {
      const now = at('2026-11-01T00:00:00Z');
      expect(iso(parseTimer('timeDate', '2026-11-23T10:00:00').firstDueDate(now))).toBe('2026-11-23T09:00:00.000Z');
      expect(iso(parseTimer('timeDate', '2026-07-01T10:00:00').firstDueDate(now))).toBe('2026-07-01T08:00:00.000Z');
      expect(iso(parseTimer('timeDate', '2026-11-23T10:00:00Z').firstDueDate(now))).toBe('2026-11-23T10:00:00.000Z');
    });
  });

  it('adds days as calendar days across a daylight-saving change, hours as fixed lengths', () => {
    inZone('Europe/Berlin', () => {
      // 2026-03-29: clocks go from 02:00 to 03:00 in Berlin.
      const before = at('2026-03-28T11:00:00Z'); // 12:00 local
      expect(iso(parseTimer('timeDuration', 'P1D').firstDueDate(before))).toBe('2026-03-29T10:00:00.000Z'); // 12:00 local, 23 hours later
      expect(iso(parseTimer('timeDuration', 'PT24H').firstDueDate(before))).toBe('2026-03-29T11:00:00.000Z'); // 13:00 local
      expect(firings('timeCycle', 'R3/2026-03-27T12:00:00/P1D', at('2026-03-26T00:00:00Z'))).toEqual([
        '2026-03-27T11:00:00.000Z',
        '2026-03-28T11:00:00.000Z',
        '2026-03-29T10:00:00.000Z',
        '2026-03-30T10:00:00.000Z',
      ]);
    });
  });

  it('fires a cron expression at local times and writes the start of a repeating interval in local time', () => {
    inZone('America/New_York', () => {
      const schedule = parseTimer('timeCycle', '0 0 9 ? * MON-FRI');
      // Friday 2026-11-27, 20:00 local (EST, UTC−5): the next firing is Monday 09:00 local.
      expect(iso(schedule.firstDueDate(at('2026-11-28T01:00:00Z')))).toBe('2026-11-30T14:00:00.000Z');
      // Before the change back to EST (2026-11-01), 09:00 local is 13:00 UTC.
      expect(iso(schedule.firstDueDate(at('2026-10-29T12:00:00Z')))).toBe('2026-10-29T13:00:00.000Z');
      const repeat = prepareRepeat('R2/PT1H', at('2026-11-28T01:00:00.700Z'));
      expect(repeat).toBe('R2/2026-11-27T20:00:00-05:00/PT1H');
      expect(iso(parseTimer('timeCycle', repeat).firstDueDate(at('2026-11-28T01:00:00.700Z')))).toBe('2026-11-28T02:00:00.000Z');
    });
  });
});
