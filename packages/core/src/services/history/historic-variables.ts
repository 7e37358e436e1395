import type { CommandContext } from '../../command/command-context.js';
import type { CommandExecutor } from '../../command/command-executor.js';
import { Resources } from '../../authorization/resources.js';
import { NotFoundException } from '../../errors/exceptions.js';
import { HistoricVariableRepository } from '../../persistence/repositories/historic-variable-repository.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import type { HistoricDetail, HistoricDetailQuery, HistoricVariableInstance, HistoricVariableInstanceQuery } from './historic-variable-types.js';

/** Camunda's configureHistoricVariableAndDetailQuery: READ_HISTORY on the definition, READ_HISTORY_VARIABLE with enforceSpecificVariablePermission. */
const readableHistory = (ctx: CommandContext) =>
  ctx.config.authorization.enforceSpecificVariablePermission ? ctx.authz.historyFilter('READ_HISTORY_VARIABLE', 'READ_VARIABLE') : ctx.authz.historyFilter();
const repository = (ctx: CommandContext) => new HistoricVariableRepository(ctx.trx);

/**
 * Historic variable instances and details (engine.history.variables): lists show those of
 * definitions the caller has READ_HISTORY (READ_HISTORY_VARIABLE) on, as Camunda's queries do. `withBinary` loads Bytes
 * and File contents, which lists leave out.
 */
export class HistoricVariables {
  constructor(private readonly commands: CommandExecutor) {}

  find(query: HistoricVariableInstanceQuery = {}, withBinary = false): Promise<HistoricVariableInstance[]> {
    return this.commands.run('HistoricVariableInstanceQuery', async (ctx) => repository(ctx).findInstances(ctx.tenantCheck.query(query), await readableHistory(ctx), withBinary));
  }

  count(query: HistoricVariableInstanceQuery = {}): Promise<number> {
    return this.commands.run('HistoricVariableInstanceQuery', async (ctx) => repository(ctx).countInstances(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  /** The instance, or null when there is none the caller may read; a DELETED one only with `includeDeleted` (Camunda's query by id). */
  async get(id: string, withBinary = false, includeDeleted = false): Promise<HistoricVariableInstance | null> {
    return (await this.find({ variableId: id, includeDeleted }, withBinary))[0] ?? null;
  }

  findDetails(query: HistoricDetailQuery = {}, withBinary = false): Promise<HistoricDetail[]> {
    return this.commands.run('HistoricDetailQuery', async (ctx) => repository(ctx).findAnyDetails(ctx.tenantCheck.query(query), await readableHistory(ctx), withBinary));
  }

  countDetails(query: HistoricDetailQuery = {}): Promise<number> {
    return this.commands.run('HistoricDetailQuery', async (ctx) => repository(ctx).countDetails(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  async getDetail(id: string, withBinary = false): Promise<HistoricDetail | null> {
    return (await this.findDetails({ detailId: id }, withBinary))[0] ?? null;
  }

  /**
   * Camunda's DeleteHistoricVariableInstanceCmd: the instance and its details; DELETE_HISTORY on its
   * definition. Throws NotFoundException when there is no such instance.
   */
  delete(id: string): Promise<void> {
    return this.commands.run('DeleteHistoricVariableInstanceCmd', async (ctx) => {
      const [variable] = await repository(ctx).findInstances({ variableId: id, includeDeleted: true }, null, false);
      if (!variable) throw new NotFoundException(`No historic variable instance found with id: ${id}: variable is null`);
      ctx.tenantCheck.require(variable.tenantId, `delete the historic variable instance '${id}'`);
      if (variable.processDefinitionKey !== null) {
        await ctx.authz.check({ permission: 'DELETE_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: variable.processDefinitionKey });
      }
      await repository(ctx).deleteInstances({ id });
      OperationLogEntries.historicVariablesDeleted(ctx, variable, variable.name);
    });
  }

  /**
   * Camunda's DeleteHistoricVariableInstancesByProcessInstanceIdCmd: every historic variable of the
   * instance; DELETE_HISTORY on its definition. Throws NotFoundException when history has no such instance.
   */
  deleteOfProcessInstance(processInstanceId: string): Promise<void> {
    return this.commands.run('DeleteHistoricVariableInstancesByProcessInstanceIdCmd', async (ctx) => {
      const instance = await ctx.trx.selectFrom('trellis_hi_procinst').select(['proc_def_id', 'proc_def_key', 'tenant_id']).where('id', '=', processInstanceId).executeTakeFirst();
      if (!instance) throw new NotFoundException(`No historic process instance found with id: ${processInstanceId}: instance is null`);
      ctx.tenantCheck.require(instance.tenant_id, `delete the historic variable instances of process instance '${processInstanceId}'`);
      await ctx.authz.check({ permission: 'DELETE_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: instance.proc_def_key });
      await repository(ctx).deleteInstances({ processInstanceId });
      OperationLogEntries.historicVariablesDeleted(ctx, { processInstanceId, processDefinitionId: instance.proc_def_id, tenantId: instance.tenant_id }, null);
    });
  }
}
