/** A path of control within a process instance (Camunda's ExecutionEntity), held in memory for one command. */
export interface Execution {
  id: string;
  processInstanceId: string;
  parentId: string | null;
  processDefinitionId: string;
  processDefinitionKey: string;
  businessKey: string | null;
  activityId: string | null;
  activityInstanceId: string | null;
  isActive: boolean;
  isConcurrent: boolean;
  isScope: boolean;
  /** A concurrent path that runs a compensation handler, or compensates a completed sub-process. */
  isCompensating?: boolean;
  suspended: boolean;
  tenantId: string | null;
  startTime: Date;
  /** Scope executions: the activity whose scope this is (null for the process instance itself). */
  scopeActivityId: string | null;
  /** Scope executions: the activity instance of that scope (the process instance id for the root). */
  scopeInstanceId: string | null;
  /** A called instance's root: the call activity's execution in the calling instance. */
  superExecutionId: string | null;
  superProcessInstanceId: string | null;
}

/** A running activity instance; the process instance's own has the instance id and no parent. */
export interface ActivityInstance {
  id: string;
  processInstanceId: string;
  parentId: string | null;
  activityId: string;
  activityType: string;
  activityName: string | null;
  executionId: string;
  startTime: Date;
}

/** Camunda's activity instance ids: `<activityId>:<uuid>`. */
export const activityInstanceId = (activityId: string, uuid: string) => `${activityId}:${uuid}`;
