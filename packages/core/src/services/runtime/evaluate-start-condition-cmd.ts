import { hasCondition, type FlowElementModel, type ProcessModel } from '../../bpmn/index.js';
import { checkCreateInstance } from '../../authorization/instance-checks.js';
import { Resources } from '../../authorization/resources.js';
import type { Command } from '../../command/command.js';
import type { CommandContext } from '../../command/command-context.js';
import { engineMessage } from '../../errors/engine-message.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { conditionHolds, conditionResult, tryCondition } from '../../runtime/expressions/conditions.js';
import { runScriptAt, scriptBindings } from '../../runtime/scripts.js';
import { beansContext, variablesOver } from '../process-definition/form-scope.js';
import type { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { startInstance } from '../../runtime/start-instance.js';
import type { TypedValue } from '../../runtime/variables/index.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import { noDeployedDefinition } from '../process-definition/process-definition-messages.js';
import type { ProcessInstance } from './process-instance.js';
import { startedInstance } from './start-process-instance-cmd.js';

/** What POST /condition evaluates (Camunda's ConditionEvaluationBuilder). */
export interface StartConditionEvaluation {
  variables?: Record<string, TypedValue>;
  businessKey?: string | null;
  /** Only this definition's conditional start events; otherwise every subscribed one. */
  processDefinitionId?: string | null;
  /** Only start events of this tenant's definitions (`withoutTenantId`: of definitions without one). */
  tenantId?: string | null;
  withoutTenantId?: boolean;
}

const isConditionalStart = (element: FlowElementModel | undefined) =>
  element?.type === 'bpmn:StartEvent' && element.eventDefinitions[0]?.type === 'bpmn:ConditionalEventDefinition';

/** The conditional start events of a process's own level (those a condition evaluation can start). */
export function conditionalStartEvents(model: ProcessModel): FlowElementModel[] {
  return model.childrenOf(model.key).filter(isConditionalStart);
}

interface Match {
  definition: ProcessDefinition;
  startEvent: FlowElementModel;
}

/**
 * Camunda's EvaluateStartConditionCmd with its DefaultConditionHandler: the conditional start
 * events whose condition holds for the given variables alone start an instance each, once the
 * caller may create all of them. Suspended definitions are skipped.
 */
export class EvaluateStartConditionCmd implements Command<ProcessInstance[]> {
  readonly name = 'EvaluateStartConditionCmd';

  constructor(
    private readonly request: StartConditionEvaluation,
    private readonly env: RuntimeEnvironment,
  ) {}

  async execute(ctx: CommandContext): Promise<ProcessInstance[]> {
    const matches = this.request.processDefinitionId ? await this.byDefinition(ctx, this.request.processDefinitionId) : await this.bySubscriptions(ctx);
    for (const { definition } of matches) await checkCreateInstance(ctx, definition);
    const started: ProcessInstance[] = [];
    for (const { definition, startEvent } of matches) {
      const runner = await startInstance(ctx, this.env, definition, {
        businessKey: this.request.businessKey ?? null,
        variables: this.request.variables,
        startActivityId: startEvent.id,
      });
      started.push(startedInstance(runner, definition, this.request.businessKey ?? null));
    }
    return started;
  }

  private async bySubscriptions(ctx: CommandContext): Promise<Match[]> {
    const { tenantId, withoutTenantId } = this.request;
    const subscriptions = await ctx.eventSubscriptions.find({
      eventType: 'conditional',
      startEvents: true,
      ...(tenantId != null ? { tenantIds: [tenantId] } : withoutTenantId ? { withoutTenantId: true } : {}),
    });
    // Camunda's subscription query keeps the caller's tenants and the definitions it may READ; the one
    // by tenant (a tenant id or withoutTenantId given) checks neither, the CREATE checks come later.
    const checked = tenantId == null && !withoutTenantId;
    const visible: Array<{ subscription: (typeof subscriptions)[number]; definition: ProcessDefinition | null }> = [];
    for (const subscription of subscriptions) {
      if (checked && !ctx.tenantCheck.isAuthenticatedTenant(subscription.tenantId)) continue;
      const definition = await ctx.processDefinitions.findById(subscription.processDefinitionId!);
      if (checked && ctx.authz.isActive && definition && !(await ctx.authz.isAuthorized({ permission: 'READ', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key }))) continue;
      visible.push({ subscription, definition });
    }
    if (visible.length === 0) throw new ProcessEngineException(engineMessage('13', '043', 'No subscriptions were found during evaluation of the conditional start events.'));
    const matches: Match[] = [];
    for (const { subscription, definition } of visible) {
      if (!definition || definition.suspended) continue;
      const startEvent = (await this.env.models.get(ctx, definition)).activity(subscription.activityId!);
      if (startEvent && (await this.holds(ctx, definition, startEvent))) matches.push({ definition, startEvent });
    }
    return matches;
  }

  private async byDefinition(ctx: CommandContext, processDefinitionId: string): Promise<Match[]> {
    const definition = await ctx.processDefinitions.findById(processDefinitionId);
    if (!definition) throw noDeployedDefinition(processDefinitionId);
    if (definition.suspended) return [];
    const startEvents = conditionalStartEvents(await this.env.models.get(ctx, definition));
    if (startEvents.length === 0) {
      throw new ProcessEngineException(engineMessage('13', '042', `Process definition with id '${processDefinitionId}' does not declare conditional start event.`));
    }
    const matches: Match[] = [];
    for (const startEvent of startEvents) if (await this.holds(ctx, definition, startEvent)) matches.push({ definition, startEvent });
    return matches;
  }

  /**
   * The condition on the given variables alone (Camunda's temporary execution); one naming a
   * `camunda:variableName` that is not among them does not hold, nor one on an unknown variable.
   */
  private async holds(ctx: CommandContext, definition: ProcessDefinition, startEvent: FlowElementModel): Promise<boolean> {
    const eventDefinition = startEvent.eventDefinitions[0];
    const variables = this.request.variables ?? {};
    if (!hasCondition(eventDefinition) || (eventDefinition.variableName !== null && !(eventDefinition.variableName in variables))) return false;
    const expressions = variablesOver(variables, beansContext(this.env.delegates));
    const script = eventDefinition.conditionScript;
    if (script === null) return tryCondition(() => conditionHolds(eventDefinition.condition ?? '', expressions));
    const site = { ctx, env: this.env, definition, elementId: startEvent.id, expressions };
    return tryCondition(async () => conditionResult(await runScriptAt(site, script, scriptBindings(variables)), 'condition script'));
  }
}
