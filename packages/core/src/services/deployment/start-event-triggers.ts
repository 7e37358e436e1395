import type { ProcessModel } from '../../bpmn/index.js';
import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { createJob } from '../../jobs/create-job.js';
import { evaluateExpression, NO_VARIABLES } from '../../runtime/expressions/index.js';
import { declaredPriority, jobContext } from '../../runtime/priority.js';
import { JobHandlerTypes, parseTimerOrFail, repeatOf, resolveTimerText } from '../../runtime/runtime-jobs.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import { conditionalStartEvents } from '../runtime/evaluate-start-condition-cmd.js';

/**
 * Arms a new definition's message, signal, conditional and timer start events and disarms those of the version
 * it replaces (Camunda keeps start events on the latest version only).
 */
export async function registerStartEventTriggers(
  ctx: CommandContext,
  definition: ProcessDefinition,
  model: ProcessModel,
  previous: ProcessDefinition | null,
): Promise<void> {
  if (previous) {
    await ctx.eventSubscriptions.deleteStartEventSubscriptions(previous.id);
    await ctx.jobs.deleteTimerStartJobs(previous.id);
  }
  for (const start of model.messageStartEvents) {
    if (start.activityId && model.activity(start.activityId)?.scopeId !== model.key) continue;
    const others = await ctx.eventSubscriptions.find({ eventType: 'message', eventName: start.messageName, startEvents: true });
    if (others.some((other) => other.tenantId === definition.tenantId && other.processDefinitionId !== previous?.id)) {
      throw new ProcessEngineException(
        `Cannot deploy process definition '${definition.resourceName}': there already is a message event subscription for the message with name '${start.messageName}'.`,
      );
    }
    await insertStartSubscription(ctx, definition, 'message', start.messageName, start.activityId);
  }
  for (const start of model.signalStartEvents) {
    if (model.activity(start.activityId)?.scopeId !== model.key) continue;
    await insertStartSubscription(ctx, definition, 'signal', start.signalName, start.activityId);
  }
  for (const start of conditionalStartEvents(model)) await insertStartSubscription(ctx, definition, 'conditional', null, start.id);
  for (const start of model.timerStartEvents) {
    const element = model.activity(start.activityId);
    if (!element || element.scopeId !== model.key) continue;
    const text = resolveTimerText(start.timer, (expression) => evaluateExpression(expression, NO_VARIABLES));
    const schedule = parseTimerOrFail(start.timer, text, start.activityId);
    await createJob(ctx, {
      type: 'timer',
      handlerType: JobHandlerTypes.timerStartEvent,
      handlerConfiguration: start.activityId,
      activityId: start.activityId,
      dueDate: schedule.firstDueDate(ctx.clock.now()),
      repeat: start.timer.kind === 'cycle' ? repeatOf(text, start.activityId, ctx.clock.now()) : null,
      exclusive: start.timer.exclusive,
      priority: declaredPriority(model, element, 'jobPriority', (expression) => evaluateExpression(expression, NO_VARIABLES), jobContext(element, JobHandlerTypes.timerStartEvent, null)),
      processDefinitionId: definition.id,
      processDefinitionKey: definition.key,
      deploymentId: definition.deploymentId,
      tenantId: definition.tenantId,
      suspended: definition.suspended,
    });
  }
}

async function insertStartSubscription(
  ctx: CommandContext,
  definition: ProcessDefinition,
  eventType: 'message' | 'signal' | 'conditional',
  eventName: string | null,
  activityId: string,
): Promise<void> {
  await ctx.eventSubscriptions.insert({
    id: ctx.ids.next(),
    eventType,
    eventName,
    executionId: null,
    processInstanceId: null,
    activityId,
    processDefinitionId: definition.id,
    configuration: definition.id,
    created: ctx.clock.now(),
    tenantId: definition.tenantId,
  });
}
