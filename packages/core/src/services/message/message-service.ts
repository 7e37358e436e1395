import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NotFoundException, NullValueException, ProcessEngineException } from '../../errors/exceptions.js';
import { engineMessage } from '../../errors/engine-message.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import type { EventSubscription } from '../../persistence/repositories/event-subscription-repository.js';
import { throwSignal, type SignalThrow } from '../../runtime/events/signals.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import type { ProcessRunner } from '../../runtime/process-runner.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { startInstance } from '../../runtime/start-instance.js';
import { fromStorage, toJavaScriptValue, toStorage, type TypedValue } from '../../runtime/variables/index.js';
import { typedValueEquals } from '../../persistence/repositories/variable-instance-query.js';
import type { VariableValueCondition } from '../variable-instance/variable-instance.js';
import { checkCreateInstance, checkInstance } from '../../authorization/instance-checks.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import type { VariableRow } from '../../persistence/repositories/variable-repository.js';

/** A message correlation (Camunda's MessageCorrelationBuilder / POST /message). */
export interface MessageCorrelation {
  /** null matches a message of any name (Camunda's correlate-message batch allows it). */
  messageName: string | null;
  businessKey?: string | null;
  processInstanceId?: string | null;
  tenantId?: string | null;
  withoutTenantId?: boolean;
  /** Process instance variables that must equal these values. */
  correlationKeys?: Record<string, TypedValue>;
  /** Variables local to the waiting execution that must equal these values. */
  localCorrelationKeys?: Record<string, TypedValue>;
  /** Set on the process instance before it moves on (a started instance's start variables). */
  processVariables?: Record<string, TypedValue>;
  /** Set on the execution that receives the message. */
  processVariablesLocal?: Record<string, TypedValue>;
  /**
   * Set local on what the message starts: the execution leaving a message boundary event, the
   * scope of a message event sub-process, the execution at a catch event; a started instance's.
   */
  processVariablesToTriggeredScope?: Record<string, TypedValue>;
  /** Correlate to every match instead of exactly one. */
  all?: boolean;
  /** Only message start events, never waiting executions. */
  startMessagesOnly?: boolean;
}

export interface MessageCorrelationResult {
  resultType: 'Execution' | 'ProcessDefinition';
  execution: { id: string; processInstanceId: string; ended: boolean; tenantId: string | null } | null;
  processInstance: {
    id: string;
    definitionId: string;
    businessKey: string | null;
    ended: boolean;
    suspended: boolean;
    tenantId: string | null;
  } | null;
  /** The process instance's variables after the correlation. */
  variables: Record<string, TypedValue>;
}

/** A message start event that matches a correlation, with its (active) definition. */
interface StartCandidate {
  subscription: EventSubscription;
  definition: ProcessDefinition;
}

/** Cannot correlate: no or too many matches (REST answers 400). */
/** An execution waiting for the message, with how many of its subscriptions match. */
interface Waiting {
  runner: ProcessRunner;
  subscription: EventSubscription;
  subscriptions: number;
}

export class MismatchingMessageCorrelationException extends ProcessEngineException {
  override readonly name = 'MismatchingMessageCorrelationException';
}

