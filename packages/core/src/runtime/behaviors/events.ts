import { ProcessEngineException } from '../../errors/exceptions.js';
import { catchingDefinition, subscribe } from '../events/subscriptions.js';
import { throwSignal } from '../events/signals.js';
import { inputPayload } from '../call-activities.js';
import { createTimerJob, JobHandlerTypes } from '../runtime-jobs.js';
import type { ActivityBehavior } from './behavior.js';
import { externalTask } from './external-task.js';
import { invokeDelegationOf } from './service-task.js';
import { withErrorPropagation } from '../bpmn-error.js';
import { runConnector } from '../connectors.js';

/** Intermediate catch events (timer, message, signal) and receive tasks with a message: arm the trigger and wait. */
export const catchEvent: ActivityBehavior = {
  async execute(runner, execution, element) {
    const definition = element.eventDefinitions[0];
    if (definition?.type === 'bpmn:TimerEventDefinition' && definition.timer) {
      await createTimerJob(runner, execution, element, JobHandlerTypes.intermediateTimer, definition.timer);
      return;
    }
    const catching = catchingDefinition(element);
    if (catching) {
      await subscribe(runner, execution, element, catching);
      return;
    }
    if (element.type === 'bpmn:ReceiveTask') return;
    throw new ProcessEngineException(`Trellis cannot wait for the event of '${element.id}'`);
  },
  async signal(runner, execution) {
    await runner.ctx.eventSubscriptions.deleteByExecutions([execution.id]);
    runner.leave(execution);
  },
};

/** An intermediate signal throw event or signal end event: broadcast, then go on (or end). */
export const signalThrow = (end: boolean): ActivityBehavior => ({
  async execute(runner, execution, element) {
    const definition = element.eventDefinitions[0];
    const name = definition?.signalName ? String(runner.evaluate(execution, definition.signalName) ?? '') : '';
    // Camunda's ThrowSignalEventActivityBehavior: the camunda:in payload of the signal's definition goes with it.
    const { variables, businessKey } = definition ? inputPayload(runner, execution, element, definition) : { variables: {}, businessKey: null };
    const async = definition?.camunda.async === true;
    await throwSignal(runner.ctx, runner.env, { name, tenantId: runner.definition.tenantId, variables, businessKey, async }, runner);
    if (!end) return runner.leave(execution);
    await runner.endAtEndEvent(execution);
  },
});

/** A message throw event or message end event implemented like a service task (camunda:class, expression, external…). */
export const messageThrow = (end: boolean): ActivityBehavior => ({
  async execute(runner, execution, element) {
    // Camunda reads a message event's implementation from the element or its message event definition.
    const definition = element.eventDefinitions[0];
    const implementation = { ...definition?.camunda, ...element.camunda };
    if (element.connector) {
      if (await withErrorPropagation(runner, execution, () => runConnector(runner, execution, element))) return;
    } else if (implementation.type === 'external') {
      return externalTask.execute(runner, execution, { ...element, camunda: implementation });
    } else if (implementation.class || implementation.expression || implementation.delegateExpression) {
      await invokeDelegationOf(runner, execution, { ...element, camunda: implementation });
    }
    if (!end) return runner.leave(execution);
    await runner.endAtEndEvent(execution);
  },
  async signal(runner, execution) {
    if (end) return runner.endAtEndEvent(execution);
    runner.leave(execution);
  },
});

/** An error end event throws its error (with its camunda:errorMessage, evaluated) to the nearest event that catches it. */
export const errorEndEvent: ActivityBehavior = {
  async execute(runner, execution, element) {
    const definition = element.eventDefinitions[0];
    const message = definition?.errorMessage ? runner.evaluate(execution, definition.errorMessage) : null;
    await runner.throwError(execution, definition?.errorCode ?? '', message === null || message === undefined ? null : String(message));
  },
};

/**
 * An escalation throw or end event (Camunda's ThrowEscalationEventActivityBehavior): the escalation
 * goes to the nearest event that catches it; unless that one interrupts, the event goes on (or ends),
 * caught or not.
 */
export const escalationThrow = (end: boolean): ActivityBehavior => ({
  async execute(runner, execution, element) {
    const definition = element.eventDefinitions.find((each) => each.type === 'bpmn:EscalationEventDefinition');
    const { goesOn } = await runner.throwEscalation(execution, definition?.escalationCode ?? '');
    if (!goesOn) return;
    if (!end) return runner.leave(goesOn);
    await runner.endAtEndEvent(goesOn);
  },
});
