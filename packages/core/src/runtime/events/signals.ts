import { checkCreateInstance, checkInstance } from '../../authorization/instance-checks.js';
import type { CommandContext } from '../../command/command-context.js';
import type { ProcessDefinition } from '../../services/process-definition/process-definition.js';
import { completeRun, expressionsOn, openInstance } from '../open-instance.js';
import type { ProcessRunner } from '../process-runner.js';
import type { RuntimeEnvironment } from '../runtime-environment.js';
import { startInstance } from '../start-instance.js';
import type { TypedValue } from '../variables/index.js';
import type { EventSubscription } from '../../persistence/repositories/event-subscription-repository.js';
import { createJob } from '../../jobs/create-job.js';
import { declaredPriority, describeExecution, jobContext } from '../priority.js';

export interface SignalThrow {
  name: string;
  variables?: Record<string, TypedValue>;
  /** Only the subscriptions of this execution (REST: executionId). */
  executionId?: string | null;
  tenantId?: string | null;
  withoutTenantId?: boolean;
  /** The business key of the instances the signal starts (a throw event's camunda:in businessKey). */
  businessKey?: string | null;
  /**
   * A throw event's camunda:async: intermediate catch events and process start events receive the
   * signal in a job each (Camunda's "event" job, which carries no payload); others at once.
   */
  async?: boolean;
}

/**
 * Broadcasts a signal: every execution waiting for it continues (with the variables) and every
 * signal start event starts an instance. The throwing instance, when given, handles its own catches.
 * A signal sent through the API (`authorize`) first needs, for every target, Camunda's
 * SignalEventReceivedCmd permissions: UPDATE on a waiting instance (or UPDATE_INSTANCE on its
 * definition), CREATE on process instances and CREATE_INSTANCE on a started definition.
 */
export async function throwSignal(ctx: CommandContext, env: RuntimeEnvironment, signal: SignalThrow, thrower: ProcessRunner | null = null, authorize = false): Promise<void> {
  // Camunda's broadcast query reads the subscriptions of active executions only: a suspended instance keeps waiting.
  const found = await ctx.eventSubscriptions.find({
    eventType: 'signal',
    eventName: signal.name,
    ...(signal.executionId != null ? { executionId: signal.executionId } : { activeExecutionsOnly: true }),
  });
  const subscriptions = found.filter(
    (subscription) =>
      // A tenant given through the API matches exactly (Camunda's …ByEventNameAndTenantId); a process's own throw
      // also reaches subscriptions of no tenant.
      !(signal.tenantId !== undefined && signal.tenantId !== null && subscription.tenantId !== signal.tenantId && (authorize || subscription.tenantId !== null)) &&
      // A process of no tenant reaches subscriptions of no tenant only (Camunda's query by a null tenant id).
      !(thrower !== null && signal.tenantId === null && subscription.tenantId !== null) &&
      !(signal.withoutTenantId && subscription.tenantId !== null) &&
      !(subscription.executionId === null && signal.executionId != null) &&
      // Camunda's signal subscription queries keep the caller's tenants only; the one by a tenant id
      // given through the API does not (the tenant check of the permissions then refuses).
      ((authorize && signal.tenantId != null) || ctx.tenantCheck.isAuthenticatedTenant(subscription.tenantId)),
  );
  const definitions = new Map<string, ProcessDefinition | null>();
  const definitionOf = async (id: string) => {
    if (!definitions.has(id)) definitions.set(id, await ctx.processDefinitions.findById(id));
    return definitions.get(id)!;
  };
  const waiting = subscriptions.filter((each) => each.executionId !== null);
  // Camunda leaves suspended definitions out before it checks: they start nothing.
  const starts: Array<{ subscription: (typeof subscriptions)[number]; definition: ProcessDefinition }> = [];
  for (const subscription of subscriptions) {
    if (subscription.executionId !== null) continue;
    const definition = await definitionOf(subscription.processDefinitionId!);
    if (definition && !definition.suspended) starts.push({ subscription, definition });
  }
  if (authorize) {
    for (const subscription of waiting) {
      const definition = await definitionOf(subscription.processDefinitionId!);
      await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', subscription.processInstanceId, definition?.key ?? null, subscription.tenantId);
    }
    for (const { definition } of starts) await checkCreateInstance(ctx, definition);
  }
  // Camunda's SignalEventReceivedCmd: the waiting executions first, then the start events.
  for (const subscription of waiting) {
    if (signal.async && (await receivesAsync(ctx, env, subscription, await definitionOf(subscription.processDefinitionId!)))) continue;
    await deliverSignal(ctx, env, subscription, signal.variables ?? {}, thrower);
  }
  for (const { subscription, definition } of starts) {
    if (signal.async && (await receivesAsync(ctx, env, subscription, definition))) continue;
    await startInstance(ctx, env, definition, { variables: signal.variables, businessKey: signal.businessKey ?? null, startActivityId: subscription.activityId! });
  }
}

