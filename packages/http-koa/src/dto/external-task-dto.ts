import type { ExternalTask, Incident, LockedExternalTask } from '@trellis/core';
import { formatRestDate } from './dates.js';
import { variablesToDto } from './variables-map.js';

/** Camunda's ExternalTaskDto (GET /external-task, GET /external-task/{id}). */
export function toExternalTaskDto(task: ExternalTask) {
  return {
    activityId: task.activityId,
    activityInstanceId: task.activityInstanceId,
    errorMessage: task.errorMessage,
    executionId: task.executionId,
    id: task.id,
    lockExpirationTime: task.lockExpirationTime ? formatRestDate(task.lockExpirationTime) : null,
    processDefinitionId: task.processDefinitionId,
    processDefinitionKey: task.processDefinitionKey,
    processDefinitionVersionTag: task.processDefinitionVersionTag,
    processInstanceId: task.processInstanceId,
    tenantId: task.tenantId,
    retries: task.retries,
    suspended: task.suspended,
    workerId: task.workerId,
    topicName: task.topicName,
    priority: task.priority,
    businessKey: task.businessKey,
  };
}

/**
 * Camunda's LockedExternalTaskDto (the fetchAndLock answer). `suspended` is never set there, so it
 * is always false; `extensionProperties` is {} for topics that did not ask for them.
 */
export function toLockedExternalTaskDto(task: LockedExternalTask, deserializeValues: boolean) {
  return {
    activityId: task.activityId,
    activityInstanceId: task.activityInstanceId,
    errorMessage: task.errorMessage,
    errorDetails: task.errorDetails,
    executionId: task.executionId,
    id: task.id,
    lockExpirationTime: task.lockExpirationTime ? formatRestDate(task.lockExpirationTime) : null,
    createTime: formatRestDate(task.createTime),
    processDefinitionId: task.processDefinitionId,
    processDefinitionKey: task.processDefinitionKey,
    processDefinitionVersionTag: task.processDefinitionVersionTag,
    processInstanceId: task.processInstanceId,
    tenantId: task.tenantId,
    retries: task.retries,
    suspended: false,
    workerId: task.workerId,
    priority: task.priority,
    topicName: task.topicName,
    businessKey: task.businessKey,
    variables: variablesToDto(task.variables, deserializeValues),
    extensionProperties: task.extensionProperties,
  };
}

/** Camunda's IncidentDto. */
export function toIncidentDto(incident: Incident) {
  return {
    id: incident.id,
    processDefinitionId: incident.processDefinitionId,
    processInstanceId: incident.processInstanceId,
    executionId: incident.executionId,
    incidentTimestamp: formatRestDate(incident.incidentTimestamp),
    incidentType: incident.incidentType,
    activityId: incident.activityId,
    failedActivityId: incident.failedActivityId,
    causeIncidentId: incident.causeIncidentId,
    rootCauseIncidentId: incident.rootCauseIncidentId,
    configuration: incident.configuration,
    tenantId: incident.tenantId,
    incidentMessage: incident.incidentMessage,
    jobDefinitionId: incident.jobDefinitionId,
    annotation: incident.annotation,
  };
}
