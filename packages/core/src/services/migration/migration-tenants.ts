import type { CommandContext } from '../../command/command-context.js';
import { ProcessEngineException } from '../../errors/exceptions.js';
import type { ProcessDefinition } from '../process-definition/process-definition.js';

/** checkCreateMigrationPlan: both definitions of the caller's tenants, and not of two different tenants. */
export function checkPlanTenants(ctx: CommandContext, source: ProcessDefinition, target: ProcessDefinition): void {
  ctx.tenantCheck.require(source.tenantId, `get process definition '${source.id}'`);
  ctx.tenantCheck.require(target.tenantId, `get process definition '${target.id}'`);
  if (source.tenantId !== null && target.tenantId !== null && source.tenantId !== target.tenantId) {
    // Camunda: MigrationLogger 09 (so the id has four digits)
    throw new ProcessEngineException(`ENGINE-2309 Cannot migrate process instances between processes of different tenants ('${source.tenantId}' != '${target.tenantId}')`);
  }
}

/** checkMigrateProcessInstance: an instance of the caller's tenants, and a target of no tenant or the instance's. */
export function checkInstanceTenant(ctx: CommandContext, processInstanceId: string, instanceTenantId: string | null, target: ProcessDefinition): void {
  ctx.tenantCheck.require(instanceTenantId, `migrate process instance '${processInstanceId}'`);
  const targetTenantId = target.tenantId;
  if (targetTenantId === null || instanceTenantId === targetTenantId) return;
  // Camunda: MigrationLogger 010
  throw new ProcessEngineException(
    instanceTenantId === null
      ? `ENGINE-23010 Cannot migrate process instance '${processInstanceId}' without tenant to a process definition with a tenant ('${targetTenantId}')`
      : `ENGINE-23010 Cannot migrate process instance '${processInstanceId}' to a process definition of a different tenant ('${instanceTenantId}' != '${targetTenantId}')`,
  );
}