/** Messages and signals delivered to waiting executions and start events (Camunda's RuntimeService#createMessageCorrelation, #signalEventReceived). */
@injectable()
export class MessageService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  correlate(correlation: MessageCorrelation): Promise<MessageCorrelationResult[]> {
    // Camunda's MessageCorrelationBuilderImpl, before the command runs.
    // A given id counts even when it is '' (Camunda checks for null), and then matches nothing.
    if (correlation.processInstanceId != null && (correlation.tenantId != null || correlation.withoutTenantId)) {
      return Promise.reject(new BadUserRequestException(engineMessage('13', '028', 'Cannot specify a tenant-id when correlate a message to a single process instance.')));
    }
    return this.commands.run('CorrelateMessageCmd', (ctx) => this.correlateIn(ctx, correlation));
  }

  /** Broadcasts a signal to every waiting execution and signal start event (or to one execution). */
  signal(signal: SignalThrow): Promise<void> {
    // Camunda's SignalEventReceivedBuilderImpl.send.
    if (signal.executionId != null && (signal.tenantId != null || signal.withoutTenantId)) {
      return Promise.reject(new BadUserRequestException(engineMessage('13', '027', 'Cannot specify a tenant-id when deliver a signal to a single execution.')));
    }
    return this.commands.run('SignalEventReceivedCmd', async (ctx) => {
      if (signal.executionId != null) {
        // Camunda's SignalEventReceivedCmd.sendSignalToExecution (its ensureNotEmpty takes the text as a name, hence "is empty").
        if (!(await ctx.executions.findById(signal.executionId))) throw new NullValueException(`Cannot find execution with id '${signal.executionId}': execution is null`);
        const subscriptions = await ctx.eventSubscriptions.find({ eventType: 'signal', eventName: signal.name, executionId: signal.executionId });
        if (subscriptions.length === 0) {
          throw new NotFoundException(`Execution '${signal.executionId}' has not subscribed to a signal event with name '${signal.name}'. is empty`);
        }
      }
      await throwSignal(ctx, this.env, signal, null, true);
    });
  }

  /** The correlation inside the caller's command (also the correlate-message batch job). */
  async correlateIn(ctx: CommandContext, correlation: MessageCorrelation): Promise<MessageCorrelationResult[]> {
    const waiting = correlation.startMessagesOnly ? [] : await this.waitingExecutions(ctx, correlation);
    const all = correlation.all === true;
    if (!all && waiting.length > 1) {
      throw new MismatchingMessageCorrelationException(
        engineMessage('13', '031', `Cannot correlate a message with name '${correlation.messageName}' to a single execution. ${waiting.length} executions match the correlation keys: ${describeKeys(correlation)}`),
      );
    }
    // Camunda's DefaultCorrelationHandler: start events match by name and tenant only (correlation keys and a
    // process instance id narrow the executions, not the start events).
    const starts = all || waiting.length === 0 ? await this.startEvents(ctx, correlation) : [];
    if (!all && waiting.length === 0 && starts.length > 1) {
      throw new MismatchingMessageCorrelationException(
        // "correlations keys": Camunda's own text.
        engineMessage('13', '030', `Cannot correlate a message with name '${correlation.messageName}' to a single process definition. ${starts.length} process definitions match the correlations keys: ${describeKeys(correlation)}`),
      );
    }
    if (!all && waiting.length === 0 && starts.length === 0) {
      throw new MismatchingMessageCorrelationException(`Cannot correlate message '${correlation.messageName}': No process definition or execution matches the parameters`);
    }
    const delivered: Array<{ result: MessageCorrelationResult; runner: ProcessRunner }> = [];
    for (const match of all ? waiting : waiting.slice(0, 1)) delivered.push(await this.deliver(ctx, match, correlation));
    for (const candidate of all ? starts : waiting.length === 0 ? starts.slice(0, 1) : []) delivered.push(await this.start(ctx, candidate, correlation));
    // Camunda reads the results from the entities once every correlation is done: an execution or
    // instance that a later one ended shows as ended.
    const results = delivered.map(({ result, runner }) => {
      if (result.execution) result.execution.ended = !runner.tree.executions.has(result.execution.id);
      if (result.processInstance) result.processInstance.ended = runner.ended;
      return result;
    });
    if (all) await logCorrelateAll(ctx, correlation, results);
    return results;
  }

  private async waitingExecutions(ctx: CommandContext, correlation: MessageCorrelation): Promise<Waiting[]> {
    // Camunda's DefaultCorrelationHandler queries executions with the keys as variable conditions, refused before anything is read.
    const conditions = (keys: Record<string, TypedValue> | undefined) => Object.entries(keys ?? {}).map(([name, value]) => typedValueEquals(name, value));
    const keys = conditions(correlation.correlationKeys);
    const localKeys = conditions(correlation.localCorrelationKeys);
    const subscriptions = await ctx.eventSubscriptions.find({
      eventType: 'message',
      eventName: correlation.messageName ?? undefined,
      startEvents: false,
      ...(correlation.processInstanceId != null ? { processInstanceId: correlation.processInstanceId } : {}),
    });
    // By execution id, in the order found.
    const matches = new Map<string, Waiting>();
    // The task variables of each instance, read once (only local keys look at them).
    const taskRowsByInstance = new Map<string, Promise<VariableRow[]>>();
    const taskRowsOf = (processInstanceId: string) => {
      let rows = taskRowsByInstance.get(processInstanceId);
      if (!rows) taskRowsByInstance.set(processInstanceId, (rows = ctx.variables.findByProcessInstance(processInstanceId).then((all) => all.filter((row) => row.task_id !== null))));
      return rows;
    };
    for (const subscription of subscriptions) {
      // Camunda matches executions (an exists over their subscriptions): one execution waiting for the
      // message twice (a catch event and an event sub-process, say) is one match, refused when delivered.
      const sameExecution = matches.get(subscription.executionId!);
      if (sameExecution) {
        sameExecution.subscriptions++;
        continue;
      }
      // Camunda's subscription queries keep the caller's tenants only.
      if (!tenantMatches(subscription, correlation) || !ctx.tenantCheck.isAuthenticatedTenant(subscription.tenantId)) continue;
      const runner = await openInstance(ctx, this.env, subscription.processInstanceId!);
      const execution = runner?.tree.executions.get(subscription.executionId!);
      if (!runner || !execution || execution.suspended) continue;
      if (correlation.businessKey != null && runner.tree.root?.businessKey !== correlation.businessKey) continue;
      // Camunda's Execution.xml: a correlation key matches a variable of that name in any scope of the
      // instance (task variables aside); a local one the execution's own, a task's on it included.
      const scopes = new Set([runner.tree.processInstanceId, ...runner.tree.executions.keys()]);
      if (!variablesMatch(keys, (name) => [...scopes].map((scope) => runner.variables.getLocal(scope, name)))) continue;
      const taskVariables = localKeys.length === 0 ? [] : (await taskRowsOf(runner.tree.processInstanceId)).filter((row) => row.execution_id === execution.id);
      const taskLocal = (name: string) => taskVariables.filter((row) => row.name === name).map((row) => fromStorage(row));
      if (!variablesMatch(localKeys, (name) => [runner.variables.getLocal(execution.id, name), ...taskLocal(name)])) continue;
      matches.set(execution.id, { runner, subscription, subscriptions: 1 });
    }
    return [...matches.values()];
  }

  /** The message start events that match, each with its definition (read once, here). */
  private async startEvents(ctx: CommandContext, correlation: MessageCorrelation): Promise<StartCandidate[]> {
    const subscriptions = await ctx.eventSubscriptions.find({ eventType: 'message', eventName: correlation.messageName ?? undefined, startEvents: true });
    // Camunda's DefaultCorrelationHandler: a suspended definition's start event does not match.
    const active: StartCandidate[] = [];
    for (const subscription of subscriptions) {
      // Camunda's subscription query keeps the caller's tenants only; the one by a given tenant id does
      // not (its instance is then refused by the tenant check of CREATE).
      if (!tenantMatches(subscription, correlation) || (correlation.tenantId == null && !ctx.tenantCheck.isAuthenticatedTenant(subscription.tenantId))) continue;
      const definition = await ctx.processDefinitions.findById(subscription.processDefinitionId!);
      if (definition && !definition.suspended) active.push({ subscription, definition });
    }
    return active;
  }

  /** Camunda's MessageEventReceivedCmd for one matched execution. */
  private async deliver(ctx: CommandContext, { runner, subscription, subscriptions }: Waiting, correlation: MessageCorrelation): Promise<{ result: MessageCorrelationResult; runner: ProcessRunner }> {
    const executionId = subscription.executionId!;
    const execution = runner.tree.executions.get(executionId);
    // An earlier delivery of the same command may have ended the execution (and its subscription).
    if (!execution || subscriptions > 1) throw messageSubscriptionRefused(executionId, correlation.messageName, execution ? subscriptions : 0);
    await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', runner.tree.processInstanceId, runner.definition.key, runner.definition.tenantId);
    for (const [name, value] of Object.entries(correlation.processVariables ?? {})) runner.variables.setVisible(execution.id, name, value);
    for (const [name, value] of Object.entries(correlation.processVariablesLocal ?? {})) runner.variables.setLocal(execution.id, name, value);
    runner.trigger(execution, subscription.activityId!, correlation.processVariablesToTriggeredScope);
    await completeRun(ctx, runner);
    const result: MessageCorrelationResult = {
      resultType: 'Execution',
      execution: { id: execution.id, processInstanceId: execution.processInstanceId, ended: false, tenantId: execution.tenantId },
      processInstance: null,
      variables: (runner.finalVariables ?? runner.variables).snapshot(),
    };
    return { result, runner };
  }

  private async start(ctx: CommandContext, { subscription, definition }: StartCandidate, correlation: MessageCorrelation): Promise<{ result: MessageCorrelationResult; runner: ProcessRunner }> {
    await checkCreateInstance(ctx, definition);
    const runner = await startInstance(ctx, this.env, definition, {
      businessKey: correlation.businessKey ?? null,
      variables: { ...correlation.processVariables, ...correlation.processVariablesLocal, ...correlation.processVariablesToTriggeredScope },
      startActivityId: subscription.activityId!,
    });
    const result: MessageCorrelationResult = {
      resultType: 'ProcessDefinition',
      execution: null,
      processInstance: {
        id: runner.tree.processInstanceId,
        definitionId: definition.id,
        businessKey: correlation.businessKey ?? null,
        ended: false,
        suspended: false,
        tenantId: definition.tenantId,
      },
      variables: runner.variables.snapshot(),
    };
    return { result, runner };
  }
}

