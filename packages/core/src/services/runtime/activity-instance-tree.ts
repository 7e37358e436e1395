import type { ProcessModel } from '../../bpmn/index.js';
import { MI_BODY_SUFFIX } from '../../bpmn/model/flow-element.js';
import type { Incident } from '../../persistence/repositories/incident-repository.js';
import type { ActivityInstance, Execution } from '../../runtime/execution.js';
import type { ActivityInstanceNode, InstanceIncident, TransitionInstanceNode } from './process-instance.js';

export interface ActivityInstanceTreeInput {
  processInstanceId: string;
  processDefinitionId: string;
  model: ProcessModel;
  instances: readonly ActivityInstance[];
  executions: readonly Execution[];
  incidents: readonly Incident[];
}

/**
 * Builds the REST activity-instance tree of one process instance: the stored activity instances,
 * plus a transition instance for each execution waiting for an async continuation (its id is the
 * execution's, as in Camunda), each with the incidents of its execution.
 */
export function buildActivityInstanceTree(input: ActivityInstanceTreeInput): ActivityInstanceNode | null {
  const { processInstanceId, processDefinitionId, model, instances, executions, incidents } = input;
  const root = instances.find((instance) => instance.id === processInstanceId);
  if (!root) return null;
  const byId = new Map(executions.map((execution) => [execution.id, execution]));
  const scopeInstanceOf = (execution: Execution): string => {
    for (let current: Execution | undefined = execution; current; current = current.parentId ? byId.get(current.parentId) : undefined) {
      if (current.isScope) return current.scopeInstanceId ?? processInstanceId;
    }
    return processInstanceId;
  };
  // Camunda's GetActivityInstanceCmd groups incidents by execution alone, whichever activity raised them.
  const incidentsOf = (executionId: string): InstanceIncident[] =>
    incidents.filter((incident) => incident.executionId === executionId).map((incident) => ({ id: incident.id, activityId: incident.activityId! }));
  // An activity instance shows its execution's incidents while that execution is in this activity or
  // in none (the process instance's own, when its children run concurrently), not when it is a
  // compacted scope whose execution is already in an activity inside.
  const incidentsAt = (executionId: string, activityId: string): InstanceIncident[] => {
    const execution = byId.get(executionId);
    return !execution || execution.activityId === null || execution.activityId === activityId ? incidentsOf(executionId) : [];
  };
  const transitions: TransitionInstanceNode[] = executions
    .filter((execution) => execution.activityId !== null && execution.activityInstanceId === null)
    .map((execution) => {
      const element = model.activity(execution.activityId!);
      // Waiting before or after a multi-instance body: the body, which has no name.
      const body = execution.activityId!.endsWith(MI_BODY_SUFFIX);
      return {
        id: execution.id,
        parentActivityInstanceId: scopeInstanceOf(execution),
        activityId: execution.activityId!,
        activityType: body ? 'multiInstanceBody' : (element?.activityType ?? null),
        activityName: element?.name ?? null,
        processInstanceId,
        processDefinitionId,
        executionId: execution.id,
        incidents: incidentsOf(execution.id),
      };
    });
  const node = (instance: ActivityInstance): ActivityInstanceNode => ({
    id: instance.id,
    parentActivityInstanceId: instance.parentId,
    activityId: instance.activityId,
    activityType: instance.activityType,
    activityName: instance.activityName,
    processInstanceId,
    processDefinitionId,
    executionIds: [instance.executionId],
    incidents: incidentsAt(instance.executionId, instance.activityId),
    childActivityInstances: instances
      .filter((child) => child.parentId === instance.id)
      .sort((a, b) => a.startTime.getTime() - b.startTime.getTime() || a.id.localeCompare(b.id))
      .map(node),
    childTransitionInstances: transitions.filter((transition) => transition.parentActivityInstanceId === instance.id),
  });
  return node(root);
}
