import { inject, injectable } from 'inversify';
import { sql, type SqlBool } from 'kysely';
import type { InstanceReadFilter } from '../../persistence/repositories/process-instance-repository.js';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException, NullValueException, ProcessEngineException, suspendedEntity } from '../../errors/exceptions.js';
import { openIncident } from '../../incidents/open-incident.js';
import { completeRun, openInstance, prefetchedInstance } from '../../runtime/open-instance.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import type { Execution } from '../../runtime/execution.js';
import type { ProcessRunner } from '../../runtime/process-runner.js';
import { fromStorage, type TypedValue } from '../../runtime/variables/index.js';
import { BpmnError } from '../../runtime/bpmn-error.js';
import type { VariableRow } from '../../persistence/repositories/variable-repository.js';
import { checkInstance } from '../../authorization/instance-checks.js';
import type { ExternalTask, ExternalTaskQuery, FetchAndLockRequest, FetchTopic, LockedExternalTask } from './external-task.js';
import { collectExternalTaskIds, isIdList, type ExternalTaskSelection } from './external-task-selection.js';
import { ExternalTaskLog } from '../../history/external-task-log.js';
import type { LockedTaskSnapshot } from '../../persistence/repositories/external-task-repository.js';
import { guardSnapshot, snapshotGuard } from '../../persistence/repositories/instance-snapshot.js';
import { IncidentHistory, IncidentState } from '../../history/incident-history.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/** Camunda's incident type for an external task whose retries ran out. */
export const FAILED_EXTERNAL_TASK_INCIDENT = 'failedExternalTask';
/** Camunda cuts a failure's error message to this length. */
const MAX_ERROR_MESSAGE = 666;
/** Snapshots of locked tasks an engine keeps at most (a few kilobytes each). */
const MAX_SNAPSHOTS = 2_000;

export interface ExternalTaskFailure {
  /** null: refused with `workerId is null` (Camunda checks for null only; '' is a worker id). */
  workerId: string | null;
  errorMessage?: string | null;
  errorDetails?: string | null;
  retries: number;
  retryTimeout: number;
  variables?: Record<string, TypedValue>;
  localVariables?: Record<string, TypedValue>;
}

/** Camunda's ExternalTaskEntity.ensureActive: a suspended task can be neither completed, failed nor extended. */
function ensureActive(task: ExternalTask): void {
  if (task.suspended) throw suspendedEntity('ExternalTask', task.id);
}

/** External tasks: fetch and lock, complete, fail, BPMN errors, locks, retries (Camunda's ExternalTaskService). */
@injectable()
export class ExternalTaskService {
  /**
   * PostgreSQL: the rows the fetches of this engine read with each task they locked, by task id, so
   * that completing the task reads nothing (the write then checks that they are unchanged, and the
   * command runs again on fresh rows where they are not). At most MAX_SNAPSHOTS, the oldest go first.
   */
  private readonly snapshots = new Map<string, LockedTaskSnapshot>();

  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  /**
   * Locks up to maxTasks tasks of the topics for the worker and returns them with their variables.
   * Validation failures are engine errors (REST answers them with 500, as Camunda does).
   */
  fetchAndLock(request: FetchAndLockRequest): Promise<LockedExternalTask[]> {
    return this.commands.run('FetchExternalTasksCmd', async (ctx) => {
      const workerId = request.workerId;
      if (workerId == null) throw new NullValueException('workerId is null');
      if (!(request.maxTasks >= 0)) throw new ProcessEngineException('maxResults is not greater than or equal to 0');
      for (const topic of request.topics) {
        if (topic.topicName == null) throw new NullValueException('topicName is null');
        if (!(topic.lockDuration > 0)) throw new ProcessEngineException('lockTime is not greater than 0');
      }
      // Camunda's topic builder keeps one instruction per topic name, the last one given.
      const topics = new Map(request.topics.map((topic) => [topic.topicName!, ctx.tenantCheck.query(topic)]));
      if (topics.size === 0) return [];
      const readable = await lockableTasks(ctx);
      const now = ctx.clock.now();
      const createTime = request.sorting?.find((sorting) => sorting.sortBy === 'createTime')?.sortOrder;
      const order = { usePriority: request.usePriority ?? false, createTime };
      // Camunda's FetchExternalTasksCmd: one query over all topics, so that priority and create time
      // order the tasks across them and maxTasks limits them all.
      if (ctx.dialect.name === 'postgres') {
        // Pick and lock in one statement, the command's only write (the payloads are reads).
        const { tasks, snapshots } = await ctx.externalTasks.lockFetchable([...topics.values()], now, request.maxTasks, order, readable, workerId);
        // The statement read every instance's variables, unless one's were too large to read there.
        const read = [...topics.values()].some(wantsVariables) && snapshots.length === tasks.length;
        ctx.afterCommit(() => this.keepSnapshots(snapshots));
        return this.withPayloads(ctx, tasks, topics, read ? ctx.variables.adopt(instanceVariables(snapshots)) : undefined);
      }
      const locked: ExternalTask[] = [];
      for (const task of await ctx.externalTasks.fetchable([...topics.values()], now, request.maxTasks, order, readable)) {
        const updated: ExternalTask = { ...task, workerId, lockExpirationTime: new Date(now.getTime() + topics.get(task.topicName)!.lockDuration) };
        await ctx.externalTasks.update(updated);
        locked.push(updated);
      }
      return this.withPayloads(ctx, locked, topics);
    });
  }

