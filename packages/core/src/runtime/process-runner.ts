import type { FlowElementModel, ProcessModel } from '../bpmn/index.js';
import type { CommandContext } from '../command/command-context.js';
import { ProcessEngineException } from '../errors/exceptions.js';
import type { ProcessDefinition } from '../services/process-definition/process-definition.js';
import { behaviorFor } from './behaviors/behavior-registry.js';
import { activityInstanceId, type Execution } from './execution.js';
import type { ExecutionTree } from './execution-tree.js';
import { evaluateExpression } from './expressions/index.js';
import type { InstanceVariables } from './instance-variables.js';

type Operation =
  | { kind: 'enter'; execution: Execution; activityId: string }
  | { kind: 'signal'; execution: Execution }
  | { kind: 'leave'; execution: Execution; flowIds?: readonly string[]; evaluateConditions?: boolean };

/**
 * Moves one process instance through its model inside a command (Camunda's atomic operations):
 * operations go on an agenda and run one after another until every execution waits or ended.
 */
export class ProcessRunner {
  private readonly agenda: Operation[] = [];
  /** Process instances this command ended. */
  ended = false;

  constructor(
    readonly ctx: CommandContext,
    readonly tree: ExecutionTree,
    readonly model: ProcessModel,
    readonly definition: ProcessDefinition,
    readonly variables: InstanceVariables,
  ) {}

  /** Queues an execution to arrive at an activity. */
  enter(execution: Execution, activityId: string): void {
    this.agenda.push({ kind: 'enter', execution, activityId });
  }

  /** Queues a waiting execution to continue (a completed task, a received message). */
  signal(execution: Execution): void {
    this.agenda.push({ kind: 'signal', execution });
  }

  /** Queues the execution to leave its activity along its outgoing flows (conditions checked). */
  leave(execution: Execution): void {
    this.agenda.push({ kind: 'leave', execution });
  }

  /** Queues the execution to leave along exactly these flows (gateways choose them). */
  leaveVia(execution: Execution, flowIds: readonly string[], options: { evaluateConditions?: boolean } = {}): void {
    this.agenda.push({ kind: 'leave', execution, flowIds, evaluateConditions: options.evaluateConditions ?? false });
  }

  /** Runs the agenda to its end, then writes the tree. */
  async run(): Promise<void> {
    for (let operation = this.agenda.shift(); operation; operation = this.agenda.shift()) {
      if (!this.tree.executions.has(operation.execution.id)) continue;
      if (operation.kind === 'enter') await this.arrive(operation.execution, operation.activityId);
      else if (operation.kind === 'signal') await this.continueWaiting(operation.execution);
      else this.depart(operation.execution, operation.flowIds, operation.evaluateConditions ?? true);
    }
    await this.tree.flush(this.ctx);
  }

  /** Whether a sequence flow or gateway condition holds for the execution's variables. */
  conditionHolds(execution: Execution, condition: string, elementId: string): boolean {
    const value = this.evaluate(execution, condition, elementId);
    if (typeof value !== 'boolean') {
      throw new ProcessEngineException(`Condition expression returns non-Boolean: result has class ${typeName(value)} and not java.lang.Boolean`);
    }
    return value;
  }

  /** Evaluates an expression (or returns literal text) in the scope of an execution. */
  evaluate(execution: Execution, text: string, elementId: string): unknown {
    try {
      return evaluateExpression(text, this.variables.expressionContext(execution));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      throw new ProcessEngineException(`${message} (in '${text}' of element '${elementId}')`, { cause: error });
    }
  }

  /** Executions of the same parent waiting at a joining gateway, this one included. */
  waitingAt(execution: Execution, activityId: string): Execution[] {
    const siblings = execution.parentId === null ? [execution] : this.tree.childrenOf(execution.parentId);
    return siblings.filter((other) => other.activityId === activityId && !other.isActive);
  }

  endActivityInstance(execution: Execution): void {
    if (execution.activityInstanceId && execution.activityInstanceId !== execution.processInstanceId) {
      this.tree.removeActivityInstance(execution.activityInstanceId);
    }
    execution.activityInstanceId = null;
    this.tree.touch(execution);
  }

