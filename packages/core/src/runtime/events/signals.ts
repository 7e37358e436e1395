import type { CommandContext } from '../../command/command-context.js';
import { completeRun, openInstance } from '../open-instance.js';
import type { ProcessRunner } from '../process-runner.js';
import type { RuntimeEnvironment } from '../runtime-environment.js';
import { startInstance } from '../start-instance.js';
import type { TypedValue } from '../variables/index.js';

export interface SignalThrow {
  name: string;
  variables?: Record<string, TypedValue>;
  /** Only the subscriptions of this execution (REST: executionId). */
  executionId?: string | null;
  tenantId?: string | null;
  withoutTenantId?: boolean;
}

/**
 * Broadcasts a signal: every execution waiting for it continues (with the variables) and every
 * signal start event starts an instance. The throwing instance, when given, handles its own catches.
 */
export async function throwSignal(ctx: CommandContext, env: RuntimeEnvironment, signal: SignalThrow, thrower: ProcessRunner | null = null): Promise<void> {
  const subscriptions = await ctx.eventSubscriptions.find({ eventType: 'signal', eventName: signal.name, ...(signal.executionId ? { executionId: signal.executionId } : {}) });
  for (const subscription of subscriptions) {
    if (signal.tenantId !== undefined && signal.tenantId !== null && subscription.tenantId !== null && subscription.tenantId !== signal.tenantId) continue;
    if (signal.withoutTenantId && subscription.tenantId !== null) continue;
    if (subscription.executionId === null) {
      if (signal.executionId) continue;
      const definition = await ctx.processDefinitions.findById(subscription.processDefinitionId!);
      if (!definition || definition.suspended) continue;
      await startInstance(ctx, env, definition, { variables: signal.variables, startActivityId: subscription.activityId! });
      continue;
    }
    const runner = thrower?.tree.processInstanceId === subscription.processInstanceId ? thrower : await openInstance(ctx, env, subscription.processInstanceId!);
    const execution = runner?.tree.executions.get(subscription.executionId);
    if (!runner || !execution) continue;
    for (const [name, value] of Object.entries(signal.variables ?? {})) runner.variables.setVisible(execution.id, name, value);
    runner.trigger(execution, subscription.activityId!);
    if (runner !== thrower) await completeRun(ctx, runner);
  }
}
