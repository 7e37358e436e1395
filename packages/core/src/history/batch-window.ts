import type { HistoryCleanupConfig } from '../config.js';

/** One run of the history cleanup batch window: [start, end). */
export interface BatchWindow {
  start: Date;
  end: Date;
}

/** The days of the week, as Date.getDay() numbers them (Sunday 0). */
export const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

/** A window's times of day, "HH:mm". */
export interface BatchWindowTimes {
  startTime: string;
  endTime: string;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses "HH:mm" (Camunda's batch window format); anything else is a configuration error. */
export function parseWindowTime(name: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!HH_MM.test(value)) throw new Error(`historyCleanup.${name} must be a time "HH:mm", got '${value}'`);
  return value;
}

/**
 * Whether cleanup runs by itself in a window (Camunda's DefaultBatchWindowManager): the daily one,
 * or one of a weekday.
 */
export function isBatchWindowConfigured(config: HistoryCleanupConfig): boolean {
  return config.batchWindowStartTime !== null || Object.keys(config.batchWindows).length > 0;
}

/**
 * The window that starts on `day`'s date (local time): the weekday's own, else the daily one; it
 * ends the next day when its end is not after its start. Null when that day has none.
 */
function windowOn(day: Date, config: HistoryCleanupConfig, dayOffset: number): BatchWindow | null {
  const date = new Date(day.getFullYear(), day.getMonth(), day.getDate() + dayOffset);
  const times = config.batchWindows[WEEKDAYS[date.getDay()]!]
    ?? (config.batchWindowStartTime !== null && config.batchWindowEndTime !== null ? { startTime: config.batchWindowStartTime, endTime: config.batchWindowEndTime } : null);
  if (!times) return null;
  const at = (time: string, extraDays: number) => {
    const [hours, minutes] = time.split(':').map(Number);
    return new Date(date.getFullYear(), date.getMonth(), date.getDate() + extraDays, hours, minutes, 0, 0);
  };
  const start = at(times.startTime, 0);
  let end = at(times.endTime, 0);
  if (end.getTime() <= start.getTime()) end = at(times.endTime, 1);
  return { start, end };
}

const contains = (window: BatchWindow | null, date: Date) => window !== null && window.start.getTime() <= date.getTime() && date.getTime() < window.end.getTime();

/** The window `date` lies in (yesterday's or today's), else the next one to start within a week; null without one. */
export function currentOrNextBatchWindow(date: Date, config: HistoryCleanupConfig): BatchWindow | null {
  if (!isBatchWindowConfigured(config)) return null;
  const yesterday = windowOn(date, config, -1);
  if (contains(yesterday, date)) return yesterday;
  const today = windowOn(date, config, 0);
  if (today && (contains(today, date) || date.getTime() < today.start.getTime())) return today;
  return nextWindowFrom(date, config, 1);
}

/** Whether `date` lies inside a configured batch window. */
export function isWithinBatchWindow(date: Date, config: HistoryCleanupConfig): boolean {
  return contains(currentOrNextBatchWindow(date, config), date);
}

/** The start of the next window that begins after `date` (today's, else within a week); null without one. */
export function nextBatchWindowStart(date: Date, config: HistoryCleanupConfig): Date | null {
  if (!isBatchWindowConfigured(config)) return null;
  const today = windowOn(date, config, 0);
  if (today && date.getTime() < today.start.getTime()) return today.start;
  return nextWindowFrom(date, config, 1)?.start ?? null;
}

/** The first window of the days from `firstOffset` on, a week ahead at most. */
function nextWindowFrom(date: Date, config: HistoryCleanupConfig, firstOffset: number): BatchWindow | null {
  for (let offset = firstOffset; offset <= 7; offset++) {
    const window = windowOn(date, config, offset);
    if (window) return window;
  }
  return null;
}
