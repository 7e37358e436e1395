/** How much the engine writes to history (Camunda's history levels). */
export type HistoryLevel = 'none' | 'activity' | 'audit' | 'full';

export const HISTORY_LEVELS: readonly HistoryLevel[] = ['none', 'activity', 'audit', 'full'];

/** The history events the engine produces (Camunda's HistoryEventTypes, `<entity>-<event>`). */
export type HistoryEventType =
  | 'process-instance-start' | 'process-instance-update' | 'process-instance-migrate' | 'process-instance-end'
  | 'activity-instance-start' | 'activity-instance-update' | 'activity-instance-migrate' | 'activity-instance-end'
  | 'task-instance-create' | 'task-instance-update' | 'task-instance-migrate' | 'task-instance-complete' | 'task-instance-delete'
  | 'variable-instance-create' | 'variable-instance-update' | 'variable-instance-migrate' | 'variable-instance-delete'
  | 'form-property-update' | 'incident-create' | 'incident-resolve' | 'incident-delete' | 'incident-migrate'
  | 'job-create' | 'job-fail' | 'job-success' | 'job-delete'
  | 'external-task-create' | 'external-task-fail' | 'external-task-success' | 'external-task-delete'
  | 'identity-link-add' | 'identity-link-delete' | 'user-operation-log' | 'batch-start' | 'batch-end';

// Camunda: HistoryLevelActivity — instances of processes, activities and tasks, nothing about their data.
const ACTIVITY_EVENTS = new Set<HistoryEventType>([
  'process-instance-start', 'process-instance-update', 'process-instance-migrate', 'process-instance-end',
  'activity-instance-start', 'activity-instance-update', 'activity-instance-migrate', 'activity-instance-end',
  'task-instance-create', 'task-instance-update', 'task-instance-migrate', 'task-instance-complete', 'task-instance-delete',
]);
// Camunda: HistoryLevelAudit — the activity level plus the variable instances (their latest values).
const AUDIT_EVENTS = new Set<HistoryEventType>([
  ...ACTIVITY_EVENTS, 'variable-instance-create', 'variable-instance-update', 'variable-instance-migrate', 'variable-instance-delete',
]);

/** Whether an engine at `level` writes the history event `type` (Camunda's HistoryLevel.isHistoryEventProduced). */
export function isHistoryEventProduced(level: HistoryLevel, type: HistoryEventType): boolean {
  switch (level) {
    case 'none':
      return false;
    case 'activity':
      return ACTIVITY_EVENTS.has(type);
    case 'audit':
      return AUDIT_EVENTS.has(type);
    case 'full':
      return true;
  }
}

/** The configured level, validated when the engine starts; default full (Camunda Run's). */
export function resolveHistoryLevel(level: unknown): HistoryLevel {
  if (level === undefined || level === null) return 'full';
  if (typeof level === 'string' && (HISTORY_LEVELS as readonly string[]).includes(level.toLowerCase())) return level.toLowerCase() as HistoryLevel;
  throw new Error(`historyLevel must be one of ${HISTORY_LEVELS.join(', ')}, got ${JSON.stringify(level)}`);
}
