import type { CommandExecutor } from '../../command/command-executor.js';
import { HistoricIncidentRepository } from '../../persistence/repositories/historic-incident-repository.js';
import type { HistoricIncident, HistoricIncidentQuery } from './historic-incident-types.js';

/** Historic incidents (engine.history.incidents): lists show those of definitions the caller has READ_HISTORY on. */
export class HistoricIncidents {
  constructor(private readonly commands: CommandExecutor) {}

  find(query: HistoricIncidentQuery = {}): Promise<HistoricIncident[]> {
    return this.commands.run('HistoricIncidentQuery', async (ctx) =>
      new HistoricIncidentRepository(ctx.trx).find(ctx.tenantCheck.query(query), await ctx.authz.historyFilter()),
    );
  }

  count(query: HistoricIncidentQuery = {}): Promise<number> {
    return this.commands.run('HistoricIncidentQuery', async (ctx) =>
      new HistoricIncidentRepository(ctx.trx).count(ctx.tenantCheck.query(query), await ctx.authz.historyFilter()),
    );
  }
}
