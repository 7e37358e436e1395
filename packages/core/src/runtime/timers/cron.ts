/**
 * Quartz cron expressions as Camunda's timeCycle accepts them: seconds minutes hours day-of-month
 * month day-of-week [year], with * ? - , / L W # and month/day names. Evaluated in UTC.
 */
export class CronExpression {
  private readonly seconds: Set<number>;
  private readonly minutes: Set<number>;
  private readonly hours: Set<number>;
  private readonly months: Set<number>;
  private readonly years: Set<number> | null;
  private readonly dayOfMonth: DayOfMonthRule;
  private readonly dayOfWeek: DayOfWeekRule;

  constructor(readonly text: string) {
    const fields = text.trim().split(/\s+/);
    if (fields.length < 6 || fields.length > 7) throw new Error(`a cron expression has 6 or 7 fields, not ${fields.length}`);
    const [sec, min, hour, dom, month, dow, year] = fields;
    if ((dom === '?') === (dow === '?')) {
      throw new Error("Support for specifying both a day-of-week AND a day-of-month parameter is not implemented: one of them must be '?'");
    }
    this.seconds = parseField(sec, 0, 59);
    this.minutes = parseField(min, 0, 59);
    this.hours = parseField(hour, 0, 23);
    this.months = parseField(month.toUpperCase(), 1, 12, MONTHS);
    this.years = year === undefined ? null : parseField(year, 1970, 2199);
    this.dayOfMonth = parseDayOfMonth(dom);
    this.dayOfWeek = parseDayOfWeek(dow.toUpperCase());
  }

  /** The first second strictly after `after` that matches, or null within the next ten years. */
  next(after: Date): Date | null {
    const from = new Date(Math.floor(after.getTime() / 1000) * 1000 + 1000);
    const limit = from.getUTCFullYear() + 10;
    let day = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth(), from.getUTCDate()));
    let firstDay = true;
    while (day.getUTCFullYear() <= limit) {
      if (this.dayMatches(day)) {
        const time = this.firstTimeOfDay(firstDay ? from.getUTCHours() * 3600 + from.getUTCMinutes() * 60 + from.getUTCSeconds() : 0);
        if (time !== null) return new Date(day.getTime() + time * 1000);
      }
      day = new Date(day.getTime() + 86_400_000);
      firstDay = false;
    }
    return null;
  }

  private dayMatches(day: Date): boolean {
    if (this.years && !this.years.has(day.getUTCFullYear())) return false;
    if (!this.months.has(day.getUTCMonth() + 1)) return false;
    return this.dayOfMonth(day) && this.dayOfWeek(day);
  }

  private firstTimeOfDay(fromSecond: number): number | null {
    for (const hour of sorted(this.hours)) {
      if ((hour + 1) * 3600 <= fromSecond) continue;
      for (const minute of sorted(this.minutes)) {
        for (const second of sorted(this.seconds)) {
          const total = hour * 3600 + minute * 60 + second;
          if (total >= fromSecond) return total;
        }
      }
    }
    return null;
  }
}

type DayRule = (day: Date) => boolean;
type DayOfMonthRule = DayRule;
type DayOfWeekRule = DayRule;

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAYS = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];
const sortedCache = new WeakMap<Set<number>, number[]>();
function sorted(values: Set<number>): number[] {
  let list = sortedCache.get(values);
  if (!list) sortedCache.set(values, (list = [...values].sort((a, b) => a - b)));
  return list;
}

const lastDayOf = (day: Date) => new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth() + 1, 0)).getUTCDate();

function parseDayOfMonth(field: string): DayOfMonthRule {
  if (field === '?' || field === '*') return () => true;
  if (field === 'L') return (day) => day.getUTCDate() === lastDayOf(day);
  const lastOffset = /^L-(\d+)$/.exec(field);
  if (lastOffset) return (day) => day.getUTCDate() === lastDayOf(day) - Number(lastOffset[1]);
  if (field === 'LW') return (day) => day.getUTCDate() === nearestWeekday(day, lastDayOf(day));
  const weekday = /^(\d+)W$/.exec(field);
  if (weekday) return (day) => day.getUTCDate() === nearestWeekday(day, Number(weekday[1]));
  const days = parseField(field, 1, 31);
  return (day) => days.has(day.getUTCDate());
}

/** Quartz's W: the weekday nearest to the given day of the month, never crossing into another month. */
function nearestWeekday(day: Date, target: number): number {
  const last = lastDayOf(day);
  const date = Math.min(target, last);
  const weekday = new Date(Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), date)).getUTCDay();
  if (weekday === 6) return date === 1 ? 3 : date - 1;
  if (weekday === 0) return date === last ? date - 2 : date + 1;
  return date;
}

function parseDayOfWeek(field: string): DayOfWeekRule {
  if (field === '?' || field === '*') return () => true;
  const nth = /^(\w+)#(\d)$/.exec(field);
  if (nth) {
    const weekday = dayNumber(nth[1]);
    const n = Number(nth[2]);
    return (day) => day.getUTCDay() === weekday && Math.ceil(day.getUTCDate() / 7) === n;
  }
  const last = /^(\w+)L$/.exec(field);
  if (last) {
    const weekday = dayNumber(last[1]);
    return (day) => day.getUTCDay() === weekday && day.getUTCDate() + 7 > lastDayOf(day);
  }
  const days = parseField(field, 1, 7, DAYS);
  return (day) => days.has(day.getUTCDay() + 1);
}

function dayNumber(text: string): number {
  const index = DAYS.indexOf(text);
  const value = index >= 0 ? index : Number(text) - 1;
  if (!Number.isInteger(value) || value < 0 || value > 6) throw new Error(`invalid day of week '${text}'`);
  return value;
}

/** One field: *, a, a-b, a/b, a-b/c, lists of those; names count from `min`. */
function parseField(field: string, min: number, max: number, names: readonly string[] = []): Set<number> {
  const values = new Set<number>();
  const number = (text: string) => {
    const named = names.indexOf(text);
    const value = named >= 0 ? named + min : Number(text);
    if (!Number.isInteger(value) || value < min || value > max) throw new Error(`value '${text}' out of range ${min}-${max}`);
    return value;
  };
  for (const part of field.split(',')) {
    const [range, stepText] = part.split('/');
    const step = stepText === undefined ? 1 : Number(stepText);
    if (!Number.isInteger(step) || step < 1) throw new Error(`invalid step in '${part}'`);
    let from: number;
    let to: number;
    if (range === '*' || range === '?') [from, to] = [min, max];
    else if (range.includes('-')) [from, to] = range.split('-').map(number) as [number, number];
    else [from, to] = [number(range), stepText === undefined ? number(range) : max];
    if (from > to) throw new Error(`invalid range '${range}'`);
    for (let value = from; value <= to; value += step) values.add(value);
  }
  return values;
}
