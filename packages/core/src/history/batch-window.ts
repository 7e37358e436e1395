import type { HistoryCleanupConfig } from '../config.js';

/** One daily run of the history cleanup batch window: [start, end). */
export interface BatchWindow {
  start: Date;
  end: Date;
}

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

/** Parses "HH:mm" (Camunda's batch window format); anything else is a configuration error. */
export function parseWindowTime(name: string, value: string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  if (!HH_MM.test(value)) throw new Error(`historyCleanup.${name} must be a time "HH:mm", got '${value}'`);
  return value;
}

/** Whether the engine has a daily window (both ends set) in which cleanup runs by itself. */
export function isBatchWindowConfigured(config: HistoryCleanupConfig): boolean {
  return config.batchWindowStartTime !== null && config.batchWindowEndTime !== null;
}

/** The window that started on `day`'s date (local time); it ends the next day when its end is not after its start. */
function windowOn(day: Date, config: HistoryCleanupConfig, dayOffset: number): BatchWindow {
  const at = (time: string, extraDays: number) => {
    const [hours, minutes] = time.split(':').map(Number);
    const date = new Date(day.getFullYear(), day.getMonth(), day.getDate() + dayOffset + extraDays, hours, minutes, 0, 0);
    return date;
  };
  const start = at(config.batchWindowStartTime!, 0);
  let end = at(config.batchWindowEndTime!, 0);
  if (end.getTime() <= start.getTime()) end = at(config.batchWindowEndTime!, 1);
  return { start, end };
}

/** The window `date` lies in, else the next one to start; null without a configured window. */
export function currentOrNextBatchWindow(date: Date, config: HistoryCleanupConfig): BatchWindow | null {
  if (!isBatchWindowConfigured(config)) return null;
  for (const offset of [-1, 0, 1]) {
    const window = windowOn(date, config, offset);
    if (date.getTime() < window.end.getTime()) return window;
  }
  return windowOn(date, config, 2);
}

/** Whether `date` lies inside a configured batch window. */
export function isWithinBatchWindow(date: Date, config: HistoryCleanupConfig): boolean {
  const window = currentOrNextBatchWindow(date, config);
  return window !== null && window.start.getTime() <= date.getTime() && date.getTime() < window.end.getTime();
}

/** The start of the next window that begins after `date`; null without a configured window. */
export function nextBatchWindowStart(date: Date, config: HistoryCleanupConfig): Date | null {
  if (!isBatchWindowConfigured(config)) return null;
  for (const offset of [0, 1, 2]) {
    const window = windowOn(date, config, offset);
    if (window.start.getTime() > date.getTime()) return window.start;
  }
  return null;
}