  async complete(id: string, workerId: string | null, variables: Record<string, TypedValue> = {}, localVariables: Record<string, TypedValue> = {}): Promise<void> {
    // Within another command (a delegate completing a task) the fetch's rows are not used: a stale one
    // would fail the caller's transaction, which could not run the command again.
    const snapshot = this.commands.inCommand() ? null : (this.snapshots.get(id) ?? null);
    this.snapshots.delete(id);
    try {
      await this.completeWith(id, workerId, variables, localVariables, snapshot);
    } catch (error) {
      // Whatever failed on the fetch's rows (changed since, or an error they led to) is decided on fresh ones.
      if (snapshot === null) throw error;
      await this.completeWith(id, workerId, variables, localVariables, null);
    }
  }

  private completeWith(id: string, workerId: string | null, variables: Record<string, TypedValue>, localVariables: Record<string, TypedValue>, snapshot: LockedTaskSnapshot | null): Promise<void> {
    return this.commands.run('CompleteExternalTaskCmd', async (ctx) => {
      const task = await this.lockedBy(ctx, id, workerId, `External Task ${id} cannot be completed by worker '${workerId}`, true, true, snapshot);
      const runner = await this.openTaskInstance(ctx, task);
      const execution = runner.tree.executions.get(task.executionId)!;
      for (const [name, value] of Object.entries(variables)) runner.variables.setVisible(execution.id, name, value);
      for (const [name, value] of Object.entries(localVariables)) runner.variables.setLocal(execution.id, name, value);
      // Camunda's ExternalTaskEntity.complete: an error event definition that holds throws its error
      // instead, with the task's error message; the task is then deleted, not completed.
      const error = errorEventDefinitionHolding(runner, execution, task.activityId, false);
      if (error !== null) return this.throwBpmnError(ctx, runner, execution, task, error, task.errorMessage);
      // Queued before the instance moves on: its history statement carries the entry (no round trip of its own).
      ExternalTaskLog.succeeded(ctx, task);
      // Only a task without retries has a failedExternalTask incident to resolve.
      if (task.retries === 0) await this.removeIncident(ctx, task.id, IncidentState.resolved);
      runner.signal(execution);
      await completeRun(ctx, runner);
      // An instance that ended took its external tasks with it.
      if (!runner.ended) await ctx.externalTasks.delete(task);
    });
  }

