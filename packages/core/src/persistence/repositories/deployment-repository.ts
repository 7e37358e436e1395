import type { Selectable, Transaction } from 'kysely';
import type { Deployment, DeploymentQuery } from '../../services/deployment/deployment.js';
import type { DeploymentTable, StoreSchema } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, likeMatches, toDate } from './query-support.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';

const SORT_COLUMNS = { id: 'id', name: 'name', deploymentTime: 'deploy_time', tenantId: 'tenant_id' } as const;

/** Deployments, within one transaction. */
export class DeploymentRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(deployment: Deployment): Promise<void> {
    await this.trx
      .insertInto('trellis_deployment')
      .values({
        id: deployment.id,
        name: deployment.name,
        source: deployment.source,
        deploy_time: deployment.deploymentTime.getTime(),
        tenant_id: deployment.tenantId,
      })
      .execute();
  }

  async findById(id: string): Promise<Deployment | null> {
    const row = await this.trx.selectFrom('trellis_deployment').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? toDeployment(row) : null;
  }

  async find(query: DeploymentQuery, readable: ReadFilter = null): Promise<Deployment[]> {
    const sorted = applySorting(this.filtered(query, readable).selectAll(), query.sorting, SORT_COLUMNS, 'id');
    return (await applyPage(sorted, query).execute()).map(toDeployment);
  }

  async count(query: DeploymentQuery, readable: ReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  /** The newest deployment with this name (duplicate filtering answers with it when nothing changed). */
  async findLatestByName(name: string): Promise<Deployment | null> {
    const row = await this.trx
      .selectFrom('trellis_deployment')
      .selectAll()
      .where('name', '=', name)
      .orderBy('deploy_time', 'desc')
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return row ? toDeployment(row) : null;
  }

  async delete(id: string): Promise<void> {
    await this.trx.deleteFrom('trellis_deployment').where('id', '=', id).execute();
  }

  private filtered(query: DeploymentQuery, readable: ReadFilter) {
    let select = this.trx.selectFrom('trellis_deployment');
    if (query.id !== undefined) select = select.where('id', '=', query.id);
    if (query.name !== undefined) select = select.where('name', '=', query.name);
    if (query.nameLike !== undefined) select = select.where(likeMatches('name', query.nameLike));
    if (query.source !== undefined) select = select.where('source', '=', query.source);
    if (query.withoutSource) select = select.where('source', 'is', null);
    if (query.after !== undefined) select = select.where('deploy_time', '>', query.after.getTime());
    if (query.before !== undefined) select = select.where('deploy_time', '<', query.before.getTime());
    select = applyTenantCheck(select, query, 'tenant_id');
    const tenants = requestedTenants(query, 'tenant_id', query.includeDeploymentsWithoutTenantId === true);
    if (tenants) select = select.where(tenants);
    if (readable) select = select.where(readable('trellis_deployment.id'));
    return select;
  }
}

function toDeployment(row: Selectable<DeploymentTable>): Deployment {
  return {
    id: row.id,
    name: row.name,
    source: row.source,
    deploymentTime: toDate(row.deploy_time),
    tenantId: row.tenant_id,
  };
}
