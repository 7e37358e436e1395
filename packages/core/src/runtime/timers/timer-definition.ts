import { CronExpression } from './cron.js';
import {
  addDuration,
  fixedMillis,
  isCalendarDuration,
  localDateTimeText,
  parseDateTime,
  parseDuration,
  parseDurationExpression,
  parseRepeatingInterval,
  type IsoDuration,
  type RepeatingInterval,
} from './iso8601.js';

/**
 * BPMN timer definitions read the way Camunda 7 reads them:
 *
 * - timeDate: an ISO 8601 date-time (UTC when it has no offset). Like Camunda, a text starting
 *   with `P` is a duration from now instead.
 * - timeDuration: an ISO 8601 duration from now; also `<start>/<duration>` (start + duration),
 *   `<duration>/<end>` and `<start>/<end>` (the end), and a repeating interval (its first firing).
 * - timeCycle: a repeating interval `R[n]/…`, or else a Quartz cron expression.
 *
 * Cycles follow Camunda's DurationHelper:
 * - `R<n>/<duration>` fires n times, one period apart, the first one period after creation;
 *   `R/<duration>` never stops. `R0/<duration>` fires once, at once (Camunda's due date is "now").
 * - `R<n>/<start>/<duration>` fires at start, start + P, … start + n·P (n + 1 instants), skipping
 *   those not after the creation time: a future start fires first at the start, a past start at
 *   the next start + k·P after now. `R<n>/<start>/<end>` is the same with P = end − start.
 * - `R<n>/<duration>/<end>` fires at end − n·P, … end − P, end, skipping those not after now.
 * - When an interval with a start or end has no instant left, the timer is due at once and fires
 *   once (Camunda gives such a timer no due date, which makes its job due immediately).
 *
 * A repeating timer keeps its schedule as prepareRepeat writes it when the timer is created (an
 * `R<n>/<duration>` fixed to its creation time). Each firing computes the next due date from the
 * clock, as Camunda's TimerEntity.calculateNewDueDate: instants missed meanwhile are skipped, and
 * once the n-th instant has passed none is left.
 */
export type TimerKind = 'timeDate' | 'timeDuration' | 'timeCycle';

/** A timer text that cannot be read; the message names the text and the kind. */
export class TimerDefinitionError extends Error {
  override readonly name = 'TimerDefinitionError';
}

/** When a timer fires: first from its creation, then (cycles) after each firing. */
export interface TimerSchedule {
  kind: TimerKind;
  /** The first due date when the timer is created at `now`. */
  firstDueDate(now: Date): Date;
  /** For cycles: the due date after one that fired at `fired` (null when no repetition is left). Dates/durations: null. */
  nextDueDate(fired: Date): Date | null;
  /**
   * A text that, given back to parseTimer(kind, …), continues the schedule with one repetition
   * less (cycles with R<n>); other kinds: the original text. Stored on the follow-up timer job.
   */
  afterFiring(): string;
  /**
   * Whether a follow-up timer may be due after this firing: false for dates and durations and for
   * the last firing of `R<n>/<duration>` (R1, R0); true for unbounded cycles and cron. For intervals
   * with a start or end, true while n ≥ 1 — nextDueDate then says whether an instant is left.
   */
  repeats(): boolean;
}

/** Reads a BPMN timer definition of the given kind; throws TimerDefinitionError when it is invalid. */
export function parseTimer(kind: TimerKind, text: string): TimerSchedule {
  const trimmed = text.trim();
  const fail = (why: string): never => {
    throw new TimerDefinitionError(`Invalid timer expression '${text}' (${kind}): ${why}`);
  };
  if (trimmed === '') return fail('the expression is empty');
  switch (kind) {
    case 'timeDate':
      return parseDate(trimmed, fail);
    case 'timeDuration':
      return parseDurationTimer(trimmed, fail);
    case 'timeCycle':
      return parseCycle(trimmed, fail);
    default:
      return fail(`unknown timer kind (expected timeDate, timeDuration or timeCycle)`);
  }
}

type Fail = (why: string) => never;

function parseDate(text: string, fail: Fail): TimerSchedule {
  if (text.startsWith('P')) {
    // Camunda's due-date calendar reads a duration as "that long from now".
    const duration = parseDuration(text) ?? fail('not an ISO 8601 duration (such as PT10M or P1DT2H)');
    return once('timeDate', text, (now) => addDuration(now, duration));
  }
  const date = parseDateTime(text) ?? fail('not an ISO 8601 date-time (such as 2026-11-23T10:00:00Z or 2026-11-23)');
  return once('timeDate', text, () => new Date(date.getTime()));
}

function parseDurationTimer(text: string, fail: Fail): TimerSchedule {
  if (text.startsWith('R')) {
    // Camunda's duration calendar takes the first firing of a repeating interval.
    const cycle = parseCycle(text, fail);
    return once('timeDuration', text, (now) => cycle.firstDueDate(now));
  }
  const parsed = parseDurationExpression(text) ?? fail('not an ISO 8601 duration (such as PT10M, P1DT2H or PT0.5S)');
  const { start, end, duration } = parsed;
  return once('timeDuration', text, (now) => {
    if (end) return new Date(end.getTime());
    return addDuration(start ?? now, duration!);
  });
}