  /** Ends a path of control; the instance ends with its last one. */
  end(execution: Execution): void {
    execution.activityId = null;
    if (execution.parentId === null) return this.finishInstance();
    this.tree.remove(execution);
    const parent = this.tree.executions.get(execution.parentId)!;
    // Unlike Camunda, a last concurrent path is not pruned into its parent (yet): it runs on as it is.
    if (this.tree.childrenOf(parent.id).length === 0) this.end(parent);
  }

  /** A terminate end event: every path ends now. */
  terminate(): void {
    this.finishInstance();
  }

  private async arrive(execution: Execution, activityId: string): Promise<void> {
    const element = this.model.activity(activityId);
    if (!element) throw new ProcessEngineException(`Activity '${activityId}' is not part of process '${this.model.key}'`);
    const instanceId = activityInstanceId(activityId, this.ctx.ids.next());
    this.tree.addActivityInstance({
      id: instanceId,
      processInstanceId: execution.processInstanceId,
      parentId: execution.processInstanceId,
      activityId,
      activityType: element.activityType,
      activityName: element.name,
      executionId: execution.id,
      startTime: this.ctx.clock.now(),
    });
    execution.activityId = activityId;
    execution.activityInstanceId = instanceId;
    execution.isActive = true;
    this.tree.touch(execution);
    await behaviorFor(element).execute(this, execution, element);
  }

  private async continueWaiting(execution: Execution): Promise<void> {
    const element = this.elementOf(execution);
    const behavior = behaviorFor(element);
    if (!behavior.signal) throw new ProcessEngineException(`Activity '${element.id}' does not wait for a signal`);
    await behavior.signal(this, execution, element);
  }

  private depart(execution: Execution, chosen: readonly string[] | undefined, evaluateConditions: boolean): void {
    const element = this.elementOf(execution);
    const flows = chosen ?? this.outgoingFlows(execution, element, evaluateConditions);
    this.endActivityInstance(execution);
    if (flows.length === 0) return this.end(execution);
    const [first, ...others] = flows;
    const targets = [first, ...others].map((flowId) => this.model.flows.get(flowId)!.targetRef);
    if (others.length === 0) return this.enter(execution, targets[0]);
    const paths = this.fork(execution, flows.length);
    paths.forEach((path, i) => this.enter(path, targets[i]));
  }

  // Camunda: unconditional flows and the conditional ones that hold; the default flow only when none does.
  private outgoingFlows(execution: Execution, element: FlowElementModel, evaluateConditions: boolean): string[] {
    const flows = this.model.flowsFrom(element.id).filter((flow) => flow.id !== element.defaultFlow);
    const taken = flows.filter((flow) => !evaluateConditions || !flow.condition || this.conditionHolds(execution, flow.condition, element.id));
    if (taken.length === 0 && element.defaultFlow) return [element.defaultFlow];
    return taken.map((flow) => flow.id);
  }

  /** Splits one path into `count` concurrent ones (Camunda's concurrent child executions). */
  private fork(execution: Execution, count: number): Execution[] {
    const parent = execution.isConcurrent ? this.tree.executions.get(execution.parentId!)! : execution;
    const paths = execution.isConcurrent ? [execution] : [];
    if (!execution.isConcurrent) {
      parent.isActive = false;
      parent.activityId = null;
      this.tree.touch(parent);
    }
    while (paths.length < count) paths.push(this.tree.add(this.concurrentChild(parent)));
    return paths;
  }

  private concurrentChild(parent: Execution): Execution {
    return {
      ...parent,
      id: this.ctx.ids.next(),
      parentId: parent.id,
      activityId: null,
      activityInstanceId: null,
      isActive: true,
      isConcurrent: true,
      isScope: false,
      startTime: this.ctx.clock.now(),
    };
  }

  private finishInstance(): void {
    for (const instance of [...this.tree.activityInstances.keys()]) this.tree.removeActivityInstance(instance);
    for (const execution of [...this.tree.executions.values()]) this.tree.remove(execution);
    this.agenda.length = 0;
    this.ended = true;
  }

  private elementOf(execution: Execution): FlowElementModel {
    const element = execution.activityId ? this.model.activity(execution.activityId) : undefined;
    if (!element) throw new ProcessEngineException(`Execution '${execution.id}' is not at an activity`);
    return element;
  }
}

const typeName = (value: unknown) => (value === null ? 'null' : typeof value === 'string' ? 'java.lang.String' : typeof value);
