import { sql } from 'kysely';
import type { CommandContext } from '../command/command-context.js';
import { HistoricIncidentRepository } from '../persistence/repositories/historic-incident-repository.js';
import { HistoricLogRepository } from '../persistence/repositories/historic-log-repository.js';

/**
 * Deleting history: what historic incidents and logs go with a historic instance, a definition or a
 * batch. The user operation log stays (Camunda removes its entries only by their removal time).
 */
export const IncidentAndLogDeletion = {
  async ofProcessInstances(ctx: CommandContext, processInstanceIds: readonly string[]): Promise<void> {
    await new HistoricIncidentRepository(ctx.trx).deleteByProcessInstances(processInstanceIds);
    await new HistoricLogRepository(ctx.trx).deleteByProcessInstances(processInstanceIds);
  },

  async ofProcessDefinition(ctx: CommandContext, processDefinitionId: string): Promise<void> {
    await new HistoricIncidentRepository(ctx.trx).deleteByProcessDefinition(processDefinitionId);
    await new HistoricLogRepository(ctx.trx).deleteByProcessDefinition(processDefinitionId);
  },

  /** Camunda's cascading batch delete: the historic incidents and job log of the batch's job definitions. */
  async ofBatch(ctx: CommandContext, batchId: string): Promise<void> {
    const { rows } = await sql<{ id: string | null }>`
      select seed_job_def_id as id from trellis_hi_batch where id = ${batchId} union select monitor_job_def_id from trellis_hi_batch where id = ${batchId}
      union select batch_job_def_id from trellis_hi_batch where id = ${batchId} union select seed_job_def_id from trellis_batch where id = ${batchId}
      union select monitor_job_def_id from trellis_batch where id = ${batchId} union select batch_job_def_id from trellis_batch where id = ${batchId}`.execute(ctx.trx);
    const jobDefinitionIds = rows.flatMap((row) => (row.id ? [row.id] : []));
    await new HistoricIncidentRepository(ctx.trx).deleteByJobDefinitions(jobDefinitionIds);
    await new HistoricLogRepository(ctx.trx).deleteJobLogsByJobDefinitions(jobDefinitionIds);
    await ctx.trx.deleteFrom('trellis_hi_job_log').where('batch_id', '=', batchId).execute();
  },
};
