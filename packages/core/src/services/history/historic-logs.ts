import { Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import type { CommandExecutor } from '../../command/command-executor.js';
import { NullValueException } from '../../errors/exceptions.js';
import { HistoricLogRepository } from '../../persistence/repositories/historic-log-repository.js';
import type { HistoricExternalTaskLog, HistoricExternalTaskLogQuery, HistoricJobLog, HistoricJobLogQuery } from './historic-log-types.js';

/**
 * The historic job log and external task log (engine.history.logs). Lists show the entries of
 * definitions the caller has READ_HISTORY on; entries of batch jobs need READ_HISTORY on the batch,
 * as Camunda's HistoricJobLogQuery checks.
 */
export class HistoricLogs {
  constructor(private readonly commands: CommandExecutor) {}

  findJobLogs(query: HistoricJobLogQuery = {}): Promise<HistoricJobLog[]> {
    return this.commands.run('HistoricJobLogQuery', async (ctx) => new HistoricLogRepository(ctx.trx).findJobLogs(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  countJobLogs(query: HistoricJobLogQuery = {}): Promise<number> {
    return this.commands.run('HistoricJobLogQuery', async (ctx) => new HistoricLogRepository(ctx.trx).countJobLogs(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  async getJobLog(id: string): Promise<HistoricJobLog | null> {
    return (await this.findJobLogs({ logId: id }))[0] ?? null;
  }

  /** Camunda's GetHistoricJobLogExceptionStacktraceCmd: NullValueException for an unknown entry. */
  getJobLogStacktrace(id: string): Promise<string | null> {
    return this.commands.run('GetHistoricJobLogExceptionStacktraceCmd', async (ctx) => {
      const entry = await new HistoricLogRepository(ctx.trx).jobStacktrace(id);
      if (!entry) throw new NullValueException(`No historic job log found with id ${id}: historicJobLog is null`);
      ctx.tenantCheck.require(entry.tenantId, `get the historic job log '${id}'`);
      // Camunda's checkReadHistoricJobLog: READ_HISTORY on the definition; a batch job's entry needs nothing.
      if (entry.processDefinitionKey) await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: entry.processDefinitionKey });
      return entry.stacktrace;
    });
  }

  findExternalTaskLogs(query: HistoricExternalTaskLogQuery = {}): Promise<HistoricExternalTaskLog[]> {
    return this.commands.run('HistoricExternalTaskLogQuery', async (ctx) => new HistoricLogRepository(ctx.trx).findExternalTaskLogs(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  countExternalTaskLogs(query: HistoricExternalTaskLogQuery = {}): Promise<number> {
    return this.commands.run('HistoricExternalTaskLogQuery', async (ctx) => new HistoricLogRepository(ctx.trx).countExternalTaskLogs(ctx.tenantCheck.query(query), await readableHistory(ctx)));
  }

  async getExternalTaskLog(id: string): Promise<HistoricExternalTaskLog | null> {
    return (await this.findExternalTaskLogs({ logId: id }))[0] ?? null;
  }

  /** Camunda's GetHistoricExternalTaskLogErrorDetailsCmd: NullValueException for an unknown entry. */
  getExternalTaskLogErrorDetails(id: string): Promise<string | null> {
    return this.commands.run('GetHistoricExternalTaskLogErrorDetailsCmd', async (ctx) => {
      const entry = await new HistoricLogRepository(ctx.trx).externalTaskErrorDetails(id);
      if (!entry) throw new NullValueException(`No historic external task log found with id ${id}: historicExternalTaskLog is null`);
      ctx.tenantCheck.require(entry.tenantId, `get the historic external task log '${id}'`);
      if (entry.processDefinitionKey) await ctx.authz.check({ permission: 'READ_HISTORY', resource: Resources.PROCESS_DEFINITION, resourceId: entry.processDefinitionKey });
      return entry.errorDetails;
    });
  }
}

const readableHistory = (ctx: CommandContext) => ctx.authz.historyFilter();

