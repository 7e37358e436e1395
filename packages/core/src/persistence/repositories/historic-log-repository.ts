import type { Selectable, Transaction } from 'kysely';
import type {
  HistoricExternalTaskLog,
  HistoricExternalTaskLogQuery,
  HistoricExternalTaskLogSortField,
  HistoricJobLog,
  HistoricJobLogQuery,
  HistoricJobLogSortField,
} from '../../services/history/historic-log-types.js';
import type { HistoricExternalTaskLogTable, HistoricJobLogTable, StoreSchema } from '../schema.js';
import { historyAccess, type HistoryReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, nonEmpty, toDate } from './query-support.js';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';

const jobBase = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_job_log as j');
const taskBase = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_ext_task_log as t');
type JobSelect = ReturnType<typeof jobBase>;
type TaskSelect = ReturnType<typeof taskBase>;

const JOB_SORT: Record<HistoricJobLogSortField, string> = {
  timestamp: 'j.timestamp', jobId: 'j.job_id', jobDefinitionId: 'j.job_def_id', jobDueDate: 'j.job_due_date', jobRetries: 'j.job_retries',
  jobPriority: 'j.job_priority', activityId: 'j.activity_id', executionId: 'j.execution_id', processInstanceId: 'j.process_instance_id',
  processDefinitionId: 'j.process_def_id', processDefinitionKey: 'j.process_def_key', deploymentId: 'j.deployment_id',
  hostname: 'j.hostname', occurrence: 'j.sequence_counter', tenantId: 'j.tenant_id',
};
const TASK_SORT: Record<HistoricExternalTaskLogSortField, string> = {
  timestamp: 't.timestamp', externalTaskId: 't.ext_task_id', topicName: 't.topic_name', workerId: 't.worker_id', retries: 't.retries',
  priority: 't.priority', activityId: 't.activity_id', activityInstanceId: 't.activity_inst_id', executionId: 't.execution_id',
  processInstanceId: 't.proc_inst_id', processDefinitionId: 't.proc_def_id', processDefinitionKey: 't.proc_def_key', tenantId: 't.tenant_id',
};
const STATES: ReadonlyArray<['creationLog' | 'failureLog' | 'successLog' | 'deletionLog', number]> = [
  ['creationLog', 0], ['failureLog', 1], ['successLog', 2], ['deletionLog', 3],
];

/** The one state a log query asks for: its DTO sets them in this order and each replaces the one before. */
const lastState = (q: Partial<Record<(typeof STATES)[number][0], boolean>>) => STATES.filter(([flag]) => q[flag] === true).at(-1)?.[1];

/**
 * The historic job log and external task log (Camunda's HistoricJobLogQuery and
 * HistoricExternalTaskLogQuery). `readable` filters by definition key; a job of no definition (a
 * batch's) passes, as in Camunda's HistoricJobLog.xml.
 */
