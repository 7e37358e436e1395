import { Resources } from '../../authorization/resources.js';
import type { Command } from '../../command/command.js';
import { grantDefault } from '../authorization/default-authorizations.js';
import type { CommandContext } from '../../command/command-context.js';
import type { Deployment, DeploymentResourceData } from './deployment.js';
import { deployProcessDefinitions } from './process-definition-deployer.js';
import { deployCamundaFormDefinitions } from './camunda-form-definitions.js';
import { selectResourcesToDeploy } from './duplicate-filter.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/** A resource as the caller hands it over. */
export interface NewResource {
  name: string;
  bytes: Buffer;
}

/** What DeployCmd needs: Camunda's DeploymentBuilder settings. */
export interface DeploymentRequest {
  name?: string | null;
  source?: string | null;
  tenantId?: string | null;
  enableDuplicateFiltering?: boolean;
  deployChangedOnly?: boolean;
  /** Definitions start suspended and are activated at this time. */
  activationTime?: Date | null;
  resources: readonly NewResource[];
}

/** The result of a deployment: the deployment and the definitions it created (null where duplicate filtering deployed nothing). */
export interface DeploymentWithDefinitions {
  deployment: Deployment;
  processDefinitions: ProcessDefinition[] | null;
}

/** Stores a deployment, parses its BPMN resources and versions their processes and its Camunda Forms, all or nothing. */
export class DeployCmd implements Command<DeploymentWithDefinitions> {
  readonly name = 'DeployCmd';

  constructor(private readonly request: DeploymentRequest) {}

  async execute(ctx: CommandContext): Promise<DeploymentWithDefinitions> {
    const request = normalize(this.request);
    await ctx.authz.check({ permission: 'CREATE', resource: Resources.DEPLOYMENT });
    // Versions are max + 1 per key: deployments must not interleave, across engine nodes too.
    await ctx.dialect.lockForTransaction(ctx.trx, 'deployment');

    const selection = await selectResourcesToDeploy(ctx, request);
    if (selection.kind === 'unchanged') return { deployment: selection.deployment, processDefinitions: null };

    const deployment: Deployment = {
      id: ctx.ids.next(),
      name: request.name,
      source: request.source,
      deploymentTime: ctx.clock.now(),
      tenantId: request.tenantId,
    };
    const resources: DeploymentResourceData[] = selection.resources.map((resource) => ({
      id: ctx.ids.next(),
      deploymentId: deployment.id,
      name: resource.name,
      bytes: resource.bytes,
    }));
    await ctx.deployments.insert(deployment);
    await ctx.resources.insertAll(resources);
    const processDefinitions = await deployProcessDefinitions(ctx, deployment, resources, request.activationTime);
    await deployCamundaFormDefinitions(ctx, deployment, resources);
    OperationLogEntries.deployment(ctx, 'Create', deployment.id, deployment.tenantId, [{ property: 'duplicateFilterEnabled', newValue: request.enableDuplicateFiltering }, ...(request.enableDuplicateFiltering ? [{ property: 'deployChangedOnly', newValue: request.deployChangedOnly }] : [])]);
    if (ctx.authentication) {
      await grantDefault(ctx, { userId: ctx.authentication.userId, resource: Resources.DEPLOYMENT, resourceId: deployment.id, permissions: READ_AND_DELETE });
    }

    ctx.emitAfterCommit('deployment.created', {
      deploymentId: deployment.id,
      processDefinitionIds: processDefinitions.map((definition) => definition.id),
    });
    return { deployment, processDefinitions };
  }
}

export type NormalizedRequest = Required<Omit<DeploymentRequest, 'resources'>> & { resources: readonly NewResource[] };

function normalize(request: DeploymentRequest): NormalizedRequest {
  const deployChangedOnly = request.deployChangedOnly ?? false;
  return {
    name: request.name ?? null,
    source: request.source ?? null,
    tenantId: request.tenantId ?? null,
    deployChangedOnly,
    // Camunda: deploy-changed-only implies duplicate filtering.
    enableDuplicateFiltering: deployChangedOnly || (request.enableDuplicateFiltering ?? false),
    activationTime: request.activationTime ?? null,
    resources: request.resources,
  };
}

// Camunda's default for the deploying user: READ (2) and DELETE (16) on the new deployment.
const READ_AND_DELETE = 2 | 16;