/** A waiting execution receives a signal: the variables, then it moves on. */
async function deliverSignal(ctx: CommandContext, env: RuntimeEnvironment, subscription: EventSubscription, variables: Record<string, TypedValue>, thrower: ProcessRunner | null): Promise<void> {
  const runner = thrower?.tree.processInstanceId === subscription.processInstanceId ? thrower : await openInstance(ctx, env, subscription.processInstanceId!);
  const execution = runner?.tree.executions.get(subscription.executionId!);
  if (!runner || !execution) return;
  for (const [name, value] of Object.entries(variables)) runner.variables.setVisible(execution.id, name, value);
  runner.trigger(execution, subscription.activityId!);
  if (runner !== thrower) await completeRun(ctx, runner);
}

/**
 * Camunda's EventSubscriptionEntity.scheduleEventAsync: a subscription of an intermediate catch
 * event or a process's start event gets a job that delivers the signal later (its catching
 * activity's priority, evaluated on the waiting execution); false for the others (boundary events,
 * event sub-processes), which take it now.
 */
async function receivesAsync(ctx: CommandContext, env: RuntimeEnvironment, subscription: EventSubscription, definition: ProcessDefinition | null): Promise<boolean> {
  const model = definition ? await env.models.get(ctx, definition) : null;
  const element = model?.activity(subscription.activityId ?? '');
  if (!definition || !model || !element) return false;
  const catching = element.type === 'bpmn:IntermediateCatchEvent' || (element.type === 'bpmn:StartEvent' && element.scopeId === model.key);
  if (!catching) return false;
  const { execution, evaluate } = await expressionsOn(ctx, env, subscription.processInstanceId, subscription.executionId);
  await createJob(ctx, {
    type: 'message',
    handlerType: SIGNAL_EVENT_JOB,
    handlerConfiguration: subscription.id,
    executionId: subscription.executionId,
    processInstanceId: subscription.processInstanceId,
    activityId: element.id,
    processDefinitionId: definition.id,
    processDefinitionKey: definition.key,
    deploymentId: definition.deploymentId,
    tenantId: definition.tenantId,
    priority: declaredPriority(model, element, 'jobPriority', evaluate, jobContext(element, SIGNAL_EVENT_JOB, execution ? describeExecution(execution) : null)),
  });
  return true;
}

/** Camunda's ProcessEventJobHandler type. */
export const SIGNAL_EVENT_JOB = 'event';

/** Delivers the signal of an async throw to its subscription (no payload, as Camunda's); a subscription gone meanwhile is ignored. */
export async function receiveSignalJob(ctx: CommandContext, env: RuntimeEnvironment, subscriptionId: string): Promise<void> {
  const [subscription] = await ctx.eventSubscriptions.find({ id: subscriptionId });
  if (!subscription) return;
  if (subscription.executionId !== null) return deliverSignal(ctx, env, subscription, {}, null);
  const definition = await ctx.processDefinitions.findById(subscription.processDefinitionId!);
  if (definition && !definition.suspended) await startInstance(ctx, env, definition, { startActivityId: subscription.activityId! });
}
