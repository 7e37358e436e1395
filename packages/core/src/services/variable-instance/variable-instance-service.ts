import { inject, injectable } from 'inversify';
import { sql, type SqlBool } from 'kysely';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import type { VariableReadFilter } from '../../persistence/repositories/variable-instance-query.js';
import { VariableInstanceQueryRepository } from '../../persistence/repositories/variable-instance-query.js';
import type { VariableInstance, VariableInstanceQuery } from './variable-instance.js';

/** Camunda's variable instance query (RuntimeService.createVariableInstanceQuery) over the running instances. */
@injectable()
export class VariableInstanceService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /** Bytes values come back null and File contents empty, as Camunda's REST list leaves binaries out. */
  findVariableInstances(query: VariableInstanceQuery = {}): Promise<VariableInstance[]> {
    return this.commands.run('VariableInstanceQuery', async (ctx) => new VariableInstanceQueryRepository(ctx.trx).find(ctx.tenantCheck.query(query), await readableVariables(ctx)));
  }

  countVariableInstances(query: VariableInstanceQuery = {}): Promise<number> {
    return this.commands.run('VariableInstanceQuery', async (ctx) => new VariableInstanceQueryRepository(ctx.trx).count(ctx.tenantCheck.query(query), await readableVariables(ctx)));
  }

  /** The variable if it exists and the caller may read it; `withBinary` loads Bytes values and File contents. */
  getVariableInstance(id: string, withBinary = false): Promise<VariableInstance | null> {
    return this.commands.run('VariableInstanceQuery', async (ctx) => {
      const found = await new VariableInstanceQueryRepository(ctx.trx).find(ctx.tenantCheck.query({ variableId: id }), await readableVariables(ctx), withBinary);
      return found[0] ?? null;
    });
  }
}

/**
 * Camunda's configureVariableInstanceQuery: READ on the process instance, READ_INSTANCE on its
 * definition (by key), or READ on the task a task-local variable belongs to; with
 * enforceSpecificVariablePermission, READ_INSTANCE_VARIABLE on the definition or READ_VARIABLE on the task.
 */
async function readableVariables(ctx: CommandContext): Promise<VariableReadFilter> {
  if (ctx.config.authorization.enforceSpecificVariablePermission) {
    const definitions = await ctx.authz.readFilter('READ_INSTANCE_VARIABLE', Resources.PROCESS_DEFINITION);
    const tasks = await ctx.authz.readFilter('READ_VARIABLE', Resources.TASK);
    if (!definitions || !tasks) return null;
    return (_instanceColumn, definitionKeyColumn, taskColumn) => sql<SqlBool>`(${definitions(definitionKeyColumn)} or ${tasks(taskColumn)})`;
  }
  const either = await ctx.authz.readFilterEither(
    { permission: 'READ', resource: Resources.PROCESS_INSTANCE },
    { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION },
  );
  const tasks = await ctx.authz.readFilter('READ', Resources.TASK);
  if (!either || !tasks) return null;
  return (instanceColumn, definitionKeyColumn, taskColumn) => sql<SqlBool>`(${either(instanceColumn, definitionKeyColumn)} or ${tasks(taskColumn)})`;
}
