/** A time to live as Camunda's configuration takes it: days as a number, `"5"` or `"P5D"`. */
export type TimeToLiveSetting = number | string;

/** Days from a setting (Camunda's ParseUtil.parseHistoryTimeToLive); null stays null. */
export function parseTimeToLive(name: string, value: TimeToLiveSetting | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const text = String(value).trim();
  const match = /^(?:P(\d+)D|(\d+))$/.exec(text);
  if (!match) throw new Error(`${name} must be a whole number of days >= 0 or an ISO period like P5D, got ${JSON.stringify(value)}`);
  return Number(match[1] ?? match[2]);
}

/** Each batch type's own time to live (Camunda's batchOperationsForHistoryCleanup), in days. */
export function parseBatchTimeToLiveMap(value: Record<string, TimeToLiveSetting> | null | undefined): Record<string, number> {
  const days: Record<string, number> = {};
  for (const [type, setting] of Object.entries(value ?? {})) days[type] = parseTimeToLive(`batchOperationsForHistoryCleanup.${type}`, setting)!;
  return days;
}
