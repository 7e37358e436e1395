import type { Selectable, Transaction } from 'kysely';
import type { User, UserQuery } from '../../services/identity/identity.js';
import type { StoreSchema, UserTable } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, likeMatches, nonEmpty } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

const SORT_COLUMNS = { userId: 'u.id', firstName: 'u.first_name', lastName: 'u.last_name', email: 'u.email' } as const;

export interface UserCredentials {
  passwordHash: string | null;
  attempts: number;
  /** Epoch ms, or null. */
  lockExpirationTime: number | null;
}

/** Users and their password hashes, within one transaction. */
export class UserRepository {
  private readonly revisions = new RevisionTracker('UserEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(user: User, passwordHash: string | null): Promise<void> {
    await this.trx
      .insertInto('trellis_user')
      .values({ id: user.id, rev: 1, first_name: user.firstName, last_name: user.lastName, email: user.email, password_hash: passwordHash })
      .execute();
    this.revisions.remember(user.id, 1);
  }

  async findById(id: string): Promise<User | null> {
    const row = await this.trx.selectFrom('trellis_user').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  /** What a password check needs: the hash and the lockout state; null for an unknown user. */
  async credentialsOf(id: string): Promise<UserCredentials | null> {
    const row = await this.trx.selectFrom('trellis_user').select(['password_hash', 'attempts', 'lock_exp_time']).where('id', '=', id).executeTakeFirst();
    return row ? { passwordHash: row.password_hash, attempts: Number(row.attempts), lockExpirationTime: row.lock_exp_time === null ? null : Number(row.lock_exp_time) } : null;
  }

  /** Records failed checks and the lockout (Camunda's updateUserLock; not revision-checked, as the profile is not touched). */
  async setLock(id: string, attempts: number, lockExpirationTime: number | null): Promise<void> {
    await this.trx.updateTable('trellis_user').set({ attempts, lock_exp_time: lockExpirationTime }).where('id', '=', id).execute();
  }

  async find(query: UserQuery, readable: ReadFilter = null): Promise<User[]> {
    const sorted = applySorting(this.filtered(query, readable).selectAll('u'), query.sorting, SORT_COLUMNS, 'u.id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: UserQuery, readable: ReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** Writes the profile (and, when given, a new password hash) if the row is still at the revision read. */
  async update(user: User, passwordHash?: string): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_user', user.id, {
      first_name: user.firstName,
      last_name: user.lastName,
      email: user.email,
      ...(passwordHash === undefined ? {} : { password_hash: passwordHash }),
    });
  }

  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_membership').where('user_id', '=', id).execute();
    await this.trx.deleteFrom('trellis_tenant_member').where('user_id', '=', id).execute();
    await this.trx.deleteFrom('trellis_user').where('id', '=', id).execute();
  }

  private filtered(q: UserQuery, readable: ReadFilter) {
    let select = this.trx.selectFrom('trellis_user as u');
    if (q.id !== undefined) select = select.where('u.id', '=', q.id);
    if (q.idIn !== undefined) select = select.where('u.id', 'in', nonEmpty(q.idIn));
    if (q.firstName !== undefined) select = select.where('u.first_name', '=', q.firstName);
    if (q.firstNameLike !== undefined) select = select.where(likeMatches('u.first_name', q.firstNameLike));
    if (q.lastName !== undefined) select = select.where('u.last_name', '=', q.lastName);
    if (q.lastNameLike !== undefined) select = select.where(likeMatches('u.last_name', q.lastNameLike));
    if (q.email !== undefined) select = select.where('u.email', '=', q.email);
    if (q.emailLike !== undefined) select = select.where(likeMatches('u.email', q.emailLike));
    if (q.memberOfGroup !== undefined) {
      const group = q.memberOfGroup;
      select = select.where((eb) =>
        eb.exists(eb.selectFrom('trellis_membership as m').select('m.user_id').whereRef('m.user_id', '=', 'u.id').where('m.group_id', '=', group)),
      );
    }
    // Camunda's User.xml: direct members of the tenant only.
    if (q.memberOfTenant !== undefined) {
      const tenant = q.memberOfTenant;
      select = select.where((eb) =>
        eb.exists(eb.selectFrom('trellis_tenant_member as tm').select('tm.user_id').whereRef('tm.user_id', '=', 'u.id').where('tm.tenant_id', '=', tenant)),
      );
    }
    // Camunda's User.xml: users named as candidate starters of the definition; members of its
    // candidate starter groups are not (GET /group?potentialStarter= lists those groups).
    if (q.potentialStarter !== undefined) {
      const definitionId = q.potentialStarter;
      select = select.where((eb) =>
        eb.exists(
          eb.selectFrom('trellis_definition_starter as s').select('s.user_id')
            .where('s.process_definition_id', '=', definitionId).whereRef('s.user_id', '=', 'u.id'),
        ),
      );
    }
    if (readable) select = select.where(readable('u.id'));
    return select;
  }

  private remember(row: Selectable<UserTable>): User {
    this.revisions.remember(row.id, row.rev);
    return { id: row.id, firstName: row.first_name, lastName: row.last_name, email: row.email };
  }
}
