import { engineMessage } from '../../errors/engine-message.js';
import type { ModdleElement } from './moddle-element.js';
import type { ParseReport } from './parse-report.js';

/** The engine's history time to live settings the parse applies. */
export interface TimeToLiveRules {
  /** The engine default in days, used for a process without the historyTimeToLive attribute. */
  historyTimeToLive: number | null;
  /** Reject a process whose history time to live comes out null (an empty attribute, or none without an engine default). */
  enforceHistoryTimeToLive: boolean;
}

const DAYS_PERIOD = /^P(\d+)D$/;
const JAVA_INT = /^[+-]?\d+$/;
const MAX_INT = 2 ** 31 - 1;

/**
 * Camunda's ParseUtil.parseHistoryTimeToLive: whole days as `5` or `P5D`, null when absent or empty.
 * Throws an Error carrying Camunda's message for anything else.
 */
export function parseHistoryTimeToLive(value: string | number | undefined | null): number | null {
  if (value === undefined || value === null || value === '') return null;
  const text = String(value);
  const digits = DAYS_PERIOD.exec(text)?.[1] ?? text;
  const days = JAVA_INT.test(digits) ? Number(digits) : Number.NaN;
  // Integer.parseInt's NumberFormatException text; no trimming, as in Java.
  if (Number.isNaN(days) || Math.abs(days) > MAX_INT + (days < 0 ? 1 : 0)) {
    throw new Error(`Cannot parse historyTimeToLive: For input string: "${digits}"`);
  }
  if (days < 0) throw new Error('Cannot parse historyTimeToLive: negative value is not allowed');
  return days;
}

/**
 * The process's history time to live in days, reporting a bad value, or a null one that the engine
 * enforces, as Camunda's BpmnParse.validateAndSetHTTL does. Camunda's HistoryTimeToLiveParser takes
 * the engine default only for a missing attribute: an empty one is null (refused when enforced).
 */
export function historyTimeToLiveOf(process: ModdleElement, report: ParseReport, rules: TimeToLiveRules): number | null {
  try {
    const written = process.historyTimeToLive as string | undefined;
    const days = written === undefined ? rules.historyTimeToLive : parseHistoryTimeToLive(written);
    if (days === null && rules.enforceHistoryTimeToLive) throw new Error(missingHistoryTimeToLive());
    return days;
  } catch (error) {
    // Camunda wraps the cause in a BpmnParseException with the same text, and the problem joins
    // the messages of the cause chain: the text appears twice (ProblemImpl.concatenateErrorMessages).
    const message = (error as Error).message;
    report.error(`${message}: ${message}`, [process.id]);
    return null;
  }
}

/** ENGINE-12018: a definition without TTL while TTL is enforced and no engine default exists. */
export const missingHistoryTimeToLive = (): string =>
  engineMessage(
    '12',
    '018',
    'History Time To Live (TTL) cannot be null. TTL is necessary for the History Cleanup to work. ' +
      'The following options are possible:\n* Set historyTimeToLive in the model\n' +
      '* Set a default historyTimeToLive as a global process engine configuration\n' +
      '* (Not recommended) Deactivate the enforceTTL config to disable this check',
  );
