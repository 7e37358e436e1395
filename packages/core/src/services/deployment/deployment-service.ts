import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { NotFoundException } from '../../errors/exceptions.js';
import { EventBus } from '../../events/event-bus.js';
import { DeleteDeploymentCmd, type DeleteDeploymentOptions } from './delete-deployment-cmd.js';
import { DeployCmd, type DeploymentRequest, type DeploymentWithDefinitions } from './deploy-cmd.js';
import type { Deployment, DeploymentQuery, DeploymentResource, DeploymentResourceData } from './deployment.js';
import { RedeployCmd, type RedeployRequest } from './redeploy-cmd.js';
import { RuntimeEnvironment } from '../../runtime/runtime-environment.js';

/** Deployments and their resources (the deployment half of Camunda's RepositoryService). */
@injectable()
export class DeploymentService {
  private readonly registered = new Set<string>();

  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(EventBus) events: EventBus,
    @inject(RuntimeEnvironment) private readonly env: RuntimeEnvironment,
  ) {
    events.on('deployment.created', ({ deploymentId }) => this.registered.add(deploymentId));
    events.on('deployment.deleted', ({ deploymentId }) => this.registered.delete(deploymentId));
  }

  /** Deploys resources; throws ParseException when a BPMN resource is invalid (nothing is stored then). */
  deploy(request: DeploymentRequest): Promise<DeploymentWithDefinitions> {
    return this.commands.execute(new DeployCmd(request));
  }

  /** Deploys resources of an earlier deployment again; NotFoundException for an unknown deployment or resource. */
  redeploy(deploymentId: string, request?: RedeployRequest): Promise<DeploymentWithDefinitions> {
    return this.commands.execute(new RedeployCmd(deploymentId, request));
  }

  /** NotFoundException when there is no such deployment. */
  deleteDeployment(deploymentId: string, options?: DeleteDeploymentOptions): Promise<void> {
    return this.commands.execute(new DeleteDeploymentCmd(deploymentId, options, this.env));
  }

  /** The deployment, if it exists and the caller may read it. */
  getDeployment(deploymentId: string): Promise<Deployment | null> {
    return this.commands.run('GetDeploymentCmd', async (ctx) => (await ctx.deployments.find(ctx.tenantCheck.query({ id: deploymentId }), await readable(ctx)))[0] ?? null);
  }

  /** The deployments the caller may read that match the query. */
  findDeployments(query: DeploymentQuery = {}): Promise<Deployment[]> {
    return this.commands.run('DeploymentQuery', async (ctx) => ctx.deployments.find(ctx.tenantCheck.query(query), await readable(ctx)));
  }

  countDeployments(query: DeploymentQuery = {}): Promise<number> {
    return this.commands.run('DeploymentQuery', async (ctx) => ctx.deployments.count(ctx.tenantCheck.query(query), await readable(ctx)));
  }

  /** The resources of a deployment by name, as Camunda sorts them (empty for an unknown deployment). */
  getDeploymentResources(deploymentId: string): Promise<DeploymentResource[]> {
    return this.commands.run('GetDeploymentResourcesCmd', async (ctx) => {
      await checkReadDeployment(ctx, deploymentId);
      return ctx.resources.listByDeployment(deploymentId);
    });
  }

  /** A resource with its content; NotFoundException when the deployment has no such resource. */
  getResourceData(deploymentId: string, resourceId: string): Promise<DeploymentResourceData> {
    return this.commands.run('GetDeploymentResourceForIdCmd', async (ctx) => {
      await checkReadDeployment(ctx, deploymentId);
      const resource = await ctx.resources.findData(deploymentId, resourceId);
      if (!resource) {
        throw new NotFoundException(`no resource found with id '${resourceId}' in deployment '${deploymentId}'`);
      }
      return resource;
    });
  }

  /**
   * Ids of the deployments this engine registered since it started (its own deployments, as
   * Camunda's job executor registers them), in deployment order. An administrator or READ on System
   * (Camunda's checkCamundaAdminOrPermission).
   */
  getRegisteredDeployments(): Promise<string[]> {
    return this.commands.run('GetRegisteredDeploymentsCmd', async (ctx) => {
      await ctx.authz.requireAdminOrSystem('READ');
      return [...this.registered];
    });
  }
}

const readable = (ctx: CommandContext) => ctx.authz.readFilter('READ', Resources.DEPLOYMENT);

/** Camunda's checkReadDeployment: a deployment of the caller's tenants (when it exists), then READ on it. */
async function checkReadDeployment(ctx: CommandContext, deploymentId: string): Promise<void> {
  if (ctx.tenantCheck.isActive) {
    const deployment = await ctx.deployments.findById(deploymentId);
    if (deployment) ctx.tenantCheck.require(deployment.tenantId, `get the deployment '${deploymentId}'`);
  }
  await ctx.authz.check({ permission: 'READ', resource: Resources.DEPLOYMENT, resourceId: deploymentId });
}
