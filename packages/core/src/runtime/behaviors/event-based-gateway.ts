import type { FlowElementModel } from '../../bpmn/index.js';
import { catchingDefinition, subscribe } from '../events/subscriptions.js';
import { createTimerJob, JobHandlerTypes } from '../runtime-jobs.js';
import type { Execution } from '../execution.js';
import type { ProcessRunner } from '../process-runner.js';
import type { ActivityBehavior } from './behavior.js';

/** Waits for whichever of the following catch events happens first (the trigger then moves the execution there). */
export const eventBasedGateway: ActivityBehavior = {
  execute: (runner, execution, element) => armGatewayEvents(runner, execution, element),
};

/** The triggers of the catch events after a gateway, on its execution; those `except` names keep the ones they have (a migration's). */
export async function armGatewayEvents(runner: ProcessRunner, execution: Execution, gateway: FlowElementModel, except: ReadonlySet<string> = new Set()): Promise<void> {
  for (const event of followingEvents(runner.model.flowsFrom(gateway.id).map((flow) => runner.model.activity(flow.targetRef)))) {
    if (except.has(event.id)) continue;
    const definition = event.eventDefinitions[0];
    if (definition?.type === 'bpmn:TimerEventDefinition' && definition.timer) {
      await createTimerJob(runner, execution, event, JobHandlerTypes.intermediateTimer, definition.timer);
    } else {
      const catching = catchingDefinition(event);
      if (catching) await subscribe(runner, execution, event, catching);
    }
  }
}

const followingEvents = (elements: Array<FlowElementModel | undefined>) => elements.filter((element): element is FlowElementModel => element !== undefined);
