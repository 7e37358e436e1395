import type { CommandContext } from '../command/command-context.js';
import type { Authorization } from '../authorization/authorization.js';
import { namesFromBits } from '../authorization/permission-converter.js';
import { resourceByCode } from '../authorization/resources.js';
import { OperationLogCategory, UserOperationLog, type PropertyChange } from './user-operation-log.js';

const { admin, operator, taskWorker } = OperationLogCategory;

/** The definition side of an entry; the writer fills key and deployment from the id when absent. */
interface DefinitionRef {
  processDefinitionId?: string | null;
  processDefinitionKey?: string | null;
  deploymentId?: string | null;
  tenantId?: string | null;
}

interface JobRef extends DefinitionRef {
  id?: string | null;
  jobDefinitionId?: string | null;
  processInstanceId?: string | null;
}

interface TaskRef {
  id: string;
  processInstanceId: string | null;
  executionId: string | null;
  processDefinitionId: string | null;
  tenantId: string | null;
  assignee: string | null;
  owner: string | null;
  priority: number;
  delegationState?: string | null;
  parentTaskId?: string | null;
  name?: string | null;
  description?: string | null;
  due?: Date | null;
  followUp?: Date | null;
}

/** The task properties Camunda's TaskEntity tracks, as its PropertyChange names them (dates as epoch millis). */
interface TaskProperties {
  assignee?: string | null;
  owner?: string | null;
  delegation?: string | null;
  priority?: number;
  name?: string | null;
  description?: string | null;
  dueDate?: number | null;
  followUpDate?: number | null;
  parentTask?: string | null;
}

const suspensionState = (suspended: boolean): PropertyChange => ({ property: 'suspensionState', newValue: suspended ? 'suspended' : 'active' });

/** Where an entry about a task points: the task and its execution, instance, definition and tenant. */
const onTask = (task: TaskRef) => ({
  taskId: task.id,
  processInstanceId: task.processInstanceId,
  executionId: task.executionId,
  processDefinitionId: task.processDefinitionId,
  tenantId: task.tenantId,
});

/**
 * The user operation log entries of the engine's operations, by Camunda's names, entity types and
 * categories (UserOperationLogManager's log* methods and the commands' property changes). Each is
 * one call from the service that made the change.
 */
/** A process definition as its entries name it. */
interface DefinitionEntity {
  id: string;
  key: string;
  deploymentId: string;
  tenantId: string | null;
}

/** Camunda's logProcessDefinitionOperation: one change, in the context of the definition (its deployment and tenant). */
function definitionEntry(ctx: CommandContext, operationType: string, definition: DefinitionEntity, change: PropertyChange): void {
  UserOperationLog.write(ctx, {
    operationType,
    entityType: 'ProcessDefinition',
    category: operator,
    processDefinitionId: definition.id,
    processDefinitionKey: definition.key,
    deploymentId: definition.deploymentId,
    tenantId: definition.tenantId,
    changes: [change],
  });
}

/** The user operation a variable change is logged as (Camunda's SetVariable, RemoveVariable, ModifyVariable). */
export type VariableOperation = 'SetVariable' | 'RemoveVariable' | 'ModifyVariable';

