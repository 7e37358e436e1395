/**
 * Where an error left the process: the activity of the step that threw it first (Camunda's
 * ProcessDataContext latest activity id, which a failed job keeps as its failedActivityId).
 */
const failedActivities = new WeakMap<object, string>();

/** Remembers `activityId` for `error` unless an inner step (a called instance's) did already. */
export function noteFailedActivity(error: unknown, activityId: string | null): void {
  if (activityId !== null && typeof error === 'object' && error !== null && !failedActivities.has(error)) failedActivities.set(error, activityId);
}

/** The activity noted for `error`, forgotten once read (an error object a delegate throws again belongs to its new failure). */
export function takeFailedActivity(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const activityId = failedActivities.get(error);
  failedActivities.delete(error);
  return activityId;
}
