import { sql, type Expression, type RawBuilder, type SqlBool, type Transaction } from 'kysely';
import type { ProcessInstance, ProcessInstanceQuery } from '../../services/runtime/process-instance.js';
import type { StoreSchema } from '../schema.js';
import { applyPage, applySorting, columnIn, LIKE_ESCAPE, toBoolean } from './query-support.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import { executionVariableCondition } from './variable-instance-query.js';

const SORT_COLUMNS = {
  instanceId: 'e.id', definitionKey: 'e.proc_def_key', definitionId: 'e.proc_def_id', tenantId: 'e.tenant_id', businessKey: 'e.business_key',
} as const;

/** A read filter on process instances, given the instance id and definition key columns. */
export type InstanceReadFilter = ((instanceIdColumn: string, definitionKeyColumn: string) => Expression<SqlBool>) | null;

/** Queries over process instances: the root executions. */
export class ProcessInstanceRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async find(query: ProcessInstanceQuery, readable: InstanceReadFilter = null): Promise<ProcessInstance[]> {
    const select = this.filtered(query, readable).select(['e.id', 'e.proc_def_id', 'e.proc_def_key', 'e.business_key', 'e.suspended', 'e.tenant_id']);
    const rows = await applyPage(applySorting(select, query.sorting, SORT_COLUMNS, 'e.id'), query).execute();
    return rows.map((row) => ({
      id: row.id,
      processDefinitionId: row.proc_def_id,
      processDefinitionKey: row.proc_def_key,
      businessKey: row.business_key,
      ended: false,
      suspended: toBoolean(row.suspended),
      tenantId: row.tenant_id,
    }));
  }

  async count(query: ProcessInstanceQuery, readable: InstanceReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** How many instances a definition has (deleting it without cascade is refused then). */
  async countByDefinition(processDefinitionId: string): Promise<number> {
    return this.count({ processDefinitionId });
  }

  private filtered(q: ProcessInstanceQuery, readable: InstanceReadFilter) {
    let select = this.trx.selectFrom('trellis_execution as e').where('e.parent_id', 'is', null);
    for (const criterion of instanceCriteria(q, false)) select = select.where(criterion);
    // Camunda's or(): each or-query holds when any of its criteria does (one without criteria always holds).
    for (const orQuery of q.orQueries ?? []) {
      const any = instanceCriteria(orQuery, true);
      if (any.length > 0) select = select.where(sql<SqlBool>`(${sql.join(any, sql` or `)})`);
    }
    select = applyTenantCheck(select, q, 'e.tenant_id');
    if (readable) select = select.where(readable('e.id', 'e.proc_def_key'));
    return select;
  }
}

/**
 * The criteria of a process instance query (Camunda's selectProcessInstanceByQueryCriteriaSql, on
 * the root execution `e`), each a condition: all must hold for the query, any for an or-query.
 */
function instanceCriteria(q: ProcessInstanceQuery, orQuery: boolean): Expression<SqlBool>[] {
  const criteria: Expression<SqlBool>[] = [];
  const where = (condition: Expression<SqlBool>) => void criteria.push(condition);
  const isIn = (column: string, values: readonly string[]) => where(columnIn(column, values));
  if (q.processInstanceIds !== undefined && q.processInstanceIds.length === 0) throw new ProcessEngineException('Set of process instance ids is empty');
  if (q.processInstanceIds !== undefined) isIn('e.id', q.processInstanceIds);
  if (q.businessKey !== undefined) where(sql<SqlBool>`e.business_key = ${q.businessKey}`);
  if (q.businessKeyLike !== undefined) where(sql<SqlBool>`e.business_key like ${q.businessKeyLike} ${LIKE_ESCAPE}`);
  if (q.processDefinitionId !== undefined) where(sql<SqlBool>`e.proc_def_id = ${q.processDefinitionId}`);
  if (q.processDefinitionKey !== undefined) where(sql<SqlBool>`e.proc_def_key = ${q.processDefinitionKey}`);
  if (q.processDefinitionKeyIn !== undefined) isIn('e.proc_def_key', q.processDefinitionKeyIn);
  if (q.processDefinitionKeyNotIn !== undefined && q.processDefinitionKeyNotIn.length > 0) {
    where(sql<SqlBool>`e.proc_def_key not in (${sql.join(q.processDefinitionKeyNotIn)})`);
  }
  if (q.deploymentId !== undefined) where(sql<SqlBool>`e.proc_def_id in (select d.id from trellis_process_definition d where d.deployment_id = ${q.deploymentId})`);
  if (q.activityIdIn !== undefined && q.activityIdIn.length > 0) {
    // Camunda: an execution waiting at the activity, async waits included.
    where(sql<SqlBool>`exists (select 1 from trellis_execution x where x.proc_inst_id = e.id and x.activity_id in (${sql.join(q.activityIdIn)}) and ${isLeafExecution('x')})`);
  }
  if (q.processDefinitionWithoutTenantId) where(sql<SqlBool>`e.proc_def_id in (select d.id from trellis_process_definition d where d.tenant_id is null)`);
  hierarchyCriteria(q).forEach(where);
  incidentCriteria(q, orQuery).forEach(where);
  // Camunda's process instance variables: those of the root execution itself.
  for (const condition of q.variables ?? []) where(executionVariableCondition(condition, true, q));
  // One suspension state, as Camunda's query keeps it: suspended, set after active, wins.
  if (q.suspended) where(sql<SqlBool>`e.suspended = 1`);
  else if (q.active) where(sql<SqlBool>`e.suspended = 0`);
  const tenants = requestedTenants(q, 'e.tenant_id');
  if (tenants) where(tenants);
  return criteria;
}

