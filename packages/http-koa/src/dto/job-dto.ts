import { batchIdOfJob, type Job } from '@trellis/core';
import { formatRestDate } from './dates.js';

/** Camunda's JobDto: exactly the contract's properties. */
export function toJobDto(job: Job) {
  return {
    id: job.id,
    jobDefinitionId: job.jobDefinitionId,
    processInstanceId: job.processInstanceId,
    processDefinitionId: job.processDefinitionId,
    processDefinitionKey: job.processDefinitionKey,
    executionId: job.executionId,
    exceptionMessage: job.exceptionMessage,
    failedActivityId: job.failedActivityId,
    retries: job.retries,
    dueDate: job.dueDate ? formatRestDate(job.dueDate) : null,
    suspended: job.suspended,
    priority: job.priority,
    tenantId: job.tenantId,
    createTime: formatRestDate(job.createTime),
    batchId: batchIdOfJob(job),
  };
}
