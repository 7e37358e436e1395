import { daysInMonth as daysInCalendarMonth, localDate } from './iso8601.js';
/**
 * Quartz cron expressions, which Camunda 7 accepts as a timeCycle:
 *
 *   seconds minutes hours day-of-month month day-of-week [year]
 *
 * with `*`, `?`, ranges `a-b` (wrapping around, e.g. FRI-MON or 22-2), lists `a,b`, steps `a/b`,
 * `*\/b` and `a-b/c`, month names JAN-DEC, day names SUN-SAT (1 = SUN … 7 = SAT), and the day
 * specials `L`, `L-n`, `LW`, `nW` (day of month) and `L`, `nL`, `n#k` (day of week). One of
 * day-of-month and day-of-week must be `?`, as Quartz requires. Evaluated in the process's local
 * time zone, as Camunda in the JVM's default zone.
 */
export class CronExpression {
  private readonly seconds: number[];
  private readonly minutes: number[];
  private readonly hours: number[];
  private readonly months: number[];
  private readonly years: number[] | null;
  private readonly dayOfMonth: DayRule;
  private readonly dayOfWeek: DayRule;

  /** Throws CronSyntaxError when `text` is no valid expression. */
  constructor(readonly text: string) {
    const fields = text.trim().toUpperCase().split(/\s+/);
    if (fields.length < 6 || fields.length > 7) {
      throw new CronSyntaxError(`a cron expression has 6 or 7 fields (seconds minutes hours day-of-month month day-of-week [year]), not ${fields.length}`);
    }
    const [sec, min, hour, dom, month, dow, year] = fields as [string, string, string, string, string, string, string | undefined];
    if (dom === '?' && dow === '?') throw new CronSyntaxError("'?' can be given for day-of-month or for day-of-week, not for both");
    if (dom !== '?' && dow !== '?') {
      throw new CronSyntaxError("specifying both a day-of-month and a day-of-week is not supported: one of them must be '?'");
    }
    this.seconds = parseField('seconds', sec, 0, 59);
    this.minutes = parseField('minutes', min, 0, 59);
    this.hours = parseField('hours', hour, 0, 23);
    this.months = parseField('month', month, 1, 12, MONTHS);
    this.years = year === undefined ? null : parseField('year', year, MIN_YEAR, MAX_YEAR);
    this.dayOfMonth = parseDayOfMonth(dom);
    this.dayOfWeek = parseDayOfWeek(dow);
  }

  /** The first whole second strictly after `after` that matches, or null when none comes (before MAX_YEAR). */
  next(after: Date): Date | null {
    const from = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
    const [fromYear, fromMonth, fromDay] = [from.getFullYear(), from.getMonth() + 1, from.getDate()];
    const fromSecond = from.getHours() * 3600 + from.getMinutes() * 60 + from.getSeconds();
    const lastYear = this.years ? this.years[this.years.length - 1]! : MAX_YEAR;
    for (let year = fromYear; year <= lastYear; year++) {
      if (this.years && !this.years.includes(year)) continue;
      for (const month of this.months) {
        if (year === fromYear && month < fromMonth) continue;
        const days = daysInMonth(year, month);
        const firstDay = year === fromYear && month === fromMonth ? fromDay : 1;
        for (let day = firstDay; day <= days; day++) {
          if (!this.dayOfMonth(year, month, day) || !this.dayOfWeek(year, month, day)) continue;
          const second = this.firstSecondOfDay(year === fromYear && month === fromMonth && day === fromDay ? fromSecond : 0);
          if (second !== null) return localDate(year, month, day, Math.floor(second / 3600), Math.floor(second / 60) % 60, second % 60);
        }
      }
    }
    return null;
  }

  /** The earliest matching second of a day at or after `from` (seconds since midnight). */
  private firstSecondOfDay(from: number): number | null {
    for (const hour of this.hours) {
      if ((hour + 1) * 3600 <= from) continue;
      for (const minute of this.minutes) {
        if (hour * 3600 + (minute + 1) * 60 <= from) continue;
        for (const second of this.seconds) {
          const total = hour * 3600 + minute * 60 + second;
          if (total >= from) return total;
        }
      }
    }
    return null;
  }
}

export class CronSyntaxError extends Error {
  override readonly name = 'CronSyntaxError';
}

/** Whether a day (month 1-12) matches one of the day fields. */
type DayRule = (year: number, month: number, day: number) => boolean;

const MIN_YEAR = 1970;
const MAX_YEAR = 2299;
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

/** Days in a month numbered 1-12, as Quartz numbers them. */
const daysInMonth = (year: number, month: number) => daysInCalendarMonth(year, month - 1);
/** Day of week, 1 = Sunday … 7 = Saturday (Quartz numbering). */
const weekdayOf = (year: number, month: number, day: number) => new Date(Date.UTC(year, month - 1, day)).getUTCDay() + 1;

