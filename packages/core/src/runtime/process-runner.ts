import { hasCondition, type ConditionModel, type EventDefinitionModel, type FlowElementModel, type ListenerModel, type ProcessModel, type SequenceFlowModel } from '../bpmn/index.js';
import type { CommandContext } from '../command/command-context.js';
import { ProcessEngineException, suspendedEntity } from '../errors/exceptions.js';
import type { ProcessDefinition } from '../services/process-definition/process-definition.js';
import { behaviorFor } from './behaviors/behavior-registry.js';
import { activityInstanceId, type Execution } from './execution.js';
import { executionFacade, type ListenerEvent } from './execution-facade.js';
import type { ExecutionTree } from './execution-tree.js';
import { S, type ExpressionContext } from './expressions/index.js';
import { conditionHolds, conditionResult, evaluateOf, tryCondition } from './expressions/conditions.js';
import { runElementScript } from './scripts.js';
import type { ConditionTrigger, InstanceVariables } from './instance-variables.js';
import { instanceVariableScope } from '../history/variable-history.js';
import { createBoundaryEventTriggers, matchingErrorBoundary, matchingEscalationBoundary } from './events/boundary-events.js';
import { compensableInside, compensationDone, subProcessCompleted, subscribeCompensation } from './compensation.js';
import { armEventSubProcesses, eventSubProcessOf, matchingErrorStart, matchingEscalationStart, scopeTriggerActivities } from './events/event-sub-processes.js';
import { createAsyncJob } from './runtime-jobs.js';
import type { RuntimeEnvironment } from './runtime-environment.js';
import { mapInputs, mapOutputs } from './io-mapping.js';
import { invokeListeners } from './listeners.js';
import { toJavaScriptValue, untypedValue, type TypedValue } from './variables/index.js';
import { callerCatchesError, cancelCalledInstances, cancelCallingActivity, escalateToCaller, propagateErrorToCaller, resumeCallingInstance } from './call-activities.js';
import { continuationOf, enclosingBody, enterBody, initializeSingleInstance, instanceCompleted, MI_BODY_SUFFIX, miBodyId, scopeElementId, startInstances } from './multi-instance.js';
import { IncidentHistory, IncidentState } from '../history/incident-history.js';
import { JobLog } from '../history/job-log.js';
import { jobsDeleted } from '../jobs/job-failure.js';
import { engineFunctions } from './expressions/engine-functions.js';
import { noteFailedActivity } from './failed-activity.js';
import { removeLoggedWorkOf } from '../history/cancelled-work-log.js';
import { ExternalTaskLog } from '../history/external-task-log.js';
import { removeSubTasksOf } from '../services/task/task-removal.js';
import { fireTaskListeners, hasTaskListeners } from './task-listeners.js';
import { withErrorPropagation } from './bpmn-error.js';
import { engineMessage } from '../errors/engine-message.js';

export interface RunnerSkips {
  skipCustomListeners: boolean;
  skipIoMappings: boolean;
}

/** The skips a caller's optional flags ask for (absent: false). */
export function runnerSkips(flags: { skipCustomListeners?: boolean | null; skipIoMappings?: boolean | null }): RunnerSkips {
  return { skipCustomListeners: flags.skipCustomListeners === true, skipIoMappings: flags.skipIoMappings === true };
}

export interface EnterOptions {
  /** The async-before job resumes the execution: no second job. */
  skipAsync?: boolean;
  /** Inside the scope this creates, start at these activities (outermost first) instead of its start event. */
  startAt?: readonly string[];
  /** The event of the innermost startAt activity already happened: it only passes through. */
  startOccurred?: boolean;
  /**
   * Set local on the execution that runs the entered activity (its scope execution when it is a
   * scope; the waiting one when it is async) before its start listeners: a message's variables for
   * the scope it triggered (Camunda's payload for the triggered scope).
   */
  localVariables?: Readonly<Record<string, TypedValue>>;
  /**
   * Runs on the execution about to enter the innermost startAt activity, once the scopes above it
   * exist: a modification's variables (Camunda's ScopeInstantiationContext.applyVariables).
   */
  beforeTarget?: (execution: Execution) => void;
}

interface Step {
  execution: Execution;
  run: () => Promise<void> | void;
}

/**
 * Activities that get their own scope execution (Camunda's scope activities). The instances of a
 * multi-instance activity are scopes only for their own reasons: boundary events attach to the body.
 */
export function isScopeActivity(element: FlowElementModel): boolean {
  return (
    element.type === 'bpmn:SubProcess' ||
    element.type === 'bpmn:Transaction' ||
    (element.boundaryEvents.length > 0 && !element.multiInstance) ||
    (element.inputOutput !== null && (element.inputOutput.inputParameters.length > 0 || element.inputOutput.outputParameters.length > 0))
  );
}

/** What became of a thrown escalation: caught by an interrupting event, by one that does not interrupt, or by none. */
export type EscalationOutcome = 'interrupted' | 'caught' | 'uncaught';

/** An escalation event that catches a thrown escalation, and the scope execution it fires on. */
export interface EscalationCatch {
  scope: Execution;
  /** An escalation start event of an event sub-process, or an escalation boundary event. */
  event: FlowElementModel;
  interrupting: boolean;
}

/** Containers whose content is a flow of its own (ending its last path completes the container). */
const isFlowContainer = (element: FlowElementModel) => element.type === 'bpmn:SubProcess' || element.type === 'bpmn:Transaction';

/**
 * Moves one process instance through its model inside a command (Camunda's atomic operations):
 * steps go on an agenda and run one after another until every execution waits or ended. The
 * execution tree mirrors Camunda's: scope executions for scope activities, concurrent children
 * for parallel paths, and an activity-instance tree beside it.
 */
export class ProcessRunner {
  private readonly agenda: Step[] = [];
  /**
   * Non-interrupting conditional event sub-process starts that held while their scope execution was
   * still moving (steps of its own pending): they fire once it waits or ends (Camunda dispatches the
   * variable event after the current operation, the scope's path then handed to a concurrent child).
   */
  private heldTriggers: Step[] = [];
  /** Whether this command ended the process instance. */
  ended = false;
  /** The root's variables when the instance ended (a call activity's output reads them). */
  finalVariables: InstanceVariables | null = null;
  running = false;
  /** The instance was created in this command (nothing of it is stored before the first write). */
  isNew = false;
  /** Activity instances this command started, and whether it started a root instance (engine metrics). */
  flowNodesStarted = 0;
  startedRootInstance = false;
  /** Rows other than the tree were written for the instance (tasks, jobs, subscriptions, external tasks). */
  wroteRows = false;
  /**
   * Camunda's skipCustomListeners / skipIoMappings of a modification, restart or deletion: while
   * this command moves the instance, execution listeners and input / output mappings do not run.
   */
  skips: RunnerSkips = { skipCustomListeners: false, skipIoMappings: false };
  /** A modification cancelling from outside (Camunda's cancellationSourceExternal): instances it cancels through call activities end externally terminated. */
  externalCancellation = false;
  /** The execution listener running now (DelegateExecution.getEventName, getCurrentTransitionId). */
  listenerEvent: ListenerEvent | null = null;

