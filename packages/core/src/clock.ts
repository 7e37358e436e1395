/** The engine's one source of time, injectable so tests move it instead of sleeping. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock that stands still until a test sets or advances it. */
export class FixedClock implements Clock {
  private current: number;

  constructor(start: Date | number = Date.now()) {
    this.current = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  set(date: Date | number): void {
    this.current = typeof date === 'number' ? date : date.getTime();
  }

  advance(milliseconds: number): void {
    this.current += milliseconds;
  }
}
