/**
 * Camunda's REST date format `yyyy-MM-dd'T'HH:mm:ss.SSSZ`, e.g. `2013-01-23T14:42:45.000+0200`:
 * written in the server's time zone (as the JVM does), read back in any offset.
 */
export function formatRestDate(date: Date, offsetMinutes = -date.getTimezoneOffset()): string {
  const shifted = new Date(date.getTime() + offsetMinutes * 60_000);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const absolute = Math.abs(offsetMinutes);
  const offset = `${sign}${pad(Math.floor(absolute / 60))}${pad(absolute % 60)}`;
  return `${shifted.toISOString().slice(0, 23)}${offset}`;
}

const REST_DATE = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})\.(\d{3})([+-])(\d{2})(\d{2})$/;

/**
 * Parses the REST date format strictly; null when the text is not in it. A space where the
 * offset's sign belongs is read as `+`: an unencoded `+` in a query string arrives as one.
 */
export function parseRestDate(text: string): Date | null {
  const match = REST_DATE.exec(text.replace(/ (\d{4})$/, '+$1'));
  if (!match) return null;
  const [, year, month, day, hour, minute, second, millis, sign, offsetHours, offsetMinutes] = match;
  const offset = (sign === '-' ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes));
  const utc = Date.UTC(Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(millis));
  const date = new Date(utc - offset * 60_000);
  return isSameCalendarDay(year, month, day, utc) ? date : null;
}

const ISO_DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,3}))?)?)?(Z|[+-]\d{2}:?\d{2})?$/;

/**
 * The ISO-8601 fields Camunda reads with Joda (deployment-activation-time, executionDate):
 * `2013-01-23T14:42:45`, with or without millis and offset; without an offset, in server time.
 */
export function parseIsoDateTime(text: string): Date | null {
  const match = ISO_DATE_TIME.exec(text.trim());
  if (!match) return null;
  const [, year, month, day, hour = '0', minute = '0', second = '0', millis = '0', zone] = match;
  const fields = [Number(year), Number(month) - 1, Number(day), Number(hour), Number(minute), Number(second), Number(millis.padEnd(3, '0'))] as const;
  const utc = Date.UTC(...fields);
  if (!isSameCalendarDay(year, month, day, utc)) return null;
  if (zone === undefined) return new Date(...fields);
  if (zone === 'Z') return new Date(utc);
  const sign = zone.startsWith('-') ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return new Date(utc - sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2))) * 60_000);
}

// Rejects dates like 2021-02-30 that Date.UTC would silently roll over.
function isSameCalendarDay(year: string, month: string, day: string, utc: number): boolean {
  const date = new Date(utc);
  return date.getUTCFullYear() === Number(year) && date.getUTCMonth() === Number(month) - 1 && date.getUTCDate() === Number(day);
}

const pad = (value: number) => String(value).padStart(2, '0');
