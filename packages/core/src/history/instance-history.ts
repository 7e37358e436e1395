import type { ActivityInstance, Execution } from '../runtime/execution.js';

/** What history needs of an instance's definition (kept on the historic rows). */
export interface HistoricDefinition {
  id: string;
  key: string;
  name: string | null;
  version: number;
  tenantId: string | null;
}

export type TerminationState = 'EXTERNALLY_TERMINATED' | 'INTERNALLY_TERMINATED';

/** A historic activity instance started or ended in this command, not written yet. */
export interface PendingActivity {
  instance: ActivityInstance;
  /** Whether its row exists already (it started in an earlier command): the end is an update. */
  written: boolean;
  ended: boolean;
  canceled: boolean;
  completeScope: boolean;
  taskId: string | null;
  assignee: string | null;
  calledProcessInstanceId: string | null;
  sequenceCounter: number;
}

export interface PendingProcessInstance {
  root: Execution;
  startTime: Date;
  startActivityId: string | null;
  written: boolean;
  ended: boolean;
  endActivityId: string | null;
}

/**
 * The history events of one process instance within a command, collected where the execution tree
 * changes (activity instances started and ended, the instance itself) and written by the tree's
 * flush in a few multi-row statements (HistoryWriter). An activity instance that starts and ends in
 * one command becomes a single finished row.
 */
export class InstanceHistory {
  /** Set by the runner: the definition the instance runs. */
  definition: HistoricDefinition | null = null;
  readonly activities = new Map<string, PendingActivity>();
  processInstance: PendingProcessInstance | null = null;
  /** How the instance ends when it is cancelled rather than completed (first reason wins). */
  termination: { state: TerminationState; deleteReason: string | null } | null = null;
  /** The instance's super process instance, when known (it decides the root process instance). */
  superProcessInstanceId: string | null | undefined = undefined;
  private lastCompletedActivityId: string | null = null;
  private sequence = 0;

  constructor(readonly processInstanceId: string) {}

  /** An activity instance was added to the tree (the process instance's own one starts the instance). */
  activityStarted(instance: ActivityInstance, root: Execution | undefined): void {
    if (root) this.superProcessInstanceId = root.superProcessInstanceId;
    if (instance.activityType === 'processDefinition') {
      if (root) this.processInstance = { root, startTime: instance.startTime, startActivityId: null, written: false, ended: false, endActivityId: null };
      return;
    }
    if (this.processInstance && !this.processInstance.written && this.processInstance.startActivityId === null) {
      this.processInstance.startActivityId = instance.activityId;
    }
    this.activities.set(instance.id, {
      instance: { ...instance },
      written: false,
      ended: false,
      canceled: false,
      completeScope: false,
      taskId: null,
      assignee: null,
      calledProcessInstanceId: null,
      sequenceCounter: ++this.sequence,
    });
  }

  /** An activity instance left the tree: completed, or cancelled (removed with its execution, interrupted). */
  activityEnded(instance: ActivityInstance, canceled: boolean, root: Execution | undefined): void {
    if (root) this.superProcessInstanceId = root.superProcessInstanceId;
    if (instance.activityType === 'processDefinition') {
      const pending = this.processInstance ?? { root: root!, startTime: instance.startTime, startActivityId: null, written: true, ended: false, endActivityId: null };
      pending.ended = true;
      pending.endActivityId = this.termination?.state === 'EXTERNALLY_TERMINATED' ? null : this.lastCompletedActivityId;
      this.processInstance = pending;
      return;
    }
    let pending = this.activities.get(instance.id);
    if (!pending) {
      pending = { instance: { ...instance }, written: true, ended: false, canceled: false, completeScope: false, taskId: null, assignee: null, calledProcessInstanceId: null, sequenceCounter: 0 };
      this.activities.set(instance.id, pending);
    }
    pending.instance.executionId = instance.executionId;
    pending.ended = true;
    pending.canceled = canceled;
    if (!canceled) this.lastCompletedActivityId = instance.activityId;
  }

  /** The path that ran `activityId` on `executionId` ended there: that activity instance completed its scope. */
  scopeCompleted(executionId: string, activityId: string): void {
    const ended = [...this.activities.values()].filter(
      (each) => each.ended && !each.canceled && each.instance.executionId === executionId && each.instance.activityId === activityId,
    );
    const last = ended.at(-1);
    if (last) last.completeScope = true;
  }

  /** A user task was created for an activity instance of this command. */
  taskCreated(activityInstanceId: string | null, taskId: string, assignee: string | null): void {
    const pending = activityInstanceId ? this.activities.get(activityInstanceId) : undefined;
    if (!pending) return;
    pending.taskId = taskId;
    pending.assignee = assignee;
  }

  /** A call activity's instance started the called process instance. */
  calledInstance(activityInstanceId: string | null, calledProcessInstanceId: string): void {
    const pending = activityInstanceId ? this.activities.get(activityInstanceId) : undefined;
    if (pending) pending.calledProcessInstanceId = calledProcessInstanceId;
  }

  /** The instance is being cancelled: it will end in this state (the first caller decides). */
  terminate(state: TerminationState, deleteReason: string | null): void {
    this.termination ??= { state, deleteReason };
  }

  get isEmpty(): boolean {
    return this.activities.size === 0 && (this.processInstance === null || (this.processInstance.written && !this.processInstance.ended));
  }

  /** After a flush: what was written is now a row; ended rows need no more attention. */
  written(): void {
    for (const [id, pending] of this.activities) {
      if (pending.ended) this.activities.delete(id);
      else pending.written = true;
    }
    if (this.processInstance?.ended) this.processInstance = null;
    else if (this.processInstance) this.processInstance.written = true;
  }
}