  constructor(
    readonly ctx: CommandContext,
    readonly env: RuntimeEnvironment,
    readonly tree: ExecutionTree,
    readonly model: ProcessModel,
    readonly definition: ProcessDefinition,
    readonly variables: InstanceVariables,
  ) {
    variables.attach((id) => this.tree.executions.get(id)?.parentId ?? null);
    tree.history.definition = definition;
    variables.history ??= instanceVariableScope(tree.processInstanceId, definition, (id) => this.tree.executions.get(id)?.scopeInstanceId);
  }

  // --- the agenda ---

  /** Queues an execution to arrive at an activity (skipAsync: the async-before job resumes it). */
  enter(execution: Execution, activityId: string, options: EnterOptions = {}): void {
    this.entering.set(execution.id, activityId);
    this.schedule(execution, () => {
      if (this.entering.get(execution.id) === activityId) this.entering.delete(execution.id);
      return this.arrive(execution, activityId, options.skipAsync ?? false, false, options);
    });
  }

  /** Executions queued to enter an activity, by id (Camunda's execution on its transition, with its destination). */
  private readonly entering = new Map<string, string>();

  /** The activity an execution is queued to enter, if it is on its way to one. */
  enteringActivity(execution: Execution): string | null {
    return this.entering.get(execution.id) ?? null;
  }

  /** Queues a waiting execution to continue (a completed user task, a received message, a fired timer). */
  signal(execution: Execution): void {
    this.schedule(execution, () => this.signalNow(execution));
  }

  private async signalNow(execution: Execution): Promise<void> {
    const element = this.elementOf(execution);
    const behavior = behaviorFor(element);
    // Camunda's FlowNodeActivityBehavior.signal; a behavior that takes the signal moves the execution
    // on, an atomic operation that fails on a suspended execution (ExecutionEntity.ensureNotSuspended).
    if (!behavior.signal) throw new ProcessEngineException(engineMessage('02', '010', `The activity with id '${element.id}' doesn't accept signals.`));
    if (execution.suspended) throw suspendedError(execution);
    await behavior.signal(this, execution, element);
  }

  /** Queues the execution to complete its activity and leave along its outgoing flows (conditions checked). */
  leave(execution: Execution): void {
    this.schedule(execution, () => this.completeActivity(execution, undefined, true));
  }

  /** Queues the execution to complete its activity and leave along exactly these flows (gateways choose them). */
  leaveVia(execution: Execution, flowIds: readonly string[], options: { evaluateConditions?: boolean } = {}): void {
    this.schedule(execution, () => this.completeActivity(execution, flowIds, options.evaluateConditions ?? false));
  }

  /**
   * Queues any step that concerns an execution; it is skipped when the execution is gone by then.
   * Steps queued by one step run before the steps queued earlier, in the order they were queued
   * (Camunda's invocation queue): a fork's first path goes as far as it can before the second starts.
   */
  schedule(execution: Execution, run: () => Promise<void> | void): void {
    this.agenda.splice(this.queuedByStep++, 0, { execution, run });
  }

  /** Where the running step's next queued step goes (steps it queued before it come first). */
  private queuedByStep = 0;

  /** Runs the agenda to its end, then writes the tree. */
  async run(): Promise<void> {
    this.running = true;
    let evaluations = 0;
    try {
      for (;;) {
        // Conditional events look whenever variables changed, before anything else moves (Camunda evaluates them at once).
        const changes = this.ended ? [] : this.variables.takeChanges();
        if (changes.length > 0) {
          if (++evaluations > 1000) throw new ProcessEngineException(`Conditional events of process instance '${this.tree.processInstanceId}' keep triggering each other`);
          await this.evaluateConditionalEvents(changes);
        }
        const step = this.agenda.shift();
        if (!step) {
          if (this.heldTriggers.length === 0) break;
          this.agenda.push(...this.heldTriggers.splice(0));
          continue;
        }
        this.queuedByStep = 0;
        try {
          if (this.tree.executions.has(step.execution.id)) await step.run();
        } catch (error) {
          // A listener's BPMN error was thrown on already: the rest of that step does not happen.
          if (error instanceof FlowInterrupted) continue;
          noteFailedActivity(error, step.execution.activityId);
          throw error;
        }
      }
      await this.prune();
    } finally {
      this.running = false;
    }
    await this.tree.flush(this.ctx);
  }

  /**
   * Camunda's pruning, once the agenda is done: a scope left with a single concurrent path takes
   * that path over (its activity, activity instance, scope child, tasks, jobs, subscriptions and
   * variables), so that after a join the instance runs on its scope execution again.
   * Multi-instance bodies keep their concurrent instances.
   */
  private async prune(): Promise<void> {
    for (const scope of [...this.tree.executions.values()]) {
      if (!this.tree.executions.has(scope.id) || scope.scopeActivityId?.endsWith(MI_BODY_SUFFIX)) continue;
      const children = this.tree.childrenOf(scope.id);
      // A compensating path stays one: its throw event waits for it to end.
      if (children.length !== 1 || !children[0].isConcurrent || children[0].isCompensating) continue;
      const [path] = children;
      scope.activityId = path.activityId;
      scope.activityInstanceId = path.activityInstanceId;
      scope.isActive = path.isActive;
      this.tree.touch(scope);
      for (const child of this.tree.childrenOf(path.id)) {
        child.parentId = scope.id;
        this.tree.touch(child);
      }
      for (const instance of this.tree.activityInstances.values()) if (instance.executionId === path.id) this.tree.moveActivityInstance(instance.id, scope.id);
      for (const name of this.variables.localNames(path.id)) this.variables.setLocal(scope.id, name, this.variables.getLocal(path.id, name)!);
      this.variables.removeScope(path.id);
      await this.ctx.tasks.moveExecution(path.id, scope.id);
      await this.ctx.jobs.moveExecution(path.id, scope.id, []);
      await this.ctx.eventSubscriptions.moveExecution(path.id, scope.id, []);
      await this.ctx.externalTasks.moveExecution(path.id, scope.id);
      this.tree.remove(path);
    }
  }

  /** Whether the instance has conditional subscriptions (asked once per command; a new one sets it). */
  hasConditionalEvents: boolean | undefined = undefined;