export const OperationLogEntries = {
  /** Camunda's AbstractMigrationCmd: one Migrate entry on the source definition. */
  migrated(ctx: CommandContext, source: DefinitionRef & { processDefinitionId: string }, targetId: string, instances: number, variables: object | null | undefined, async: boolean): void {
    const changes: PropertyChange[] = [
      { property: 'processDefinitionId', orgValue: source.processDefinitionId, newValue: targetId },
      { property: 'nrOfInstances', newValue: instances },
    ];
    if (variables) changes.push({ property: 'nrOfSetVariables', newValue: Object.keys(variables).length });
    changes.push({ property: 'async', newValue: async });
    OperationLogEntries.processInstance(ctx, 'Migrate', { ...source, processInstanceId: null }, changes);
  },

  /** An operation on one process instance, or on the instances of a definition (Camunda's logProcessInstanceOperation). */
  processInstance(ctx: CommandContext, operationType: string, target: DefinitionRef & { processInstanceId?: string | null }, changes: readonly PropertyChange[] = [], annotation?: string | null): void {
    UserOperationLog.write(ctx, { operationType, entityType: 'ProcessInstance', category: operator, ...target, changes, annotation });
  },

  processInstanceSuspension(ctx: CommandContext, target: DefinitionRef & { processInstanceId?: string | null }, suspended: boolean): void {
    OperationLogEntries.processInstance(ctx, suspended ? 'Suspend' : 'Activate', target, [suspensionState(suspended)]);
  },

  /** Camunda's AbstractSetProcessDefinitionStateCmd: by id or by key, with includeProcessInstances. */
  processDefinitionSuspension(ctx: CommandContext, target: DefinitionRef, suspended: boolean, includeProcessInstances: boolean): void {
    UserOperationLog.write(ctx, {
      operationType: suspended ? 'SuspendProcessDefinition' : 'ActivateProcessDefinition',
      entityType: 'ProcessDefinition',
      category: operator,
      ...target,
      changes: [suspensionState(suspended), { property: 'includeProcessInstances', newValue: includeProcessInstances }],
    });
  },

  /** Camunda's UpdateProcessDefinitionHistoryTimeToLiveCmd. */
  historyTimeToLiveUpdated(ctx: CommandContext, definition: DefinitionEntity & { historyTimeToLive: number | null }, historyTimeToLive: number | null): void {
    definitionEntry(ctx, 'UpdateHistoryTimeToLive', definition, { property: 'historyTimeToLive', orgValue: definition.historyTimeToLive, newValue: historyTimeToLive });
  },

  /** Camunda's DeleteProcessDefinitionsCmd: one Delete per definition, with its cascade flag. */
  processDefinitionDeleted(ctx: CommandContext, definition: DefinitionEntity, cascade: boolean): void {
    definitionEntry(ctx, 'Delete', definition, { property: 'cascade', orgValue: false, newValue: cascade });
  },

  /** Camunda's logJobOperation: one job, or the jobs one criterion selects (the job's context fills the rest). */
  job(ctx: CommandContext, operationType: string, job: JobRef, changes: readonly PropertyChange[]): void {
    UserOperationLog.write(ctx, {
      operationType,
      entityType: 'Job',
      category: operator,
      jobId: job.id,
      jobDefinitionId: job.jobDefinitionId,
      processInstanceId: job.processInstanceId,
      processDefinitionId: job.processDefinitionId,
      processDefinitionKey: job.processDefinitionKey,
      deploymentId: job.deploymentId,
      tenantId: job.tenantId,
      changes,
    });
  },

  jobSuspension(ctx: CommandContext, selector: JobRef, suspended: boolean): void {
    OperationLogEntries.job(ctx, suspended ? 'SuspendJob' : 'ActivateJob', selector, [suspensionState(suspended)]);
  },

  /** Camunda's logJobDefinitionOperation. */
  jobDefinition(ctx: CommandContext, operationType: string, target: DefinitionRef & { jobDefinitionId?: string | null }, changes: readonly PropertyChange[]): void {
    UserOperationLog.write(ctx, { operationType, entityType: 'JobDefinition', category: operator, ...target, changes });
  },

  jobDefinitionSuspension(ctx: CommandContext, target: DefinitionRef & { jobDefinitionId?: string | null }, suspended: boolean): void {
    OperationLogEntries.jobDefinition(ctx, suspended ? 'SuspendJobDefinition' : 'ActivateJobDefinition', target, [suspensionState(suspended)]);
  },

  /** Camunda's logExternalTaskOperation (a null task: an operation on many). */
  externalTask(ctx: CommandContext, operationType: string, task: (DefinitionRef & { id: string; processInstanceId: string | null }) | null, changes: readonly PropertyChange[]): void {
    const context = task
      ? { externalTaskId: task.id, processInstanceId: task.processInstanceId, processDefinitionId: task.processDefinitionId, processDefinitionKey: task.processDefinitionKey, tenantId: task.tenantId }
      : {};
    UserOperationLog.write(ctx, { operationType, entityType: 'ExternalTask', category: operator, ...context, changes });
  },

  /** Camunda's logDeploymentOperation (Create with duplicate filtering, Delete with cascade). */
  deployment(ctx: CommandContext, operationType: 'Create' | 'Delete', deploymentId: string, tenantId: string | null, changes: readonly PropertyChange[]): void {
    UserOperationLog.write(ctx, { operationType, entityType: 'Deployment', category: operator, deploymentId, tenantId, changes });
  },

  /** Camunda's logBatchOperation: a batch-creating operation names no batch; suspension and deletion name theirs. */
  batch(ctx: CommandContext, operationType: string, batchId: string | null, tenantId: string | null, changes: readonly PropertyChange[]): void {
    UserOperationLog.write(ctx, { operationType, entityType: 'Batch', category: operator, batchId, tenantId, changes });
  },

  /** Camunda's logSetIncidentAnnotationOperation / logClearIncidentAnnotationOperation. */
  incidentAnnotation(ctx: CommandContext, incidentId: string, tenantId: string | null, annotation: string | null): void {
    UserOperationLog.write(ctx, {
      operationType: annotation === null ? 'ClearAnnotation' : 'SetAnnotation',
      entityType: 'Incident',
      category: operator,
      tenantId,
      changes: [{ property: 'incidentId', newValue: incidentId }],
    });
  },

  /** Camunda's TaskEntity property tracking: an entry per property the operation really changes; none changed, none written. */
  taskChanged(ctx: CommandContext, operationType: string, task: TaskRef, after: TaskProperties): void {
    const before: Record<string, unknown> = {
      assignee: task.assignee,
      owner: task.owner,
      delegation: task.delegationState ?? null,
      priority: task.priority,
      name: task.name ?? null,
      description: task.description ?? null,
      dueDate: task.due?.getTime() ?? null,
      followUpDate: task.followUp?.getTime() ?? null,
      parentTask: task.parentTaskId ?? null,
    };
    const changes: PropertyChange[] = Object.entries(after)
      .filter(([property, value]) => value !== undefined && value !== before[property])
      .map(([property, newValue]) => ({ property, orgValue: before[property], newValue }));
    // Camunda's entry builder: a task created without a property set still gets one (empty) entry.
    if (changes.length === 0 && operationType === 'Create') changes.push({ property: null });
    if (changes.length > 0) OperationLogEntries.task(ctx, operationType, task, changes);
  },

  /**
   * Camunda's logVariableOperation, named by the service call (`operation`: setVariable, removeVariable,
   * updateVariables), or else by the change: RemoveVariable for removals only, SetVariable for one value
   * set, ModifyVariable otherwise; on a task by a task worker.
   */
  variablesChanged(
    ctx: CommandContext,
    target: { processInstanceId: string; processDefinitionId?: string | null } | { task: TaskRef },
    modifications: object,
    deletions: readonly string[],
    operation?: VariableOperation,
  ): void {
    const set = Object.keys(modifications).length;
    const operationType = operation ?? (set === 0 ? 'RemoveVariable' : set === 1 && deletions.length === 0 ? 'SetVariable' : 'ModifyVariable');
    const context = 'task' in target
      ? { category: taskWorker, ...onTask(target.task) }
      : { category: operator, processInstanceId: target.processInstanceId, processDefinitionId: target.processDefinitionId };
    UserOperationLog.write(ctx, { operationType, entityType: 'Variable', ...context });
  },

  /**
   * Camunda's logHistoricVariableOperation (DeleteHistory of entity Variable): one historic variable
   * (its name as the change) or all of a historic process instance (no change).
   */
  historicVariablesDeleted(
    ctx: CommandContext,
    target: { processInstanceId: string | null; processDefinitionId: string | null; executionId?: string | null; taskId?: string | null; tenantId: string | null },
    name: string | null,
  ): void {
    UserOperationLog.write(ctx, {
      operationType: 'DeleteHistory',
      entityType: 'Variable',
      category: operator,
      processInstanceId: target.processInstanceId,
      processDefinitionId: target.processDefinitionId,
      executionId: target.executionId ?? null,
      taskId: target.taskId ?? null,
      tenantId: target.tenantId,
      changes: name === null ? [] : [{ property: 'name', newValue: name }],
    });
  },

  /**
   * Camunda's logLinkOperation: AddUserLink / DeleteGroupLink…, the link's type as property and its
   * user or group as the new value — also when the link is deleted (Delete…IdentityLinkCmd logs
   * `new PropertyChange(type, null, id)`).
   */
  identityLink(ctx: CommandContext, task: TaskRef, type: string | null, userId: string | null, groupId: string | null, add: boolean): void {
    const who = userId ?? groupId;
    UserOperationLog.write(ctx, {
      operationType: `${add ? 'Add' : 'Delete'}${userId !== null ? 'User' : 'Group'}Link`,
      entityType: 'IdentityLink',
      category: taskWorker,
      ...onTask(task),
      changes: [{ property: type, newValue: who }],
    });
  },

  /** Camunda's logTaskOperations: a task worker's change of a task (one entry per changed property). */
  task(ctx: CommandContext, operationType: string, task: TaskRef, changes: readonly PropertyChange[]): void {
    UserOperationLog.write(ctx, {
      operationType,
      entityType: 'Task',
      category: taskWorker,
      ...onTask(task),
      changes,
    });
  },

  /** Camunda's logFilterOperation: Create / Update / Delete of a filter, by a task worker. */
  filter(ctx: CommandContext, operationType: 'Create' | 'Update' | 'Delete', filterId: string): void {
    UserOperationLog.write(ctx, { operationType, entityType: 'Filter', category: taskWorker, changes: [{ property: 'filterId', newValue: filterId }] });
  },

  /** Camunda's logAttachmentOperation on a task: AddAttachment / DeleteAttachment with the attachment's name. */
  attachment(ctx: CommandContext, operationType: 'AddAttachment' | 'DeleteAttachment', task: TaskRef, name: string | null): void {
    UserOperationLog.write(ctx, { operationType, entityType: 'Attachment', category: taskWorker, ...onTask(task), changes: [{ property: 'name', newValue: name }] });
  },

  /** Camunda's logUserOperation / logGroupOperation / logMembershipOperation: the administrator's identity changes. */
  identity(
    ctx: CommandContext,
    operationType: 'Create' | 'Update' | 'Delete' | 'Unlock',
    entityType: 'User' | 'Group' | 'GroupMembership' | 'Tenant' | 'TenantMembership',
    ids: { userId?: string; groupId?: string; tenantId?: string },
  ): void {
    const changes: PropertyChange[] = [];
    if (ids.userId !== undefined) changes.push({ property: 'userId', newValue: ids.userId });
    if (ids.groupId !== undefined) changes.push({ property: 'groupId', newValue: ids.groupId });
    if (ids.tenantId !== undefined) changes.push({ property: 'tenantId', newValue: ids.tenantId });
    UserOperationLog.write(ctx, { operationType, entityType, category: admin, changes });
  },

  /** Camunda's logAuthorizationOperation: the authorization's fields before (null: created) and after. */
  authorization(ctx: CommandContext, operationType: 'Create' | 'Update' | 'Delete', now: Authorization, before: Authorization | null): void {
    const permissions = (each: Authorization) => namesFromBits(each.type, each.permissions, each.resourceType).join(', ') || 'NONE';
    const resource = (each: Authorization) => resourceByCode(each.resourceType)?.name ?? null;
    const changes: PropertyChange[] = [
      { property: 'permissionBits', orgValue: before?.permissions, newValue: now.permissions },
      { property: 'permissions', orgValue: before && permissions(before), newValue: permissions(now) },
      { property: 'type', orgValue: before?.type, newValue: now.type },
      { property: 'resource', orgValue: before && resource(before), newValue: resource(now) },
      { property: 'resourceId', orgValue: before?.resourceId, newValue: now.resourceId },
    ];
    if (now.userId !== null || before?.userId) changes.push({ property: 'userId', orgValue: before?.userId, newValue: now.userId });
    if (now.groupId !== null || before?.groupId) changes.push({ property: 'groupId', orgValue: before?.groupId, newValue: now.groupId });
    UserOperationLog.write(ctx, { operationType, entityType: 'Authorization', category: admin, changes });
  },
};
