import { inject, injectable } from 'inversify';
import { sql, type SqlBool } from 'kysely';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import type { InstanceReadFilter } from '../../persistence/repositories/process-instance-repository.js';
import { VariableInstanceQueryRepository } from '../../persistence/repositories/variable-instance-query.js';
import type { VariableInstance, VariableInstanceQuery } from './variable-instance.js';

/** Camunda's variable instance query (RuntimeService.createVariableInstanceQuery) over the running instances. */
@injectable()
export class VariableInstanceService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /** Bytes values come back null and File contents empty, as Camunda's REST list leaves binaries out. */
  findVariableInstances(query: VariableInstanceQuery = {}): Promise<VariableInstance[]> {
    return this.commands.run('VariableInstanceQuery', async (ctx) => new VariableInstanceQueryRepository(ctx.trx).find(query, await readableVariables(ctx)));
  }

  countVariableInstances(query: VariableInstanceQuery = {}): Promise<number> {
    return this.commands.run('VariableInstanceQuery', async (ctx) => new VariableInstanceQueryRepository(ctx.trx).count(query, await readableVariables(ctx)));
  }

  /** The variable if it exists and the caller may read it; `withBinary` loads Bytes values and File contents. */
  getVariableInstance(id: string, withBinary = false): Promise<VariableInstance | null> {
    return this.commands.run('VariableInstanceQuery', async (ctx) => {
      const found = await new VariableInstanceQueryRepository(ctx.trx).find({ variableId: id }, await readableVariables(ctx), withBinary);
      return found[0] ?? null;
    });
  }
}

/**
 * Camunda 7.22: READ on the process instance, READ_INSTANCE on its definition (by key) or
 * READ_INSTANCE_VARIABLE on the definition. Variables without a process instance (standalone tasks)
 * pass only through a `*` grant on process instances.
 */
async function readableVariables(ctx: CommandContext): Promise<InstanceReadFilter> {
  const either = await ctx.authz.readFilterEither(
    { permission: 'READ', resource: Resources.PROCESS_INSTANCE },
    { permission: 'READ_INSTANCE', resource: Resources.PROCESS_DEFINITION },
  );
  const variables = await ctx.authz.readFilter('READ_INSTANCE_VARIABLE', Resources.PROCESS_DEFINITION);
  if (!either || !variables) return null;
  return (instanceColumn, definitionKeyColumn) => sql<SqlBool>`(${either(instanceColumn, definitionKeyColumn)} or ${variables(definitionKeyColumn)})`;
}
