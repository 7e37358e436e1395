import type { ActivityInstanceNode, Attachment, Comment, ProcessInstance, Task, TransitionInstanceNode } from '@trellis/core';
import { formatRestDate } from './dates.js';
import { toCamundaFormRefDto } from './form-dto.js';
import type { LinkDto } from './links.js';

export function toProcessInstanceDto(instance: ProcessInstance, links: LinkDto[] = []) {
  return {
    links,
    id: instance.id,
    definitionId: instance.processDefinitionId,
    businessKey: instance.businessKey,
    caseInstanceId: null,
    ended: instance.ended,
    suspended: instance.suspended,
    tenantId: instance.tenantId,
  };
}

export function toActivityInstanceDto(node: ActivityInstanceNode): Record<string, unknown> {
  return {
    id: node.id,
    parentActivityInstanceId: node.parentActivityInstanceId,
    activityId: node.activityId,
    activityType: node.activityType,
    processInstanceId: node.processInstanceId,
    processDefinitionId: node.processDefinitionId,
    childActivityInstances: node.childActivityInstances.map(toActivityInstanceDto),
    childTransitionInstances: node.childTransitionInstances.map(toTransitionInstanceDto),
    executionIds: node.executionIds,
    activityName: node.activityName,
    incidentIds: node.incidents.map((incident) => incident.id),
    incidents: node.incidents,
    name: node.activityName,
  };
}

function toTransitionInstanceDto(node: TransitionInstanceNode) {
  return {
    id: node.id,
    parentActivityInstanceId: node.parentActivityInstanceId,
    activityId: node.activityId,
    activityName: node.activityName,
    activityType: node.activityType,
    processInstanceId: node.processInstanceId,
    processDefinitionId: node.processDefinitionId,
    executionId: node.executionId,
    incidentIds: node.incidents.map((incident) => incident.id),
    incidents: node.incidents,
  };
}

export function toTaskDto(task: Task) {
  const date = (value: Date | null) => (value ? formatRestDate(value) : null);
  return {
    id: task.id,
    name: task.name,
    assignee: task.assignee,
    owner: task.owner,
    created: formatRestDate(task.created),
    lastUpdated: date(task.lastUpdated ?? null),
    due: date(task.due),
    followUp: date(task.followUp),
    delegationState: task.delegationState ?? null,
    description: task.description,
    executionId: task.executionId,
    parentTaskId: task.parentTaskId ?? null,
    priority: task.priority,
    processDefinitionId: task.processDefinitionId,
    processInstanceId: task.processInstanceId,
    caseExecutionId: null,
    caseDefinitionId: null,
    caseInstanceId: null,
    taskDefinitionKey: task.taskDefinitionKey,
    suspended: task.suspended,
    formKey: task.formKey,
    camundaFormRef: toCamundaFormRefDto(task.camundaFormRef),
    tenantId: task.tenantId,
    // Camunda's TaskEntity moves from Created to Updated at its first update event, when lastUpdated is stamped;
    // its TaskDto sends the state though the 7.22 OpenAPI document leaves it out.
    taskState: task.lastUpdated ? 'Updated' : 'Created',
  };
}

/** Camunda's AttachmentDto; `links` carries its self link when just created. */
export function toAttachmentDto(attachment: Attachment, links: LinkDto[] = []) {
  return {
    links,
    id: attachment.id,
    name: attachment.name,
    description: attachment.description,
    taskId: attachment.taskId,
    type: attachment.type,
    url: attachment.url,
    createTime: formatRestDate(attachment.createTime),
    removalTime: attachment.removalTime ? formatRestDate(attachment.removalTime) : null,
    rootProcessInstanceId: attachment.rootProcessInstanceId,
  };
}

/** Camunda's CommentDto; `links` carries its self link when the caller has a base URL. */
export function toCommentDto(comment: Comment, links: LinkDto[] = []) {
  return {
    links,
    id: comment.id,
    userId: comment.userId,
    taskId: comment.taskId,
    processInstanceId: comment.processInstanceId,
    time: formatRestDate(comment.time),
    message: comment.message,
    removalTime: comment.removalTime ? formatRestDate(comment.removalTime) : null,
    rootProcessInstanceId: comment.rootProcessInstanceId,
  };
}
