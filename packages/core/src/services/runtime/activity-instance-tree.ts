import type { ActivityInstance } from '../../runtime/execution.js';
import type { ActivityInstanceNode } from './process-instance.js';

/** Builds the REST activity-instance tree from the stored activity instances of one process instance. */
export function buildActivityInstanceTree(
  processInstanceId: string,
  processDefinitionId: string,
  instances: readonly ActivityInstance[],
): ActivityInstanceNode | null {
  const root = instances.find((instance) => instance.id === processInstanceId);
  if (!root) return null;
  const node = (instance: ActivityInstance): ActivityInstanceNode => ({
    id: instance.id,
    parentActivityInstanceId: instance.parentId,
    activityId: instance.activityId,
    activityType: instance.activityType,
    activityName: instance.activityName,
    processInstanceId,
    processDefinitionId,
    executionIds: instance.id === processInstanceId ? [processInstanceId] : [instance.executionId],
    childActivityInstances: instances
      .filter((child) => child.parentId === instance.id)
      .sort((a, b) => a.startTime.getTime() - b.startTime.getTime() || a.id.localeCompare(b.id))
      .map(node),
  });
  return node(root);
}
