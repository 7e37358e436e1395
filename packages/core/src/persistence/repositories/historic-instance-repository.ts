import { sql, type RawBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely';
import { BadUserRequestException, ProcessEngineException } from '../../errors/exceptions.js';
import type {
  HistoricActivityInstance,
  HistoricActivityInstanceQuery,
  HistoricActivityInstanceSortField,
  HistoricProcessInstance,
  HistoricProcessInstanceQuery,
  HistoricProcessInstanceSortField,
  HistoricProcessInstanceState,
} from '../../services/history/historic-instances.js';
import type { HistoricActivityInstanceTable, HistoricProcessInstanceTable, StoreSchema } from '../schema.js';
import { historyAccess, type HistoryReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, columnIn, LIKE_ESCAPE, likeMatches, nonEmpty, toDate } from './query-support.js';
import { TaskHistory } from '../../history/task-history.js';
import { variableExists } from './variable-instance-query.js';
import { inheritedRemovalTime } from '../../history/removal-time.js';
import { applyTenantCheck, requestedTenants, tenantCondition } from '../../authorization/tenant-check.js';

const processBase = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_procinst as p');
const activityBase = (trx: Transaction<StoreSchema>) => trx.selectFrom('trellis_hi_actinst as a');
type ProcessSelect = ReturnType<typeof processBase>;
type ActivitySelect = ReturnType<typeof activityBase>;

const PROCESS_SORT: Record<HistoricProcessInstanceSortField, string> = {
  instanceId: 'p.id', definitionId: 'p.proc_def_id', definitionKey: 'p.proc_def_key', definitionName: 'p.proc_def_name',
  definitionVersion: 'p.proc_def_version', businessKey: 'p.business_key', startTime: 'p.start_time', endTime: 'p.end_time',
  duration: 'p.duration', tenantId: 'p.tenant_id',
};
const ACTIVITY_SORT: Record<HistoricActivityInstanceSortField, string> = {
  activityInstanceId: 'a.id', instanceId: 'a.proc_inst_id', executionId: 'a.execution_id', activityId: 'a.activity_id',
  activityName: 'a.activity_name', activityType: 'a.activity_type', startTime: 'a.start_time', endTime: 'a.end_time',
  duration: 'a.duration', definitionId: 'a.proc_def_id', occurrence: 'a.start_time', tenantId: 'a.tenant_id',
};
const STATE_FLAGS: ReadonlyArray<[keyof HistoricProcessInstanceQuery, HistoricProcessInstanceState]> = [
  ['active', 'ACTIVE'], ['suspended', 'SUSPENDED'], ['completed', 'COMPLETED'],
  ['externallyTerminated', 'EXTERNALLY_TERMINATED'], ['internallyTerminated', 'INTERNALLY_TERMINATED'],
];

/** Historic process and activity instances: Camunda's history queries, filtered by what the caller may read. */
export class HistoricInstanceRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async findProcessInstances(q: HistoricProcessInstanceQuery, readable: HistoryReadFilter): Promise<HistoricProcessInstance[]> {
    let select = this.processSelect(q, readable).selectAll('p');
    select = applySorting(select, q.sorting, PROCESS_SORT, 'p.id');
    const rows = await applyPage(select, q).execute();
    return rows.map(toProcessInstance);
  }

  async countProcessInstances(q: HistoricProcessInstanceQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.processSelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Removes a historic process instance and its activity instances. */
  async deleteProcessInstance(id: string): Promise<void> {
    await TaskHistory.processInstanceDeleted(this.trx, id);
    await this.trx.deleteFrom('trellis_hi_actinst').where('proc_inst_id', '=', id).execute();
    await this.trx.deleteFrom('trellis_hi_procinst').where('id', '=', id).execute();
  }

  async findActivityInstances(q: HistoricActivityInstanceQuery, readable: HistoryReadFilter): Promise<HistoricActivityInstance[]> {
    let select = this.activitySelect(q, readable).selectAll('a').select(inheritedRemovalTime('trellis_hi_actinst', 'a'));
    const sorting = q.sorting?.flatMap((each) =>
      // Camunda's occurrence: start time, then the order within the execution.
      each.sortBy === 'occurrence' ? [each, { sortBy: 'sequenceCounter' as HistoricActivityInstanceSortField, sortOrder: each.sortOrder }] : [each],
    );
    select = applySorting(select, sorting, { ...ACTIVITY_SORT, sequenceCounter: 'a.sequence_counter' } as Record<HistoricActivityInstanceSortField, string>, 'a.id');
    const rows = await applyPage(select, q).execute();
    return rows.map(toActivityInstance);
  }

  async countActivityInstances(q: HistoricActivityInstanceQuery, readable: HistoryReadFilter): Promise<number> {
    const row = await this.activitySelect(q, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private processSelect(q: HistoricProcessInstanceQuery, readable: HistoryReadFilter): ProcessSelect {
    let s: ProcessSelect = processBase(this.trx);
    if (readable) s = s.where(historyAccess(readable, { definitionKey: 'p.proc_def_key', processInstanceId: 'p.id' }));
    const main = processCriteria(q, stateOf(q));
    if (main.length > 0) s = s.where(sql<SqlBool>`${sql.join(main, sql` and `)}`);
    for (const or of q.orQueries ?? []) {
      // Camunda's or-query: its criteria joined by OR (one state, as in the main query); an empty one
      // matches all, and or-queries nested in it are ignored, as Camunda's mapping never reads them.
      const any = processCriteria(or, stateOf(or));
      if (any.length > 0) s = s.where(sql<SqlBool>`(${sql.join(any, sql` or `)})`);
    }
    return s;
  }

  private activitySelect(q: HistoricActivityInstanceQuery, readable: HistoryReadFilter): ActivitySelect {
    let s: ActivitySelect = activityBase(this.trx);
    if (readable) s = s.where(historyAccess(readable, { definitionKey: 'a.proc_def_key', processInstanceId: 'a.proc_inst_id' }));
    if (q.activityInstanceId !== undefined) s = s.where('a.id', '=', q.activityInstanceId);
    if (q.processInstanceId !== undefined) s = s.where('a.proc_inst_id', '=', q.processInstanceId);
    if (q.processDefinitionId !== undefined) s = s.where('a.proc_def_id', '=', q.processDefinitionId);
    if (q.executionId !== undefined) s = s.where('a.execution_id', '=', q.executionId);
    if (q.activityId !== undefined) s = s.where('a.activity_id', '=', q.activityId);
    if (q.activityName !== undefined) s = s.where('a.activity_name', '=', q.activityName);
    if (q.activityNameLike !== undefined) s = s.where(likeMatches('a.activity_name', q.activityNameLike));
    if (q.activityType !== undefined) s = s.where('a.activity_type', '=', q.activityType);
    if (q.taskAssignee !== undefined) s = s.where('a.assignee', '=', q.taskAssignee);
    if (q.finished) s = s.where('a.end_time', 'is not', null);
    if (q.unfinished) s = s.where('a.end_time', 'is', null);
    // Camunda's query holds one activity instance state; its DTO asks for completeScope first.
    if (q.completeScope && q.canceled) throw new ProcessEngineException('Already querying for activity instance state <scopeComplete>');
    if (q.canceled) s = s.where('a.canceled', '=', 1);
    if (q.completeScope) s = s.where('a.complete_scope', '=', 1);
    if (q.startedBefore) s = s.where('a.start_time', '<=', q.startedBefore.getTime());
    if (q.startedAfter) s = s.where('a.start_time', '>=', q.startedAfter.getTime());
    if (q.finishedBefore) s = s.where('a.end_time', '<=', q.finishedBefore.getTime());
    if (q.finishedAfter) s = s.where('a.end_time', '>=', q.finishedAfter.getTime());
    s = applyTenantCheck(s, q, 'a.tenant_id');
    const tenants = requestedTenants(q, 'a.tenant_id');
    if (tenants) s = s.where(tenants);
    return s;
  }
}

/** The one state a query asks for; Camunda refuses a second (its ensureNull names the first by its value). */
function stateOf(q: HistoricProcessInstanceQuery): HistoricProcessInstanceState | undefined {
  let state = q.state;
  for (const [flag, value] of STATE_FLAGS) {
    if (q[flag] !== true) continue;
    if (state !== undefined) throw new BadUserRequestException(`Already querying for historic process instance with another state: ${state} is not null`);
    state = value;
  }
  return state;
}

type Criterion = RawBuilder<SqlBool>;

/** The query's criteria on the historic process instance (aliased `p`), each one condition; `state` as decided by the caller. */
function processCriteria(q: HistoricProcessInstanceQuery, state: HistoricProcessInstanceState | undefined): Criterion[] {
  const c: Criterion[] = [];
  const is = (column: string, op: string, value: unknown) => c.push(sql<SqlBool>`${sql.ref(column)} ${sql.raw(op)} ${value}`);
  const isIn = (column: string, values: readonly string[]) => c.push(columnIn(column, values));
  if (q.rootProcessInstances && q.superProcessInstanceId !== undefined) {
    throw new BadUserRequestException('Invalid query usage: cannot set both rootProcessInstances and superProcessInstanceId');
  }
  if (q.processInstanceId !== undefined) is('p.id', '=', q.processInstanceId);
  if (q.processInstanceIds !== undefined) isIn('p.id', q.processInstanceIds);
  if (q.processDefinitionId !== undefined) is('p.proc_def_id', '=', q.processDefinitionId);
  if (q.processDefinitionKey !== undefined) is('p.proc_def_key', '=', q.processDefinitionKey);
  if (q.processDefinitionKeyIn !== undefined) isIn('p.proc_def_key', q.processDefinitionKeyIn);
  // Camunda compares each key with NOT LIKE: `%` and `_` in a key are wildcards.
  for (const key of q.processDefinitionKeyNotIn ?? []) c.push(sql<SqlBool>`p.proc_def_key not like ${key} ${LIKE_ESCAPE}`);
  if (q.processDefinitionName !== undefined) is('p.proc_def_name', '=', q.processDefinitionName);
  if (q.processDefinitionNameLike !== undefined) c.push(likeMatches('p.proc_def_name', q.processDefinitionNameLike));
  if (q.processInstanceBusinessKey !== undefined) is('p.business_key', '=', q.processInstanceBusinessKey);
  if (q.processInstanceBusinessKeyIn !== undefined) isIn('p.business_key', q.processInstanceBusinessKeyIn);
  if (q.processInstanceBusinessKeyLike !== undefined) c.push(likeMatches('p.business_key', q.processInstanceBusinessKeyLike));
  if (q.rootProcessInstances) c.push(sql<SqlBool>`p.super_proc_inst_id is null`);
  if (q.finished) c.push(sql<SqlBool>`p.end_time is not null`);
  if (q.unfinished) c.push(sql<SqlBool>`p.end_time is null`);
  if (q.startedBefore) is('p.start_time', '<=', q.startedBefore.getTime());
  if (q.startedAfter) is('p.start_time', '>=', q.startedAfter.getTime());
  if (q.finishedBefore) is('p.end_time', '<=', q.finishedBefore.getTime());
  if (q.finishedAfter) is('p.end_time', '>=', q.finishedAfter.getTime());
  if (q.startedBy !== undefined) is('p.start_user_id', '=', q.startedBy);
  for (const [ids, finished] of [[q.executedActivityIdIn, true], [q.activeActivityIdIn, false]] as const) {
    if (ids === undefined) continue;
    c.push(sql<SqlBool>`exists (select 1 from trellis_hi_actinst ha where ha.proc_inst_id = p.id
      and ha.activity_id in (${sql.join(nonEmpty(ids))}) and ha.end_time ${sql.raw(finished ? 'is not' : 'is')} null)`);
  }
  if (q.superProcessInstanceId !== undefined) is('p.super_proc_inst_id', '=', q.superProcessInstanceId);
  if (q.subProcessInstanceId !== undefined) {
    c.push(sql<SqlBool>`p.id = (select sub.super_proc_inst_id from trellis_hi_procinst sub where sub.id = ${q.subProcessInstanceId})`);
  }
  const tenants = tenantCondition(q, 'p.tenant_id');
  if (tenants) c.push(tenants);
  const requested = requestedTenants(q, 'p.tenant_id');
  if (requested) c.push(requested);
  if (state) is('p.state', '=', state);
  return [...c, ...relatedCriteria(q)];
}

/** Criteria on the instance's incidents, activities, jobs and variables (Camunda's joins, as EXISTS). */
function relatedCriteria(q: HistoricProcessInstanceQuery): Criterion[] {
  const c: Criterion[] = [];
  const incident: Criterion[] = [];
  if (q.incidentType !== undefined) incident.push(sql<SqlBool>`i.incident_type = ${q.incidentType}`);
  if (q.incidentIdIn !== undefined && q.incidentIdIn.length > 0) incident.push(sql<SqlBool>`i.id in (${sql.join(q.incidentIdIn)})`);
  if (q.incidentMessage !== undefined) incident.push(sql<SqlBool>`i.incident_message = ${q.incidentMessage}`);
  if (q.incidentMessageLike !== undefined) incident.push(sql<SqlBool>`i.incident_message like ${q.incidentMessageLike} ${LIKE_ESCAPE}`);
  if (q.incidentStatus === 'open') incident.push(sql<SqlBool>`i.end_time is null`);
  if (q.incidentStatus === 'resolved') incident.push(sql<SqlBool>`i.end_time is not null`);
  if (q.withRootIncidents) incident.push(sql<SqlBool>`i.id = i.root_cause_incident_id`);
  if (incident.length > 0 || q.withIncidents || q.incidentStatus !== undefined) {
    const all = incident.length > 0 ? sql.join(incident, sql` and `) : sql`1 = 1`;
    c.push(sql<SqlBool>`exists (select 1 from trellis_hi_incident i where i.proc_inst_id = p.id and ${all})`);
  }
  if (q.executedActivityAfter || q.executedActivityBefore) {
    const after = q.executedActivityAfter?.getTime();
    const before = q.executedActivityBefore?.getTime();
    c.push(sql<SqlBool>`exists (select 1 from trellis_hi_actinst ea where ea.proc_inst_id = p.id
      ${after === undefined ? sql`` : sql`and (ea.start_time >= ${after} or ea.end_time >= ${after})`}
      ${before === undefined ? sql`` : sql`and (ea.start_time <= ${before} or ea.end_time <= ${before})`})`);
  }
  if (q.executedJobAfter || q.executedJobBefore) {
    const after = q.executedJobAfter?.getTime();
    const before = q.executedJobBefore?.getTime();
    c.push(sql<SqlBool>`exists (select 1 from trellis_hi_job_log jl where jl.process_instance_id = p.id
      ${after === undefined ? sql`` : sql`and jl.timestamp >= ${after}`}
      ${before === undefined ? sql`` : sql`and jl.timestamp <= ${before}`})`);
  }
  if (q.activityIdIn !== undefined) {
    // Camunda's mapping: an unfinished historic activity instance at the activity, or a historic incident (open or not) there.
    const ids = sql.join(nonEmpty(q.activityIdIn));
    c.push(sql<SqlBool>`(exists (select 1 from trellis_hi_actinst ha where ha.proc_inst_id = p.id and ha.end_time is null and ha.activity_id in (${ids}))
      or exists (select 1 from trellis_hi_incident hi where hi.proc_inst_id = p.id and hi.activity_id in (${ids})))`);
  }
  for (const condition of q.variables ?? []) c.push(variableExists('trellis_hi_varinst', sql<SqlBool>`v.proc_inst_id = p.id`, condition, q));
  return c;
}

const dateOrNull = (millis: number | null) => (millis === null ? null : toDate(millis));
const numberOrNull = (value: number | null) => (value === null ? null : Number(value));

function toProcessInstance(row: Selectable<HistoricProcessInstanceTable>): HistoricProcessInstance {
  return {
    id: row.id,
    rootProcessInstanceId: row.root_proc_inst_id,
    superProcessInstanceId: row.super_proc_inst_id,
    processDefinitionId: row.proc_def_id,
    processDefinitionKey: row.proc_def_key,
    processDefinitionName: row.proc_def_name,
    processDefinitionVersion: numberOrNull(row.proc_def_version),
    businessKey: row.business_key,
    startTime: toDate(row.start_time),
    endTime: dateOrNull(row.end_time),
    removalTime: dateOrNull(row.removal_time),
    durationInMillis: numberOrNull(row.duration),
    startUserId: row.start_user_id,
    startActivityId: row.start_act_id,
    endActivityId: row.end_act_id,
    deleteReason: row.delete_reason,
    tenantId: row.tenant_id,
    state: row.state as HistoricProcessInstanceState,
    restartedProcessInstanceId: row.restarted_proc_inst_id,
  };
}

function toActivityInstance(row: Selectable<HistoricActivityInstanceTable> & { inherited_removal_time: number | null }): HistoricActivityInstance {
  return {
    id: row.id,
    parentActivityInstanceId: row.parent_act_inst_id,
    activityId: row.activity_id,
    activityName: row.activity_name,
    activityType: row.activity_type,
    processDefinitionKey: row.proc_def_key,
    processDefinitionId: row.proc_def_id,
    processInstanceId: row.proc_inst_id,
    rootProcessInstanceId: row.root_proc_inst_id,
    executionId: row.execution_id,
    taskId: row.task_id,
    assignee: row.assignee,
    calledProcessInstanceId: row.called_proc_inst_id,
    startTime: toDate(row.start_time),
    endTime: dateOrNull(row.end_time),
    durationInMillis: numberOrNull(row.duration),
    canceled: Number(row.canceled) === 1,
    completeScope: Number(row.complete_scope) === 1,
    tenantId: row.tenant_id,
    removalTime: dateOrNull(row.inherited_removal_time),
  };
}

