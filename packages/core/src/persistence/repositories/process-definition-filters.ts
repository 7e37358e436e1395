import { sql, type SqlBool, type Transaction } from 'kysely';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ProcessDefinitionQuery } from '../../services/process-definition/process-definition.js';
import type { StoreSchema } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { LIKE_ESCAPE, likeMatches, nonEmpty } from './query-support.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';

/** The FROM and WHERE of a process definition query (alias `pd`), shared by list and count. */
export function filterProcessDefinitions(trx: Transaction<StoreSchema>, query: ProcessDefinitionQuery, readable: ReadFilter = null) {
  let select = trx.selectFrom('trellis_process_definition as pd');
  const q = query;
  // Camunda's ProcessDefinitionQueryImpl: processDefinitionVersion's ensurePositive, and checkQueryOk for latest().
  if (q.version !== undefined && q.version <= 0) throw new ProcessEngineException('version is not greater than 0');
  if (q.latestVersion && (q.processDefinitionId !== undefined || q.version !== undefined || q.deploymentId !== undefined)) {
    throw new ProcessEngineException('Calling latest() can only be used in combination with key(String) and keyLike(String) or name(String) and nameLike(String)');
  }
  if (q.processDefinitionId !== undefined) select = select.where('pd.id', '=', q.processDefinitionId);
  if (q.processDefinitionIdIn !== undefined) select = select.where('pd.id', 'in', nonEmpty(q.processDefinitionIdIn));
  if (q.name !== undefined) select = select.where('pd.name', '=', q.name);
  // Camunda compares names case-insensitively (CAM-8014).
  if (q.nameLike !== undefined) select = select.where(sql<SqlBool>`upper(pd.name) like upper(${q.nameLike}) ${LIKE_ESCAPE}`);
  if (q.deploymentId !== undefined) select = select.where('pd.deployment_id', '=', q.deploymentId);
  if (q.deployedAfter !== undefined) select = select.where('pd.deploy_time', '>', q.deployedAfter.getTime());
  if (q.deployedAt !== undefined) select = select.where('pd.deploy_time', '=', q.deployedAt.getTime());
  if (q.key !== undefined) select = select.where('pd.key', '=', q.key);
  if (q.keysIn !== undefined) select = select.where('pd.key', 'in', nonEmpty(q.keysIn));
  if (q.keyLike !== undefined) select = select.where(likeMatches('pd.key', q.keyLike));
  if (q.category !== undefined) select = select.where('pd.category', '=', q.category);
  if (q.categoryLike !== undefined) select = select.where(likeMatches('pd.category', q.categoryLike));
  if (q.version !== undefined) select = select.where('pd.version', '=', q.version);
  if (q.resourceName !== undefined) select = select.where('pd.resource_name', '=', q.resourceName);
  if (q.resourceNameLike !== undefined) select = select.where(likeMatches('pd.resource_name', q.resourceNameLike));
  // One suspension state and one version tag criterion, as Camunda keeps them: the later setter wins.
  if (q.suspended) select = select.where('pd.suspended', '=', 1);
  else if (q.active) select = select.where('pd.suspended', '=', 0);
  if (q.withoutVersionTag) select = select.where('pd.version_tag', 'is', null);
  else if (q.versionTag !== undefined) select = select.where('pd.version_tag', '=', q.versionTag);
  if (q.versionTagLike !== undefined) select = select.where(likeMatches('pd.version_tag', q.versionTagLike));
  if (q.startableInTasklist) select = select.where('pd.startable_in_tasklist', '=', 1);
  if (q.notStartableInTasklist) select = select.where('pd.startable_in_tasklist', '=', 0);
  select = applyTenantCheck(select, q, 'pd.tenant_id');
  const tenants = requestedTenants(q, 'pd.tenant_id', q.includeProcessDefinitionsWithoutTenantId === true);
  if (tenants) select = select.where(tenants);
  if (q.startableBy !== undefined) {
    const user = q.startableBy;
    select = select.where((eb) =>
      eb.exists(
        eb
          .selectFrom('trellis_definition_starter as s')
          .select('s.process_definition_id')
          .whereRef('s.process_definition_id', '=', 'pd.id')
          // The user, or one of their groups (Camunda's startableByUser with the user's groups).
          .where((inner) => inner.or([
            inner('s.user_id', '=', user),
            inner('s.group_id', 'in', inner.selectFrom('trellis_membership as m').select('m.group_id').where('m.user_id', '=', user)),
          ])),
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
      if (incidentMessageLike !== undefined) incidents = incidents.where(likeMatches('inc.incident_message', incidentMessageLike));
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