/**
 * Camunda's MessageEventReceivedCmd when the execution has not exactly one subscription to the
 * message (`found` of them): its ensureNotEmpty and ensureNumberOfElements.
 */
export function messageSubscriptionRefused(executionId: string, messageName: string | null, found: number): ProcessEngineException {
  if (found === 0) {
    return new ProcessEngineException(`Execution with id '${executionId}' does not have a subscription to a message event with name '${messageName}': eventSubscriptions is empty`);
  }
  return new ProcessEngineException(`More than one matching message subscription found for execution ${executionId}: eventSubscriptions does not have 1 elements`);
}

function tenantMatches(subscription: EventSubscription, correlation: MessageCorrelation): boolean {
  if (correlation.withoutTenantId) return subscription.tenantId === null;
  if (correlation.tenantId != null) return subscription.tenantId === correlation.tenantId;
  return true;
}

/**
 * Camunda's CorrelateAllMessageCmd operation log at its default logEntriesPerSyncOperationLimit (1):
 * one entry — for several results a summary (nrOfInstances) in the context of the first one's
 * definition, for one result that result's started instance (if it started one).
 */
async function logCorrelateAll(ctx: CommandContext, correlation: MessageCorrelation, results: MessageCorrelationResult[]): Promise<void> {
  if (results.length === 0) return;
  const variables = [correlation.processVariables, correlation.processVariablesLocal, correlation.processVariablesToTriggeredScope].reduce((sum, map) => sum + Object.keys(map ?? {}).length, 0);
  const changes = [{ property: 'messageName', newValue: correlation.messageName }, ...(variables > 0 ? [{ property: 'nrOfVariables', newValue: variables }] : [])];
  const started = results[0]!.processInstance;
  const definition = started ? await ctx.processDefinitions.findById(started.definitionId) : null;
  const context = { processDefinitionId: definition?.id ?? null, processDefinitionKey: definition?.key ?? null, tenantId: definition?.tenantId ?? null };
  if (results.length > 1) {
    OperationLogEntries.processInstance(ctx, 'CorrelateMessage', { ...context, processInstanceId: null }, [...changes, { property: 'nrOfInstances', newValue: results.length }]);
  } else {
    OperationLogEntries.processInstance(ctx, 'CorrelateMessage', { ...context, processInstanceId: started?.id ?? null }, [...changes, ...(started ? [{ property: 'processInstanceId', newValue: started.id }] : [])]);
  }
}

