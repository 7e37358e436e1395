import type { Transaction } from 'kysely';
import type { ProcessDefinitionQuery } from '../../services/process-definition/process-definition.js';
import type { StoreSchema } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { nonEmpty } from './query-support.js';
import { applyTenantCheck } from '../../authorization/tenant-check.js';

/** The FROM and WHERE of a process definition query (alias `pd`), shared by list and count. */
export function filterProcessDefinitions(trx: Transaction<StoreSchema>, query: ProcessDefinitionQuery, readable: ReadFilter = null) {
  let select = trx.selectFrom('trellis_process_definition as pd');
  const q = query;
  if (q.processDefinitionId !== undefined) select = select.where('pd.id', '=', q.processDefinitionId);
  if (q.processDefinitionIdIn !== undefined) select = select.where('pd.id', 'in', nonEmpty(q.processDefinitionIdIn));
  if (q.name !== undefined) select = select.where('pd.name', '=', q.name);
  if (q.nameLike !== undefined) select = select.where('pd.name', 'like', q.nameLike);
  if (q.deploymentId !== undefined) select = select.where('pd.deployment_id', '=', q.deploymentId);
  if (q.deployedAfter !== undefined) select = select.where('pd.deploy_time', '>', q.deployedAfter.getTime());
  if (q.deployedAt !== undefined) select = select.where('pd.deploy_time', '=', q.deployedAt.getTime());
  if (q.key !== undefined) select = select.where('pd.key', '=', q.key);
  if (q.keysIn !== undefined) select = select.where('pd.key', 'in', nonEmpty(q.keysIn));
  if (q.keyLike !== undefined) select = select.where('pd.key', 'like', q.keyLike);
  if (q.category !== undefined) select = select.where('pd.category', '=', q.category);
  if (q.categoryLike !== undefined) select = select.where('pd.category', 'like', q.categoryLike);
  if (q.version !== undefined) select = select.where('pd.version', '=', q.version);
  if (q.resourceName !== undefined) select = select.where('pd.resource_name', '=', q.resourceName);
  if (q.resourceNameLike !== undefined) select = select.where('pd.resource_name', 'like', q.resourceNameLike);
  if (q.active) select = select.where('pd.suspended', '=', 0);
  if (q.suspended) select = select.where('pd.suspended', '=', 1);
  if (q.versionTag !== undefined) select = select.where('pd.version_tag', '=', q.versionTag);
  if (q.versionTagLike !== undefined) select = select.where('pd.version_tag', 'like', q.versionTagLike);
  if (q.withoutVersionTag) select = select.where('pd.version_tag', 'is', null);
  if (q.startableInTasklist) select = select.where('pd.startable_in_tasklist', '=', 1);
  if (q.notStartableInTasklist) select = select.where('pd.startable_in_tasklist', '=', 0);
  select = applyTenantCheck(select, q, 'pd.tenant_id');
  if (q.withoutTenantId) select = select.where('pd.tenant_id', 'is', null);
  if (q.tenantIdIn !== undefined) {
    const tenants = nonEmpty(q.tenantIdIn);
    select = select.where((eb) =>
      q.includeProcessDefinitionsWithoutTenantId
        ? eb.or([eb('pd.tenant_id', 'in', tenants), eb('pd.tenant_id', 'is', null)])
        : eb('pd.tenant_id', 'in', tenants),
    );
  }
  if (q.startableBy !== undefined) {
    const user = q.startableBy;
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom('trellis_definition_starter as s')
          .select('s.process_definition_id')
          .whereRef('s.process_definition_id', '=', 'pd.id')
          .where('s.user_id', '=', user),
      ),
    );
  }
  if (q.incidentId !== undefined || q.incidentType !== undefined || q.incidentMessage !== undefined || q.incidentMessageLike !== undefined) {
    // Camunda's ProcessDefinition.xml joins the definition's incidents: definitions with one that matches every incident filter.
    const { incidentId, incidentType, incidentMessage, incidentMessageLike } = q;
    select = select.where((eb) => {
      let incidents = eb.selectFrom('trellis_incident as inc').select('inc.id').whereRef('inc.proc_def_id', '=', 'pd.id');
      if (incidentId !== undefined) incidents = incidents.where('inc.id', '=', incidentId);
      if (incidentType !== undefined) incidents = incidents.where('inc.incident_type', '=', incidentType);
      if (incidentMessage !== undefined) incidents = incidents.where('inc.incident_message', '=', incidentMessage);
      if (incidentMessageLike !== undefined) incidents = incidents.where('inc.incident_message', 'like', incidentMessageLike);
      return eb.exists(incidents);
    });
  }
  if (q.latestVersion) {
    select = select.where('pd.version', '=', (eb) =>
      eb
        .selectFrom('trellis_process_definition as latest')
        .select((inner) => inner.fn.max('latest.version').as('version'))
        .whereRef('latest.key', '=', 'pd.key')
        .where((inner) =>
          inner.or([
            inner('latest.tenant_id', '=', inner.ref('pd.tenant_id')),
            inner.and([inner('latest.tenant_id', 'is', null), inner('pd.tenant_id', 'is', null)]),
          ]),
        ),
    );
  }
  // Camunda authorizes process definitions by key.
  if (readable) select = select.where(readable('pd.key'));
  return select;
}
