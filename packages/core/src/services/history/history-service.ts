import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import { CommandExecutor } from '../../command/command-executor.js';
import { BadUserRequestException } from '../../errors/exceptions.js';
import { HistoricInstanceRepository } from '../../persistence/repositories/historic-instance-repository.js';
import type {
  HistoricActivityInstance,
  HistoricActivityInstanceQuery,
  HistoricProcessInstance,
  HistoricProcessInstanceQuery,
} from './historic-instances.js';
import { HistoricIncidents } from './historic-incidents.js';
import { IncidentAndLogDeletion } from '../../history/incident-and-log-deletion.js';
import { HistoricLogs } from './historic-logs.js';
import { HistoricVariables } from './historic-variables.js';
import { HistoricTasks } from './historic-tasks.js';
import { HistoricReports } from './historic-reports.js';
import { HistoricUserOperations } from './historic-user-operations.js';
import { HistoricVariableRepository } from '../../persistence/repositories/historic-variable-repository.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/**
 * Camunda's HistoryService, first increment: historic process and activity instances. Lists show
 * the instances of definitions the caller has READ_HISTORY on (by key), as Camunda's queries do.
 */
@injectable()
export class HistoryService {
  /** Historic incidents (level full). */
  readonly incidents: HistoricIncidents;
  /** The historic job log and external task log (level full). */
  readonly logs: HistoricLogs;
  /** Historic variable instances (level audit) and details (level full). */
  readonly variables: HistoricVariables;
  /** Historic task instances (level activity) and the identity link log (level full). */
  readonly tasks: HistoricTasks;
  /** The cleanable instance report, activity statistics and the duration report. */
  readonly reports: HistoricReports;
  /** The user operation log (level full). */
  readonly userOperations: HistoricUserOperations;

  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {
    this.incidents = new HistoricIncidents(commands);
    this.logs = new HistoricLogs(commands);
    this.variables = new HistoricVariables(commands);
    this.tasks = new HistoricTasks(commands);
    this.reports = new HistoricReports(commands);
    this.userOperations = new HistoricUserOperations(commands);
  }

  findHistoricProcessInstances(query: HistoricProcessInstanceQuery = {}): Promise<HistoricProcessInstance[]> {
    return this.commands.run('HistoricProcessInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).findProcessInstances(query, await readableHistory(ctx)));
  }

  countHistoricProcessInstances(query: HistoricProcessInstanceQuery = {}): Promise<number> {
    return this.commands.run('HistoricProcessInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).countProcessInstances(query, await readableHistory(ctx)));
  }

  /** The historic process instance, or null when there is none the caller may read. */
  async getHistoricProcessInstance(id: string): Promise<HistoricProcessInstance | null> {
    return (await this.findHistoricProcessInstances({ processInstanceId: id }))[0] ?? null;
  }

  /**
   * Deletes a finished instance's history (Camunda's DeleteHistoricProcessInstancesCmd for one id);
   * DELETE_HISTORY on its definition. Throws BadUserRequestException when there is no such
   * instance (unless `failIfNotExists` is false) or it is still running.
   */
  deleteHistoricProcessInstance(id: string, options: { failIfNotExists?: boolean } = {}): Promise<void> {
    return this.commands.run('DeleteHistoricProcessInstancesCmd', async (ctx) => {
      const repository = new HistoricInstanceRepository(ctx.trx);
      const [instance] = await repository.findProcessInstances({ processInstanceId: id }, null);
      if (!instance) {
        if (options.failIfNotExists === false) return;
        throw new BadUserRequestException(`No historic process instance found with id: ${id}: historicProcessInstanceIds is empty`);
      }
      await ctx.authz.check({ permission: 'DELETE_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: instance.processDefinitionKey });
      if (instance.endTime === null) {
        throw new BadUserRequestException(`Process instance is still running, cannot delete historic process instance: ${id}: instance.getEndTime() is null`);
      }
      await repository.deleteProcessInstance(id);
      OperationLogEntries.processInstance(ctx, 'DeleteHistory', {}, [{ property: 'nrOfInstances', newValue: 1 }, { property: 'async', newValue: false }]);
      await IncidentAndLogDeletion.ofProcessInstances(ctx, [id]);
      await new HistoricVariableRepository(ctx.trx).deleteInstances({ processInstanceId: id });
    });
  }

  findHistoricActivityInstances(query: HistoricActivityInstanceQuery = {}): Promise<HistoricActivityInstance[]> {
    return this.commands.run('HistoricActivityInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).findActivityInstances(query, await readableHistory(ctx)));
  }

  countHistoricActivityInstances(query: HistoricActivityInstanceQuery = {}): Promise<number> {
    return this.commands.run('HistoricActivityInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).countActivityInstances(query, await readableHistory(ctx)));
  }

  async getHistoricActivityInstance(id: string): Promise<HistoricActivityInstance | null> {
    return (await this.findHistoricActivityInstances({ activityInstanceId: id }))[0] ?? null;
  }
}

const readableHistory = (ctx: CommandContext) => ctx.authz.readFilter('READ_HISTORY', Resources.PROCESS_DEFINITION);
