import { sql, type Expression, type SqlBool, type Transaction } from 'kysely';
import type { ProcessInstance, ProcessInstanceQuery } from '../../services/runtime/process-instance.js';
import type { StoreSchema } from '../schema.js';
import { applyPage, applySorting, nonEmpty, toBoolean } from './query-support.js';
import { applyTenantCheck } from '../../authorization/tenant-check.js';
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
    if (q.processInstanceIds !== undefined) select = select.where('e.id', 'in', nonEmpty(q.processInstanceIds));
    if (q.businessKey !== undefined) select = select.where('e.business_key', '=', q.businessKey);
    if (q.businessKeyLike !== undefined) select = select.where('e.business_key', 'like', q.businessKeyLike);
    if (q.processDefinitionId !== undefined) select = select.where('e.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) select = select.where('e.proc_def_key', '=', q.processDefinitionKey);
    if (q.processDefinitionKeyIn !== undefined) select = select.where('e.proc_def_key', 'in', nonEmpty(q.processDefinitionKeyIn));
    if (q.deploymentId !== undefined) {
      const deploymentId = q.deploymentId;
      select = select.where('e.proc_def_id', 'in', (eb) => eb.selectFrom('trellis_process_definition').select('id').where('deployment_id', '=', deploymentId));
    }
    if (q.activityIdIn !== undefined) {
      const activities = nonEmpty(q.activityIdIn);
      select = select.where((eb) =>
        eb.exists(eb.selectFrom('trellis_activity_instance as a').select('a.id').whereRef('a.proc_inst_id', '=', 'e.id').where('a.activity_id', 'in', activities)),
      );
    }
    if (q.processDefinitionKeyNotIn !== undefined && q.processDefinitionKeyNotIn.length > 0) select = select.where('e.proc_def_key', 'not in', q.processDefinitionKeyNotIn);
    if (q.processDefinitionWithoutTenantId) {
      select = select.where('e.proc_def_id', 'in', (eb) => eb.selectFrom('trellis_process_definition').select('id').where('tenant_id', 'is', null));
    }
    for (const criterion of hierarchyCriteria(q)) select = select.where(criterion);
    const incident = incidentCriterion(q);
    if (incident) select = select.where(incident);
    // Camunda's process instance variables: those of the root execution itself.
    for (const condition of q.variables ?? []) select = select.where(executionVariableCondition(condition, true, q.variableNamesIgnoreCase === true, q.variableValuesIgnoreCase === true));
    if (q.active) select = select.where('e.suspended', '=', 0);
    if (q.suspended) select = select.where('e.suspended', '=', 1);
    select = applyTenantCheck(select, q, 'e.tenant_id');
    if (q.withoutTenantId) select = select.where('e.tenant_id', 'is', null);
    if (q.tenantIdIn !== undefined) select = select.where('e.tenant_id', 'in', nonEmpty(q.tenantIdIn));
    if (readable) select = select.where(readable('e.id', 'e.proc_def_key'));
    return select;
  }
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

/** Camunda's incident join: an incident of the instance matching every incident criterion given. */
function incidentCriterion(q: ProcessInstanceQuery): Expression<SqlBool> | null {
  const conditions: Expression<SqlBool>[] = [];
  if (q.incidentId !== undefined) conditions.push(sql<SqlBool>`i.id = ${q.incidentId}`);
  if (q.incidentType !== undefined) conditions.push(sql<SqlBool>`i.incident_type = ${q.incidentType}`);
  if (q.incidentMessage !== undefined) conditions.push(sql<SqlBool>`i.incident_message = ${q.incidentMessage}`);
  if (q.incidentMessageLike !== undefined) conditions.push(sql<SqlBool>`i.incident_message like ${q.incidentMessageLike}`);
  if (conditions.length === 0 && !q.withIncident) return null;
  const all = conditions.length > 0 ? sql.join(conditions, sql` and `) : sql`1 = 1`;
  return sql<SqlBool>`exists (select 1 from trellis_incident i where i.proc_inst_id = e.id and ${all})`;
}