  /**
   * Triggers the conditional events (catch, boundary, event sub-process) whose condition now holds,
   * ahead of the agenda. As Camunda's ConditionalEventDefinition.tryEvaluate: a new subscription
   * evaluates its condition once; a variable event reaches the subscriptions below the execution the
   * variable lives on, those of its camunda:variableName and camunda:variableEvents only.
   */
  private async evaluateConditionalEvents(changes: readonly ConditionTrigger[]): Promise<void> {
    if (this.hasConditionalEvents === false) return;
    const subscriptions = await this.ctx.eventSubscriptions.find({ eventType: 'conditional', processInstanceId: this.tree.processInstanceId });
    this.hasConditionalEvents = subscriptions.length > 0;
    const due: Step[] = [];
    for (const subscription of subscriptions) {
      const execution = this.tree.executions.get(subscription.executionId ?? '');
      const event = this.model.activity(subscription.activityId ?? '');
      const definition = event?.eventDefinitions.find((each) => each.type === 'bpmn:ConditionalEventDefinition');
      if (!execution || !event || !definition || !hasCondition(definition) || execution.suspended) continue;
      const reached = changes.some((change) =>
        change.event === null
          ? change.executionId === execution.id && change.activityId === event.id
          : (definition.variableName === null || definition.variableName === change.name) &&
            (definition.variableEvents.length === 0 || definition.variableEvents.includes(change.event)) &&
            this.isWithin(execution, change.executionId),
      );
      if (!reached || !(await this.conditionHoldsIfDefined(execution, definition))) continue;
      const trigger = { execution, run: () => this.triggerNow(execution, event.id) };
      const expandsMovingScope = event.type === 'bpmn:StartEvent' && !event.isInterrupting && this.agenda.some((step) => step.execution === execution);
      (expandsMovingScope ? this.heldTriggers : due).push(trigger);
    }
    this.agenda.unshift(...due);
  }

  /** Whether `execution` is the execution `ancestorId` or below it. */
  private isWithin(execution: Execution, ancestorId: string): boolean {
    for (let current: Execution | undefined = execution; current; current = current.parentId ? this.tree.executions.get(current.parentId) : undefined) {
      if (current.id === ancestorId) return true;
    }
    return false;
  }

  // --- expressions ---

  /**
   * Whether a sequence flow's or conditional event's condition holds for the execution's variables:
   * an expression (Camunda's UelExpressionCondition) or, when it names a language, a script
   * (ScriptCondition), run as the element scripts are.
   */
  async conditionHolds(execution: Execution, holder: ConditionModel): Promise<boolean> {
    if (holder.conditionScript === null) return this.expressionHolds(execution, holder.condition ?? '');
    return conditionResult(await runElementScript(this, execution, holder.conditionScript, execution.activityId ?? ''), 'condition script');
  }

  /** The flows without a condition and those whose condition holds, in their order. */
  async flowsHolding(execution: Execution, flows: readonly SequenceFlowModel[]): Promise<SequenceFlowModel[]> {
    const holding: SequenceFlowModel[] = [];
    for (const flow of flows) if (!hasCondition(flow) || (await this.conditionHolds(execution, flow))) holding.push(flow);
    return holding;
  }

  /** Whether a condition expression holds for the execution's variables. */
  expressionHolds(execution: Execution, expression: string): boolean {
    return conditionHolds(expression, this.expressionContext(execution));
  }

  /** Camunda's tryEvaluate for conditional events: a condition on a variable that does not exist yet is false. */
  private conditionHoldsIfDefined(execution: Execution, holder: ConditionModel): Promise<boolean> {
    return tryCondition(() => this.conditionHolds(execution, holder));
  }

  /** Evaluates an expression (or returns literal text) in the scope of an execution. */
  evaluate(execution: Execution, text: string): unknown {
    return evaluateOf(text, this.expressionContext(execution));
  }

  /** Identifiers in expressions: visible variables, `execution`, Spin's `S`, the engine's functions (`now()`, `currentUser()`, …), then the host's beans. */
  expressionContext(execution: Execution): ExpressionContext {
    const delegates = this.env.delegates;
    const functions = (this.functions ??= engineFunctions(this.ctx));
    return {
      has: (name) => this.variables.ownerOf(execution.id, name) !== null || name === 'execution' || name === 'S' || name in functions || delegates.hasBean(name),
      resolve: (name) => {
        const value = this.variables.lookup(execution.id, name);
        if (value !== undefined) return toJavaScriptValue(value);
        if (name === 'execution') return executionFacade(execution, this);
        if (name === 'S') return S;
        if (name in functions) return functions[name];
        return delegates.bean(name);
      },
    };
  }
  private functions?: Readonly<Record<string, unknown>>;

  // --- the execution tree ---

  parentOf(execution: Execution): Execution {
    const parent = execution.parentId === null ? undefined : this.tree.executions.get(execution.parentId);
    if (!parent) throw new ProcessEngineException(`Execution '${execution.id}' has no parent`);
    return parent;
  }

  /** The scope execution an execution runs in: itself when it is one, else its (concurrent) parent's. */
  scopeExecutionOf(execution: Execution): Execution {
    return execution.isScope ? execution : this.scopeExecutionOf(this.parentOf(execution));
  }

  /** Executions of the same parent waiting at a joining gateway, this one included. */
  waitingAt(execution: Execution, activityId: string): Execution[] {
    const siblings = execution.parentId === null ? [execution] : this.tree.childrenOf(execution.parentId);
    return siblings.filter((other) => other.activityId === activityId && !other.isActive);
  }

  /**
   * A joining gateway fires: the other arrived paths end there, this one goes on. `endsScope`: the
   * gateway has no outgoing flow, so each path ends its scope there (Camunda's end(true) on each).
   */
  join(execution: Execution, arrived: readonly Execution[], endsScope = false): void {
    // Camunda's leaveActivityViaTransitions: a path that joins others goes on without its local variables.
    if (arrived.length > 1) this.variables.removeScope(execution.id);
    for (const other of arrived) {
      if (other.id === execution.id) continue;
      this.endActivityInstance(other);
      if (endsScope && other.activityId !== null) this.tree.history.scopeCompleted(other.id, other.activityId);
      this.variables.removeScope(other.id);
      this.tree.remove(other);
    }
    execution.isActive = true;
    this.tree.touch(execution);
  }

  endActivityInstance(execution: Execution): void {
    if (execution.activityInstanceId && execution.activityInstanceId !== execution.processInstanceId) {
      this.tree.removeActivityInstance(execution.activityInstanceId);
    }
    execution.activityInstanceId = null;
    this.tree.touch(execution);
  }

  /** Ends a path of control (an end event, or an activity without outgoing flows). */
  async end(execution: Execution): Promise<void> {
    const compensated = execution.isCompensating === true;
    // A compensation handler ends as Camunda's endCompensation does: not completing its scope.
    if (execution.activityId !== null && !compensated) this.tree.history.scopeCompleted(execution.id, execution.activityId);
    execution.activityId = null;
    this.tree.touch(execution);
    if (execution.isConcurrent) {
      const parent = this.parentOf(execution);
      await this.removeExecution(execution);
      if (compensated) await compensationDone(this, parent);
      // A sub-process entered again for compensation is gone once its last compensating path ended.
      if (!this.tree.executions.has(parent.id)) return;
      // Unlike Camunda, a last concurrent path is not pruned into its parent: it runs on as it is.
      if (this.tree.childrenOf(parent.id).length === 0) await this.scopeDone(parent);
      return;
    }
    await this.scopeDone(execution);
  }

