import { sql, type RawBuilder, type SqlBool } from 'kysely';
import { AuthorizationType } from './authorization.js';
import { ANY } from './resources.js';

export interface CheckSubject {
  userId: string;
  groupIds: readonly string[];
  /** Evaluate the REVOKE steps (Camunda's authorizationCheckRevokes). */
  checkRevokes: boolean;
}

/**
 * Camunda's isUserAuthorizedForResource as one SQL CASE, first matching rule wins: user before
 * group before global, a specific resource id before `*`, and at one level GRANT before REVOKE.
 * `resourceId` is a column (list queries) or a value (single checks); null checks the type level only.
 */
export function authorizedExpression(
  subject: CheckSubject,
  permission: number,
  resourceType: number,
  resourceId: RawBuilder<unknown> | null,
): RawBuilder<SqlBool> {
  const grant = sql`a.type = ${AuthorizationType.GRANT} and (a.perms & ${permission}) = ${permission}`;
  const revoke = sql`a.type = ${AuthorizationType.REVOKE} and (a.perms & ${permission}) <> ${permission}`;
  const user = sql`a.user_id = ${subject.userId}`;
  const groups = subject.groupIds.length > 0 ? sql`a.group_id in (${sql.join(subject.groupIds.map((id) => sql`${id}`))})` : null;
  const global = sql`a.type = ${AuthorizationType.GLOBAL} and a.user_id = ${ANY}`;
  const globalGranted = sql`${global} and (a.perms & ${permission}) = ${permission}`;
  const ids: Array<RawBuilder<unknown>> = resourceId ? [resourceId, sql`${ANY}`] : [sql`${ANY}`];

  const rules: Array<[RawBuilder<unknown>, 0 | 1]> = [];
  const add = (condition: RawBuilder<unknown>, outcome: 0 | 1) => rules.push([condition, outcome]);
  for (const who of [user, groups]) {
    if (!who) continue;
    for (const id of ids) {
      add(sql`${who} and ${grant} and a.resource_id = ${id}`, 1);
      if (subject.checkRevokes) add(sql`${who} and ${revoke} and a.resource_id = ${id}`, 0);
    }
  }
  for (const id of ids) {
    add(sql`${globalGranted} and a.resource_id = ${id}`, 1);
    if (subject.checkRevokes) add(sql`${global} and a.resource_id = ${id}`, 0);
  }

  const branches = rules.map(
    ([condition, outcome]) =>
      sql`when exists (select 1 from trellis_authorization a where a.resource_type = ${resourceType} and ${condition}) then ${sql.lit(outcome)}`,
  );
  return sql<SqlBool>`(case ${sql.join(branches, sql` `)} else 0 end) = 1`;
}