  handleFailure(id: string, failure: ExternalTaskFailure): Promise<void> {
    return this.commands.run('HandleExternalTaskFailureCmd', async (ctx) => {
      // Camunda's HandleExternalTaskFailureCmd.validateInput: the worker id, then the numbers.
      if (failure.workerId == null) throw new NullValueException('workerId is null');
      if (failure.retries < 0) throw new ProcessEngineException('retries is not greater than or equal to 0');
      if (failure.retryTimeout < 0) throw new ProcessEngineException('retryDuration is not greater than or equal to 0');
      const task = await this.lockedBy(ctx, id, failure.workerId, `Failure of External Task ${id} cannot be reported by worker '${failure.workerId}`);
      const runner = await this.openTaskInstance(ctx, task);
      const execution = runner.tree.executions.get(task.executionId)!;
      for (const [name, value] of Object.entries(failure.variables ?? {})) runner.variables.setVisible(execution.id, name, value);
      for (const [name, value] of Object.entries(failure.localVariables ?? {})) runner.variables.setLocal(execution.id, name, value);
      const errorMessage = failure.errorMessage == null ? null : failure.errorMessage.slice(0, MAX_ERROR_MESSAGE);
      // An error event definition whose expression now holds turns the failure into that BPMN error.
      const error = errorEventDefinitionHolding(runner, execution, task.activityId, true);
      if (error !== null) return this.throwBpmnError(ctx, runner, execution, task, error, errorMessage);
      const failed: ExternalTask = {
        ...task,
        errorMessage,
        // Camunda's ExternalTaskEntity.failed keeps the details there are when none are given.
        errorDetails: failure.errorDetails ?? task.errorDetails ?? null,
        lockExpirationTime: new Date(ctx.clock.now().getTime() + failure.retryTimeout),
      };
      // Logged before the new retries are set: the entry carries the retries the task had (null before its first failure).
      const failureLogId = ExternalTaskLog.failed(ctx, failed);
      await this.applyRetries(ctx, failed, failure.retries, failureLogId);
      await completeRun(ctx, runner);
    });
  }

  handleBpmnError(id: string, workerId: string | null, errorCode: string | null, errorMessage: string | null = null, variables: Record<string, TypedValue> = {}): Promise<void> {
    return this.commands.run('HandleExternalTaskBpmnErrorCmd', async (ctx) => {
      if (workerId == null) throw new NullValueException('workerId is null');
      if (errorCode == null) throw new NullValueException('errorCode is null');
      const task = await this.lockedBy(ctx, id, workerId, `Bpmn error of External Task ${id} cannot be reported by worker '${workerId}`, true, true);
      const runner = await this.openTaskInstance(ctx, task);
      const execution = runner.tree.executions.get(task.executionId)!;
      for (const [name, value] of Object.entries(variables)) runner.variables.setVisible(execution.id, name, value);
      await this.throwBpmnError(ctx, runner, execution, task, errorCode, errorMessage);
    });
  }

  lock(id: string, workerId: string | null, lockDuration: number): Promise<void> {
    return this.commands.run('LockExternalTaskCmd', async (ctx) => {
      if (workerId == null) throw new NullValueException('workerId is null');
      if (!(lockDuration > 0)) throw new BadUserRequestException('lockDuration is not greater than 0');
      const task = await this.load(ctx, id);
      const now = ctx.clock.now();
      // Camunda's LockExternalTaskCmd: a lock expiring this very moment still holds.
      const lockedByOther = task.workerId !== null && task.workerId !== workerId && task.lockExpirationTime !== null && task.lockExpirationTime.getTime() >= now.getTime();
      if (lockedByOther) throw new BadUserRequestException(`External Task ${id} cannot be locked by worker '${workerId}'. It is locked by worker '${task.workerId}'.`);
      // Camunda's HandleExternalTaskCmd: the worker first, then the permission.
      await this.checkUpdate(ctx, task);
      await ctx.externalTasks.update({ ...task, workerId, lockExpirationTime: new Date(now.getTime() + lockDuration) });
    });
  }

  extendLock(id: string, workerId: string | null, newDuration: number): Promise<void> {
    return this.commands.run('ExtendLockOnExternalTaskCmd', async (ctx) => {
      // Camunda checks the duration in the command's constructor, before its worker id.
      if (!(newDuration > 0)) throw new BadUserRequestException('lockTime is not greater than 0');
      if (workerId == null) throw new NullValueException('workerId is null');
      const task = await this.lockedBy(ctx, id, workerId, `The lock of the External Task ${id} cannot be extended by worker '${workerId}'`, false);
      const now = ctx.clock.now();
      if (!task.lockExpirationTime || task.lockExpirationTime.getTime() < now.getTime()) {
        throw new BadUserRequestException(`Cannot extend a lock that expired: lockExpirationTime is not greater than or equal to ${now.getTime()}`);
      }
      ensureActive(task);
      await ctx.externalTasks.update({ ...task, lockExpirationTime: new Date(now.getTime() + newDuration) });
    });
  }