/**
 * An execution that is where its activity runs (Camunda's ACT_ID_), not the parent of a scope's
 * execution, which keeps the scope activity's id in Trellis's tree.
 */
export function isLeafExecution(alias: string): RawBuilder<SqlBool> {
  return sql<SqlBool>`not exists (select 1 from trellis_execution c where c.parent_id = ${sql.ref(`${alias}.id`)})`;
}

/** The call hierarchy criteria of Camunda's process instance query (a called instance's super execution may be nested). */
function hierarchyCriteria(q: ProcessInstanceQuery): Expression<SqlBool>[] {
  if (q.rootProcessInstances && q.superProcessInstance !== undefined) {
    throw new ProcessEngineException('Invalid query usage: cannot set both rootProcessInstances and superProcessInstanceId');
  }
  if (q.leafProcessInstances && q.subProcessInstance !== undefined) {
    throw new ProcessEngineException('Invalid query usage: cannot set both leafProcessInstances and subProcessInstanceId');
  }
  const criteria: Expression<SqlBool>[] = [];
  if (q.superProcessInstance !== undefined) criteria.push(sql<SqlBool>`e.super_proc_inst_id = ${q.superProcessInstance}`);
  if (q.subProcessInstance !== undefined) criteria.push(sql<SqlBool>`e.id = (select sub.super_proc_inst_id from trellis_execution sub where sub.id = ${q.subProcessInstance})`);
  if (q.rootProcessInstances) criteria.push(sql<SqlBool>`e.super_execution_id is null`);
  if (q.leafProcessInstances) criteria.push(sql<SqlBool>`not exists (select 1 from trellis_execution called where called.super_proc_inst_id = e.id and called.parent_id is null)`);
  return criteria;
}

/**
 * Camunda's incident join: an incident of the instance matching every incident criterion given (in an
 * or-query, Camunda's joined incident rows make each criterion an alternative of its own).
 */
function incidentCriteria(q: ProcessInstanceQuery, orQuery: boolean): Expression<SqlBool>[] {
  const conditions = incidentConditions(q);
  const anIncident = (condition: Expression<SqlBool>) => sql<SqlBool>`exists (select 1 from trellis_incident i where i.proc_inst_id = e.id and ${condition})`;
  if (conditions.length === 0) return q.withIncident ? [anIncident(sql<SqlBool>`1 = 1`)] : [];
  return orQuery ? conditions.map(anIncident) : [anIncident(sql<SqlBool>`${sql.join(conditions, sql` and `)}`)];
}

/** The runtime incident criteria of an instance or execution query, as conditions on the incident `i`. */
export function incidentConditions(q: { incidentId?: string; incidentType?: string; incidentMessage?: string; incidentMessageLike?: string }): Expression<SqlBool>[] {
  const conditions: Expression<SqlBool>[] = [];
  if (q.incidentId !== undefined) conditions.push(sql<SqlBool>`i.id = ${q.incidentId}`);
  if (q.incidentType !== undefined) conditions.push(sql<SqlBool>`i.incident_type = ${q.incidentType}`);
  if (q.incidentMessage !== undefined) conditions.push(sql<SqlBool>`i.incident_message = ${q.incidentMessage}`);
  if (q.incidentMessageLike !== undefined) conditions.push(sql<SqlBool>`i.incident_message like ${q.incidentMessageLike} ${LIKE_ESCAPE}`);
  return conditions;
}
