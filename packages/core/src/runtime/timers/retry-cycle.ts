import type { RetryCycle } from '../../jobs/job-failure.js';
import { parseTimer } from './timer-definition.js';

/**
 * camunda:failedJobRetryTimeCycle: `R<attempts>/<duration>` (e.g. R5/PT5M: five attempts, five
 * minutes apart). Null for anything else, which leaves the default of three immediate retries.
 */
export function parseRetryCycle(text: string): RetryCycle | null {
  const match = /^R(\d+)\/(P\S+)$/.exec(text.trim());
  if (!match) return null;
  const epoch = new Date(0);
  const intervalMs = parseTimer('timeDuration', match[2]).firstDueDate(epoch).getTime();
  return { attempts: Number(match[1]), intervalMs };
}