  unlock(id: string): Promise<void> {
    return this.commands.run('UnlockExternalTaskCmd', async (ctx) => {
      const task = await this.load(ctx, id);
      await this.checkUpdate(ctx, task);
      OperationLogEntries.externalTask(ctx, 'Unlock', task, []);
      await this.release(ctx, task);
    });
  }

  /** Unlocks a task and tells waiting fetches of its topic. */
  private async release(ctx: CommandContext, task: ExternalTask): Promise<void> {
    await ctx.externalTasks.update({ ...task, workerId: null, lockExpirationTime: null });
    ctx.emitAfterCommit('externalTask.available', { topicName: task.topicName });
  }

  /**
   * Gives back the locks of fetched tasks that never reached their worker (a waiting fetchAndLock
   * whose client left, or that a newer request of its worker replaced, while its fetch ran): each
   * task still held by the same lock is unlocked, and waiting fetches are told. Not a user
   * operation: no operation log entry. Tasks completed, unlocked or gone meanwhile are left alone.
   */
  unlockUndelivered(tasks: readonly ExternalTask[]): Promise<void> {
    return this.commands.run('UnlockExternalTaskCmd', async (ctx) => {
      for (const fetched of tasks) {
        this.snapshots.delete(fetched.id);
        const task = await ctx.externalTasks.findById(fetched.id);
        if (!task || task.workerId !== fetched.workerId || task.lockExpirationTime?.getTime() !== fetched.lockExpirationTime?.getTime()) continue;
        await this.checkUpdate(ctx, task);
        await this.release(ctx, task);
      }
    });
  }

  setRetries(id: string, retries: number): Promise<void> {
    return this.commands.run('SetExternalTaskRetriesCmd', async (ctx) => {
      if (retries < 0) throw new BadUserRequestException('The number of retries cannot be negative: retries is not greater than or equal to 0');
      const task = await this.load(ctx, id);
      await this.checkUpdate(ctx, task);
      OperationLogEntries.externalTask(ctx, 'SetExternalTaskRetries', task, [{ property: 'retries', orgValue: task.retries, newValue: retries }]);
      await this.applyRetries(ctx, task, retries);
    });
  }

  /** Sets retries on many tasks at once (PUT /external-task/retries): given ids, or a selection. */
  setRetriesFor(selection: readonly string[] | ExternalTaskSelection, retries: number): Promise<void> {
    return this.commands.run('SetExternalTasksRetriesCmd', async (ctx) => {
      // Camunda's SetExternalTasksRetriesCmd: an empty selection first; the retries per task (setRetriesIn).
      const ids = isIdList(selection) ? selection : await collectExternalTaskIds(ctx, selection);
      if (ids.length === 0) throw new BadUserRequestException('externalTaskIds is empty');
      OperationLogEntries.externalTask(ctx, 'SetExternalTaskRetries', null, [{ property: 'nrOfInstances', newValue: ids.length }, { property: 'async', newValue: false }, { property: 'retries', newValue: retries }]);
      for (const id of ids) await this.setRetriesIn(ctx, id, retries);
    });
  }

  /** One task's retries inside the caller's command (also the set-external-task-retries batch job). */
  async setRetriesIn(ctx: CommandContext, id: string, retries: number): Promise<void> {
    if (retries < 0) throw new BadUserRequestException('The number of retries cannot be negative: retries is not greater than or equal to 0');
    const task = await ctx.externalTasks.findById(id);
    if (!task) throw new NotFoundException(`Cannot find external task with id ${id}: externalTask is null`);
    await this.checkUpdate(ctx, task);
    await this.applyRetries(ctx, task, retries);
  }

  setPriority(id: string, priority: number): Promise<void> {
    return this.commands.run('SetExternalTaskPriorityCmd', async (ctx) => {
      const task = await this.load(ctx, id);
      await this.checkUpdate(ctx, task);
      OperationLogEntries.externalTask(ctx, 'SetPriority', task, [{ property: 'priority', orgValue: task.priority, newValue: priority }]);
      await ctx.externalTasks.update({ ...task, priority });
    });
  }

