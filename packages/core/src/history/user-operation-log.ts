import { sql, type RawBuilder } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import { historicRootOf } from './history-roots.js';
import { isHistoryEventProduced } from './history-level.js';
import { queueHistoryWrite } from './queued-history.js';

/** Camunda's UserOperationLogEntry.CATEGORY_* values. */
export const OperationLogCategory = { admin: 'Admin', operator: 'Operator', taskWorker: 'TaskWorker' } as const;
export type OperationLogCategoryName = (typeof OperationLogCategory)[keyof typeof OperationLogCategory];

/** The entity types an entry names (Camunda's EntityTypes). */
export type OperationLogEntityType =
  | 'ProcessInstance' | 'ProcessDefinition' | 'Job' | 'JobDefinition' | 'Batch' | 'Deployment' | 'ExternalTask'
  | 'Incident' | 'OperationLog' | 'Task' | 'IdentityLink' | 'Variable' | 'Attachment'
  | 'User' | 'Group' | 'GroupMembership' | 'Tenant' | 'TenantMembership' | 'Authorization' | 'Filter' | 'TaskMetrics';

/** One changed property; values are written as text (Camunda's PropertyChange). */
export interface PropertyChange {
  property: string | null;
  orgValue?: unknown;
  newValue?: unknown;
}

/** What an operation touched: the reference fields restrict the affected entities (null: any). */
export interface OperationLogEntry {
  operationType: string;
  entityType: OperationLogEntityType;
  category: OperationLogCategoryName;
  /** One entry per change; none writes one entry without a property. */
  changes?: readonly PropertyChange[];
  deploymentId?: string | null;
  processDefinitionId?: string | null;
  processDefinitionKey?: string | null;
  processInstanceId?: string | null;
  executionId?: string | null;
  taskId?: string | null;
  jobId?: string | null;
  jobDefinitionId?: string | null;
  batchId?: string | null;
  externalTaskId?: string | null;
  tenantId?: string | null;
  annotation?: string | null;
}

const PREVENTED = Symbol('trellis.userOperationLogPrevented');
const OPERATION_ID = Symbol('trellis.userOperationId');
/** Orders entries of equal timestamp in the order this engine wrote them. */
let sequence = 0;

/**
 * The user operation log (Camunda's UserOperationLogManager): written at history level full, and
 * only for commands an authenticated user runs (Camunda's default of logging only with a logged-in
 * user), in the command's transaction. Rows are queued and reach the store with the command's
 * other history.
 */
export const UserOperationLog = {
  /** Whether this command writes the log at all (Camunda's isUserOperationLogEnabled). */
  enabled(ctx: CommandContext): boolean {
    return isHistoryEventProduced(ctx.config.historyLevel, 'user-operation-log')
      && !!ctx.authentication?.userId
      && ctx.attachments.get(PREVENTED) !== true;
  },

  /**
   * The command's operation id (Camunda's CommandContext.getOperationId): one for all the entries a
   * command logs and the variable details it writes; null when it logs nothing.
   */
  operationId(ctx: CommandContext): string | null {
    if (!UserOperationLog.enabled(ctx)) return null;
    let id = ctx.attachments.get(OPERATION_ID) as string | undefined;
    if (id === undefined) {
      id = ctx.ids.next();
      ctx.attachments.set(OPERATION_ID, id);
    }
    return id;
  },

  /** Writes one operation (one row per property change, the command's operation id); returns that id, or null when nothing was written. */
  write(ctx: CommandContext, entry: OperationLogEntry): string | null {
    const operationId = UserOperationLog.operationId(ctx);
    if (operationId === null) return null;
    const timestamp = ctx.clock.now().getTime();
    const changes = entry.changes && entry.changes.length > 0 ? entry.changes : [{ property: null }];
    const definitionId = entry.processDefinitionId ?? (entry.processInstanceId ? definitionOfInstance(entry.processInstanceId) : null);
    const rows = changes.map((change) => ({
      id: ctx.ids.next(),
      deployment_id: entry.deploymentId ?? (definitionId ? fromDefinition(definitionId, 'deployment_id') : null),
      proc_def_id: definitionId,
      proc_def_key: entry.processDefinitionKey ?? (definitionId ? fromDefinition(definitionId, 'key') : null),
      root_proc_inst_id: historicRootOf(entry.processInstanceId ?? null),
      proc_inst_id: entry.processInstanceId ?? null,
      execution_id: entry.executionId ?? null,
      case_def_id: null,
      case_inst_id: null,
      case_execution_id: null,
      task_id: entry.taskId ?? null,
      job_id: entry.jobId ?? null,
      job_def_id: entry.jobDefinitionId ?? null,
      batch_id: entry.batchId ?? null,
      external_task_id: entry.externalTaskId ?? null,
      user_id: ctx.authentication!.userId,
      timestamp,
      operation_type: entry.operationType,
      operation_id: operationId,
      entity_type: entry.entityType,
      property: change.property,
      org_value: asText(change.orgValue),
      new_value: asText(change.newValue),
      // An entry on a definition or an instance carries its tenant (the tenant check reads it).
      tenant_id: entry.tenantId !== undefined ? entry.tenantId : definitionId ? fromDefinition(definitionId, 'tenant_id') : null,
      // An entry on an instance inherits its root's removal time (inheritedRemovalTime).
      removal_time: null,
      category: entry.category,
      annotation: entry.annotation ?? null,
      sequence_counter: ++sequence,
    }));
    queueHistoryWrite(ctx, (db) => db.insertInto('trellis_hi_op_log').values(rows));
    return operationId;
  },

  /** Runs `work` without logging (Camunda's executeWithOperationLogPrevented, e.g. inside a batch job). */
  async prevented<T>(ctx: CommandContext, work: () => Promise<T>): Promise<T> {
    const before = ctx.attachments.get(PREVENTED);
    ctx.attachments.set(PREVENTED, true);
    try {
      return await work();
    } finally {
      ctx.attachments.set(PREVENTED, before);
    }
  },
};

/** A running instance's definition, read inside the insert (an entry on an instance carries its definition, as Camunda's inContextOf). */
function definitionOfInstance(processInstanceId: string): RawBuilder<string | null> {
  return sql<string | null>`(select e.proc_def_id from trellis_execution e where e.id = ${processInstanceId})`;
}

function fromDefinition(definitionId: string | RawBuilder<string | null>, column: 'deployment_id' | 'key' | 'tenant_id'): RawBuilder<string | null> {
  return sql<string | null>`(select d.${sql.ref(column)} from trellis_process_definition d where d.id = ${definitionId})`;
}

/** Camunda writes property values with toString(); dates as epoch milliseconds. */
function asText(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return String(value.getTime());
  return String(value);
}
