import type { FlowElementModel } from '../../bpmn/index.js';
import { catchingDefinition, subscribe } from '../events/subscriptions.js';
import { createTimerJob, JobHandlerTypes } from '../runtime-jobs.js';
import type { ActivityBehavior } from './behavior.js';

/** Waits for whichever of the following catch events happens first (the trigger then moves the execution there). */
export const eventBasedGateway: ActivityBehavior = {
  async execute(runner, execution, element) {
    for (const event of followingEvents(runner.model.flowsFrom(element.id).map((flow) => runner.model.activity(flow.targetRef)))) {
      const definition = event.eventDefinitions[0];
      if (definition?.type === 'bpmn:TimerEventDefinition' && definition.timer) {
        await createTimerJob(runner, execution, event, JobHandlerTypes.intermediateTimer, definition.timer);
      } else {
        const catching = catchingDefinition(event);
        if (catching) await subscribe(runner, execution, event, catching);
      }
    }
  },
};

const followingEvents = (elements: Array<FlowElementModel | undefined>) => elements.filter((element): element is FlowElementModel => element !== undefined);