  findExternalTasks(query: ExternalTaskQuery = {}): Promise<ExternalTask[]> {
    return this.commands.run('ExternalTaskQuery', async (ctx) => ctx.externalTasks.find(ctx.tenantCheck.query(query), await readableTasks(ctx), ctx.clock.now()));
  }

  countExternalTasks(query: ExternalTaskQuery = {}): Promise<number> {
    return this.commands.run('ExternalTaskQuery', async (ctx) => ctx.externalTasks.count(ctx.tenantCheck.query(query), await readableTasks(ctx), ctx.clock.now()));
  }

  getExternalTask(id: string): Promise<ExternalTask | null> {
    return this.commands.run('ExternalTaskQuery', async (ctx) => (await ctx.externalTasks.find(ctx.tenantCheck.query({ externalTaskId: id }), await readableTasks(ctx)))[0] ?? null);
  }

  getTopicNames(options: { withLockedTasks?: boolean; withUnlockedTasks?: boolean; withRetriesLeft?: boolean } = {}): Promise<string[]> {
    // Camunda's GetTopicNamesCmd runs the external task query: topics of readable tasks only.
    return this.commands.run('GetTopicNamesCmd', async (ctx) => ctx.externalTasks.topicNames(ctx.tenantCheck.query(options), ctx.clock.now(), await readableTasks(ctx)));
  }

  /** The details of the last failure; NullValueException for an unknown task (REST answers 500, as Camunda). */
  getErrorDetails(id: string): Promise<string | null> {
    return this.commands.run('GetExternalTaskErrorDetailsCmd', async (ctx) => {
      const task = await ctx.externalTasks.findById(id);
      if (!task) throw new NullValueException(`No external task found with id ${id}: externalTask is null`);
      await checkInstance(ctx, 'READ', 'READ_INSTANCE', task.processInstanceId, task.processDefinitionKey, task.tenantId);
      return task.errorDetails;
    });
  }

  /**
   * Camunda's setRetriesAndManageIncidents: an incident when retries run out, resolved when they
   * come back. A failure that runs them out passes its log entry, the incident's history
   * configuration (Camunda's lastFailureLogId, kept on the task entity for that command only).
   */
  private async applyRetries(ctx: CommandContext, task: ExternalTask, retries: number, failureLogId: string | null = null): Promise<void> {
    const hadRetries = task.retries === null || task.retries > 0;
    if (hadRetries && retries <= 0) {
      await openIncident(
        ctx,
        {
          incidentType: FAILED_EXTERNAL_TASK_INCIDENT,
          incidentMessage: task.errorMessage,
          executionId: task.executionId,
          activityId: task.activityId,
          // Camunda's ExternalTaskEntity.createIncidentContext names no failed activity (only failed jobs do).
          failedActivityId: null,
          processInstanceId: task.processInstanceId,
          processDefinitionId: task.processDefinitionId,
          configuration: task.id,
          tenantId: task.tenantId,
          jobDefinitionId: null,
        },
        failureLogId,
      );
    } else if (!hadRetries && retries > 0) {
      await this.removeIncident(ctx, task.id, IncidentState.resolved);
    }
    await ctx.externalTasks.update({ ...task, retries });
  }

  private async removeIncident(ctx: CommandContext, taskId: string, state: typeof IncidentState.resolved | typeof IncidentState.deleted): Promise<void> {
    await IncidentHistory.ended(ctx, await ctx.incidents.deleteByConfiguration(FAILED_EXTERNAL_TASK_INCIDENT, taskId), state);
  }

  /**
   * Camunda's ExternalTaskEntity.bpmnError: the task's execution throws `new BpmnError(code[, message])`
   * (whose checks refuse an empty code or message) and leaves the activity, which deletes the task
   * (ExternalTaskEntity.delete: a deletion log entry, and an incident of it ends deleted, not resolved).
   */
  private async throwBpmnError(ctx: CommandContext, runner: ProcessRunner, execution: Execution, task: ExternalTask, errorCode: string, errorMessage: string | null): Promise<void> {
    const error = new BpmnError(errorCode, errorMessage);
    await ctx.externalTasks.delete(task);
    ExternalTaskLog.deleted(ctx, task);
    if (task.retries === 0) await this.removeIncident(ctx, task.id, IncidentState.deleted);
    runner.schedule(execution, () => runner.throwError(execution, error.errorCode, error.errorMessage));
    await completeRun(ctx, runner);
  }

