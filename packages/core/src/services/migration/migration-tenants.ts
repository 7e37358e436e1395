import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';

/**
 * Camunda's TenantCommandChecker: the tenant check applies when someone is authenticated and is no
 * administrator; an entity without a tenant belongs to everyone.
 */
function isAuthenticatedTenant(ctx: CommandContext, tenantId: string | null): boolean {
  const authentication = ctx.authentication;
  if (tenantId === null || authentication === null || ctx.authz.isAdmin(authentication)) return true;
  return authentication.tenantIds.includes(tenantId);
}

// Camunda: CommandLogger 13034
const unauthorizedTenant = (command: string) => new ProcessEngineException(`ENGINE-13034 Cannot ${command} because it belongs to no authenticated tenant.`);

/** checkCreateMigrationPlan: both definitions of the caller's tenants, and not of two different tenants. */
export function checkPlanTenants(ctx: CommandContext, source: ProcessDefinition, target: ProcessDefinition): void {
  if (!isAuthenticatedTenant(ctx, source.tenantId)) throw unauthorizedTenant(`get process definition '${source.id}'`);
  if (!isAuthenticatedTenant(ctx, target.tenantId)) throw unauthorizedTenant(`get process definition '${target.id}'`);
  if (source.tenantId !== null && target.tenantId !== null && source.tenantId !== target.tenantId) {
    // Camunda: MigrationLogger 09 (so the id has four digits)
    throw new ProcessEngineException(`ENGINE-2309 Cannot migrate process instances between processes of different tenants ('${source.tenantId}' != '${target.tenantId}')`);
  }
}

/** checkMigrateProcessInstance: an instance of the caller's tenants, and a target of no tenant or the instance's. */
export function checkInstanceTenant(ctx: CommandContext, processInstanceId: string, instanceTenantId: string | null, target: ProcessDefinition): void {
  if (!isAuthenticatedTenant(ctx, instanceTenantId)) throw unauthorizedTenant(`migrate process instance '${processInstanceId}'`);
  const targetTenantId = target.tenantId;
  if (targetTenantId === null || instanceTenantId === targetTenantId) return;
  // Camunda: MigrationLogger 010
  throw new ProcessEngineException(
    instanceTenantId === null
      ? `ENGINE-23010 Cannot migrate process instance '${processInstanceId}' without tenant to a process definition with a tenant ('${targetTenantId}')`
      : `ENGINE-23010 Cannot migrate process instance '${processInstanceId}' to a process definition of a different tenant ('${instanceTenantId}' != '${targetTenantId}')`,
  );
}
