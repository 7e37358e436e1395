import type { CommandContext } from '../command/command-context.js';
import { Resources } from './resources.js';

// The checks Camunda's AuthorizationCommandChecker makes on process instances, shared by the
// services and the runtime (a leaf module: the runtime cannot import the services).

/** What the tenant check names for a permission on an instance (TenantCommandChecker's verbs). */
const TENANT_VERB: Record<string, string> = { READ: 'read', UPDATE: 'update', DELETE: 'delete' };

/**
 * A permission on the instance itself, or the matching *_INSTANCE permission on its definition's
 * key; a null instance id stands for process instances as a whole (only a `*` grant counts there).
 * First the tenant check: an instance of another tenant than the caller's fails whatever its grants.
 */
export function checkInstance(
  ctx: CommandContext,
  onInstance: string,
  onDefinition: string,
  instanceId: string | null,
  definitionKey: string | null,
  tenantId: string | null,
) {
  if (instanceId !== null) ctx.tenantCheck.require(tenantId, `${TENANT_VERB[onInstance] ?? 'update'} the process instance '${instanceId}'`);
  return ctx.authz.check(
    { permission: onInstance, resource: Resources.PROCESS_INSTANCE, resourceId: instanceId },
    { permission: onDefinition, resource: Resources.PROCESS_DEFINITION, resourceId: definitionKey },
  );
}

/**
 * Camunda's checkReadProcessInstanceVariable: READ on the instance or READ_INSTANCE on its definition;
 * with enforceSpecificVariablePermission, READ_INSTANCE_VARIABLE on the definition only.
 */
export function checkReadInstanceVariables(ctx: CommandContext, instanceId: string, definitionKey: string, tenantId: string | null) {
  if (!ctx.config.authorization.enforceSpecificVariablePermission) return checkInstance(ctx, 'READ', 'READ_INSTANCE', instanceId, definitionKey, tenantId);
  ctx.tenantCheck.require(tenantId, `read the process instance '${instanceId}'`);
  return ctx.authz.checkComposite({ permission: 'READ_INSTANCE_VARIABLE', resource: Resources.PROCESS_DEFINITION, resourceId: definitionKey });
}

/** Camunda's checkUpdateProcessInstanceVariables: any of UPDATE_VARIABLE / UPDATE on the instance, UPDATE_INSTANCE_VARIABLE / UPDATE_INSTANCE on its definition. */
export function checkUpdateInstanceVariables(ctx: CommandContext, instanceId: string, definitionKey: string, tenantId: string | null) {
  ctx.tenantCheck.require(tenantId, `update the process instance '${instanceId}'`);
  const onInstance = (permission: string) => ({ permission, resource: Resources.PROCESS_INSTANCE, resourceId: instanceId });
  const onDefinition = (permission: string) => ({ permission, resource: Resources.PROCESS_DEFINITION, resourceId: definitionKey });
  return ctx.authz.check(onInstance('UPDATE_VARIABLE'), onDefinition('UPDATE_INSTANCE_VARIABLE'), onInstance('UPDATE'), onDefinition('UPDATE_INSTANCE'));
}

/**
 * Camunda's checkUpdateProcessInstanceSuspensionStateByProcessDefinitionKey: any of SUSPEND / UPDATE
 * on process instances as a whole or SUSPEND_INSTANCE / UPDATE_INSTANCE on the definition.
 */
export function checkSuspendInstancesOf(ctx: CommandContext, definitionKey: string) {
  return ctx.authz.check(
    { permission: 'SUSPEND', resource: Resources.PROCESS_INSTANCE, resourceId: null },
    { permission: 'SUSPEND_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: definitionKey },
    { permission: 'UPDATE', resource: Resources.PROCESS_INSTANCE, resourceId: null },
    { permission: 'UPDATE_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: definitionKey },
  );
}

/**
 * Camunda's checkCreateProcessInstance: a definition of the caller's tenants, then CREATE on process
 * instances and CREATE_INSTANCE on the definition (both).
 */
export async function checkCreateInstance(ctx: CommandContext, definition: { id: string; key: string; tenantId: string | null }): Promise<void> {
  ctx.tenantCheck.require(definition.tenantId, `create an instance of the process definition '${definition.id}'`);
  await ctx.authz.check({ permission: 'CREATE', resource: Resources.PROCESS_INSTANCE });
  await ctx.authz.check({ permission: 'CREATE_INSTANCE', resource: Resources.PROCESS_DEFINITION, resourceId: definition.key });
}
