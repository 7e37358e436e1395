import type { Expression, SqlBool, Transaction } from 'kysely';
import type { ProcessInstance, ProcessInstanceQuery } from '../../services/runtime/process-instance.js';
import type { StoreSchema } from '../schema.js';
import { applyPage, applySorting, nonEmpty, toBoolean } from './query-support.js';
import { applyTenantCheck } from '../../authorization/tenant-check.js';

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
    if (q.active) select = select.where('e.suspended', '=', 0);
    if (q.suspended) select = select.where('e.suspended', '=', 1);
    select = applyTenantCheck(select, q, 'e.tenant_id');
    if (q.withoutTenantId) select = select.where('e.tenant_id', 'is', null);
    if (q.tenantIdIn !== undefined) select = select.where('e.tenant_id', 'in', nonEmpty(q.tenantIdIn));
    if (readable) select = select.where(readable('e.id', 'e.proc_def_key'));
    return select;
  }
}