  /** A terminate end event: every path of the enclosing scope ends now, and so does the scope. */
  async terminate(execution: Execution): Promise<void> {
    const scope = this.scopeExecutionOf(execution);
    // A held event sub-process start in the scope goes with it (Camunda would start it, then terminate it).
    this.heldTriggers = this.heldTriggers.filter((step) => !this.isWithin(step.execution, scope.id));
    if (execution.activityId !== null) this.tree.history.scopeCompleted(execution.id, execution.activityId);
    for (const child of this.tree.childrenOf(scope.id)) await this.removeExecution(child, true);
    this.endActivityInstance(scope);
    await this.scopeDone(scope);
  }

  /** Cancels every path of the instance and ends it (a deletion, a modification leaving nothing): its caller's call activity is cancelled too. */
  async cancelInstance(): Promise<void> {
    const root = this.tree.root;
    if (!root) return;
    this.tree.history.terminate('INTERNALLY_TERMINATED', null);
    await cancelCalledInstances(this, [...this.tree.executions.keys()]);
    for (const child of this.tree.childrenOf(root.id)) await this.removeExecution(child, true);
    // What runs on the instance's own execution is cancelled too: its task's delete listeners, its end listeners.
    await this.fireDeleteListeners(root);
    await this.endCancelledActivities([root.id]);
    await removeLoggedWorkOf(this.ctx, root.id);
    await this.finishInstance(true);
  }

  /**
   * Removes an execution and everything below it: activity instances, tasks, jobs, subscriptions,
   * variables. `cancelled`: the activities there are cancelled (their end listeners and output mappings run).
   */
  async removeExecution(execution: Execution, cancelled = false): Promise<void> {
    const doomed: Execution[] = [];
    const collect = (current: Execution) => {
      for (const child of this.tree.childrenOf(current.id)) collect(child);
      doomed.push(current);
    };
    collect(execution);
    const ids = doomed.map((each) => each.id);
    for (const each of doomed) await this.fireDeleteListeners(each);
    if (cancelled) await this.endCancelledActivities(ids);
    for (const instance of [...this.tree.activityInstances.values()]) {
      if (ids.includes(instance.executionId)) this.tree.removeActivityInstance(instance.id, true);
    }
    for (const each of doomed) {
      this.variables.removeScope(each.id);
      this.tree.remove(each);
    }
    await removeSubTasksOf(this.ctx, await this.ctx.tasks.deleteByExecutions(ids));
    for (const job of await this.ctx.jobs.deleteByExecutions(ids)) JobLog.deleted(this.ctx, job);
    await this.ctx.eventSubscriptions.deleteByExecutions(ids);
    await IncidentHistory.ended(this.ctx, await this.ctx.incidents.deleteByExecutions(ids), IncidentState.deleted);
    for (const task of await this.ctx.externalTasks.deleteByExecutions(ids)) ExternalTaskLog.deleted(this.ctx, task);
    await cancelCalledInstances(this, ids);
  }

  /**
   * Removes a scope execution whose activity completed: its own activity instance ends completed
   * (removeExecution alone would cancel it), whatever still runs below it is cancelled.
   */
  async removeCompletedScope(scope: Execution): Promise<void> {
    if (scope.scopeInstanceId) this.tree.removeActivityInstance(scope.scopeInstanceId);
    await this.removeExecution(scope);
  }

  /** Removes the tasks of a cancelled execution: its delete task listeners first, its sub-tasks with them. */
  async deleteTasksOf(execution: Execution): Promise<void> {
    await this.fireDeleteListeners(execution);
    await removeSubTasksOf(this.ctx, await this.ctx.tasks.deleteByExecutions([execution.id]));
  }

  /** A user task cancelled with its execution fires its delete task listeners (unless skipCustomListeners). */
  private async fireDeleteListeners(execution: Execution): Promise<void> {
    const element = execution.activityId === null ? undefined : this.model.activity(execution.activityId);
    if (this.skips.skipCustomListeners || !element || !hasTaskListeners(element, 'delete')) return;
    for (const task of await this.ctx.tasks.find({ executionId: execution.id })) await fireTaskListeners(this, execution, element, 'delete', task);
  }

  /**
   * Cancelled activities end as Camunda's cascading delete ends them, innermost first (see
   * endCancelledActivity). An activity still waiting for its async-before job has no instance, so
   * nothing runs for it.
   */
  async endCancelledActivities(executionIds: readonly string[]): Promise<void> {
    const instances = [...this.tree.activityInstances.values()].filter((instance) => executionIds.includes(instance.executionId));
    const depthOf = (id: string | null): number => (id === null ? 0 : 1 + depthOf(this.tree.activityInstances.get(id)?.parentId ?? null));
    const innermostFirst = instances.map((instance) => ({ instance, depth: depthOf(instance.id) })).sort((a, b) => b.depth - a.depth);
    for (const { instance } of innermostFirst) {
      const element = this.model.activity(instance.activityId);
      const execution = this.tree.executions.get(instance.executionId);
      if (element && execution) await this.endCancelledActivity(execution, element);
    }
  }

  /**
   * A cancelled activity ends (Camunda's PvmAtomicOperationDeleteCascadeFireActivityEnd): its end
   * listeners, then its scope is destroyed, whose output mappings the engine setting
   * skipOutputMappingOnCanceledActivities leaves out (for mappings that read variables a failed
   * activity never set).
   */
  async endCancelledActivity(execution: Execution, element: FlowElementModel): Promise<void> {
    await this.notifyListeners(execution, element, 'end');
    if (!this.ctx.config.skipOutputMappingOnCanceledActivities) await this.destroyScope(execution, element);
  }

  /**
   * Camunda's ExecutionEntity.destroy: the activity's own scope execution (none other holds a
   * mapping's scope), about to go, runs the output mappings unless the command skips io mappings.
   */
  private async destroyScope(execution: Execution, element: FlowElementModel): Promise<void> {
    if (this.skips.skipIoMappings || execution.scopeActivityId !== element.id || execution.parentId === null) return;
    await mapOutputs(this, execution, element);
  }

  /** A new concurrent path beside a scope execution (for a non-interrupting boundary event). */
  async concurrentPathBeside(scope: Execution): Promise<Execution> {
    const holder = this.parentOf(scope);
    if (holder.isConcurrent) return this.tree.add(this.concurrentChild(this.parentOf(holder)));
    return this.newConcurrentPathIn(holder);
  }

  /**
   * A new concurrent path inside a scope execution. A scope that runs one path itself first hands
   * that path to a concurrent child (with its tasks, jobs and subscriptions, or its scope child):
   * Camunda's tree expansion, after which both paths are concurrent children of the scope.
   */
  async newConcurrentPathIn(scope: Execution): Promise<Execution> {
    const children = this.tree.childrenOf(scope.id);
    if (children.some((child) => child.isConcurrent)) return this.tree.add(this.concurrentChild(scope));
    if (scope.activityId !== null) {
      const keeper = this.tree.add({
        ...this.concurrentChild(scope),
        activityId: scope.activityId,
        activityInstanceId: scope.activityInstanceId,
        isActive: scope.isActive,
      });
      for (const child of children) {
        child.parentId = keeper.id;
        this.tree.touch(child);
      }
      if (children.length === 0) {
        if (scope.activityInstanceId) this.tree.moveActivityInstance(scope.activityInstanceId, keeper.id);
        const own = scopeTriggerActivities(this.model, scope);
        await this.ctx.tasks.moveExecution(scope.id, keeper.id);
        await this.ctx.jobs.moveExecution(scope.id, keeper.id, own);
        await this.ctx.eventSubscriptions.moveExecution(scope.id, keeper.id, own);
      }
    }
    scope.activityId = null;
    scope.activityInstanceId = scope.scopeInstanceId;
    scope.isActive = false;
    this.tree.touch(scope);
    return this.tree.add(this.concurrentChild(scope));
  }

