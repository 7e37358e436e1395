import { parseTimer } from './timer-definition.js';

/** Java's Integer.MAX_VALUE: the retries of an unbounded `R/<duration>` retry cycle. */
const UNBOUNDED_RETRIES = 2_147_483_647;

/**
 * A camunda:failedJobRetryTimeCycle read as Camunda's ParseUtil.parseRetryIntervals: a list of
 * intervals (`PT1M,PT5M,PT10M`: as many retries as intervals plus one, each failure waiting the
 * interval its remaining retries point at), or one repeating interval (`R5/PT5M`: five retries
 * five minutes apart; `R/PT5M` without end), or one duration (two retries).
 */
export interface RetryConfiguration {
  /** The retries a job gets at its first failure. */
  retries: number;
  intervals: readonly string[];
}

/** The retry configuration of a (non-expression) cycle text; null when it is empty or its one interval cannot be read. */
export function parseRetryIntervals(text: string): RetryConfiguration | null {
  if (text.trim() === '') return null;
  const intervals = text.split(',').map((each) => each.trim());
  if (intervals.length > 1) return { retries: intervals.length + 1, intervals };
  const [only] = intervals as [string];
  try {
    parseTimer('timeDuration', only);
  } catch {
    return null;
  }
  const repeat = /^R(\d*)\//.exec(only);
  const retries = repeat ? (repeat[1] === '' ? UNBOUNDED_RETRIES : Number(repeat[1])) : 2;
  return { retries, intervals };
}

/**
 * When a job failing with `retriesBefore` retries (before this failure counts) runs again: the
 * interval its remaining retries point at, from now (Camunda's DefaultJobRetryCmd.executeCustomStrategy).
 */
export function retryDueDate(configuration: RetryConfiguration, retriesBefore: number, now: Date): Date {
  const count = configuration.intervals.length;
  const index = Math.max(0, Math.min(count - 1, count - (retriesBefore - 1)));
  return parseTimer('timeDuration', configuration.intervals[index]!).firstDueDate(now);
}
