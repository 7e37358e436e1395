import type { Selectable, Transaction } from 'kysely';
import type { Tenant, TenantQuery } from '../../services/identity/identity.js';
import type { StoreSchema, TenantTable } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, likeMatches, nonEmpty } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

const SORT_COLUMNS = { id: 't.id', name: 't.name' } as const;

/** A tenant member: a user or a group. */
export type TenantMember = { userId: string } | { groupId: string };

const memberColumn = (member: TenantMember) => ('userId' in member ? (['user_id', member.userId] as const) : (['group_id', member.groupId] as const));

/** Tenants and their members, within one transaction. */
export class TenantRepository {
  private readonly revisions = new RevisionTracker('TenantEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(tenant: Tenant): Promise<void> {
    await this.trx.insertInto('trellis_tenant').values({ id: tenant.id, rev: 1, name: tenant.name }).execute();
    this.revisions.remember(tenant.id, 1);
  }

  async findById(id: string): Promise<Tenant | null> {
    const row = await this.trx.selectFrom('trellis_tenant').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  async find(query: TenantQuery, readable: ReadFilter = null): Promise<Tenant[]> {
    const sorted = applySorting(this.filtered(query, readable).selectAll('t'), query.sorting, SORT_COLUMNS, 't.id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: TenantQuery, readable: ReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async update(tenant: Tenant): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_tenant', tenant.id, { name: tenant.name });
  }

  /** The tenant and its memberships. */
  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_tenant_member').where('tenant_id', '=', id).execute();
    await this.trx.deleteFrom('trellis_tenant').where('id', '=', id).execute();
  }

  async isMember(tenantId: string, member: TenantMember): Promise<boolean> {
    const [column, id] = memberColumn(member);
    const row = await this.trx.selectFrom('trellis_tenant_member').select('tenant_id').where('tenant_id', '=', tenantId).where(column, '=', id).executeTakeFirst();
    return row !== undefined;
  }

  async addMember(tenantId: string, member: TenantMember): Promise<void> {
    await this.trx
      .insertInto('trellis_tenant_member')
      .values({ tenant_id: tenantId, user_id: 'userId' in member ? member.userId : null, group_id: 'groupId' in member ? member.groupId : null })
      .execute();
  }

  async removeMember(tenantId: string, member: TenantMember): Promise<void> {
    const [column, id] = memberColumn(member);
    await this.trx.deleteFrom('trellis_tenant_member').where('tenant_id', '=', tenantId).where(column, '=', id).execute();
  }

  /** The tenants a user or group is a direct member of. */
  async tenantIdsOfMember(member: TenantMember): Promise<string[]> {
    const [column, id] = memberColumn(member);
    const rows = await this.trx.selectFrom('trellis_tenant_member').select('tenant_id').where(column, '=', id).execute();
    return rows.map((row) => row.tenant_id);
  }

  /** The tenants of a user, directly or through one of its groups (an authentication's tenant ids). */
  async tenantIdsOf(userId: string, groupIds: readonly string[]): Promise<string[]> {
    const rows = await this.trx
      .selectFrom('trellis_tenant_member')
      .select('tenant_id')
      .distinct()
      .where((eb) => eb.or([eb('user_id', '=', userId), ...(groupIds.length > 0 ? [eb('group_id', 'in', [...groupIds])] : [])]))
      .orderBy('tenant_id')
      .execute();
    return rows.map((row) => row.tenant_id);
  }

  private filtered(q: TenantQuery, readable: ReadFilter) {
    let select = this.trx.selectFrom('trellis_tenant as t');
    if (q.id !== undefined) select = select.where('t.id', '=', q.id);
    if (q.idIn !== undefined) select = select.where('t.id', 'in', nonEmpty(q.idIn));
    if (q.name !== undefined) select = select.where('t.name', '=', q.name);
    if (q.nameLike !== undefined) select = select.where(likeMatches('t.name', q.nameLike));
    // Camunda's Tenant.xml joins one membership row for both: a user member and a group member are
    // conditions on the same row (as a group of the user, with includingGroupsOfUser).
    if (q.userMember !== undefined || q.groupMember !== undefined) {
      const { userMember: user, groupMember: group } = q;
      const viaGroups = q.includingGroupsOfUser === true;
      select = select.where((eb) =>
        eb.exists(
          eb
            .selectFrom('trellis_tenant_member as tm')
            .select('tm.tenant_id')
            .whereRef('tm.tenant_id', '=', 't.id')
            .where((inner) =>
              inner.and([
                ...(user !== undefined
                  ? [
                      inner.or([
                        inner('tm.user_id', '=', user),
                        ...(viaGroups ? [inner('tm.group_id', 'in', inner.selectFrom('trellis_membership as m').select('m.group_id').where('m.user_id', '=', user))] : []),
                      ]),
                    ]
                  : []),
                ...(group !== undefined ? [inner('tm.group_id', '=', group)] : []),
              ]),
            ),
        ),
      );
    }
    if (readable) select = select.where(readable('t.id'));
    return select;
  }

  private remember(row: Selectable<TenantTable>): Tenant {
    this.revisions.remember(row.id, row.rev);
    return { id: row.id, name: row.name };
  }
}