  /**
   * Starts an event sub-process of a scope: an interrupting one cancels everything the scope runs
   * (its own triggers aside) and runs in its place; a non-interrupting one runs on a new path beside it.
   */
  private async fireEventSubProcess(scope: Execution, start: FlowElementModel, eventSubProcess: FlowElementModel, localVariables?: Readonly<Record<string, TypedValue>>): Promise<void> {
    let path = scope;
    if (start.isInterrupting) {
      for (const child of this.tree.childrenOf(scope.id)) await this.removeExecution(child, true);
      if (scope.activityInstanceId && scope.activityInstanceId !== scope.scopeInstanceId) this.tree.removeActivityInstance(scope.activityInstanceId, true);
      const host = scope.scopeActivityId ? this.model.activity(scopeElementId(scope.scopeActivityId)) : undefined;
      const keep = host?.boundaryEvents ?? [];
      await this.deleteTasksOf(scope);
      await jobsDeleted(this.ctx, await this.ctx.jobs.deleteByExecutionExcept(scope.id, keep));
      await this.ctx.eventSubscriptions.deleteByExecutionExcept(scope.id, keep);
      scope.activityId = null;
      scope.activityInstanceId = scope.scopeInstanceId;
      scope.isActive = true;
      this.tree.touch(scope);
    } else {
      path = await this.newConcurrentPathIn(scope);
    }
    this.enter(path, eventSubProcess.id, { startAt: [start.id], startOccurred: true, localVariables });
  }

  /**
   * An awaited event happened for an execution (a timer fired, a message or signal arrived):
   * the catch event it waits at continues, the event-based gateway it waits at moves to that
   * event, or the boundary event of its activity fires.
   */
  trigger(execution: Execution, activityId: string, triggeredScopeVariables?: Readonly<Record<string, TypedValue>>): void {
    this.schedule(execution, () => this.triggerNow(execution, activityId, triggeredScopeVariables));
  }

  /**
   * `triggeredScopeVariables` go local to what the event starts: the execution leaving a boundary
   * event, the scope execution of an event sub-process, or the waiting execution of a catch event
   * (a receive task takes none).
   */
  private async triggerNow(execution: Execution, activityId: string, triggeredScopeVariables?: Readonly<Record<string, TypedValue>>): Promise<void> {
    const event = this.model.activity(activityId);
    if (!event) throw new ProcessEngineException(`Activity '${activityId}' is not part of process '${this.model.key}'`);
    if (execution.suspended) throw suspendedError(execution);
    const eventSubProcess = eventSubProcessOf(this.model, event);
    if (eventSubProcess) return this.fireEventSubProcess(execution, event, eventSubProcess, triggeredScopeVariables);
    if (event.attachedTo !== null && execution.scopeActivityId !== null && execution.scopeActivityId === boundaryHostId(this.model, event.attachedTo)) {
      return this.fireBoundaryEvent(execution, event, triggeredScopeVariables);
    }
    // Camunda's EventHandlerImpl: only a message catch event takes them local; for a receive task they
    // wait on the instance for a scope that never starts, so they are dropped.
    if (event.type === 'bpmn:IntermediateCatchEvent') this.setLocals(execution, triggeredScopeVariables);
    if (execution.activityId === activityId) return this.signalNow(execution);
    const at = execution.activityId ? this.model.activity(execution.activityId) : undefined;
    if (at?.type !== 'bpmn:EventBasedGateway') {
      throw new ProcessEngineException(`Execution '${execution.id}' does not wait for event '${activityId}'`);
    }
    await jobsDeleted(this.ctx, await this.ctx.jobs.deleteByExecutions([execution.id]));
    await this.ctx.eventSubscriptions.deleteByExecutions([execution.id]);
    await this.notify(execution, at.executionListeners, 'end', at.id);
    this.endActivityInstance(execution);
    this.schedule(execution, () => this.arrive(execution, activityId, true, true));
  }

  /** Fires a boundary event of the activity whose scope `scope` is, now. */
  async fireBoundaryEvent(scope: Execution, boundary: FlowElementModel, localVariables?: Readonly<Record<string, TypedValue>>): Promise<void> {
    if (!boundary.cancelActivity) {
      this.enter(await this.concurrentPathBeside(scope), boundary.id, { localVariables });
      return;
    }
    const holder = this.parentOf(scope);
    await this.removeExecution(scope, true);
    holder.activityInstanceId = null;
    holder.isActive = true;
    this.tree.touch(holder);
    this.enter(holder, boundary.id, { localVariables });
  }

  private setLocals(execution: Execution, variables: Readonly<Record<string, TypedValue>> | undefined): void {
    for (const [name, value] of Object.entries(variables ?? {})) this.variables.setLocal(execution.id, name, value);
  }

  /**
   * Throws a BPMN error from an execution: the nearest enclosing error event sub-process or boundary
   * event whose code matches catches it, in this instance or, through the call activity, in a
   * calling one. Caught nowhere, the execution ends as at a none end event (Camunda's
   * BpmnExceptionHandler walks the whole hierarchy before it decides so).
   */
  async throwError(execution: Execution, errorCode: string, errorMessage: string | null): Promise<void> {
    const found = this.errorCatchFor(execution, errorCode);
    if (found) {
      const { scope, event } = found;
      const definition = event.eventDefinitions.find((each) => each.type === 'bpmn:ErrorEventDefinition')!;
      if (event.attachedTo === null) {
        this.setErrorVariables(scope, definition, errorCode, errorMessage);
        await this.fireEventSubProcess(scope, event, this.model.activity(event.scopeId)!);
      } else {
        this.setErrorVariables(this.parentOf(scope), definition, errorCode, errorMessage);
        await this.fireBoundaryEvent(scope, event);
      }
      return;
    }
    // Not caught in this instance: a called instance hands the error to its call activity when a caller catches it.
    const root = this.tree.root;
    if (root?.superExecutionId && (await callerCatchesError(this, root, errorCode)) && (await propagateErrorToCaller(this, root, errorCode, errorMessage))) return;
    this.env.logger.warn(
      `Execution with id '${execution.id}' throws an error event with errorCode '${errorCode}', but no catching boundary event was defined. Execution is ended (none end event semantics).`,
    );
    this.endActivityInstance(execution);
    await this.end(execution);
  }