export class HistoricLogRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async findJobLogs(q: HistoricJobLogQuery, readable: HistoryReadFilter): Promise<HistoricJobLog[]> {
    // Camunda's occurrence: the order the entries were written in.
    const sorting = q.sorting?.flatMap((each) => (each.sortBy === 'occurrence' ? [{ ...each, sortBy: 'timestamp' as const }, each] : [each]));
    const select = applySorting(this.jobSelect(q, readable).selectAll('j').select(inheritedRemovalTime('trellis_hi_job_log', 'j')), sorting, JOB_SORT, 'j.id');
    return (await applyPage(sorting?.length ? select : select.orderBy('j.timestamp').orderBy('j.sequence_counter'), q).execute()).map(toJobLog);
  }

  async countJobLogs(q: HistoricJobLogQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.jobSelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async jobStacktrace(id: string): Promise<{ stacktrace: string | null; processDefinitionKey: string | null; batchId: string | null; tenantId: string | null } | null> {
    const row = await this.trx.selectFrom('trellis_hi_job_log').select(['job_exception_stack', 'process_def_key', 'batch_id', 'tenant_id']).where('id', '=', id).executeTakeFirst();
    return row ? { stacktrace: row.job_exception_stack, processDefinitionKey: row.process_def_key, batchId: row.batch_id, tenantId: row.tenant_id } : null;
  }

  async findExternalTaskLogs(q: HistoricExternalTaskLogQuery, readable: HistoryReadFilter): Promise<HistoricExternalTaskLog[]> {
    const select = applySorting(this.taskSelect(q, readable).selectAll('t').select(inheritedRemovalTime('trellis_hi_ext_task_log', 't')), q.sorting, TASK_SORT, 't.id');
    return (await applyPage(q.sorting?.length ? select : select.orderBy('t.timestamp'), q).execute()).map(toExternalTaskLog);
  }

  async countExternalTaskLogs(q: HistoricExternalTaskLogQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.taskSelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async externalTaskErrorDetails(id: string): Promise<{ errorDetails: string | null; processDefinitionKey: string | null; tenantId: string | null } | null> {
    const row = await this.trx.selectFrom('trellis_hi_ext_task_log').select(['error_details', 'proc_def_key', 'tenant_id']).where('id', '=', id).executeTakeFirst();
    return row ? { errorDetails: row.error_details, processDefinitionKey: row.proc_def_key, tenantId: row.tenant_id } : null;
  }

  async deleteByProcessInstances(ids: readonly string[]): Promise<void> {
    if (ids.length === 0) return;
    await this.trx.deleteFrom('trellis_hi_job_log').where('process_instance_id', 'in', ids).execute();
    await this.trx.deleteFrom('trellis_hi_ext_task_log').where('proc_inst_id', 'in', ids).execute();
  }

  async deleteByProcessDefinition(processDefinitionId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_hi_job_log').where('process_def_id', '=', processDefinitionId).execute();
    await this.trx.deleteFrom('trellis_hi_ext_task_log').where('proc_def_id', '=', processDefinitionId).execute();
  }

  async deleteJobLogsByJobDefinitions(jobDefinitionIds: readonly string[]): Promise<void> {
    if (jobDefinitionIds.length > 0) await this.trx.deleteFrom('trellis_hi_job_log').where('job_def_id', 'in', jobDefinitionIds).execute();
  }

  private jobSelect(q: HistoricJobLogQuery, readable: HistoryReadFilter): JobSelect {
    let s: JobSelect = jobBase(this.trx);
    if (readable) s = s.where(historyAccess(readable, { definitionKey: 'j.process_def_key', processInstanceId: 'j.process_instance_id', unchecked: 'j.process_def_key' }));
    if (q.logId !== undefined) s = s.where('j.id', '=', q.logId);
    if (q.jobId !== undefined) s = s.where('j.job_id', '=', q.jobId);
    if (q.jobExceptionMessage !== undefined) s = s.where('j.job_exception_msg', '=', q.jobExceptionMessage);
    if (q.jobDefinitionId !== undefined) s = s.where('j.job_def_id', '=', q.jobDefinitionId);
    if (q.jobDefinitionType !== undefined) s = s.where('j.job_def_type', '=', q.jobDefinitionType);
    if (q.jobDefinitionConfiguration !== undefined) s = s.where('j.job_def_configuration', '=', q.jobDefinitionConfiguration);
    if (q.activityIdIn !== undefined) s = s.where('j.activity_id', 'in', nonEmpty(q.activityIdIn));
    if (q.failedActivityIdIn !== undefined) s = s.where('j.failed_activity_id', 'in', nonEmpty(q.failedActivityIdIn));
    if (q.executionIdIn !== undefined) s = s.where('j.execution_id', 'in', nonEmpty(q.executionIdIn));
    if (q.processInstanceId !== undefined) s = s.where('j.process_instance_id', '=', q.processInstanceId);
    if (q.processDefinitionId !== undefined) s = s.where('j.process_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) s = s.where('j.process_def_key', '=', q.processDefinitionKey);
    if (q.deploymentId !== undefined) s = s.where('j.deployment_id', '=', q.deploymentId);
    s = applyTenantCheck(s, q, 'j.tenant_id');
    const tenants = requestedTenants(q, 'j.tenant_id');
    if (tenants) s = s.where(tenants);
    if (q.hostname !== undefined) s = s.where('j.hostname', '=', q.hostname);
    if (q.jobPriorityLowerThanOrEquals !== undefined) s = s.where('j.job_priority', '<=', q.jobPriorityLowerThanOrEquals);
    if (q.jobPriorityHigherThanOrEquals !== undefined) s = s.where('j.job_priority', '>=', q.jobPriorityHigherThanOrEquals);
    const state = lastState(q);
    if (state !== undefined) s = s.where('j.state', '=', state);
    return s;
  }

  private taskSelect(q: HistoricExternalTaskLogQuery, readable: HistoryReadFilter): TaskSelect {
    let s: TaskSelect = taskBase(this.trx);
    if (readable) s = s.where(historyAccess(readable, { definitionKey: 't.proc_def_key', processInstanceId: 't.proc_inst_id' }));
    if (q.logId !== undefined) s = s.where('t.id', '=', q.logId);
    if (q.externalTaskId !== undefined) s = s.where('t.ext_task_id', '=', q.externalTaskId);
    if (q.topicName !== undefined) s = s.where('t.topic_name', '=', q.topicName);
    if (q.workerId !== undefined) s = s.where('t.worker_id', '=', q.workerId);
    if (q.errorMessage !== undefined) s = s.where('t.error_msg', '=', q.errorMessage);
    if (q.activityIdIn !== undefined) s = s.where('t.activity_id', 'in', nonEmpty(q.activityIdIn));
    if (q.activityInstanceIdIn !== undefined) s = s.where('t.activity_inst_id', 'in', nonEmpty(q.activityInstanceIdIn));
    if (q.executionIdIn !== undefined) s = s.where('t.execution_id', 'in', nonEmpty(q.executionIdIn));
    if (q.processInstanceId !== undefined) s = s.where('t.proc_inst_id', '=', q.processInstanceId);
    if (q.processDefinitionId !== undefined) s = s.where('t.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) s = s.where('t.proc_def_key', '=', q.processDefinitionKey);
    s = applyTenantCheck(s, q, 't.tenant_id');
    const tenants = requestedTenants(q, 't.tenant_id');
    if (tenants) s = s.where(tenants);
    if (q.priorityLowerThanOrEquals !== undefined) s = s.where('t.priority', '<=', q.priorityLowerThanOrEquals);
    if (q.priorityHigherThanOrEquals !== undefined) s = s.where('t.priority', '>=', q.priorityHigherThanOrEquals);
    const state = lastState(q);
    if (state !== undefined) s = s.where('t.state', '=', state);
    return s;
  }
}

const maybeDate = (millis: number | null) => (millis === null ? null : toDate(millis));

function toJobLog(row: Selectable<HistoricJobLogTable> & { inherited_removal_time: number | null }): HistoricJobLog {
  const state = Number(row.state);
  return {
    id: row.id,
    timestamp: toDate(row.timestamp),
    removalTime: maybeDate(row.inherited_removal_time),
    jobId: row.job_id,
    jobDueDate: maybeDate(row.job_due_date),
    jobRetries: row.job_retries === null ? null : Number(row.job_retries),
    jobPriority: Number(row.job_priority),
    jobExceptionMessage: row.job_exception_msg,
    failedActivityId: row.failed_activity_id,
    jobDefinitionId: row.job_def_id,
    jobDefinitionType: row.job_def_type,
    jobDefinitionConfiguration: row.job_def_configuration,
    activityId: row.activity_id,
    executionId: row.execution_id,
    processInstanceId: row.process_instance_id,
    processDefinitionId: row.process_def_id,
    processDefinitionKey: row.process_def_key,
    deploymentId: row.deployment_id,
    rootProcessInstanceId: row.root_proc_inst_id,
    tenantId: row.tenant_id,
    hostname: row.hostname,
    batchId: row.batch_id,
    creationLog: state === 0,
    failureLog: state === 1,
    successLog: state === 2,
    deletionLog: state === 3,
  };
}

function toExternalTaskLog(row: Selectable<HistoricExternalTaskLogTable> & { inherited_removal_time: number | null }): HistoricExternalTaskLog {
  const state = Number(row.state);
  return {
    id: row.id,
    externalTaskId: row.ext_task_id,
    timestamp: toDate(row.timestamp),
    topicName: row.topic_name,
    workerId: row.worker_id,
    retries: row.retries === null ? null : Number(row.retries),
    priority: Number(row.priority),
    errorMessage: row.error_msg,
    activityId: row.activity_id,
    activityInstanceId: row.activity_inst_id,
    executionId: row.execution_id,
    processInstanceId: row.proc_inst_id,
    processDefinitionId: row.proc_def_id,
    processDefinitionKey: row.proc_def_key,
    tenantId: row.tenant_id,
    creationLog: state === 0,
    failureLog: state === 1,
    successLog: state === 2,
    deletionLog: state === 3,
    removalTime: maybeDate(row.inherited_removal_time),
    rootProcessInstanceId: row.root_proc_inst_id,
  };
}
