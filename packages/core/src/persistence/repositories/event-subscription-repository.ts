import { sql, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { EventSubscriptionTable, StoreSchema } from '../schema.js';
import type { InstanceReadFilter } from './process-instance-repository.js';
import { applyPage, applySorting, nonEmpty, toDate, type Page, type Sorting } from './query-support.js';
import { applyTenantCheck, type TenantChecked } from '../../authorization/tenant-check.js';

/** A process waiting for a message, signal or condition (or a definition's start event waiting for one). */
export interface EventSubscription {
  id: string;
  eventType: 'message' | 'signal' | 'conditional' | 'compensate';
  eventName: string | null;
  executionId: string | null;
  processInstanceId: string | null;
  activityId: string | null;
  processDefinitionId: string | null;
  configuration: string | null;
  created: Date;
  tenantId: string | null;
}

export interface EventSubscriptionQuery {
  id?: string;
  eventType?: string;
  eventName?: string;
  executionId?: string;
  executionIds?: readonly string[];
  processInstanceId?: string;
  activityId?: string;
  /** Only start-event subscriptions (no execution) or only those of running instances. */
  startEvents?: boolean;
  tenantIds?: readonly string[];
  withoutTenantId?: boolean;
  /** Leaves out the subscriptions of suspended executions (start-event subscriptions stay). */
  activeExecutionsOnly?: boolean;
}

/** Camunda's EventSubscriptionQuery as the REST list and count endpoints use it. */
export interface EventSubscriptionListQuery extends Page, TenantChecked {
  eventSubscriptionId?: string;
  eventSubscriptionIds?: readonly string[];
  eventName?: string;
  eventType?: string;
  executionId?: string;
  processInstanceId?: string;
  activityId?: string;
  tenantIdIn?: string[];
  withoutTenantId?: boolean;
  /** With tenantIdIn: also subscriptions without a tenant. */
  includeEventSubscriptionsWithoutTenantId?: boolean;
  sorting?: Sorting<EventSubscriptionSortField>[];
}

export type EventSubscriptionSortField = 'created' | 'tenantId';

const LIST_SORT_COLUMNS: Record<EventSubscriptionSortField, string> = { created: 's.created', tenantId: 's.tenant_id' };

type Row = Selectable<EventSubscriptionTable>;

/** Event subscriptions, within one transaction. */
export class EventSubscriptionRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(subscription: EventSubscription): Promise<void> {
    await this.trx
      .insertInto('trellis_event_subscription')
      .values({
        id: subscription.id,
        rev: 1,
        event_type: subscription.eventType,
        event_name: subscription.eventName,
        execution_id: subscription.executionId,
        proc_inst_id: subscription.processInstanceId,
        activity_id: subscription.activityId,
        proc_def_id: subscription.processDefinitionId,
        configuration: subscription.configuration,
        created: subscription.created.getTime(),
        tenant_id: subscription.tenantId,
      })
      .execute();
  }

  async find(query: EventSubscriptionQuery): Promise<EventSubscription[]> {
    let select = this.trx.selectFrom('trellis_event_subscription').selectAll();
    if (query.id !== undefined) select = select.where('id', '=', query.id);
    if (query.eventType !== undefined) select = select.where('event_type', '=', query.eventType);
    if (query.eventName !== undefined) select = select.where('event_name', '=', query.eventName);
    if (query.executionId !== undefined) select = select.where('execution_id', '=', query.executionId);
    if (query.executionIds !== undefined) select = select.where('execution_id', 'in', nonEmpty(query.executionIds));
    if (query.processInstanceId !== undefined) select = select.where('proc_inst_id', '=', query.processInstanceId);
    if (query.activityId !== undefined) select = select.where('activity_id', '=', query.activityId);
    if (query.startEvents === true) select = select.where('execution_id', 'is', null);
    if (query.startEvents === false) select = select.where('execution_id', 'is not', null);
    if (query.tenantIds !== undefined) select = select.where('tenant_id', 'in', nonEmpty(query.tenantIds));
    if (query.withoutTenantId) select = select.where('tenant_id', 'is', null);
    if (query.activeExecutionsOnly) {
      select = select.where(
        sql<SqlBool>`(execution_id is null or not exists (select 1 from trellis_execution x where x.id = trellis_event_subscription.execution_id and x.suspended = 1))`,
      );
    }
    const rows = await select.orderBy('created').orderBy('id').execute();
    return rows.map(toSubscription);
  }

  /**
   * The list query: filters, sorting (by id when none) and paging. `readable` gets the process instance
   * id and the definition key columns (start-event subscriptions have no instance, only a definition).
   */
  async query(query: EventSubscriptionListQuery, readable: InstanceReadFilter = null): Promise<EventSubscription[]> {
    const select = this.listFiltered(query, readable).selectAll('s');
    const rows = await applyPage(applySorting(select, query.sorting, LIST_SORT_COLUMNS, 's.id'), query).execute();
    return rows.map(toSubscription);
  }

  async count(query: EventSubscriptionListQuery, readable: InstanceReadFilter = null): Promise<number> {
    const row = await this.listFiltered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private listFiltered(q: EventSubscriptionListQuery, readable: InstanceReadFilter) {
    // Camunda's EventSubscription.xml reaches the definition through the process instance: a start
    // event's subscription (no instance) has no key to check, only a `*` grant shows it.
    let select = this.trx
      .selectFrom('trellis_event_subscription as s')
      .leftJoin('trellis_process_definition as d', (join) => join.onRef('d.id', '=', 's.proc_def_id').on('s.proc_inst_id', 'is not', null));
    if (q.eventSubscriptionId !== undefined) select = select.where('s.id', '=', q.eventSubscriptionId);
    if (q.eventSubscriptionIds !== undefined) select = select.where('s.id', 'in', nonEmpty(q.eventSubscriptionIds));
    if (q.eventName !== undefined) select = select.where('s.event_name', '=', q.eventName);
    if (q.eventType !== undefined) select = select.where('s.event_type', '=', q.eventType);
    if (q.executionId !== undefined) select = select.where('s.execution_id', '=', q.executionId);
    if (q.processInstanceId !== undefined) select = select.where('s.proc_inst_id', '=', q.processInstanceId);
    if (q.activityId !== undefined) select = select.where('s.activity_id', '=', q.activityId);
    select = applyTenantCheck(select, q, 's.tenant_id');
    // Camunda's withoutTenantId replaces the tenant list.
    if (q.withoutTenantId) select = select.where('s.tenant_id', 'is', null);
    else if (q.tenantIdIn !== undefined) {
      // An empty list matches nothing (no NUL placeholder: PostgreSQL refuses it in text).
      const tenants = q.tenantIdIn.length > 0 ? sql<SqlBool>`s.tenant_id in (${sql.join([...q.tenantIdIn])})` : sql<SqlBool>`1 = 0`;
      select = select.where(q.includeEventSubscriptionsWithoutTenantId ? sql<SqlBool>`(${tenants} or s.tenant_id is null)` : tenants);
    }
    if (readable) select = select.where(readable('s.proc_inst_id', 'd.key'));
    return select;
  }

  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_event_subscription').where('id', '=', id).execute();
  }

  /**
   * Moves an execution's subscriptions to another, except those of the given activities and the
   * compensate ones (they belong to the scope execution, whatever its paths do), unless
   * `withCompensation` (a scope execution replaced by another).
   */
  async moveExecution(fromExecutionId: string, toExecutionId: string, exceptActivityIds: readonly string[], withCompensation = false): Promise<void> {
    let update = this.trx.updateTable('trellis_event_subscription').set({ execution_id: toExecutionId }).where('execution_id', '=', fromExecutionId);
    if (!withCompensation) update = update.where('event_type', '<>', 'compensate');
    if (exceptActivityIds.length > 0) update = update.where((eb) => eb.or([eb('activity_id', 'is', null), eb('activity_id', 'not in', [...exceptActivityIds])]));
    await update.execute();
  }

  /**
   * Removes every subscription of the execution except those of the given activities and the
   * compensate ones (Camunda's removeEventSubscriptionsExceptCompensation).
   */
  async deleteByExecutionExcept(executionId: string, exceptActivityIds: readonly string[]): Promise<void> {
    let del = this.trx.deleteFrom('trellis_event_subscription').where('execution_id', '=', executionId).where('event_type', '<>', 'compensate');
    if (exceptActivityIds.length > 0) del = del.where((eb) => eb.or([eb('activity_id', 'is', null), eb('activity_id', 'not in', [...exceptActivityIds])]));
    await del.execute();
  }

  async deleteByExecutions(executionIds: readonly string[]): Promise<void> {
    if (executionIds.length === 0) return;
    await this.trx.deleteFrom('trellis_event_subscription').where('execution_id', 'in', executionIds).execute();
  }

  /** The start-event subscriptions of a definition (replaced when a newer version is deployed). */
  async deleteStartEventSubscriptions(processDefinitionId: string): Promise<void> {
    await this.trx
      .deleteFrom('trellis_event_subscription')
      .where('proc_def_id', '=', processDefinitionId)
      .where('execution_id', 'is', null)
      .execute();
  }
}

function toSubscription(row: Row): EventSubscription {
  return {
    id: row.id,
    eventType: row.event_type as EventSubscription['eventType'],
    eventName: row.event_name,
    executionId: row.execution_id,
    processInstanceId: row.proc_inst_id,
    activityId: row.activity_id,
    processDefinitionId: row.proc_def_id,
    configuration: row.configuration,
    created: toDate(row.created),
    tenantId: row.tenant_id,
  };
}