  /** The error event of this instance that catches an error thrown by `execution`, innermost scope first: an event sub-process's start, then a boundary event. */
  errorCatchFor(execution: Execution, errorCode: string): { scope: Execution; event: FlowElementModel } | null {
    for (const { scope, containerId, host } of this.catchingScopes(execution)) {
      const errorStart = containerId === null ? null : matchingErrorStart(this.model, containerId, errorCode);
      if (errorStart && !this.insideEventSubProcess(execution, errorStart)) return { scope, event: errorStart };
      const found = host && matchingErrorBoundary(this.model, host, errorCode);
      if (found) return { scope, event: found.boundary };
    }
    return null;
  }

  /**
   * Throws an escalation from an execution (Camunda's EscalationHandler): the nearest enclosing
   * escalation event sub-process or boundary event that catches the code fires, in this instance or,
   * through the call activity, in the calling ones. Whether one caught it, and the execution that
   * goes on past the throw: none when an interrupting event took its scope away.
   */
  async throwEscalation(execution: Execution, escalationCode: string): Promise<{ caught: boolean; goesOn: Execution | null }> {
    const instanceId = execution.activityInstanceId;
    const found = this.escalationCatchFor(execution, escalationCode);
    const root = this.tree.root;
    let outcome: EscalationOutcome = 'uncaught';
    if (found) {
      await this.fireEscalationCatch(found, escalationCode);
      outcome = found.interrupting ? 'interrupted' : 'caught';
    } else if (root?.superExecutionId) {
      outcome = await escalateToCaller(this, root, escalationCode);
    }
    if (outcome === 'interrupted') return { caught: true, goesOn: null };
    // A non-interrupting event sub-process of the throwing execution's own scope hands its path to a new child.
    const goesOn =
      execution.activityInstanceId === instanceId && this.tree.executions.has(execution.id)
        ? execution
        : ([...this.tree.executions.values()].find((each) => each.activityInstanceId === instanceId) ?? null);
    return { caught: outcome === 'caught', goesOn };
  }

  /** The escalation event of this instance that catches an escalation thrown by `execution`, innermost scope first. */
  escalationCatchFor(execution: Execution, escalationCode: string): EscalationCatch | null {
    for (const { scope, containerId, host } of this.catchingScopes(execution)) {
      const start = containerId === null ? null : matchingEscalationStart(this.model, containerId, escalationCode);
      // An event sub-process does not catch what its own content throws.
      if (start && !this.insideEventSubProcess(execution, start)) return { scope, event: start, interrupting: start.isInterrupting };
      const boundary = host && matchingEscalationBoundary(this.model, host, escalationCode);
      if (boundary) return { scope, event: boundary, interrupting: boundary.cancelActivity };
    }
    return null;
  }

  /** Fires a caught escalation; camunda:escalationCodeVariable is set as Camunda's handler sets it. */
  async fireEscalationCatch({ scope, event, interrupting }: EscalationCatch, escalationCode: string): Promise<void> {
    const eventSubProcess = eventSubProcessOf(this.model, event);
    const variable = event.eventDefinitions.find((each) => each.type === 'bpmn:EscalationEventDefinition')?.camunda.escalationCodeVariable;
    // On the event's event scope when it interrupts, else on its flow scope.
    const on = eventSubProcess || interrupting ? scope : this.parentOf(scope);
    if (typeof variable === 'string' && variable !== '') this.variables.setVisible(on.id, variable, untypedValue(escalationCode));
    if (eventSubProcess) await this.fireEventSubProcess(scope, event, eventSubProcess);
    else await this.fireBoundaryEvent(scope, event);
  }

  /**
   * The scopes an event thrown by `execution` passes on its way out, innermost first: each with the
   * container whose event sub-processes may catch it (the process or a sub-process, else null) and
   * the activity whose boundary events may (none at process level, nor for one instance of a
   * multi-instance activity: its boundary events belong to the body further up).
   */
  private *catchingScopes(execution: Execution): Generator<{ scope: Execution; containerId: string | null; host: FlowElementModel | null }> {
    for (let scope: Execution | null = this.scopeExecutionOf(execution); scope; scope = scope.parentId === null ? null : this.scopeExecutionOf(this.parentOf(scope))) {
      const activityId = scope.scopeActivityId;
      if (activityId === null) {
        yield { scope, containerId: this.model.key, host: null };
        return;
      }
      const container = this.model.activity(activityId);
      const host = this.model.activity(scopeElementId(activityId))!;
      yield {
        scope,
        containerId: container?.type === 'bpmn:SubProcess' ? container.id : null,
        host: host.multiInstance && !activityId.endsWith(MI_BODY_SUFFIX) ? null : host,
      };
    }
  }

  private setErrorVariables(on: Execution, definition: EventDefinitionModel, errorCode: string, errorMessage: string | null): void {
    const setOn = (name: unknown, value: string | null) => {
      if (typeof name === 'string' && name !== '') this.variables.setVisible(on.id, name, untypedValue(value));
    };
    setOn(definition.camunda.errorCodeVariable, errorCode);
    setOn(definition.camunda.errorMessageVariable, errorMessage);
  }

  /** Whether the execution already runs inside the event sub-process of this start event (it cannot catch its own error). */
  private insideEventSubProcess(execution: Execution, start: FlowElementModel): boolean {
    for (let current: Execution | undefined = execution; current; current = current.parentId ? this.tree.executions.get(current.parentId) : undefined) {
      if (current.scopeActivityId === start.scopeId) return true;
    }
    return false;
  }

  // --- arriving and leaving ---

