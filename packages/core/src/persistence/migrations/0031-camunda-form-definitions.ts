import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from './migration.js';
import { camundaFormKey, isFormResource } from '../../services/deployment/camunda-form-definitions.js';
import { versionedDefinitionId } from '../../services/deployment/process-definition-deployer.js';

/**
 * Camunda Form definitions (Camunda's ACT_RE_CAMFORMDEF): each deployed `.form` resource versioned
 * by its form id and tenant, so that a camunda:formRef with binding `latest` or `version` finds it.
 * The `.form` resources deployed before are registered in deployment order (those that cannot be
 * parsed are left out, as with strict parsing disabled).
 */
export const camundaFormDefinitions: Migration = {
  version: 31,
  name: 'camunda-form-definitions',
  async up(db) {
    await db.schema
      .createTable('trellis_camunda_form_definition')
      .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
      .addColumn('rev', 'integer', (c) => c.notNull())
      .addColumn('key', 'varchar(255)', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('deployment_id', 'varchar(64)', (c) => c.notNull())
      .addColumn('resource_name', 'varchar(4000)', (c) => c.notNull())
      .addColumn('tenant_id', 'varchar(64)')
      .execute();
    await db.schema.createIndex('trellis_camunda_form_definition_key_idx').on('trellis_camunda_form_definition').columns(['key', 'version']).execute();
    await db.schema.createIndex('trellis_camunda_form_definition_deployment_idx').on('trellis_camunda_form_definition').column('deployment_id').execute();
    await registerDeployedForms(db);
  },
};

async function registerDeployedForms(db: Kysely<any>): Promise<void> {
  const resources = await db
    .selectFrom('trellis_resource as r')
    .innerJoin('trellis_deployment as d', 'd.id', 'r.deployment_id')
    .select(['r.deployment_id', 'r.name', 'r.bytes', 'd.tenant_id'])
    .where('r.name', 'like', '%form')
    .orderBy('d.deploy_time')
    .orderBy('d.id')
    .orderBy('r.position')
    .execute();
  const versions = new Map<string, number>();
  for (const resource of resources) {
    // SQLite's LIKE ignores case: the deployer's own test of the name decides.
    if (!isFormResource(resource.name)) continue;
    const key = camundaFormKey(Buffer.from(resource.bytes).toString('utf8'));
    if (key === null) continue;
    const counted = `${resource.tenant_id ?? ''}\u0000${key}`;
    const version = (versions.get(counted) ?? 0) + 1;
    versions.set(counted, version);
    await db
      .insertInto('trellis_camunda_form_definition')
      .values({ id: versionedDefinitionId(key, version, randomUUID()), rev: 1, key, version, deployment_id: resource.deployment_id, resource_name: resource.name, tenant_id: resource.tenant_id })
      .execute();
  }
}
