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
import { setProcessDefinitionSuspensionState } from '../process-definition/update-suspension-state-cmd.js';

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
  /** The deployment's definitions (a duplicate's too) are suspended and activated by a timer job at this time. */
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
    const result: DeploymentWithDefinitions =
      selection.kind === 'unchanged' ? { deployment: selection.deployment, processDefinitions: null } : await deploy(ctx, request, selection.resources);
    // Camunda's DeployCmd goes on alike for the deployment it made and for the duplicate it answers.
    if (request.activationTime) {
      const definitions = result.processDefinitions ?? (await ctx.processDefinitions.findByDeployment(result.deployment.id));
      const suspended = await scheduleProcessDefinitionActivation(ctx, definitions, request.activationTime);
      if (result.processDefinitions) result.processDefinitions = suspended;
    }
    OperationLogEntries.deployment(ctx, 'Create', result.deployment.id, result.deployment.tenantId, [{ property: 'duplicateFilterEnabled', newValue: request.enableDuplicateFiltering }, ...(request.enableDuplicateFiltering ? [{ property: 'deployChangedOnly', newValue: request.deployChangedOnly }] : [])]);
    return result;
  }
}

/** A new deployment of the selected resources, with its definitions. */
async function deploy(ctx: CommandContext, request: NormalizedRequest, selected: readonly NewResource[]): Promise<DeploymentWithDefinitions> {
  const deployment: Deployment = {
    id: ctx.ids.next(),
    name: request.name,
    source: request.source,
    deploymentTime: ctx.clock.now(),
    tenantId: request.tenantId,
  };
  const resources: DeploymentResourceData[] = selected.map((resource) => ({
    id: ctx.ids.next(),
    deploymentId: deployment.id,
    name: resource.name,
    bytes: resource.bytes,
  }));
  await ctx.deployments.insert(deployment);
  await ctx.resources.insertAll(resources);
  const processDefinitions = await deployProcessDefinitions(ctx, deployment, resources);
  await deployCamundaFormDefinitions(ctx, deployment, resources);
  if (ctx.authentication) {
    await grantDefault(ctx, { userId: ctx.authentication.userId, resource: Resources.DEPLOYMENT, resourceId: deployment.id, permissions: READ_AND_DELETE });
  }

  ctx.emitAfterCommit('deployment.created', {
    deploymentId: deployment.id,
    processDefinitionIds: processDefinitions.map((definition) => definition.id),
  });
  return { deployment, processDefinitions };
}

/**
 * Camunda's DeployCmd.scheduleProcessDefinitionActivation, run without authorization checks: each
 * definition is suspended now and activated by a timer job at the given time, each step logged as
 * its own command logs it. Returns the definitions as suspended.
 */
async function scheduleProcessDefinitionActivation(ctx: CommandContext, definitions: readonly ProcessDefinition[], activationTime: Date): Promise<ProcessDefinition[]> {
  const suspended: ProcessDefinition[] = [];
  for (const definition of definitions) {
    const target = { processDefinitionId: definition.id };
    OperationLogEntries.processDefinitionSuspension(ctx, { ...target, processDefinitionKey: null }, true, false);
    const [changed] = await setProcessDefinitionSuspensionState(ctx, target, { suspended: true }, [definition]);
    OperationLogEntries.processDefinitionSuspension(ctx, { ...target, processDefinitionKey: null }, false, false);
    await setProcessDefinitionSuspensionState(ctx, target, { suspended: false, executionDate: activationTime }, [definition]);
    suspended.push(changed ?? definition);
  }
  return suspended;
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