  private keepSnapshots(snapshots: readonly LockedTaskSnapshot[]): void {
    for (const snapshot of snapshots) {
      this.snapshots.delete(snapshot.row.id);
      if (this.snapshots.size >= MAX_SNAPSHOTS) this.snapshots.delete(this.snapshots.keys().next().value!);
      this.snapshots.set(snapshot.row.id, snapshot);
    }
  }

  private async load(ctx: CommandContext, id: string): Promise<ExternalTask> {
    const task = await ctx.externalTasks.findById(id);
    if (!task) throw new NotFoundException(`External task with id ${id} does not exist`);
    return task;
  }

  /**
   * The task, with its instance's rows read in the same round trip where the store can (the command
   * moves the instance on next), or taken from the snapshot of the fetch that locked it.
   */
  private async loadWithInstance(ctx: CommandContext, id: string, snapshot: LockedTaskSnapshot | null): Promise<ExternalTask> {
    if (snapshot) {
      const task = ctx.externalTasks.adopt(snapshot.row);
      prefetchedInstance(ctx, task.processInstanceId, snapshot.instance);
      await guardSnapshot(ctx, snapshotGuard(snapshot.row, task.processInstanceId, snapshot.instance));
      return task;
    }
    const found = await ctx.externalTasks.findByIdWithInstance(id);
    if (!found) throw new NotFoundException(`External task with id ${id} does not exist`);
    if (found.instance) prefetchedInstance(ctx, found.task.processInstanceId, found.instance);
    return found.task;
  }

  private checkUpdate(ctx: CommandContext, task: ExternalTask) {
    return checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', task.processInstanceId, task.processDefinitionKey, task.tenantId);
  }

  /**
   * Camunda's worker check: the request's worker must be the one holding the task (an expired lock
   * still counts). `snapshot`: the fetch's rows to take task and instance from instead of reading them.
   */
  private async lockedBy(ctx: CommandContext, id: string, workerId: string | null, prefix: string, checkSuspended = true, withInstance = false, snapshot: LockedTaskSnapshot | null = null): Promise<ExternalTask> {
    if (workerId == null) throw new NullValueException('workerId is null');
    // Another command of the worker on the task: the fetch's rows are of no more use.
    if (snapshot === null) this.snapshots.delete(id);
    const task = withInstance ? await this.loadWithInstance(ctx, id, snapshot) : await this.load(ctx, id);
    // Camunda's HandleExternalTaskCmd: the worker first, then the permission, then the suspension.
    if (task.workerId !== workerId) throw new BadUserRequestException(`${prefix}'. It is locked by worker '${task.workerId}'.`);
    await this.checkUpdate(ctx, task);
    if (checkSuspended) ensureActive(task);
    return task;
  }

  private async openTaskInstance(ctx: CommandContext, task: ExternalTask) {
    const runner = await openInstance(ctx, this.env, task.processInstanceId);
    if (!runner || !runner.tree.executions.has(task.executionId)) {
      throw new ProcessEngineException(`Execution '${task.executionId}' of external task '${task.id}' does not exist`);
    }
    return runner;
  }

