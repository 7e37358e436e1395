import { CronExpression } from './cron.js';
import { addDuration, parseDateTime, parseDuration, parseRepeatingInterval, type RepeatingInterval } from './iso8601.js';

export type TimerKind = 'timeDate' | 'timeDuration' | 'timeCycle';

export class TimerDefinitionError extends Error {
  override readonly name = 'TimerDefinitionError';
}

/** When a timer fires: first from its creation, then (cycles) after each firing. */
export interface TimerSchedule {
  kind: TimerKind;
  firstDueDate(now: Date): Date;
  /** Cycles: the firing after one at `fired`, or null when none is left. Dates and durations: null. */
  nextDueDate(fired: Date): Date | null;
  /** The text that continues the schedule with one repetition less (stored on the follow-up timer). */
  afterFiring(): string;
  /** Whether a follow-up timer is due after this firing. */
  repeats(): boolean;
}

/** Reads a BPMN timer definition (timeDate, timeDuration, timeCycle with ISO 8601 repetitions or cron). */
export function parseTimer(kind: TimerKind, text: string): TimerSchedule {
  const trimmed = text.trim();
  const fail = (why: string): never => {
    throw new TimerDefinitionError(`Invalid timer expression '${text}' (${kind}): ${why}`);
  };
  if (trimmed === '') fail('it is empty');
  if (kind === 'timeDate') {
    const date = parseDateTime(trimmed) ?? fail('not an ISO 8601 date');
    return once(kind, trimmed, () => date);
  }
  if (kind === 'timeDuration') {
    const duration = parseDuration(trimmed) ?? fail('not an ISO 8601 duration');
    return once(kind, trimmed, (now) => addDuration(now, duration));
  }
  if (trimmed.startsWith('R')) {
    return repeating(trimmed, parseRepeatingInterval(trimmed) ?? fail('not an ISO 8601 repeating interval'));
  }
  let cron: CronExpression;
  try {
    cron = new CronExpression(trimmed);
  } catch (error) {
    return fail((error as Error).message);
  }
  return {
    kind,
    firstDueDate: (now) => cron.next(now) ?? fail('it never fires'),
    nextDueDate: (fired) => cron.next(fired),
    afterFiring: () => trimmed,
    repeats: () => true,
  };
}

function once(kind: TimerKind, text: string, due: (now: Date) => Date): TimerSchedule {
  return { kind, firstDueDate: due, nextDueDate: () => null, afterFiring: () => text, repeats: () => false };
}

function repeating(text: string, interval: RepeatingInterval): TimerSchedule {
  const { count, start, end, period } = interval;
  const beforeEnd = (date: Date | null) => (date && end && date.getTime() > end.getTime() ? null : date);
  return {
    kind: 'timeCycle',
    firstDueDate(now) {
      if (!start) return addDuration(now, period);
      // From a start date: the start itself when still ahead, else the first repetition after now.
      let due = start;
      for (let i = 0; due.getTime() < now.getTime() && i < 100_000; i++) due = addDuration(due, period);
      return due;
    },
    nextDueDate: (fired) => (count !== null && count <= 1 ? null : beforeEnd(addDuration(fired, period))),
    afterFiring: () => (count === null ? text : text.replace(/^R\d+/, `R${Math.max(0, count - 1)}`)),
    repeats: () => count === null || count > 1,
  };
}
