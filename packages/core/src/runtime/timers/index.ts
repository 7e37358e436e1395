export { parseTimer, TimerDefinitionError, type TimerKind, type TimerSchedule } from './timer-definition.js';
export { CronExpression } from './cron.js';
export { addDuration, parseDateTime, parseDuration, parseRepeatingInterval } from './iso8601.js';
export { parseRetryCycle } from './retry-cycle.js';
