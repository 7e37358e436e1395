import { inject, injectable } from 'inversify';
import { CommandExecutor } from '../../command/command-executor.js';
import { NotFoundException } from '../../errors/exceptions.js';
import { EventBus } from '../../events/event-bus.js';
import { DeleteDeploymentCmd, type DeleteDeploymentOptions } from './delete-deployment-cmd.js';
import { DeployCmd, type DeploymentRequest, type DeploymentWithDefinitions } from './deploy-cmd.js';
import type { Deployment, DeploymentQuery, DeploymentResource, DeploymentResourceData } from './deployment.js';
import { RedeployCmd, type RedeployRequest } from './redeploy-cmd.js';

/** Deployments and their resources (the deployment half of Camunda's RepositoryService). */
@injectable()
export class DeploymentService {
  private readonly registered = new Set<string>();

  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(EventBus) events: EventBus,
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
    return this.commands.execute(new DeleteDeploymentCmd(deploymentId, options));
  }

  getDeployment(deploymentId: string): Promise<Deployment | null> {
    return this.commands.run('GetDeploymentCmd', (ctx) => ctx.deployments.findById(deploymentId));
  }

  findDeployments(query: DeploymentQuery = {}): Promise<Deployment[]> {
    return this.commands.run('DeploymentQuery', (ctx) => ctx.deployments.find(query));
  }

  countDeployments(query: DeploymentQuery = {}): Promise<number> {
    return this.commands.run('DeploymentQuery', (ctx) => ctx.deployments.count(query));
  }

  /** The resources of a deployment in deployment order (empty for an unknown deployment). */
  getDeploymentResources(deploymentId: string): Promise<DeploymentResource[]> {
    return this.commands.run('GetDeploymentResourcesCmd', (ctx) => ctx.resources.listByDeployment(deploymentId));
  }

  /** A resource with its content; NotFoundException when the deployment has no such resource. */
  getResourceData(deploymentId: string, resourceId: string): Promise<DeploymentResourceData> {
    return this.commands.run('GetDeploymentResourceForIdCmd', async (ctx) => {
      const resource = await ctx.resources.findData(deploymentId, resourceId);
      if (!resource) {
        throw new NotFoundException(`no resource found with id '${resourceId}' in deployment '${deploymentId}'`);
      }
      return resource;
    });
  }

  /**
   * Ids of the deployments this engine registered since it started (its own deployments, as
   * Camunda's job executor registers them), in deployment order.
   */
  getRegisteredDeployments(): string[] {
    return [...this.registered];
  }
}
