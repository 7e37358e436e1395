import { sql, type SqlBool, type Transaction } from 'kysely';
import type { ExecutionInfo, ExecutionQuery } from '../../services/runtime/execution.js';
import type { StoreSchema } from '../schema.js';
import { incidentConditions, isLeafExecution, type InstanceReadFilter } from './process-instance-repository.js';
import { applyPage, applySorting } from './query-support.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';
import { executionVariableCondition } from './variable-instance-query.js';

const SORT_COLUMNS = { instanceId: 'e.proc_inst_id', definitionKey: 'e.proc_def_key', definitionId: 'e.proc_def_id', tenantId: 'e.tenant_id' } as const;

/** Queries over executions (every path of control, the process instances included). */
export class ExecutionQueryRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async find(query: ExecutionQuery, readable: InstanceReadFilter = null): Promise<ExecutionInfo[]> {
    const select = this.filtered(query, readable).select(['e.id', 'e.proc_inst_id', 'e.tenant_id']);
    const rows = await applyPage(applySorting(select, query.sorting, SORT_COLUMNS, 'e.id'), query).execute();
    return rows.map((row) => ({ id: row.id, processInstanceId: row.proc_inst_id, ended: false, tenantId: row.tenant_id }));
  }

  async count(query: ExecutionQuery, readable: InstanceReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private filtered(q: ExecutionQuery, readable: InstanceReadFilter) {
    let select = this.trx.selectFrom('trellis_execution as e');
    if (q.executionId !== undefined) select = select.where('e.id', '=', q.executionId);
    if (q.businessKey !== undefined) select = select.where('e.business_key', '=', q.businessKey);
    if (q.processDefinitionId !== undefined) select = select.where('e.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) select = select.where('e.proc_def_key', '=', q.processDefinitionKey);
    if (q.processInstanceId !== undefined) select = select.where('e.proc_inst_id', '=', q.processInstanceId);
    // Camunda's ACT_ID_: the executions at the activity (a join's waiting ones too).
    if (q.activityId !== undefined) select = select.where('e.activity_id', '=', q.activityId).where(isLeafExecution('e'));
    for (const [type, name] of [
      ['signal', q.signalEventSubscriptionName],
      ['message', q.messageEventSubscriptionName],
    ] as const) {
      if (name === undefined) continue;
      select = select.where((eb) =>
        eb.exists(
          eb.selectFrom('trellis_event_subscription as s').select('s.id').whereRef('s.execution_id', '=', 'e.id').where('s.event_type', '=', type).where('s.event_name', '=', name),
        ),
      );
    }
    for (const condition of q.variables ?? []) select = select.where(executionVariableCondition(condition, true, q));
    for (const condition of q.processVariables ?? []) select = select.where(executionVariableCondition(condition, false, q));
    // One suspension state, as Camunda's query keeps it (suspended, set after active, wins); no activity state.
    if (q.suspended) select = select.where('e.suspended', '=', 1);
    else if (q.active) select = select.where('e.suspended', '=', 0);
    const incident = incidentConditions(q);
    if (incident.length > 0) select = select.where(sql<SqlBool>`exists (select 1 from trellis_incident i where i.execution_id = e.id and ${sql.join(incident, sql` and `)})`);
    select = applyTenantCheck(select, q, 'e.tenant_id');
    const tenants = requestedTenants(q, 'e.tenant_id');
    if (tenants) select = select.where(tenants);
    if (readable) select = select.where(readable('e.proc_inst_id', 'e.proc_def_key'));
    return select;
  }
}
