import type { CommandContext } from '../../command/command-context.js';
import { tenantCondition } from '../../authorization/tenant-check.js';
import { engineMessage } from '../../errors/engine-message.js';
import { BadUserRequestException, ProcessEngineException } from '../../errors/exceptions.js';
import type { CamundaFormDefinitionTable } from '../../persistence/schema.js';
import type { CamundaFormRef } from '../process-definition/start-form.js';
import type { Deployment, DeploymentResourceData } from './deployment.js';
import { ensureNoDuplicateKeys, versionedDefinitionId } from './process-definition-deployer.js';

/** A deployed Camunda Form (Camunda's CamundaFormDefinition): a `.form` resource, versioned by its form id and tenant. */
export interface CamundaFormDefinition {
  id: string;
  key: string;
  version: number;
  deploymentId: string;
  resourceName: string;
  tenantId: string | null;
}

/**
 * Camunda's CamundaFormDefinitionDeployer: every form resource of a new deployment becomes a form
 * definition keyed by the `id` of its JSON (see camundaFormKey), version 1 or the latest of that key
 * and tenant plus one. A form that cannot be parsed fails the deployment (ENGINE-09033), unless
 * strict parsing is disabled: it is then only a resource.
 */
export async function deployCamundaFormDefinitions(ctx: CommandContext, deployment: Deployment, resources: readonly DeploymentResourceData[]): Promise<void> {
  const forms: Array<{ key: string; resourceName: string }> = [];
  for (const resource of resources) {
    if (!isFormResource(resource.name)) continue;
    const key = camundaFormKey(resource.bytes.toString('utf8'));
    if (key === null) {
      if (ctx.config.disableStrictCamundaFormParsing) continue;
      throw new ProcessEngineException(engineMessage('09', '033', `Could not parse Camunda Form resource ${resource.name}. Cause: ${unparsable(resource)}`));
    }
    forms.push({ key, resourceName: resource.name });
  }
  ensureNoDuplicateKeys(forms.map((form) => form.key));
  for (const form of forms) {
    const latest = await ctx.trx
      .selectFrom('trellis_camunda_form_definition')
      .select((eb) => eb.fn.max('version').as('version'))
      .where('key', '=', form.key)
      .where((eb) => (deployment.tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', deployment.tenantId)))
      .executeTakeFirst();
    const version = Number(latest?.version ?? 0) + 1;
    await ctx.trx
      .insertInto('trellis_camunda_form_definition')
      .values({
        id: versionedDefinitionId(form.key, version, ctx.ids.next()),
        rev: 1,
        key: form.key,
        version,
        deployment_id: deployment.id,
        resource_name: form.resourceName,
        tenant_id: deployment.tenantId,
      })
      .execute();
  }
}

/** The deployment's form definitions go with it. */
export async function deleteCamundaFormDefinitions(ctx: CommandContext, deploymentId: string): Promise<void> {
  await ctx.trx.deleteFrom('trellis_camunda_form_definition').where('deployment_id', '=', deploymentId).execute();
}

/**
 * Camunda's GetCamundaFormDefinitionCmd: binding `deployment` looks in the deployment of the form's
 * definition, `latest` takes the highest version of the key among the tenants the caller may see
 * (ENGINE-03109 when that is more than one tenant), `version` the given version of no tenant.
 */
export async function camundaFormDefinitionFor(ctx: CommandContext, ref: CamundaFormRef, deploymentId: string): Promise<CamundaFormDefinition | null> {
  let query = ctx.trx.selectFrom('trellis_camunda_form_definition').selectAll().where('key', '=', ref.key);
  if (ref.binding === 'deployment') query = query.where('deployment_id', '=', deploymentId);
  else if (ref.binding === 'version') {
    // Camunda compares VERSION_ = null when the reference has none: no form.
    if (ref.version === null) return null;
    query = query.where('version', '=', ref.version).where('tenant_id', 'is', null);
  } else if (ref.binding === 'latest') {
    const checked = tenantCondition(ctx.tenantCheck.query({}), 'tenant_id');
    if (checked) query = query.where(checked);
    const rows = await query.execute();
    const latest = new Map<string | null, CamundaFormDefinitionTable>();
    for (const row of rows) if ((latest.get(row.tenant_id)?.version ?? 0) < row.version) latest.set(row.tenant_id, row);
    if (latest.size > 1) {
      throw new ProcessEngineException(engineMessage('03', '109', `Cannot resolve a unique Camunda Form definition for key '${ref.key}' because it exists for multiple tenants.`));
    }
    const [row] = latest.values();
    return row ? fromRow(row) : null;
  } else {
    throw new BadUserRequestException(`Unsupported binding type for camundaFormRef. Expected to be one of [deployment, latest, version] but was:${ref.binding}`);
  }
  const row = await query.executeTakeFirst();
  return row ? fromRow(row) : null;
}

function fromRow(row: CamundaFormDefinitionTable): CamundaFormDefinition {
  return { id: row.id, key: row.key, version: row.version, deploymentId: row.deployment_id, resourceName: row.resource_name, tenantId: row.tenant_id };
}

/** Camunda's CamundaFormDefinitionDeployer takes the resources whose names end with `form` (no dot). */
export const isFormResource = (name: string): boolean => name.endsWith('form');

/**
 * The key of a Camunda Form: the `id` of its JSON object as Gson and Camunda's JsonUtil.getString
 * read it — `''` for an empty document or one without an id, a one-element array's element, `''`
 * for any other array; null (the form cannot be parsed) for text that is no JSON object, or an id
 * that is null or an object.
 */
export function camundaFormKey(text: string): string | null {
  if (text.trim() === '') return '';
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return null;
  }
  if (parsed === null) return '';
  if (typeof parsed !== 'object' || Array.isArray(parsed)) return null;
  return 'id' in parsed ? gsonString((parsed as { id: unknown }).id) : '';
}

/** Gson's JsonElement.getAsString as JsonUtil.getString calls it (its IllegalStateException read as `''`). */
function gsonString(value: unknown): string | null {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (Array.isArray(value)) return value.length === 1 ? gsonString(value[0]) : '';
  return null;
}

/** Why a `.form` resource is no form. */
function unparsable(resource: DeploymentResourceData): string {
  try {
    const parsed: unknown = JSON.parse(resource.bytes.toString('utf8'));
    return Array.isArray(parsed) || typeof parsed !== 'object' || parsed === null ? 'the form is no JSON object' : 'the form\'s id is no value';
  } catch (error) {
    return (error as Error).message;
  }
}
