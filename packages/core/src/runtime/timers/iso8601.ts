/**
 * ISO 8601 durations, date-times and repeating intervals as BPMN timers use them.
 *
 * Calendar arithmetic is in the process's local time zone (TZ), as Camunda 7 computes in the JVM's
 * default zone: a date-time without offset is local, and a day added is a calendar day (23 or 25
 * hours across a daylight-saving change), hours and below a fixed length.
 */

export interface IsoDuration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  /** May be fractional (PT0.5S). */
  seconds: number;
}

// PnYnMnWnDTnHnMnS; only the seconds may carry a fraction (as with Camunda's parsers).
const DURATION = /^P(?:(\d+)Y)?(?:(\d+)M)?(?:(\d+)W)?(?:(\d+)D)?(?:T(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

/** An ISO 8601 duration, or null when `text` is none (an empty `P` or `PT` is none either). */
export function parseDuration(text: string): IsoDuration | null {
  const trimmed = text.trim();
  const match = DURATION.exec(trimmed);
  if (!match || trimmed === 'P' || trimmed.endsWith('T')) return null;
  const n = (index: number) => (match[index] ? Number(match[index].replace(',', '.')) : 0);
  return { years: n(1), months: n(2), weeks: n(3), days: n(4), hours: n(5), minutes: n(6), seconds: n(7) };
}

/** Whether the duration has a calendar part (years to days) whose length depends on the date. */
export function isCalendarDuration(duration: IsoDuration): boolean {
  return duration.years !== 0 || duration.months !== 0 || duration.weeks !== 0 || duration.days !== 0;
}

/** The length in milliseconds of the fixed part (hours and below). */
export function fixedMillis(duration: IsoDuration): number {
  return Math.round((duration.hours * 3600 + duration.minutes * 60 + duration.seconds) * 1000);
}

/**
 * Adds (sign 1) or subtracts (sign -1) a duration as Java's Calendar does in the local zone: years
 * and months first, keeping the day of the month unless the target month is shorter (Jan 31 + P1M =
 * Feb 28 or 29), then weeks and days keeping the time of day, then the fixed part.
 */
export function addDuration(date: Date, duration: IsoDuration, sign: 1 | -1 = 1): Date {
  const result = new Date(date.getTime());
  const months = sign * (duration.years * 12 + duration.months);
  if (months !== 0) {
    const day = result.getDate();
    result.setDate(1);
    result.setMonth(result.getMonth() + months);
    result.setDate(Math.min(day, daysInMonth(result.getFullYear(), result.getMonth())));
  }
  const days = sign * (duration.weeks * 7 + duration.days);
  if (days !== 0) result.setDate(result.getDate() + days);
  return new Date(result.getTime() + sign * fixedMillis(duration));
}

/** Days in a month (month 0-11) of the calendar, whatever the zone. */
export function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

// YYYY[-MM[-DD]][Thh[:mm[:ss[.fff]]][Z|±hh[:mm]]] (extended format, as Camunda's Joda parser reads it).
const DATE_TIME = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?(?:T(\d{2})(?::(\d{2})(?::(\d{2})(?:[.,](\d+))?)?)?(Z|[+-]\d{2}(?::?\d{2})?)?)?$/;

/**
 * An ISO 8601 date or date-time, or null when `text` is none (or names no real date, e.g. Feb 30).
 * Without an offset it is local time, as Camunda reads it in the JVM's default zone.
 */
export function parseDateTime(text: string): Date | null {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, y, mo = '1', d = '1', h = '0', mi = '0', s = '0', fraction = '', zone] = match;
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month - 1)) return null;
  if (hour > 23 || minute > 59 || second > 59) return null;
  const ms = Number(fraction.padEnd(3, '0').slice(0, 3));
  if (!zone) return localDate(year, month, day, hour, minute, second, ms);
  let offsetMinutes = 0;
  if (zone !== 'Z') {
    const digits = zone.slice(1).replace(':', '');
    const [oh, om] = [Number(digits.slice(0, 2)), Number(digits.slice(2) || '0')];
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (zone.startsWith('-') ? -1 : 1) * (oh * 60 + om);
  }
  return new Date(Date.UTC(year, month - 1, day, hour, minute, second, ms) - offsetMinutes * 60_000);
}

