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
import { checkCreateBatch } from '../batch/async-operations.js';
import type { Batch } from '../batch/batch.js';
import { createBatch, type CreateBatchOptions } from '../batch/batch-service.js';
import { HISTORIC_INSTANCE_DELETION } from '../batch/types/historic-instance-deletion.js';
import { historicInstanceIds } from './historic-instance-ids.js';
import { deleteAuthorizationsOn } from '../authorization/default-authorizations.js';

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
    return this.commands.run('HistoricProcessInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).findProcessInstances(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  countHistoricProcessInstances(query: HistoricProcessInstanceQuery = {}): Promise<number> {
    return this.commands.run('HistoricProcessInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).countProcessInstances(ctx.tenantCheck.query(query), await readableHistory(ctx)));
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
    return this.commands.run('DeleteHistoricProcessInstancesCmd', (ctx) => deleteHistoricProcessInstancesIn(ctx, [id], options.failIfNotExists !== false));
  }

  /**
   * POST /history/process-instance/delete (Camunda's DeleteHistoricProcessInstancesBatchCmd): a
   * `historic-instance-deletion` batch over the given ids (kept as given; an id with no history is
   * skipped when its job runs) and the instances the query selects among those the caller may read.
   * BATCH CREATE or CREATE_BATCH_DELETE_FINISHED_PROCESS_INSTANCES.
   */
  deleteHistoricProcessInstancesAsync(
    selection: { historicProcessInstanceIds?: ReadonlyArray<string | null> | null; historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null },
    deleteReason: string | null = null,
    sizing: Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'> = {},
  ): Promise<Batch> {
    return this.commands.run('DeleteHistoricProcessInstancesBatchCmd', async (ctx) => {
      const given = (selection.historicProcessInstanceIds ?? []).filter((id): id is string => typeof id === 'string');
      const selected = selection.historicProcessInstanceQuery ? await historicInstanceIds(ctx, selection.historicProcessInstanceQuery) : [];
      const ids = [...new Set([...given, ...selected])];
      if (ids.length === 0) throw new BadUserRequestException('historicProcessInstanceIds is empty');
      await checkCreateBatch(ctx, 'CREATE_BATCH_DELETE_FINISHED_PROCESS_INSTANCES');
      OperationLogEntries.processInstance(ctx, 'DeleteHistory', {}, [
        { property: 'nrOfInstances', newValue: ids.length },
        { property: 'async', newValue: true },
        { property: 'deleteReason', newValue: deleteReason },
      ]);
      return createBatch(ctx, HISTORIC_INSTANCE_DELETION, ids, {}, sizing);
    });
  }

  findHistoricActivityInstances(query: HistoricActivityInstanceQuery = {}): Promise<HistoricActivityInstance[]> {
    return this.commands.run('HistoricActivityInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).findActivityInstances(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  countHistoricActivityInstances(query: HistoricActivityInstanceQuery = {}): Promise<number> {
    return this.commands.run('HistoricActivityInstanceQuery', async (ctx) => new HistoricInstanceRepository(ctx.trx).countActivityInstances(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  async getHistoricActivityInstance(id: string): Promise<HistoricActivityInstance | null> {
    return (await this.findHistoricActivityInstances({ activityInstanceId: id }))[0] ?? null;
  }
}

const readableHistory = (ctx: CommandContext) => ctx.authz.historyFilter();

/**
 * Camunda's DeleteHistoricProcessInstancesCmd inside the caller's command: every instance found
 * needs DELETE_HISTORY on its definition and must have ended. With `failIfNotExists`, finding none
 * or missing some of the ids is a BadUserRequestException; without, the missing ones are skipped.
 */
export async function deleteHistoricProcessInstancesIn(ctx: CommandContext, ids: readonly string[], failIfNotExists: boolean): Promise<void> {
  if (ids.length === 0) throw new BadUserRequestException('processInstanceIds is empty');
  const repository = new HistoricInstanceRepository(ctx.trx);
  // Camunda finds them with a tenant-checked query: another tenant's instance is not found.
  const instances = await repository.findProcessInstances(ctx.tenantCheck.query({ processInstanceIds: [...new Set(ids)] }), null);
  if (failIfNotExists && instances.length === 0) {
    const what = ids.length === 1 ? `No historic process instance found with id: ${ids[0]}` : 'No historic process instances found';
    throw new BadUserRequestException(`${what}: historicProcessInstanceIds is empty`);
  }
  for (const instance of instances) {
    await ctx.authz.check({ permission: 'DELETE_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: instance.processDefinitionKey });
    if (instance.endTime === null) {
      throw new BadUserRequestException(`Process instance is still running, cannot delete historic process instance: ${instance.id}: instance.getEndTime() is null`);
    }
  }
  const found = instances.map((instance) => instance.id);
  const missing = ids.filter((id) => !found.includes(id));
  if (failIfNotExists && missing.length > 0) throw new BadUserRequestException(`No historic process instance found with id: [${missing.join(', ')}]`);
  if (found.length > 0) {
    const variables = new HistoricVariableRepository(ctx.trx);
    for (const id of found) {
      await repository.deleteProcessInstance(id);
      await variables.deleteInstances({ processInstanceId: id });
    }
    // Camunda's deleteHistoricProcessInstanceByIds: the grants on the historic instances go with them.
    await deleteAuthorizationsOn(ctx, Resources.HISTORIC_PROCESS_INSTANCE, found);
    await IncidentAndLogDeletion.ofProcessInstances(ctx, found);
  }
  OperationLogEntries.processInstance(ctx, 'DeleteHistory', {}, [{ property: 'nrOfInstances', newValue: found.length }, { property: 'async', newValue: false }]);
}