  /**
   * The tasks with the variables (all visible, the named ones, or only local ones) and extension
   * properties their topics asked for, read without loading whole instances (a fetch is the hot path
   * of every worker): one query for the variables of all the tasks' instances, unless the caller read
   * them already (`instanceVariables`: every variable of those instances).
   */
  private async withPayloads(
    ctx: CommandContext,
    tasks: readonly ExternalTask[],
    topics: ReadonlyMap<string, FetchTopic>,
    instanceVariables?: readonly VariableRow[],
  ): Promise<LockedExternalTask[]> {
    if (tasks.length === 0) return [];
    const topicOf = (task: ExternalTask) => topics.get(task.topicName)!;
    const rowsByInstance = new Map<string, VariableRow[]>();
    const instanceIds = new Set(tasks.filter((task) => wantsVariables(topicOf(task))).map((task) => task.processInstanceId));
    if (instanceIds.size > 0) {
      for (const row of instanceVariables ?? (await ctx.variables.findByProcessInstances([...instanceIds]))) {
        if (row.task_id !== null) continue;
        const rows = rowsByInstance.get(row.proc_inst_id!) ?? [];
        rows.push(row);
        rowsByInstance.set(row.proc_inst_id!, rows);
      }
    }
    const locked: LockedExternalTask[] = [];
    for (const task of tasks) {
      const topic = topicOf(task);
      let variables: Record<string, TypedValue> = {};
      if (wantsVariables(topic)) {
        const rows = rowsByInstance.get(task.processInstanceId) ?? [];
        // A task on the instance's own execution sees only the instance's variables: no tree to walk.
        const chain =
          topic.localVariables || task.executionId === task.processInstanceId ? [task.executionId] : await ctx.executions.ancestry(task.processInstanceId, task.executionId);
        // Nearer scopes hide farther ones: apply the root first, the task's execution last.
        for (const executionId of [...chain].reverse()) {
          for (const row of rows) if (row.execution_id === executionId) variables[row.name] = fromStorage(row);
        }
        if (Array.isArray(topic.variables)) variables = Object.fromEntries(Object.entries(variables).filter(([name]) => topic.variables!.includes(name)));
      }
      let extensionProperties: Record<string, string> = {};
      if (topic.includeExtensionProperties) {
        const definition = await this.env.definition(ctx, task.processDefinitionId);
        const element = definition ? (await this.env.models.get(ctx, definition)).activity(task.activityId) : undefined;
        extensionProperties = Object.fromEntries((element?.properties ?? []).map((property) => [property.name, property.value ?? '']));
      }
      locked.push({ ...task, variables, extensionProperties });
    }
    return locked;
  }
}

interface ErrorEventDefinitionData {
  $type?: string;
  errorRef?: string | null;
  expression?: string;
}

/**
 * camunda:errorEventDefinition on an external task: the error code of the first one whose
 * expression holds in the task's scope, or null. On failure, errors while evaluating count as false.
 */
function errorEventDefinitionHolding(runner: ProcessRunner, execution: Execution, activityId: string, ignoreErrors: boolean): string | null {
  const element = runner.model.activity(activityId);
  const definitions = (element?.extensions ?? []) as ErrorEventDefinitionData[];
  for (const definition of definitions) {
    if (definition?.$type !== 'camunda:ErrorEventDefinition' || !definition.expression) continue;
    let holds = false;
    try {
      holds = runner.expressionHolds(execution, definition.expression);
    } catch (error) {
      if (!ignoreErrors) throw error;
    }
    if (holds) return runner.model.errorCodes.get(definition.errorRef ?? '') ?? definition.errorRef ?? '';
  }
  return null;
}

/**
 * Camunda's configureExternalTaskFetch: (READ on the instance or READ_INSTANCE on its definition)
 * and (UPDATE on the instance or UPDATE_INSTANCE on its definition).
 */
async function lockableTasks(ctx: CommandContext): Promise<InstanceReadFilter> {
  const [read, update, readInstance, updateInstance] = await Promise.all([
    ctx.authz.readFilter('READ', Resources.PROCESS_INSTANCE),
    ctx.authz.readFilter('UPDATE', Resources.PROCESS_INSTANCE),
    ctx.authz.readFilter('READ_INSTANCE', Resources.PROCESS_DEFINITION),
    ctx.authz.readFilter('UPDATE_INSTANCE', Resources.PROCESS_DEFINITION),
  ]);
  if (!read || !update || !readInstance || !updateInstance) return null;
  return (instanceColumn, definitionKeyColumn) =>
    sql<SqlBool>`((${read(instanceColumn)} or ${readInstance(definitionKeyColumn)}) and (${update(instanceColumn)} or ${updateInstance(definitionKeyColumn)}))`;
}

const readableTasks = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });

/** The variables of the snapshots' instances, each instance's once. */
function instanceVariables(snapshots: readonly LockedTaskSnapshot[]) {
  return [...new Map(snapshots.map(({ row, instance }) => [row.proc_inst_id, instance.variables])).values()].flat();
}

/** A topic asking for no variables at all (`variables: []`) gets none; otherwise all or the named ones. */
function wantsVariables(topic: FetchTopic): boolean {
  return !(Array.isArray(topic.variables) && topic.variables.length === 0);
}
