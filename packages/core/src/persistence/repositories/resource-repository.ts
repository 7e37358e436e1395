import type { Transaction } from 'kysely';
import type { DeploymentResource, DeploymentResourceData } from '../../services/deployment/deployment.js';
import type { StoreSchema } from '../schema.js';

/** The files of deployments, within one transaction. */
export class ResourceRepository {
  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insertAll(resources: readonly DeploymentResourceData[]): Promise<void> {
    if (resources.length === 0) return;
    await this.trx
      .insertInto('trellis_resource')
      .values(
        resources.map((resource, position) => ({
          id: resource.id,
          deployment_id: resource.deploymentId,
          name: resource.name,
          bytes: resource.bytes,
          position,
        })),
      )
      .execute();
  }

  /** The files of a deployment by name (Camunda's selectResourcesByDeploymentId). */
  async listByDeployment(deploymentId: string): Promise<DeploymentResource[]> {
    return this.trx
      .selectFrom('trellis_resource')
      .select(['id', 'name', 'deployment_id as deploymentId'])
      .where('deployment_id', '=', deploymentId)
      .orderBy('name')
      .execute();
  }

  /** The files of a deployment with their content. */
  async listDataByDeployment(deploymentId: string): Promise<DeploymentResourceData[]> {
    const rows = await this.trx
      .selectFrom('trellis_resource')
      .select(['id', 'name', 'deployment_id as deploymentId', 'bytes'])
      .where('deployment_id', '=', deploymentId)
      .orderBy('position')
      .execute();
    return rows.map((row) => ({ ...row, bytes: Buffer.from(row.bytes) }));
  }

  async findData(deploymentId: string, resourceId: string): Promise<DeploymentResourceData | null> {
    return this.findOne(deploymentId, 'id', resourceId);
  }

  async findDataByName(deploymentId: string, name: string): Promise<DeploymentResourceData | null> {
    return this.findOne(deploymentId, 'name', name);
  }

  /**
   * Camunda's resourcesFromLastDeploymentWithName: for each resource name, the resource of that name
   * from the last deployment (by time) with this name and one of these sources that holds one, of
   * whatever tenant; it counts only when that deployment is of this tenant. So a later deployment of
   * another tenant hides this tenant's earlier one. Among deployments of the same time the last
   * resource by id wins, as in Camunda's map.
   */
  async findLatestByDeploymentName(
    deploymentName: string,
    resourceNames: readonly string[],
    sources: readonly (string | null)[],
    tenantId: string | null,
  ): Promise<Map<string, DeploymentResourceData>> {
    if (resourceNames.length === 0) return new Map();
    const concreteSources = sources.filter((source): source is string => source !== null);
    const rows = await this.trx
      .with('candidate', (db) =>
        db
          .selectFrom('trellis_resource as r')
          .innerJoin('trellis_deployment as d', 'd.id', 'r.deployment_id')
          .select(['r.id', 'r.name', 'r.deployment_id as deploymentId', 'r.bytes', 'd.deploy_time as deployTime', 'd.tenant_id as tenantId'])
          .where('d.name', '=', deploymentName)
          .where('r.name', 'in', [...resourceNames])
          .where((eb) =>
            eb.or([
              ...(concreteSources.length > 0 ? [eb('d.source', 'in', concreteSources)] : []),
              ...(sources.includes(null) ? [eb('d.source', 'is', null)] : []),
            ]),
          ),
      )
      .selectFrom('candidate as c')
      .select(['c.id', 'c.name', 'c.deploymentId', 'c.bytes'])
      .where((eb) => eb('c.deployTime', '=', eb.selectFrom('candidate as newest').select((max) => max.fn.max('newest.deployTime').as('time')).whereRef('newest.name', '=', 'c.name')))
      .where((eb) => (tenantId === null ? eb('c.tenantId', 'is', null) : eb('c.tenantId', '=', tenantId)))
      .orderBy('c.id')
      .execute();
    const latest = new Map<string, DeploymentResourceData>();
    for (const row of rows) latest.set(row.name, { ...row, bytes: Buffer.from(row.bytes) });
    return latest;
  }

  async deleteByDeployment(deploymentId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_resource').where('deployment_id', '=', deploymentId).execute();
  }

  private async findOne(deploymentId: string, column: 'id' | 'name', value: string): Promise<DeploymentResourceData | null> {
    const row = await this.trx
      .selectFrom('trellis_resource')
      .select(['id', 'name', 'deployment_id as deploymentId', 'bytes'])
      .where('deployment_id', '=', deploymentId)
      .where(column, '=', value)
      .executeTakeFirst();
    return row ? { ...row, bytes: Buffer.from(row.bytes) } : null;
  }
}
