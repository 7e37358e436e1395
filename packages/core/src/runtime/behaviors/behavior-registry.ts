import type { FlowElementModel } from '../../bpmn/index.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ActivityBehavior } from './behavior.js';
import { noneEndEvent, terminateEndEvent } from './end-event.js';
import { exclusiveGateway } from './exclusive-gateway.js';
import { parallelGateway } from './parallel-gateway.js';
import { passThrough } from './pass-through.js';
import { userTask } from './user-task.js';
import { waitState } from './wait-state.js';

/** The behavior of an element; an element Trellis cannot run yet fails with a clear message. */
export function behaviorFor(element: FlowElementModel): ActivityBehavior {
  const behavior = lookup(element);
  if (!behavior) {
    throw new ProcessEngineException(`Trellis cannot execute ${element.type.replace('bpmn:', '')} '${element.id}' yet`);
  }
  return behavior;
}

function lookup(element: FlowElementModel): ActivityBehavior | null {
  const definitions = element.eventDefinitions.map((definition) => definition.type);
  switch (element.type) {
    case 'bpmn:StartEvent':
      return passThrough;
    case 'bpmn:EndEvent':
      if (definitions.length === 0) return noneEndEvent;
      return definitions[0] === 'bpmn:TerminateEventDefinition' ? terminateEndEvent : null;
    case 'bpmn:IntermediateThrowEvent':
      return definitions.length === 0 ? passThrough : null;
    case 'bpmn:Task':
    case 'bpmn:ManualTask':
      return passThrough;
    case 'bpmn:UserTask':
      return userTask;
    case 'bpmn:ReceiveTask':
      return waitState;
    case 'bpmn:ServiceTask':
    case 'bpmn:SendTask':
    case 'bpmn:BusinessRuleTask':
      // External tasks wait for a worker; their records and API arrive with the external task issue.
      return element.camunda.type === 'external' ? waitState : null;
    case 'bpmn:ExclusiveGateway':
      return exclusiveGateway;
    case 'bpmn:ParallelGateway':
      return parallelGateway;
    default:
      return null;
  }
}
