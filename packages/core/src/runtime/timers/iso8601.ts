/** ISO 8601 durations, date-times and repeating intervals as BPMN timers use them (UTC arithmetic). */

export interface IsoDuration {
  years: number;
  months: number;
  weeks: number;
  days: number;
  hours: number;
  minutes: number;
  seconds: number;
}

const DURATION = /^P(?!$)(?:(\d+(?:[.,]\d+)?)Y)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)W)?(?:(\d+(?:[.,]\d+)?)D)?(?:T(?=\d)(?:(\d+(?:[.,]\d+)?)H)?(?:(\d+(?:[.,]\d+)?)M)?(?:(\d+(?:[.,]\d+)?)S)?)?$/;

export function parseDuration(text: string): IsoDuration | null {
  const match = DURATION.exec(text.trim());
  if (!match) return null;
  const n = (index: number) => (match[index] ? Number(match[index].replace(',', '.')) : 0);
  return { years: n(1), months: n(2), weeks: n(3), days: n(4), hours: n(5), minutes: n(6), seconds: n(7) };
}

/** Adds a duration: years and months by the calendar (Jan 31 + P1M = Feb 28/29), the rest by time. */
export function addDuration(date: Date, duration: IsoDuration): Date {
  const result = new Date(date.getTime());
  const months = duration.years * 12 + duration.months;
  if (months !== 0) {
    const day = result.getUTCDate();
    result.setUTCDate(1);
    result.setUTCMonth(result.getUTCMonth() + Math.trunc(months));
    const lastDay = new Date(Date.UTC(result.getUTCFullYear(), result.getUTCMonth() + 1, 0)).getUTCDate();
    result.setUTCDate(Math.min(day, lastDay));
  }
  const ms = ((duration.weeks * 7 + duration.days) * 86_400 + duration.hours * 3600 + duration.minutes * 60 + duration.seconds) * 1000;
  return new Date(result.getTime() + Math.round(ms));
}

const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/** An ISO 8601 date or date-time. Without an offset it is read as UTC (Camunda uses the JVM's zone; Trellis servers run in UTC). */
export function parseDateTime(text: string): Date | null {
  const match = DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, y, mo, d, h = '0', mi = '0', s = '0', fraction = '0', zone] = match;
  let ms = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s), Math.round(Number(`0.${fraction}`) * 1000));
  if (zone && zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    ms -= sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000;
  }
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) || Number(mo) > 12 || Number(d) > 31 ? null : date;
}

export interface RepeatingInterval {
  /** Repetitions; null for unbounded (R/…). */
  count: number | null;
  start: Date | null;
  end: Date | null;
  period: IsoDuration;
}

/** R<n>/<duration>, R/<duration>, R<n>/<start>/<duration>, R<n>/<duration>/<end>. */
export function parseRepeatingInterval(text: string): RepeatingInterval | null {
  const parts = text.trim().split('/');
  const head = /^R(\d*)$/.exec(parts[0] ?? '');
  if (!head || parts.length < 2 || parts.length > 3) return null;
  const count = head[1] === '' ? null : Number(head[1]);
  if (parts.length === 2) {
    const period = parseDuration(parts[1]);
    return period ? { count, start: null, end: null, period } : null;
  }
  const firstDuration = parseDuration(parts[1]);
  if (firstDuration) {
    const end = parseDateTime(parts[2]);
    return end ? { count, start: null, end, period: firstDuration } : null;
  }
  const start = parseDateTime(parts[1]);
  const period = parseDuration(parts[2]);
  return start && period ? { count, start, end: null, period } : null;
}