function parseCycle(text: string, fail: Fail): TimerSchedule {
  if (text.startsWith('R')) {
    const interval =
      parseRepeatingInterval(text) ??
      fail('not a repeating interval R[n]/<duration>, R[n]/<start>/<duration>, R[n]/<duration>/<end> or R[n]/<start>/<end>');
    if (!isCalendarDuration(interval.period) && fixedMillis(interval.period) <= 0) fail('the period must be longer than zero');
    return repeatingInterval(text, interval);
  }
  let cron: CronExpression;
  try {
    cron = new CronExpression(text);
  } catch (error) {
    const hint = text.startsWith('P') ? ' (a cycle is R[n]/<duration> or a cron expression; did you mean R/' + text + '?)' : '';
    return fail(`not a valid cron expression: ${(error as Error).message}${hint}`);
  }
  return {
    kind: 'timeCycle',
    firstDueDate: (now) => cron.next(now) ?? fail(`the cron expression never fires after ${now.toISOString()}`),
    nextDueDate: (fired) => cron.next(fired),
    afterFiring: () => text,
    repeats: () => true,
  };
}

/** A timer due at a date an expression gave as a Date (whatever kind the timer declares). */
export function fixedDueDate(date: Date): TimerSchedule {
  return once('timeDate', date.toISOString(), () => new Date(date.getTime()));
}

/** A timer that fires once: a date or a duration. */
function once(kind: TimerKind, text: string, due: (now: Date) => Date): TimerSchedule {
  return { kind, firstDueDate: due, nextDueDate: () => null, afterFiring: () => text, repeats: () => false };
}

function repeatingInterval(text: string, interval: RepeatingInterval): TimerSchedule {
  const { count, start, end, period, parts } = interval;
  const withCount = (n: number, rest: string[]) => [`R${n}`, ...rest].join('/');

  if (start) {
    // Instants start + k·P for k = 0 … n. One firing less drops the instant `start` (never after a
    // firing) by moving the start one period on.
    const nextAfter = (date: Date) => firstFromStart(start, period, count, date);
    return {
      kind: 'timeCycle',
      firstDueDate: (now) => nextAfter(now) ?? new Date(now.getTime()),
      nextDueDate: nextAfter,
      afterFiring() {
        if (count === null || count === 0) return text;
        const shift = (date: Date) => addDuration(date, period).toISOString();
        return withCount(count - 1, [shift(start), end ? shift(end) : parts[1]!]);
      },
      repeats: () => count === null || count >= 1,
    };
  }

  if (end) {
    // Instants end − k·P for k = 0 … n. One firing less drops the earliest one, end − n·P.
    const nextAfter = (date: Date) => firstBeforeEnd(end, period, count, date);
    return {
      kind: 'timeCycle',
      firstDueDate: (now) => nextAfter(now) ?? new Date(now.getTime()),
      nextDueDate: nextAfter,
      afterFiring: () => (count === null || count === 0 ? text : withCount(count - 1, parts)),
      repeats: () => count === null || count >= 1,
    };
  }

  // R<n>/<duration>: n firings one period apart, counted down in the stored text.
  const repeats = () => count === null || count > 1;
  return {
    kind: 'timeCycle',
    firstDueDate: (now) => (count === 0 ? new Date(now.getTime()) : addDuration(now, period)),
    nextDueDate: (fired) => (repeats() ? addDuration(fired, period) : null),
    afterFiring: () => (count === null ? text : withCount(Math.max(0, count - 1), parts)),
    repeats,
  };
}

/** The earliest of start, start + P, … start + n·P (n null: unbounded) strictly after `after`, or null. */
function firstFromStart(start: Date, period: IsoDuration, count: number | null, after: Date): Date | null {
  const limit = count ?? Number.POSITIVE_INFINITY;
  if (start.getTime() > after.getTime()) return new Date(start.getTime());
  if (!isCalendarDuration(period)) {
    const step = fixedMillis(period);
    const k = Math.floor((after.getTime() - start.getTime()) / step) + 1;
    return k <= limit ? new Date(start.getTime() + k * step) : null;
  }
  // Calendar periods are added one at a time, as the day of month may shrink (Jan 31, Feb 28, Mar 28).
  let current = start;
  for (let k = 1; k <= limit; k++) {
    current = addDuration(current, period);
    if (current.getTime() > after.getTime()) return current;
  }
  return null;
}

/** The earliest of end − n·P, … end − P, end (n null: unbounded) strictly after `after`, or null. */
function firstBeforeEnd(end: Date, period: IsoDuration, count: number | null, after: Date): Date | null {
  const limit = count ?? Number.POSITIVE_INFINITY;
  if (end.getTime() <= after.getTime()) return null;
  if (!isCalendarDuration(period)) {
    const step = fixedMillis(period);
    const k = Math.min(limit, Math.ceil((end.getTime() - after.getTime()) / step) - 1);
    return new Date(end.getTime() - k * step);
  }
  let next = end;
  for (let k = 1; k <= limit; k++) {
    const earlier = addDuration(next, period, -1);
    if (earlier.getTime() <= after.getTime()) break;
    next = earlier;
  }
  return new Date(next.getTime());
}

/**
 * Camunda's TimerEntity.replaceRepeatCycleAndDate: `R<n>/<duration>` becomes `R<n>/<now>/<duration>`
 * (now to the second in local time, as Camunda's yyyy-MM-dd'T'HH:mm:ss, with the zone's offset) so that its instants stay
 * fixed; a cycle with a start or end, and a cron expression, are kept as written.
 */
export function prepareRepeat(text: string, now: Date): string {
  const parts = text.split('/');
  if (!text.startsWith('R') || parts.length !== 2) return text;
  return `${parts[0]}/${localDateTimeText(now)}/${parts[1]}`;
}
