/** The meters Trellis counts and reports to the meter log, by Camunda's internal names (management/Metrics.java). */
export const METER_NAMES = [
  'activity-instance-start',
  'activity-instance-end',
  'root-process-instance-start',
  'job-acquisition-attempt',
  'job-acquired-success',
  'job-acquired-failure',
  'job-successful',
  'job-failed',
  'job-locked-exclusive',
  'job-execution-rejected',
  'executed-decision-instances',
  'executed-decision-elements',
] as const;
export type MeterName = (typeof METER_NAMES)[number];

/** Unique task workers are not a meter: they are counted from the task meter log. */
export const UNIQUE_TASK_WORKERS = 'unique-task-workers';
export const TASK_USERS = 'task-users';

// Camunda: MetricsUtil.resolveInternalName / resolvePublicName.
const PUBLIC_BY_INTERNAL: Record<string, string> = {
  'unique-task-workers': 'task-users',
  'root-process-instance-start': 'process-instances',
  'executed-decision-instances': 'decision-instances',
  'activity-instance-start': 'flow-node-instances',
};
const INTERNAL_BY_PUBLIC = Object.fromEntries(Object.entries(PUBLIC_BY_INTERNAL).map(([internal, alias]) => [alias, internal]));

/** The stored name of a metric given by its public alias (process-instances → root-process-instance-start); others as given. */
export function internalMetricName(name: string): string {
  return INTERNAL_BY_PUBLIC[name] ?? name;
}

/** The public alias a stored metric is reported under (activity-instance-start → flow-node-instances); others as stored. */
export function publicMetricName(name: string): string {
  return PUBLIC_BY_INTERNAL[name] ?? name;
}