  private async arrive(execution: Execution, activityId: string, skipAsync: boolean, occurred = false, options: EnterOptions = {}): Promise<void> {
    const element = this.model.activity(activityId);
    if (!element) throw new ProcessEngineException(`Activity '${activityId}' is not part of process '${this.model.key}'`);
    if (execution.suspended) throw suspendedError(execution);
    const continuation = continuationOf(element, element.multiInstance !== null && enclosingBody(this, execution, element) !== null);
    if (continuation.camunda.asyncBefore === true && !skipAsync) {
      this.setLocals(execution, options.localVariables);
      // Waiting before a multi-instance body, the execution is at the body (Camunda's transition instance of X#multiInstanceBody).
      execution.activityId = continuation.activityId;
      execution.activityInstanceId = null;
      execution.isActive = true;
      this.tree.touch(execution);
      await createAsyncJob(this, execution, element, 'async-before', continuation);
      return;
    }
    const parentInstanceId = this.scopeExecutionOf(execution).scopeInstanceId ?? execution.processInstanceId;
    if (element.multiInstance && !enclosingBody(this, execution, element)) {
      const body = await enterBody(this, execution, element, parentInstanceId);
      await createBoundaryEventTriggers(this, body, element);
      // A modification starting inside the activity: one instance, from which it goes on.
      if (options.startAt?.[0] === element.id) return this.startAtNext(initializeSingleInstance(this, body, element), options);
      startInstances(this, body, element);
      return;
    }
    const instanceId = activityInstanceId(activityId, this.ctx.ids.next());
    this.flowNodesStarted++;
    execution.activityId = activityId;
    execution.activityInstanceId = instanceId;
    execution.isActive = true;
    this.tree.touch(execution);
    let target = execution;
    if (isScopeActivity(element)) {
      execution.isActive = false;
      target = this.tree.add({
        ...this.childOf(execution),
        isScope: true,
        activityId,
        activityInstanceId: instanceId,
        scopeActivityId: activityId,
        scopeInstanceId: instanceId,
      });
    }
    this.tree.addActivityInstance({
      id: instanceId,
      processInstanceId: execution.processInstanceId,
      parentId: parentInstanceId,
      activityId,
      activityType: element.activityType,
      activityName: element.name,
      executionId: target.id,
      startTime: this.ctx.clock.now(),
    });
    if (target !== execution) await this.initializeScope(target, element);
    this.setLocals(target, options.localVariables);
    await this.catchingBpmnErrors(target, () => this.notifyListeners(target, element, 'start'));
    // An event sub-process starts at the start event whose event happened; a modification inside a scope it creates.
    if (options.startAt?.length) return this.startAtNext(target, options);
    // A catch event after an event-based gateway whose event already happened only passes through.
    if (occurred) return this.leave(target);
    // Camunda's ACTIVITY_EXECUTE: a scope's conditional events are evaluated before its behavior runs,
    // so one that already holds interrupts the activity before it does its work (the step is then
    // skipped with its execution); it goes first on the agenda, after those events.
    if (target !== execution && this.hasConditionalEvents !== false && this.variables.hasChanges) {
      this.schedule(target, () => behaviorFor(element).execute(this, target, element));
      return;
    }
    await behaviorFor(element).execute(this, target, element);
  }

  /**
   * Goes on to the next of `options.startAt` on `execution`. Scopes on the way are only instantiated,
   * without their async-before break (Camunda's ACTIVITY_INIT_STACK); a modification's variables go
   * on the execution that enters the innermost.
   */
  private startAtNext(execution: Execution, options: EnterOptions): void {
    const [next, ...deeper] = options.startAt!;
    const innermost = deeper.length === 0;
    if (innermost) options.beforeTarget?.(execution);
    const occurred = options.startOccurred ?? false;
    const rest = { ...options, startAt: deeper, localVariables: undefined, beforeTarget: innermost ? undefined : options.beforeTarget };
    this.schedule(execution, () => this.arrive(execution, next, occurred || !innermost, occurred, rest));
  }

  /**
   * A scope execution just created for `element` (before its start listeners): its input mappings
   * unless skipped, its boundary events' triggers and its event sub-processes.
   */
  async initializeScope(scope: Execution, element: FlowElementModel): Promise<void> {
    if (!this.skips.skipIoMappings) await mapInputs(this, scope, element);
    await this.armScopeTriggers(scope, element);
  }

  /** A scope execution's own triggers: its activity's boundary events and its event sub-processes, but those `except` names (a migration keeps theirs). */
  async armScopeTriggers(scope: Execution, element: FlowElementModel, except: ReadonlySet<string> = new Set()): Promise<void> {
    if (!element.multiInstance) await createBoundaryEventTriggers(this, scope, element, except);
    if (element.type === 'bpmn:SubProcess' && !element.triggeredByEvent) await armEventSubProcesses(this, scope, element.id, except);
  }

  /**
   * Runs listeners of the flow (an activity's start or end, a flow's take, a task's create): a
   * BpmnError one throws goes to the events that catch it from `execution`, and the rest of the
   * step does not happen (Camunda's AbstractPvmEventAtomicOperation.eventNotificationsFailed).
   */
  async catchingBpmnErrors(execution: Execution, work: () => Promise<void>): Promise<void> {
    if (await withErrorPropagation(this, execution, work)) throw new FlowInterrupted();
  }

  /** An end event ends its path: its end listeners first (Camunda's PvmExecutionImpl.end), then its activity instance. */
  async endAtEndEvent(execution: Execution): Promise<void> {
    const element = this.elementOf(execution);
    await this.catchingBpmnErrors(execution, () => this.notifyListeners(execution, element, 'end'));
    this.endActivityInstance(execution);
    await this.end(execution);
  }

  /** The process's own execution listeners of `event` (its start, its end or cancellation), unless skipCustomListeners. */
  async notifyProcess(event: 'start' | 'end'): Promise<void> {
    const root = this.tree.root;
    if (root) await this.notify(root, this.model.executionListeners, event, this.model.key);
  }

  /** The element's execution listeners of `event`, unless skipCustomListeners. */
  notifyListeners(execution: Execution, element: FlowElementModel, event: 'start' | 'end'): Promise<void> {
    return this.notify(execution, element.executionListeners, event, element.id);
  }

  private async completeActivity(execution: Execution, chosen: readonly string[] | undefined, evaluateConditions: boolean): Promise<void> {
    const element = this.elementOf(execution);
    const flows = chosen ?? (await this.flowsBeforeEnding(execution, element, evaluateConditions));
    let leaving = execution;
    if (execution.isScope && execution.scopeActivityId === element.id && execution.parentId !== null) {
      // Camunda's TRANSITION_NOTIFY_LISTENER_END, then TRANSITION_DESTROY_SCOPE (ACTIVITY_END without
      // outgoing flows): the end listeners before the output mappings, and only a BpmnError from a
      // listener reaches the events that catch it.
      await this.catchingBpmnErrors(execution, () => this.notifyListeners(execution, element, 'end'));
      await this.destroyScope(execution, element);
      leaving = this.parentOf(execution);
      const compensable = await compensableInside(this, execution, element);
      await this.removeCompletedScope(execution);
      await subProcessCompleted(this, leaving, element, compensable);
      leaving.activityId = element.id;
      leaving.isActive = true;
      this.tree.touch(leaving);
    } else {
      await this.catchingBpmnErrors(execution, () => this.notify(execution, element.executionListeners, 'end', element.id));
    }
    this.endActivityInstance(leaving);
    await subscribeCompensation(this, leaving, element);
    const body = enclosingBody(this, leaving, element);
    if (body) {
      const continuation = continuationOf(element, true);
      if (continuation.camunda.asyncAfter !== true) {
        // The inner activity has no flows of its own (they are the body's): it ends its scope, as Camunda's end(true).
        this.tree.history.scopeCompleted(leaving.id, element.id);
        return instanceCompleted(this, body, leaving, element);
      }
      return this.waitAfter(leaving, element, 'async-after', continuation);
    }
    await this.afterActivity(leaving, element, flows, evaluateConditions);
  }

  /**
   * The flows an activity leaves along, chosen on its own execution before it ends (Camunda's
   * BpmnActivityBehavior.performOutgoingBehavior): a condition sees the activity's local variables
   * but not what its end listeners or output mappings set. An instance of a multi-instance activity
   * leaves along none; its body chooses when it completes.
   */
  private async flowsBeforeEnding(execution: Execution, element: FlowElementModel, evaluateConditions: boolean): Promise<string[] | undefined> {
    return element.multiInstance ? undefined : this.outgoingFlows(execution, element, evaluateConditions);
  }

