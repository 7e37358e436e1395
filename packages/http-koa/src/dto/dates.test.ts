import { describe, expect, it } from 'vitest';
import { formatRestDate, parseIsoDateTime, parseRestDate } from './dates.js';

describe('formatRestDate', () => {
  it('writes milliseconds and an offset without colon', () => {
    const date = new Date('2013-01-23T12:42:45.007Z');

    expect(formatRestDate(date, 120)).toBe('2013-01-23T14:42:45.007+0200');
    expect(formatRestDate(date, -330)).toBe('2013-01-23T07:12:45.007-0530');
    expect(formatRestDate(date, 0)).toBe('2013-01-23T12:42:45.007+0000');
  });
});

describe('parseRestDate', () => {
  it('reads the REST format in any offset', () => {
    expect(parseRestDate('2013-01-23T14:42:45.000+0200')?.toISOString()).toBe('2013-01-23T12:42:45.000Z');
  });

  it('reads an unencoded + that arrived as a space', () => {
    expect(parseRestDate('2013-01-23T14:42:45.000 0200')?.toISOString()).toBe('2013-01-23T12:42:45.000Z');
  });

  it.each(['2013-01-23', '2013-01-23T14:42:45Z', '2013-02-30T00:00:00.000+0000', 'soon'])('rejects %s', (text) => {
    expect(parseRestDate(text)).toBeNull();
  });

  it('round-trips what formatRestDate writes', () => {
    const date = new Date('2026-11-22T13:59:43.123Z');

    expect(parseRestDate(formatRestDate(date))?.getTime()).toBe(date.getTime());
  });
});

describe('parseIsoDateTime', () => {
  it('reads ISO-8601 with an offset, Z or none (server time)', () => {
    expect(parseIsoDateTime('2013-01-23T14:42:45+02:00')?.toISOString()).toBe('2013-01-23T12:42:45.000Z');
    expect(parseIsoDateTime('2013-01-23T14:42:45.5Z')?.toISOString()).toBe('2013-01-23T14:42:45.500Z');
    expect(parseIsoDateTime('2013-01-23T14:42:45')?.getTime()).toBe(new Date(2013, 0, 23, 14, 42, 45).getTime());
  });

  it.each(['yesterday', '2013-13-01T00:00:00', '23.01.2013'])('rejects %s', (text) => {
    expect(parseIsoDateTime(text)).toBeNull();
  });
});