/** A local date-time (month 1-12); years before 100 stay as given (Date's constructor would add 1900). */
export function localDate(year: number, month: number, day: number, hour = 0, minute = 0, second = 0, ms = 0): Date {
  const date = new Date(2000, month - 1, day, hour, minute, second, ms);
  date.setFullYear(year, month - 1, day);
  return date;
}

/**
 * A date as local `yyyy-MM-ddTHH:mm:ss` (Camunda's format for the dates it writes into a cycle) with
 * the zone's offset, so that the instant stays the same should the process's time zone change.
 */
export function localDateTimeText(date: Date): string {
  const two = (n: number) => String(n).padStart(2, '0');
  const offset = -date.getTimezoneOffset();
  const zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
  return `${String(date.getFullYear()).padStart(4, '0')}-${two(date.getMonth() + 1)}-${two(date.getDate())}T${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}${zone}`;
}

/** A repeating interval `R[n]/…`: a start or an end (or neither) and the period between firings. */
export interface RepeatingInterval {
  /** Repetitions; null for unbounded (`R/…`). */
  count: number | null;
  start: Date | null;
  end: Date | null;
  period: IsoDuration;
  /** The parts after `R[n]`, as written (used to rewrite the count). */
  parts: string[];
}

/**
 * `R[n]/<duration>`, `R[n]/<start>/<duration>`, `R[n]/<duration>/<end>` and `R[n]/<start>/<end>`
 * (period = end − start, as Camunda reads it). Null when `text` is none of these.
 */
export function parseRepeatingInterval(text: string): RepeatingInterval | null {
  const [head = '', ...parts] = text.trim().split('/');
  const countMatch = /^R(\d*)$/.exec(head);
  if (!countMatch || parts.length < 1 || parts.length > 2) return null;
  const count = countMatch[1] === '' ? null : Number(countMatch[1]);
  const [first = '', second] = parts;
  if (second === undefined) {
    const period = parseDuration(first);
    return period && { count, start: null, end: null, period, parts };
  }
  const firstDuration = parseDuration(first);
  if (firstDuration) {
    const end = parseDateTime(second);
    return end && { count, start: null, end, period: firstDuration, parts };
  }
  const start = parseDateTime(first);
  if (!start) return null;
  const period = parseDuration(second);
  if (period) return { count, start, end: null, period, parts };
  const end = parseDateTime(second);
  if (!end || end.getTime() <= start.getTime()) return null;
  return { count, start, end, period: millisDuration(end.getTime() - start.getTime()), parts };
}

/** A fixed duration of the given milliseconds. */
function millisDuration(ms: number): IsoDuration {
  return { years: 0, months: 0, weeks: 0, days: 0, hours: 0, minutes: 0, seconds: ms / 1000 };
}

/** Splits a duration, `<start>/<duration>`, `<duration>/<end>` or `<start>/<end>` as Camunda's timeDuration accepts. */
export function parseDurationExpression(text: string): { start: Date | null; end: Date | null; duration: IsoDuration | null } | null {
  const parts = text.trim().split('/');
  if (parts.length === 1) {
    const duration = parseDuration(parts[0]!);
    return duration && { start: null, end: null, duration };
  }
  if (parts.length !== 2) return null;
  const [first, second] = parts as [string, string];
  const firstDuration = parseDuration(first);
  if (firstDuration) {
    const end = parseDateTime(second);
    return end && { start: null, end, duration: firstDuration };
  }
  const start = parseDateTime(first);
  if (!start) return null;
  const duration = parseDuration(second);
  if (duration) return { start, end: null, duration };
  const end = parseDateTime(second);
  return end && { start, end, duration: null };
}
