import { inject, injectable } from 'inversify';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException, NullValueException, ProcessEngineException } from '../../errors/exceptions.js';
import type { EventSubscription } from '../../persistence/repositories/event-subscription-repository.js';
import type { Incident } from '../../persistence/repositories/incident-repository.js';
import type { Execution } from '../../runtime/execution.js';
import { openIncident } from '../../incidents/open-incident.js';
import { completeRun, openInstance } from '../../runtime/open-instance.js';
import { messageSubscriptionRefused } from '../message/message-service.js';
import type { ProcessRunner } from '../../runtime/process-runner.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import type { ExecutionInfo, ExecutionQuery } from './execution.js';
import { checkInstance, checkReadInstanceVariables, checkUpdateInstanceVariables } from '../../authorization/instance-checks.js';

/** Executions: queries, local variables, signals and message triggers (Camunda's RuntimeService, execution part). */
@injectable()
export class ExecutionService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {}

  findExecutions(query: ExecutionQuery = {}): Promise<ExecutionInfo[]> {
    return this.commands.run('ExecutionQuery', async (ctx) => ctx.executionQueries.find(ctx.tenantCheck.query(query), await readableExecutions(ctx)));
  }

  countExecutions(query: ExecutionQuery = {}): Promise<number> {
    return this.commands.run('ExecutionQuery', async (ctx) => ctx.executionQueries.count(ctx.tenantCheck.query(query), await readableExecutions(ctx)));
  }

  getExecution(id: string): Promise<ExecutionInfo | null> {
    return this.commands.run('ExecutionQuery', async (ctx) => (await ctx.executionQueries.find(ctx.tenantCheck.query({ executionId: id }), await readableExecutions(ctx)))[0] ?? null);
  }

  /** The execution's own variables. NullValueException for an unknown execution (Camunda's GetExecutionVariablesCmd). */
  getLocalVariables(executionId: string): Promise<Record<string, TypedValue>> {
    return this.commands.run('GetExecutionVariablesCmd', async (ctx) => {
      const { runner, execution } = await this.open(ctx, executionId);
      await checkReadInstanceVariables(ctx, execution.processInstanceId, runner.definition.key, runner.definition.tenantId);
      return runner.variables.snapshot(execution.id);
    });
  }

  /** Sets and removes local variables of an execution in one transaction. */
  modifyLocalVariables(executionId: string, modifications: Record<string, TypedValue>, deletions: readonly string[] = []): Promise<void> {
    return this.commands.run('SetExecutionVariablesCmd', async (ctx) => {
      const { runner, execution } = await this.open(ctx, executionId);
      await checkUpdateInstanceVariables(ctx, execution.processInstanceId, runner.definition.key, runner.definition.tenantId);
      for (const [name, value] of Object.entries(modifications)) runner.variables.setLocal(execution.id, name, value);
      for (const name of deletions) runner.variables.removeLocal(execution.id, name);
      await completeRun(ctx, runner);
    });
  }

  /** Continues an execution that waits in a receive task, an external task or another wait state. */
  signal(executionId: string, variables: Record<string, TypedValue> = {}): Promise<void> {
    return this.commands.run('SignalCmd', async (ctx) => {
      const { runner, execution } = await this.open(ctx, executionId, () => new BadUserRequestException(`execution ${executionId} doesn't exist: execution is null`));
      await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', execution.processInstanceId, runner.definition.key, runner.definition.tenantId);
      // Camunda's PvmExecutionImpl.signal (a PvmException); a suspended execution fails as the activity moves on (ProcessRunner.signalNow).
      if (!execution.activityId) throw new ProcessEngineException(`cannot signal execution ${executionId}: it has no current activity`);
      for (const [name, value] of Object.entries(variables)) runner.variables.setVisible(execution.id, name, value);
      runner.signal(execution);
      await completeRun(ctx, runner);
    });
  }

  /** The execution's subscription to a message, or null. */
  getMessageSubscription(executionId: string, messageName: string): Promise<EventSubscription | null> {
    return this.commands.run('EventSubscriptionQuery', async (ctx) => {
      const [subscription] = await ctx.eventSubscriptions.find({ eventType: 'message', eventName: messageName, executionId });
      // Camunda reads it with a (tenant-checked) subscription query.
      if (!subscription || !ctx.tenantCheck.isAuthenticatedTenant(subscription.tenantId)) return null;
      const definition = await ctx.processDefinitions.findById(subscription.processDefinitionId!);
      await checkInstance(ctx, 'READ', 'READ_INSTANCE', subscription.processInstanceId!, definition?.key ?? '', subscription.tenantId);
      return subscription;
    });
  }

  /** Delivers a message to one execution's subscription (Camunda's messageEventReceived). */
  messageEventReceived(messageName: string, executionId: string, variables: Record<string, TypedValue> = {}): Promise<void> {
    return this.commands.run('MessageEventReceivedCmd', async (ctx) => {
      const subscriptions = await ctx.eventSubscriptions.find({ eventType: 'message', eventName: messageName, executionId });
      if (subscriptions.length !== 1) throw messageSubscriptionRefused(executionId, messageName, subscriptions.length);
      const [subscription] = subscriptions as [EventSubscription];
      const { runner, execution } = await this.open(ctx, executionId);
      await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', execution.processInstanceId, runner.definition.key, runner.definition.tenantId);
      for (const [name, value] of Object.entries(variables)) runner.variables.setVisible(execution.id, name, value);
      runner.trigger(execution, subscription.activityId!);
      await completeRun(ctx, runner);
    });
  }

  /**
   * A custom incident on an execution (POST /execution/{id}/create-incident). As Camunda's
   * CreateIncidentCmd, every refusal before the permission check is a bad request (REST: 400).
   */
  createIncident(executionId: string, incidentType: string | null, configuration: string | null, message: string | null): Promise<Incident> {
    return this.commands.run('CreateIncidentCmd', async (ctx) => {
      if (incidentType == null) throw new BadUserRequestException('incidentType is null');
      const { runner, execution } = await this.open(ctx, executionId, () => new BadUserRequestException(`Cannot find an execution with executionId '${executionId}': execution is null`));
      if (!execution.activityId) throw new BadUserRequestException('Execution must be related to an activity: activity is null');
      await checkInstance(ctx, 'UPDATE', 'UPDATE_INSTANCE', execution.processInstanceId, runner.definition.key, runner.definition.tenantId);
      OperationLogEntries.processInstance(ctx, 'CreateIncident', { processInstanceId: execution.processInstanceId, processDefinitionId: execution.processDefinitionId }, [
        { property: 'incidentType', newValue: incidentType },
        { property: 'configuration', newValue: configuration },
      ]);
      return openIncident(ctx, {
        incidentType,
        incidentMessage: message,
        executionId,
        activityId: execution.activityId,
        // Camunda's PvmExecutionImpl.createIncidentContext names no failed activity (only failed jobs do).
        failedActivityId: null,
        processInstanceId: execution.processInstanceId,
        processDefinitionId: execution.processDefinitionId,
        configuration,
        tenantId: execution.tenantId,
        jobDefinitionId: null,
      });
    });
  }

  private async open(
    ctx: CommandContext,
    executionId: string,
    missing: () => Error = () => new NullValueException(`execution ${executionId} doesn't exist: execution is null`),
  ): Promise<{ runner: ProcessRunner; execution: Execution }> {
    const row = await ctx.executions.findById(executionId);
    const runner = row ? await openInstance(ctx, this.env, row.processInstanceId) : null;
    const execution = runner?.tree.executions.get(executionId);
    if (!runner || !execution) throw missing();
    return { runner, execution };
  }
}

const readableExecutions = (ctx: CommandContext) =>
  ctx.authz.readFilterEither({ permission: 'READ', resource: Resources.PROCESS_INSTANCE }, { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION });
