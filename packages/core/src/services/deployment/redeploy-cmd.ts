import type { Command } from '../../command/command.js';
import type { CommandContext } from '../../command/command-context.js';
import { Resources } from '../../authorization/resources.js';
import { NotFoundException, NotValidException } from '../../errors/exceptions.js';
import { DeployCmd, type DeploymentWithDefinitions } from './deploy-cmd.js';

/** Which resources of an earlier deployment to deploy again; none named means all of them. */
export interface RedeployRequest {
  /** A null among them is refused (NotValidException), as Camunda's DeploymentBuilder refuses it. */
  resourceIds?: Array<string | null>;
  resourceNames?: Array<string | null>;
  source?: string | null;
}

/** Camunda's redeploy: a new deployment of the same name and tenant from resources of an earlier one. */
export class RedeployCmd implements Command<DeploymentWithDefinitions> {
  readonly name = 'RedeployCmd';

  constructor(
    private readonly deploymentId: string,
    private readonly request: RedeployRequest = {},
  ) {}

  async execute(ctx: CommandContext): Promise<DeploymentWithDefinitions> {
    // Camunda's DeploymentBuilder takes the ids, then the names (no null among them); its DeployCmd:
    // the source deployment must exist, then CREATE on deployments and READ on the source are
    // checked, then the resources asked for.
    const ids = withoutNull('resourceIds', this.request.resourceIds ?? []);
    const names = withoutNull('resourceNames', this.request.resourceNames ?? []);
    const previous = await ctx.deployments.findById(this.deploymentId);
    if (!previous) throw new NotFoundException(`The following deployments are not found by id: ${this.deploymentId}`);
    await ctx.authz.check({ permission: 'CREATE', resource: Resources.DEPLOYMENT });
    await ctx.authz.check({ permission: 'READ', resource: Resources.DEPLOYMENT, resourceId: previous.id });
    const resources = await ctx.resources.listDataByDeployment(previous.id);
    ensureAllFound('ids', ids, new Set(resources.map((r) => r.id)), previous.id);
    ensureAllFound('names', names, new Set(resources.map((r) => r.name)), previous.id);
    const selectAll = ids.length === 0 && names.length === 0;
    const selected = resources.filter((r) => selectAll || ids.includes(r.id) || names.includes(r.name));
    return new DeployCmd({
      name: previous.name,
      tenantId: previous.tenantId,
      source: this.request.source ?? null,
      resources: selected.map(({ name, bytes }) => ({ name, bytes })),
    }).execute(ctx);
  }
}

// Camunda (DeployCmd): "The deployment with id '<id>' does not contain the following resources with <kind>: <list>".
function ensureAllFound(kind: 'ids' | 'names', wanted: readonly string[], present: ReadonlySet<string>, deploymentId: string): void {
  const missing = wanted.filter((value) => !present.has(value));
  if (missing.length > 0) {
    throw new NotFoundException(
      `The deployment with id '${deploymentId}' does not contain the following resources with ${kind}: ${missing.join(', ')}`,
    );
  }
}

function withoutNull(name: string, values: ReadonlyArray<string | null>): string[] {
  if (values.some((value) => value === null)) throw new NotValidException(`${name} contains null value`);
  return values as string[];
}