  /** After an activity completed: an async-after break, or on along the outgoing flows. */
  async afterActivity(leaving: Execution, element: FlowElementModel, chosen: readonly string[] | undefined, evaluateConditions: boolean): Promise<void> {
    this.endActivityInstance(leaving);
    if (element.camunda.asyncAfter === true) {
      return this.waitAfter(leaving, element, chosen?.length ? `async-after:${chosen.join(',')}` : 'async-after', continuationOf(element, false));
    }
    await this.takeFlows(leaving, element, chosen, evaluateConditions);
  }

  /** An async-after break: the execution waits at the continuation's activity (a multi-instance body's, or the activity's) for its job. */
  private async waitAfter(leaving: Execution, element: FlowElementModel, configuration: string, continuation: ReturnType<typeof continuationOf>): Promise<void> {
    leaving.activityId = continuation.activityId;
    this.tree.touch(leaving);
    await createAsyncJob(this, leaving, element, configuration, continuation);
  }

  /** Leaves an activity along its outgoing flows (or the chosen ones); none left ends the path. */
  async takeFlows(execution: Execution, element: FlowElementModel, chosen: readonly string[] | undefined, evaluateConditions: boolean): Promise<void> {
    const flows = chosen ?? (await this.outgoingFlows(execution, element, evaluateConditions));
    // The first flow taken ends the instance's start (Camunda clears isProcessInstanceStarting there).
    this.variables.starting = false;
    if (flows.length === 0) return this.end(execution);
    for (const flowId of flows) await this.catchingBpmnErrors(execution, () => this.notify(execution, this.model.flows.get(flowId)!.executionListeners, 'take', flowId));
    const targets = flows.map((flowId) => this.model.flows.get(flowId)!.targetRef);
    if (targets.length === 1) return this.enter(execution, targets[0]);
    const paths = this.fork(execution, targets.length);
    paths.forEach((path, i) => this.enter(path, targets[i]));
  }

  /** The content of a scope ended: the instance ends, a sub-process completes, a task scope's path ends. */
  private async scopeDone(scope: Execution): Promise<void> {
    // A held event sub-process start keeps the scope: it fires now, and the scope ends after it.
    const held = this.heldTriggers.filter((step) => step.execution === scope);
    if (held.length > 0) {
      this.heldTriggers = this.heldTriggers.filter((step) => step.execution !== scope);
      this.agenda.unshift(...held);
      return;
    }
    if (scope.parentId === null) return this.finishInstance();
    const activity = this.model.activity(scope.scopeActivityId ?? '');
    if (activity && isFlowContainer(activity)) {
      scope.activityId = activity.id;
      scope.isActive = true;
      this.tree.touch(scope);
      return this.completeActivity(scope, undefined, true);
    }
    const holder = this.parentOf(scope);
    await this.removeExecution(scope);
    this.endActivityInstance(holder);
    await this.end(holder);
  }

  // Camunda: unconditional flows and the conditional ones that hold; the default flow only when none does.
  async outgoingFlows(execution: Execution, element: FlowElementModel, evaluateConditions: boolean): Promise<string[]> {
    const flows = this.model.flowsFrom(element.id).filter((flow) => flow.id !== element.defaultFlow);
    const taken = evaluateConditions ? await this.flowsHolding(execution, flows) : flows;
    if (taken.length === 0 && element.defaultFlow) return [element.defaultFlow];
    // Camunda's BpmnActivityBehavior.performOutgoingBehavior: outgoing flows of which none holds are an error, not an end.
    if (taken.length === 0 && flows.length > 0) {
      throw new ProcessEngineException(engineMessage('02', '006', `No conditional sequence flow leaving the Flow Node '${element.id}' could be selected for continuing the process.`));
    }
    return taken.map((flow) => flow.id);
  }

  /** Splits one path into `count` concurrent ones (Camunda's concurrent child executions). */
  fork(execution: Execution, count: number): Execution[] {
    const parent = execution.isConcurrent ? this.parentOf(execution) : execution;
    const paths = execution.isConcurrent ? [execution] : [];
    if (!execution.isConcurrent) {
      parent.isActive = false;
      parent.activityId = null;
      parent.activityInstanceId = parent.scopeInstanceId;
      this.tree.touch(parent);
    }
    while (paths.length < count) paths.push(this.tree.add(this.concurrentChild(parent)));
    return paths;
  }

  private concurrentChild(parent: Execution): Execution {
    return { ...this.childOf(parent), isConcurrent: true };
  }

  childOf(parent: Execution): Execution {
    return {
      ...parent,
      id: this.ctx.ids.next(),
      parentId: parent.id,
      activityId: null,
      activityInstanceId: null,
      isActive: true,
      isConcurrent: false,
      isScope: false,
      isCompensating: false,
      startTime: this.ctx.clock.now(),
      scopeActivityId: null,
      scopeInstanceId: null,
      superExecutionId: null,
      superProcessInstanceId: null,
    };
  }

  /** The instance ends: completed (its caller goes on past the call activity) or `cancelled` (its caller's call activity is cancelled). */
  private async finishInstance(cancelled = false): Promise<void> {
    const root = this.tree.root;
    if (!root) return;
    await this.notifyProcess('end');
    this.finalVariables = this.variables;
    for (const instance of [...this.tree.activityInstances.keys()]) this.tree.removeActivityInstance(instance, true);
    for (const execution of [...this.tree.executions.values()]) this.tree.remove(execution);
    this.agenda.length = 0;
    this.heldTriggers = [];
    this.ended = true;
    await (cancelled ? cancelCallingActivity(this, root) : resumeCallingInstance(this, root));
  }

  private async notify(execution: Execution, listeners: readonly ListenerModel[], event: string, elementId: string): Promise<void> {
    if (listeners.length === 0 || this.skips.skipCustomListeners) return;
    const outer = this.listenerEvent;
    this.listenerEvent = { event, elementId };
    try {
      await invokeListeners(this, execution, listeners.filter((listener) => listener.event === event), elementId);
    } finally {
      this.listenerEvent = outer;
    }
  }

  elementOf(execution: Execution): FlowElementModel {
    const element = execution.activityId ? this.model.activity(execution.activityId) : undefined;
    if (!element) throw new ProcessEngineException(`Execution '${execution.id}' is not at an activity`);
    return element;
  }
}

/** Ends a step whose listener threw a BPMN error that was handled already (caught in the run loop). */
class FlowInterrupted extends Error {}

/** Camunda's ExecutionEntity.ensureNotSuspended, as an atomic operation on a suspended execution fails. */
function suspendedError(execution: Execution): ProcessEngineException {
  return suspendedEntity('Execution', execution.id);
}

/** The scope a boundary event of an activity listens on: the activity's own, or its multi-instance body. */
function boundaryHostId(model: ProcessModel, attachedTo: string): string {
  return model.activity(attachedTo)?.multiInstance ? miBodyId(attachedTo) : attachedTo;
}

