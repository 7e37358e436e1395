import type { CommandContext } from '../../command/command-context.js';
import { HistoricInstanceRepository } from '../../persistence/repositories/historic-instance-repository.js';
import type { HistoricProcessInstanceQuery } from './historic-instances.js';

/**
 * The ids a HistoricProcessInstanceQuery selects inside the caller's command (Camunda's
 * HistoricProcessInstanceQueryImpl#listIds): all pages, the history the caller may read
 * (READ_HISTORY on the definition), as GET /history/process-instance lists it.
 */
export async function historicInstanceIds(ctx: CommandContext, query: HistoricProcessInstanceQuery): Promise<string[]> {
  const { firstResult: _first, maxResults: _max, sorting: _sorting, ...unpaged } = query;
  const readable = await ctx.authz.historyFilter();
  const instances = await new HistoricInstanceRepository(ctx.trx).findProcessInstances(ctx.tenantCheck.query(unpaged), readable);
  return instances.map((instance) => instance.id);
}
