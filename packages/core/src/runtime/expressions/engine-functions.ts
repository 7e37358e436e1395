import type { CommandContext } from '../../command/command-context.js';

/** Joda's DateTime as `dateTime()` hands it to expressions (`${dateTime().plusDays(1).toDate()}`): shifts by whole units. */
export class ExpressionDateTime {
  constructor(readonly date: Date) {}
  private shifted(unit: 'ms' | 'month', amount: number): ExpressionDateTime {
    const date = new Date(this.date);
    if (unit === 'month') date.setUTCMonth(date.getUTCMonth() + amount);
    else date.setTime(date.getTime() + amount);
    return new ExpressionDateTime(date);
  }
  plusSeconds = (n: number) => this.shifted('ms', n * 1_000);
  minusSeconds = (n: number) => this.shifted('ms', -n * 1_000);
  plusMinutes = (n: number) => this.shifted('ms', n * 60_000);
  minusMinutes = (n: number) => this.shifted('ms', -n * 60_000);
  plusHours = (n: number) => this.shifted('ms', n * 3_600_000);
  minusHours = (n: number) => this.shifted('ms', -n * 3_600_000);
  plusDays = (n: number) => this.shifted('ms', n * 86_400_000);
  minusDays = (n: number) => this.shifted('ms', -n * 86_400_000);
  plusWeeks = (n: number) => this.shifted('ms', n * 604_800_000);
  minusWeeks = (n: number) => this.shifted('ms', -n * 604_800_000);
  plusMonths = (n: number) => this.shifted('month', n);
  minusMonths = (n: number) => this.shifted('month', -n);
  plusYears = (n: number) => this.shifted('month', n * 12);
  minusYears = (n: number) => this.shifted('month', -n * 12);
  toDate = () => this.date;
}

/**
 * The functions Camunda's expression manager gives every expression, in process models and stored
 * task queries alike (ProcessEngineConfigurationImpl.initExpressionManager: DateTimeFunctions and
 * CommandContextFunctions): the clock's `now()` and `dateTime()`, the caller's `currentUser()` and
 * `currentUserGroups()` (null and empty without an authentication).
 */
export function engineFunctions(ctx: CommandContext): Readonly<Record<string, unknown>> {
  return {
    currentUser: () => ctx.authentication?.userId ?? null,
    currentUserGroups: () => [...(ctx.authentication?.groupIds ?? [])],
    now: () => ctx.clock.now(),
    dateTime: () => new ExpressionDateTime(ctx.clock.now()),
  };
}
