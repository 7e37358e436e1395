import type { CommandContext } from '../command/command-context.js';
import type { ExternalTask } from '../services/external-task/external-task.js';
import { historicRootOf } from './history-roots.js';
import { isHistoryEventProduced, type HistoryEventType } from './history-level.js';
import { queueHistoryWrite } from './queued-history.js';
import { insertRows } from '../persistence/combined-writes.js';

/** Camunda's ExternalTaskState: which event of an external task a log entry records. */
export const ExternalTaskLogState = { created: 0, failed: 1, successful: 2, deleted: 3 } as const;

/**
 * The historic external task log (Camunda's HistoricExternalTaskLogEntity), level full: one entry
 * when a task is created, fails (the worker's error message and details), is completed or is
 * deleted (a BPMN error, its instance cancelled). Entries are queued on the command: completing a
 * task is a worker's hot path, and its entry rides on the instance's history statement.
 */
export const ExternalTaskLog = {
  created: (ctx: CommandContext, task: ExternalTask) => log(ctx, task, 'external-task-create', ExternalTaskLogState.created),
  /** Returns the entry's id (null when the history level writes none): a failedExternalTask incident's history configuration. */
  failed: (ctx: CommandContext, task: ExternalTask) => log(ctx, task, 'external-task-fail', ExternalTaskLogState.failed),
  succeeded: (ctx: CommandContext, task: ExternalTask) => log(ctx, task, 'external-task-success', ExternalTaskLogState.successful),
  deleted: (ctx: CommandContext, task: ExternalTask) => log(ctx, task, 'external-task-delete', ExternalTaskLogState.deleted),
};

function log(ctx: CommandContext, task: ExternalTask, event: HistoryEventType, state: number): string | null {
  if (!isHistoryEventProduced(ctx.config.historyLevel, event)) return null;
  const failed = state === ExternalTaskLogState.failed;
  const row = {
    id: ctx.ids.next(),
    timestamp: ctx.clock.now().getTime(),
    ext_task_id: task.id,
    retries: task.retries,
    topic_name: task.topicName,
    worker_id: task.workerId,
    priority: task.priority,
    error_msg: failed ? task.errorMessage : null,
    error_details: failed ? task.errorDetails : null,
    activity_id: task.activityId,
    activity_inst_id: task.activityInstanceId,
    execution_id: task.executionId,
    proc_inst_id: task.processInstanceId,
    root_proc_inst_id: historicRootOf(task.processInstanceId),
    proc_def_id: task.processDefinitionId,
    proc_def_key: task.processDefinitionKey,
    tenant_id: task.tenantId,
    state,
    // The instance's, inherited (inheritedRemovalTime).
    removal_time: null,
  };
  queueHistoryWrite(ctx, insertRows('trellis_hi_ext_task_log', [row]));
  return row.id;
}