function parseDayOfMonth(field: string): DayRule {
  if (field === '?' || field === '*') return () => true;
  if (field === 'L') return (y, m, d) => d === daysInMonth(y, m);
  if (field === 'LW') return (y, m, d) => d === nearestWeekday(y, m, daysInMonth(y, m));
  const lastMinus = /^L-(\d{1,2})$/.exec(field);
  if (lastMinus) {
    const offset = Number(lastMinus[1]);
    if (offset > 30) throw new CronSyntaxError(`day-of-month offset '${field}' must be L-0 … L-30`);
    return (y, m, d) => d === Math.max(1, daysInMonth(y, m) - offset);
  }
  const weekday = /^(\d{1,2})W$/.exec(field);
  if (weekday) {
    const target = Number(weekday[1]);
    if (target < 1 || target > 31) throw new CronSyntaxError(`day-of-month '${field}' must name a day 1-31`);
    // A target beyond the month's end (31W in April) never fires in that month, as in Quartz.
    return (y, m, d) => target <= daysInMonth(y, m) && d === nearestWeekday(y, m, target);
  }
  if (/[LW#]/.test(field)) throw new CronSyntaxError(`unsupported day-of-month '${field}'`);
  const days = new Set(parseField('day-of-month', field, 1, 31));
  return (_y, _m, d) => days.has(d);
}

/** Quartz's `W`: the weekday (Mon-Fri) nearest to the target day, never leaving the month. */
function nearestWeekday(year: number, month: number, target: number): number {
  const last = daysInMonth(year, month);
  const weekday = weekdayOf(year, month, target);
  if (weekday === 7) return target === 1 ? 3 : target - 1; // Saturday: Friday before, or Monday the 3rd
  if (weekday === 1) return target === last ? target - 2 : target + 1; // Sunday: Monday after, or Friday before
  return target;
}

function parseDayOfWeek(field: string): DayRule {
  if (field === '?' || field === '*') return () => true;
  if (field === 'L') return (y, m, d) => weekdayOf(y, m, d) === 7; // a lone L is Saturday
  const nth = /^(\w+)#(\d+)$/.exec(field);
  if (nth) {
    const weekday = dayNumber(nth[1]!);
    const n = Number(nth[2]);
    if (n < 1 || n > 5) throw new CronSyntaxError(`'${field}': the n in weekday#n must be 1-5`);
    return (y, m, d) => weekdayOf(y, m, d) === weekday && Math.ceil(d / 7) === n;
  }
  const last = /^(\w+)L$/.exec(field);
  if (last) {
    const weekday = dayNumber(last[1]!);
    return (y, m, d) => weekdayOf(y, m, d) === weekday && d + 7 > daysInMonth(y, m);
  }
  if (/[LW#]/.test(field.replace(/[A-Z]{3}/g, ''))) throw new CronSyntaxError(`unsupported day-of-week '${field}'`);
  const days = new Set(parseField('day-of-week', field, 1, 7, DAYS));
  return (y, m, d) => days.has(weekdayOf(y, m, d));
}

function dayNumber(text: string): number {
  const named = DAYS.indexOf(text);
  const value = named >= 0 ? named + 1 : /^\d$/.test(text) ? Number(text) : NaN;
  if (!(value >= 1 && value <= 7)) throw new CronSyntaxError(`invalid day of week '${text}' (1-7 or SUN-SAT)`);
  return value;
}

/** One field: `*`, `a`, `a-b`, `a/s`, `*\/s`, `a-b/s` or a list of those; sorted values. Names count from `min`. */
function parseField(name: string, field: string, min: number, max: number, names: readonly string[] = []): number[] {
  const values = new Set<number>();
  const value = (text: string) => {
    const named = names.indexOf(text);
    const number = named >= 0 ? named + min : /^\d+$/.test(text) ? Number(text) : NaN;
    if (!(number >= min && number <= max)) throw new CronSyntaxError(`${name} value '${text}' is not in ${min}-${max}${names.length ? ` or ${names[0]}-${names[names.length - 1]}` : ''}`);
    return number;
  };
  for (const part of field.split(',')) {
    const [range = '', stepText, extra] = part.split('/');
    if (extra !== undefined || range === '') throw new CronSyntaxError(`invalid ${name} '${part}'`);
    const step = stepText === undefined ? 1 : /^\d+$/.test(stepText) ? Number(stepText) : NaN;
    if (!(step >= 1)) throw new CronSyntaxError(`invalid step in ${name} '${part}'`);
    let from: number;
    let to: number;
    if (range === '*' || range === '?') {
      if (range === '?' && !name.startsWith('day')) throw new CronSyntaxError(`'?' is only allowed for day-of-month or day-of-week`);
      [from, to] = [min, max];
    } else if (range.includes('-')) {
      const bounds = range.split('-');
      if (bounds.length !== 2) throw new CronSyntaxError(`invalid ${name} range '${range}'`);
      [from, to] = [value(bounds[0]!), value(bounds[1]!)];
    } else {
      from = value(range);
      to = stepText === undefined ? from : max;
    }
    // A range whose end is below its start wraps around (FRI-MON, 22-2).
    const span = to >= from ? to - from : to - from + (max - min + 1);
    for (let offset = 0; offset <= span; offset += step) {
      const v = from + offset;
      values.add(v > max ? v - (max - min + 1) : v);
    }
  }
  return [...values].sort((a, b) => a - b);
}
