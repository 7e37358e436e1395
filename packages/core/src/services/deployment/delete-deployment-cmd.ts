import type { Command } from '../../command/command.js';
import type { CommandContext } from '../../command/command-context.js';
import { Resources } from '../../authorization/resources.js';
import { NotFoundException } from '../../errors/exceptions.js';
import { deleteProcessDefinition } from '../process-definition/delete-process-definitions.js';
import { deleteCamundaFormDefinitions } from './camunda-form-definitions.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import type { RuntimeEnvironment } from '../../runtime/runtime-environment.js';
import { deleteAuthorizationsOn } from '../authorization/default-authorizations.js';

export interface DeleteDeploymentOptions {
  cascade?: boolean;
  skipCustomListeners?: boolean;
  skipIoMappings?: boolean;
}

/** Removes a deployment, its resources, its process and Camunda Form definitions (and, with cascade, the processes' instances). */
export class DeleteDeploymentCmd implements Command<void> {
  readonly name = 'DeleteDeploymentCmd';

  constructor(
    private readonly deploymentId: string,
    private readonly options: DeleteDeploymentOptions = {},
    private readonly env: RuntimeEnvironment,
  ) {}

  async execute(ctx: CommandContext): Promise<void> {
    const deployment = await ctx.deployments.findById(this.deploymentId);
    // Camunda's text, grammar included (DeploymentResourceImpl, whose tenant-checked query finds no
    // deployment of another tenant).
    if (!deployment || !ctx.tenantCheck.isAuthenticatedTenant(deployment.tenantId)) throw new NotFoundException(`Deployment with id '${this.deploymentId}' do not exist`);
    await ctx.authz.check({ permission: 'DELETE', resource: Resources.DEPLOYMENT, resourceId: deployment.id });
    OperationLogEntries.deployment(ctx, 'Delete', deployment.id, deployment.tenantId, [{ property: 'cascade', newValue: this.options.cascade ?? false }]);
    for (const definition of await ctx.processDefinitions.findByDeployment(deployment.id)) {
      await deleteProcessDefinition(ctx, definition, { ...this.options, cascade: this.options.cascade ?? false, env: this.env });
    }
    await deleteCamundaFormDefinitions(ctx, deployment.id);
    await ctx.resources.deleteByDeployment(deployment.id);
    // Camunda's DeploymentManager.deleteDeployment.
    await deleteAuthorizationsOn(ctx, Resources.DEPLOYMENT, deployment.id);
    await ctx.deployments.delete(deployment.id);
    ctx.emitAfterCommit('deployment.deleted', { deploymentId: deployment.id });
  }
}
