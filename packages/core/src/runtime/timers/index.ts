export { fixedDueDate, parseTimer, prepareRepeat, TimerDefinitionError, type TimerKind, type TimerSchedule } from './timer-definition.js';
export { CronExpression, CronSyntaxError } from './cron.js';
export {
  addDuration,
  parseDateTime,
  parseDuration,
  parseDurationExpression,
  parseRepeatingInterval,
  type IsoDuration,
  type RepeatingInterval,
} from './iso8601.js';
export { parseRetryIntervals, retryDueDate, type RetryConfiguration } from './retry-cycle.js';