/** Every condition holds for a candidate variable of its name. */
function variablesMatch(conditions: readonly VariableValueCondition[], candidates: (name: string) => Array<TypedValue | undefined>): boolean {
  return conditions.every((condition) => candidates(condition.name).some((found) => found !== undefined && equalsHolds(condition, found)));
}

/** A typedValueEquals condition checked on a variable in memory, as its SQL (valueCondition) would check the variable's row. */
function equalsHolds(condition: VariableValueCondition, variable: TypedValue): boolean {
  const { value } = condition;
  if (value === null) {
    const row = toStorage(variable);
    return variable.type === 'null' || (variable.type !== 'file' && row.text === null && row.text2 === null && row.long_value === null && row.double_value === null && row.bytes === null);
  }
  if (typeof value === 'number') return variable.type === condition.numberType && variable.value === value;
  if (value instanceof Date) return variable.type === 'date' && variable.value?.getTime() === value.getTime();
  return variable.type === (typeof value === 'boolean' ? 'boolean' : 'string') && variable.value === value;
}

/**
 * Camunda's CorrelationSet.toString: its key maps as VariableMapImpl prints them (a line per typed
 * value, as AbstractTypedValue and its primitive value type print); none given is null.
 */
function describeKeys(correlation: MessageCorrelation): string {
  const map = (values: Record<string, TypedValue> | undefined) => {
    const entries = Object.entries(values ?? {});
    if (entries.length === 0) return 'null';
    const lines = entries.map(([name, value]) => `  ${name} => Value '${String(toJavaScriptValue(value))}' of type 'PrimitiveValueType[${value.type}]', isTransient=false\n`);
    return `{\n${lines.join('')}}`;
  };
  const tenantIdSet = correlation.tenantId != null || correlation.withoutTenantId === true;
  return (
    `CorrelationSet [businessKey=${correlation.businessKey ?? null}, processInstanceId=${correlation.processInstanceId ?? null}, processDefinitionId=null, ` +
    `correlationKeys=${map(correlation.correlationKeys)}, localCorrelationKeys=${map(correlation.localCorrelationKeys)}, tenantId=${correlation.tenantId ?? null}, ` +
    `isTenantIdSet=${tenantIdSet}, isExecutionsOnly=false]`
  );
}
