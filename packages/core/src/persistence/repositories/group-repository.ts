import type { Selectable, Transaction } from 'kysely';
import type { Group, GroupQuery } from '../../services/identity/identity.js';
import type { GroupTable, StoreSchema } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, likeMatches, nonEmpty } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

const SORT_COLUMNS = { id: 'g.id', name: 'g.name', type: 'g.type' } as const;

/** Groups and memberships, within one transaction. */
export class GroupRepository {
  private readonly revisions = new RevisionTracker('GroupEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(group: Group): Promise<void> {
    await this.trx.insertInto('trellis_group').values({ id: group.id, rev: 1, name: group.name, type: group.type }).execute();
    this.revisions.remember(group.id, 1);
  }

  async findById(id: string): Promise<Group | null> {
    const row = await this.trx.selectFrom('trellis_group').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  async find(query: GroupQuery, readable: ReadFilter = null): Promise<Group[]> {
    const sorted = applySorting(this.filtered(query, readable).selectAll('g'), query.sorting, SORT_COLUMNS, 'g.id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: GroupQuery, readable: ReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async update(group: Group): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_group', group.id, { name: group.name, type: group.type });
  }

  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_membership').where('group_id', '=', id).execute();
    await this.trx.deleteFrom('trellis_tenant_member').where('group_id', '=', id).execute();
    await this.trx.deleteFrom('trellis_group').where('id', '=', id).execute();
  }

  /** The ids of the groups a user belongs to. */
  async groupIdsOf(userId: string): Promise<string[]> {
    const rows = await this.trx.selectFrom('trellis_membership').select('group_id').where('user_id', '=', userId).orderBy('group_id').execute();
    return rows.map((row) => row.group_id);
  }

  async isMember(userId: string, groupId: string): Promise<boolean> {
    const row = await this.trx.selectFrom('trellis_membership').select('user_id').where('user_id', '=', userId).where('group_id', '=', groupId).executeTakeFirst();
    return row !== undefined;
  }

  async addMember(userId: string, groupId: string): Promise<void> {
    await this.trx.insertInto('trellis_membership').values({ user_id: userId, group_id: groupId }).execute();
  }

  async removeMember(userId: string, groupId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_membership').where('user_id', '=', userId).where('group_id', '=', groupId).execute();
  }

  private filtered(q: GroupQuery, readable: ReadFilter) {
    let select = this.trx.selectFrom('trellis_group as g');
    if (q.id !== undefined) select = select.where('g.id', '=', q.id);
    if (q.idIn !== undefined) select = select.where('g.id', 'in', nonEmpty(q.idIn));
    if (q.name !== undefined) select = select.where('g.name', '=', q.name);
    if (q.nameLike !== undefined) select = select.where(likeMatches('g.name', q.nameLike));
    if (q.type !== undefined) select = select.where('g.type', '=', q.type);
    if (q.member !== undefined) {
      const user = q.member;
      select = select.where((eb) =>
        eb.exists(eb.selectFrom('trellis_membership as m').select('m.group_id').whereRef('m.group_id', '=', 'g.id').where('m.user_id', '=', user)),
      );
    }
    if (q.memberOfTenant !== undefined) {
      const tenant = q.memberOfTenant;
      select = select.where((eb) =>
        eb.exists(eb.selectFrom('trellis_tenant_member as tm').select('tm.group_id').whereRef('tm.group_id', '=', 'g.id').where('tm.tenant_id', '=', tenant)),
      );
    }
    if (readable) select = select.where(readable('g.id'));
    return select;
  }

  private remember(row: Selectable<GroupTable>): Group {
    this.revisions.remember(row.id, row.rev);
    return { id: row.id, name: row.name, type: row.type };
  }
}
