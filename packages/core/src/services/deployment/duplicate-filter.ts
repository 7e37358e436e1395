import type { CommandContext } from '../../command/command-context.js';
import type { NewResource, NormalizedRequest } from './deploy-cmd.js';
import type { Deployment } from './deployment.js';

export type ResourceSelection =
  | { kind: 'deploy'; resources: readonly NewResource[] }
  | { kind: 'unchanged'; deployment: Deployment };

// Camunda treats a deployment without source as one of a process application when filtering duplicates.
const PROCESS_APPLICATION_SOURCE = 'process application';

/**
 * Camunda's duplicate filtering: each resource is compared with the newest resource of the same
 * name among earlier deployments of the same name and source, if that one is of the same tenant
 * (ResourceManager.findLatestResourcesByDeploymentName). With duplicate filtering a single change
 * deploys everything; with deploy-changed-only just the changed resources go. When nothing changed,
 * the newest deployment of that name, of any tenant, is the answer (DefaultDeploymentHandler).
 */
export async function selectResourcesToDeploy(ctx: CommandContext, request: NormalizedRequest): Promise<ResourceSelection> {
  const all: ResourceSelection = { kind: 'deploy', resources: request.resources };
  if (!request.enableDuplicateFiltering || request.name === null) return all;

  const source = request.source || PROCESS_APPLICATION_SOURCE;
  const previous = await ctx.resources.findLatestByDeploymentName(
    request.name,
    request.resources.map((resource) => resource.name),
    source === PROCESS_APPLICATION_SOURCE ? [null, '', PROCESS_APPLICATION_SOURCE] : [source],
    request.tenantId,
  );
  const changed = request.resources.filter((resource) => {
    const earlier = previous.get(resource.name);
    return !earlier || !earlier.bytes.equals(resource.bytes);
  });
  if (changed.length > 0) return request.deployChangedOnly ? { kind: 'deploy', resources: changed } : all;

  const latest = await ctx.deployments.findLatestByName(request.name);
  return latest ? { kind: 'unchanged', deployment: latest } : all;
}
