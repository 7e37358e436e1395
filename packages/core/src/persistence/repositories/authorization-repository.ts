import { sql, type Expression, type RawBuilder, type Selectable, type SqlBool, type Transaction } from 'kysely';
import type { Authorization, AuthorizationQuery, AuthorizationTypeCode } from '../../authorization/authorization.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { AuthorizationTable, StoreSchema } from '../schema.js';
import { applyPage, applySorting, nonEmpty, toDate } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

const SORT_COLUMNS = { resourceType: 'resource_type', resourceId: 'resource_id' } as const;

/** A READ filter the caller adds to a query, given the id column it applies to. */
export type ReadFilter = ((idColumn: string) => Expression<SqlBool>) | null;

/**
 * The READ filter of a history query (Camunda's configureHistoric…Query): a permission on the
 * process definition by key, and — with enableHistoricInstancePermissions — READ on the historic
 * process instance and a permission on the historic task, each by the column or expression naming
 * it; the query joins them with OR. Null when checks do not apply.
 */
export type HistoryReadFilter = {
  definition: (keyColumn: string) => Expression<SqlBool>;
  /** READ on HISTORIC_PROCESS_INSTANCE; null unless enableHistoricInstancePermissions. */
  instance: ((idColumn: string) => Expression<SqlBool>) | null;
  /** The task permission on HISTORIC_TASK, for an id expression; null unless enableHistoricInstancePermissions. */
  task: ((id: RawBuilder<unknown>) => Expression<SqlBool>) | null;
} | null;

/**
 * A history query's condition on one row: the definition check on its key column, or — with
 * enableHistoricInstancePermissions — READ on its historic process instance or the task permission
 * on its historic task, where the row names them. `standaloneTask`: a column null on a standalone
 * task's rows, which pass unchecked unless instance permissions are on (Camunda's queries skip the
 * check for them then); `unchecked`: a column null on rows that always pass (a job log entry or an
 * incident of no definition).
 */
export function historyAccess(
  filter: NonNullable<HistoryReadFilter>,
  row: { definitionKey: string; processInstanceId?: string; taskId?: string; standaloneTask?: string; unchecked?: string },
): RawBuilder<SqlBool> {
  const checks: Array<Expression<SqlBool>> = [filter.definition(row.definitionKey)];
  if (filter.instance && row.processInstanceId) checks.push(filter.instance(row.processInstanceId));
  if (filter.task && row.taskId) checks.push(filter.task(sql.ref(row.taskId)));
  if (!filter.instance && row.standaloneTask) checks.push(sql<SqlBool>`${sql.ref(row.standaloneTask)} is null`);
  if (row.unchecked) checks.push(sql<SqlBool>`${sql.ref(row.unchecked)} is null`);
  return sql<SqlBool>`(${sql.join(checks, sql` or `)})`;
}

/** Authorizations, within one transaction. */
export class AuthorizationRepository {
  private readonly revisions = new RevisionTracker('AuthorizationEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(authorization: Authorization): Promise<void> {
    await this.trx.insertInto('trellis_authorization').values({ ...toRow(authorization), rev: 1 }).execute();
    this.revisions.remember(authorization.id, 1);
  }

  async findById(id: string): Promise<Authorization | null> {
    const row = await this.trx.selectFrom('trellis_authorization').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  async find(query: AuthorizationQuery, readable: ReadFilter = null): Promise<Authorization[]> {
    const sorted = applySorting(this.filtered(query, readable).selectAll(), query.sorting, SORT_COLUMNS, 'id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: AuthorizationQuery, readable: ReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Whether any REVOKE authorization concerns the user or one of its groups (Camunda's `auto` revoke checking). */
  async hasRevokes(userId: string, groupIds: readonly string[]): Promise<boolean> {
    const row = await this.trx
      .selectFrom('trellis_authorization')
      .select('id')
      .where('type', '=', 2)
      .where((eb) => eb.or([eb('user_id', '=', userId), ...(groupIds.length > 0 ? [eb('group_id', 'in', [...groupIds])] : [])]))
      .executeTakeFirst();
    return row !== undefined;
  }

  async update(authorization: Authorization): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_authorization', authorization.id, toRow(authorization));
  }

  /** Deletes an authorization and those whose resource it is (Camunda's DeleteAuthorizationCmd). */
  async delete(authorization: Authorization): Promise<void> {
    const result = await this.trx
      .deleteFrom('trellis_authorization')
      .where('id', '=', authorization.id)
      .where('rev', '=', this.revisions.of(authorization.id))
      .executeTakeFirst();
    this.revisions.ensureChanged(authorization.id, result.numDeletedRows);
  }

  /** Removes the authorizations on one resource, or on several of one type (their owner is being deleted). */
  async deleteByResource(resourceType: number, resourceId: string | readonly string[]): Promise<void> {
    if (typeof resourceId !== 'string' && resourceId.length === 0) return;
    await this.trx.deleteFrom('trellis_authorization').where('resource_type', '=', resourceType).where('resource_id', 'in', typeof resourceId === 'string' ? [resourceId] : resourceId).execute();
  }

  private filtered(query: AuthorizationQuery, readable: ReadFilter) {
    if (query.userIdIn !== undefined && query.groupIdIn !== undefined) {
      throw new ProcessEngineException('Cannot query for user and group authorizations at the same time.');
    }
    let select = this.trx.selectFrom('trellis_authorization');
    if (query.id !== undefined) select = select.where('id', '=', query.id);
    if (query.type !== undefined) select = select.where('type', '=', query.type);
    if (query.userIdIn !== undefined) select = select.where('user_id', 'in', nonEmpty(query.userIdIn));
    if (query.groupIdIn !== undefined) select = select.where('group_id', 'in', nonEmpty(query.groupIdIn));
    if (query.resourceType !== undefined) select = select.where('resource_type', '=', query.resourceType);
    if (query.resourceId !== undefined) select = select.where('resource_id', '=', query.resourceId);
    if (readable) select = select.where(readable('trellis_authorization.id'));
    return select;
  }

  private remember(row: Selectable<AuthorizationTable>): Authorization {
    this.revisions.remember(row.id, row.rev);
    return {
      id: row.id,
      type: Number(row.type) as AuthorizationTypeCode,
      userId: row.user_id,
      groupId: row.group_id,
      resourceType: Number(row.resource_type),
      resourceId: row.resource_id,
      permissions: Number(row.perms),
      removalTime: row.removal_time == null ? null : toDate(row.removal_time),
      rootProcessInstanceId: row.root_proc_inst_id,
    };
  }
}

function toRow(authorization: Authorization): Omit<AuthorizationTable, 'rev'> {
  return {
    id: authorization.id,
    type: authorization.type,
    user_id: authorization.userId,
    group_id: authorization.groupId,
    resource_type: authorization.resourceType,
    resource_id: authorization.resourceId,
    perms: authorization.permissions,
    removal_time: authorization.removalTime?.getTime() ?? null,
    root_proc_inst_id: authorization.rootProcessInstanceId,
  };
}
