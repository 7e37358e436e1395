import { hasCondition } from '../../bpmn/index.js';
import { engineMessage } from '../../errors/engine-message.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ActivityBehavior } from './behavior.js';

/** Takes the first outgoing flow whose condition holds, else the default flow; none → Camunda's ENGINE-02004. */
export const exclusiveGateway: ActivityBehavior = {
  async execute(runner, execution, element) {
    const flows = runner.model.flowsFrom(element.id).filter((flow) => flow.id !== element.defaultFlow);
    for (const flow of flows) {
      if (!hasCondition(flow) || (await runner.conditionHolds(execution, flow))) {
        runner.leaveVia(execution, [flow.id]);
        return;
      }
    }
    if (element.defaultFlow) {
      runner.leaveVia(execution, [element.defaultFlow]);
      return;
    }
    throw new ProcessEngineException(
      engineMessage('02', '004', `No outgoing sequence flow for the element with id '${element.id}' could be selected for continuing the process.`),
    );
  },
};
