import { inject, injectable } from 'inversify';
import { Resources } from '../../authorization/resources.js';
import { CommandExecutor } from '../../command/command-executor.js';
import type { CommandContext } from '../../command/command-context.js';
import { NotFoundException } from '../../errors/exceptions.js';
import { createJob } from '../../jobs/create-job.js';
import type { Job } from '../../jobs/job.js';
import { jobsDeleted } from '../../jobs/job-failure.js';
import { flushQueuedHistory } from '../../history/queued-history.js';
import type { JobHandler, JobOutcome } from '../../jobs/job-handler.js';
import type { MigrationExecution, MigrationPlan, MigrationPlanInput } from '../migration/migration-plan.js';
import { MigrationService } from '../migration/migration-service.js';
import {
  BATCH_DEFAULTS,
  BATCH_MONITOR_JOB,
  BATCH_SEED_JOB,
  BatchTypes,
  type Batch,
  type BatchConfiguration,
  type BatchQuery,
  type BatchStatistics,
  type BatchStatisticsQuery,
} from './batch.js';
import { BatchRepository } from './batch-repository.js';
import { deleteBatchVariables, loadBatchVariables, storeBatchVariables } from './batch-variables.js';
import { deleteHistoricBatch, recordBatchEnd, recordBatchExecutionStart, recordBatchStart } from './historic-batch-events.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import { UserOperationLog } from '../../history/user-operation-log.js';
import { checkCreateBatch } from './async-operations.js';

/** Execution jobs' configuration: the batch and the ids this job works on. */
/** What a batch execution job's configuration holds: its batch and the ids it works on. */
export interface ExecutionJobConfiguration {
  batchId: string;
  ids: string[];
  /** A chunked set-removal-time job: the history tables its next run updates (Camunda's entities; absent: all). */
  entities?: string[];
}

export interface CreateBatchOptions {
  tenantId?: string | null;
  deploymentId?: string | null;
  invocationsPerBatchJob?: number;
  batchJobsPerSeed?: number;
}

const repository = (ctx: CommandContext) => new BatchRepository(ctx.trx);

/**
 * Camunda's batch framework on the job executor: a batch row, three job definitions (seed, monitor,
 * execution), a seed job creating execution jobs in chunks, and a monitor job deleting the batch when
 * no execution job is left. Job definitions of a batch store the batch id as their process definition
 * id and job configuration (the table requires a process definition id; Camunda's is null).
 */
@injectable()
export class BatchService {
  constructor(
    @inject(CommandExecutor) private readonly commands: CommandExecutor,
    @inject(MigrationService) private readonly migration: MigrationService,
  ) {}

  /** POST /migration/executeAsync: validates the plan and selection now, migrates in batch jobs. */
  migrateAsync(
    input: MigrationPlanInput | null | undefined,
    selection: MigrationExecution,
    sizing: Pick<CreateBatchOptions, 'batchJobsPerSeed' | 'invocationsPerBatchJob'> = {},
  ): Promise<Batch> {
    return this.commands.run('MigrateProcessInstanceBatchCmd', async (ctx) => {
      const prepared = await this.migration.prepareBatch(ctx, input, selection);
      await checkCreateBatch(ctx, 'CREATE_BATCH_MIGRATE_PROCESS_INSTANCES');
      await prepared.checkMigrateInstance();
      const { variables, ...plan } = prepared.plan;
      OperationLogEntries.migrated(ctx, { processDefinitionId: plan.sourceProcessDefinitionId }, plan.targetProcessDefinitionId, prepared.processInstanceIds.length, variables, true);
      const settings: MigrationBatchSettings = {
        plan,
        skipCustomListeners: selection.skipCustomListeners === true,
        skipIoMappings: selection.skipIoMappings === true,
      };
      const batch = await createBatch(ctx, BatchTypes.instanceMigration, prepared.processInstanceIds, settings, {
        ...sizing,
        tenantId: prepared.tenantId,
        deploymentId: prepared.sourceDeploymentId,
      });
      if (variables) await storeBatchVariables(ctx, batch.id, variables);
      return batch;
    });
  }

  find(query: BatchQuery = {}): Promise<Batch[]> {
    return this.commands.run('BatchQuery', async (ctx) => repository(ctx).find(ctx.tenantCheck.query(query), await ctx.authz.readFilter('READ', Resources.BATCH)));
  }

  count(query: BatchQuery = {}): Promise<number> {
    return this.commands.run('BatchQuery', async (ctx) => repository(ctx).count(ctx.tenantCheck.query(query), await ctx.authz.readFilter('READ', Resources.BATCH)));
  }

  /** The batch, or NotFoundException `Batch with id '<id>' does not exist`. */
  get(id: string): Promise<Batch> {
    return this.commands.run('BatchQuery', async (ctx) => {
      const [batch] = await repository(ctx).find(ctx.tenantCheck.query({ batchId: id }), await ctx.authz.readFilter('READ', Resources.BATCH));
      if (!batch) throw new NotFoundException(`Batch with id '${id}' does not exist`);
      return batch;
    });
  }

  statistics(query: BatchStatisticsQuery = {}): Promise<BatchStatistics[]> {
    return this.commands.run('BatchStatisticsQuery', async (ctx) => repository(ctx).statistics(ctx.tenantCheck.query(query), await ctx.authz.readFilter('READ', Resources.BATCH)));
  }

  countStatistics(query: BatchStatisticsQuery = {}): Promise<number> {
    return this.commands.run('BatchStatisticsQuery', async (ctx) => repository(ctx).count(ctx.tenantCheck.query(query), await ctx.authz.readFilter('READ', Resources.BATCH)));
  }

  /** Suspends or activates the batch, its three job definitions and their jobs. Unknown: NotFoundException. */
  setSuspended(id: string, suspended: boolean): Promise<void> {
    return this.commands.run(suspended ? 'SuspendBatchCmd' : 'ActivateBatchCmd', async (ctx) => {
      const batch = await repository(ctx).findById(id);
      if (!batch) throw new NotFoundException(`Batch for id '${id}' cannot be found`);
      ctx.tenantCheck.require(batch.tenantId, `${suspended ? 'suspend' : 'activate'} batch '${id}'`);
      await ctx.authz.check({ permission: 'UPDATE', resource: Resources.BATCH, resourceId: id });
      // Camunda logs the operation also when the batch is in that state already.
      OperationLogEntries.batch(ctx, suspended ? 'SuspendBatch' : 'ActivateBatch', id, batch.tenantId, [{ property: 'suspensionState', newValue: suspended ? 'suspended' : 'active' }]);
      // Camunda's AbstractSetBatchStateCmd sets the state of the job definitions and their jobs also when the batch has it already.
      batch.suspended = suspended;
      await repository(ctx).update(batch);
      for (const definitionId of definitionIds(batch)) {
        const definition = await ctx.jobDefinitions.findById(definitionId);
        if (definition) await ctx.jobDefinitions.update({ ...definition, suspended });
        await ctx.jobDefinitions.setJobsSuspended(definitionId, suspended);
      }
      ctx.emitAfterCommit('batch.changed', { batchId: id });
      if (!suspended) ctx.emitAfterCommit('job.created', { jobId: id, dueDate: null });
    });
  }

  /**
   * Deletes the batch with all its jobs, job definitions and configuration; the historic batch gets
   * its end time, or with cascade is deleted too. Unknown: NotFoundException.
   */
  delete(id: string, cascade = false): Promise<void> {
    return this.commands.run('DeleteBatchCmd', async (ctx) => {
      const batch = await repository(ctx).findById(id);
      if (!batch) throw new NotFoundException(`Batch for id '${id}' cannot be found`);
      ctx.tenantCheck.require(batch.tenantId, `delete batch '${id}'`);
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.BATCH, resourceId: id });
      OperationLogEntries.batch(ctx, 'Delete', id, batch.tenantId, [{ property: 'cascadeToHistory', newValue: cascade }]);
      await deleteBatch(ctx, batch, { deleteJobs: true, ended: 'deleted' });
      if (cascade) await deleteHistoricBatch(ctx, id);
    });
  }
}

/** Inserts the batch, its three job definitions and its first seed job (Camunda's BatchBuilder). */
export async function createBatch(ctx: CommandContext, type: string, ids: string[], settings: unknown, options: CreateBatchOptions = {}): Promise<Batch> {
  const invocationsPerBatchJob = options.invocationsPerBatchJob ?? BATCH_DEFAULTS.invocationsPerBatchJob;
  const id = ctx.ids.next();
  const definition = async (jobType: string) => {
    const definitionId = ctx.ids.next();
    await ctx.jobDefinitions.insert({
      id: definitionId,
      processDefinitionId: null,
      processDefinitionKey: null,
      activityId: null,
      jobType,
      jobConfiguration: id,
      overridingJobPriority: null,
      suspended: false,
      tenantId: options.tenantId ?? null,
      deploymentId: null,
    });
    return definitionId;
  };
  const batch: Batch = {
    id,
    type,
    totalJobs: Math.ceil(ids.length / invocationsPerBatchJob),
    jobsCreated: 0,
    batchJobsPerSeed: options.batchJobsPerSeed ?? BATCH_DEFAULTS.batchJobsPerSeed,
    invocationsPerBatchJob,
    seedJobDefinitionId: null,
    monitorJobDefinitionId: null,
    batchJobDefinitionId: null,
    suspended: false,
    tenantId: options.tenantId ?? null,
    createUserId: ctx.authentication?.userId ?? null,
    startTime: ctx.clock.now(),
    executionStartTime: null,
  };
  const configuration: BatchConfiguration = { ids, settings, deploymentId: options.deploymentId ?? null };
  await repository(ctx).insert(batch, configuration);
  batch.seedJobDefinitionId = await definition(BATCH_SEED_JOB);
  batch.monitorJobDefinitionId = await definition(BATCH_MONITOR_JOB);
  batch.batchJobDefinitionId = await definition(type);
  await ctx.trx
    .updateTable('trellis_batch')
    .set({ seed_job_def_id: batch.seedJobDefinitionId, monitor_job_def_id: batch.monitorJobDefinitionId, batch_job_def_id: batch.batchJobDefinitionId })
    .where('id', '=', id)
    .execute();
  await recordBatchStart(ctx, batch);
  await createBatchJob(ctx, batch, BATCH_SEED_JOB, batch.seedJobDefinitionId, id);
  ctx.emitAfterCommit('batch.changed', { batchId: id });
  return batch;
}

function definitionIds(batch: Batch): string[] {
  return [batch.seedJobDefinitionId, batch.monitorJobDefinitionId, batch.batchJobDefinitionId].filter((each): each is string => each !== null);
}

async function createBatchJob(ctx: CommandContext, batch: Batch, handlerType: string, jobDefinitionId: string, configuration: string, extra: Partial<Job> = {}) {
  return createJob(ctx, {
    type: 'message',
    handlerType,
    handlerConfiguration: configuration,
    jobDefinitionId,
    tenantId: batch.tenantId,
    // The job definition's suspension and overriding priority apply (createJob's linkJobDefinition).
    priority: BATCH_DEFAULTS.batchJobPriority,
    ...extra,
  });
}

/**
 * Camunda's BatchEntity#delete: jobs (execution jobs only with deleteJobs) deleted as JobEntity.delete
 * does (logged, their failedJob incidents deleted), job definitions, variables, the batch.
 */
async function deleteBatch(ctx: CommandContext, batch: Batch, options: { deleteJobs: boolean; exceptJobId?: string; ended: 'completed' | 'deleted' }): Promise<void> {
  const definitions = [batch.seedJobDefinitionId, batch.monitorJobDefinitionId, ...(options.deleteJobs ? [batch.batchJobDefinitionId] : [])].filter(
    (each): each is string => each !== null,
  );
  await jobsDeleted(ctx, await ctx.jobs.deleteByJobDefinitions(definitions, options.exceptJobId));
  // Their log entries read the job definitions and the batch: written before those go.
  await flushQueuedHistory(ctx);
  const all = definitionIds(batch);
  if (all.length > 0) await ctx.trx.deleteFrom('trellis_job_definition').where('id', 'in', all).execute();
  await deleteBatchVariables(ctx, batch.id);
  await repository(ctx).delete(batch.id);
  await recordBatchEnd(ctx, batch);
  ctx.emitAfterCommit('batch.changed', { batchId: batch.id, ended: options.ended });
}

/** batch-seed-job: creates the next chunk of execution jobs, then another seed job or the monitor job. */
@injectable()
export class BatchSeedJobHandler implements JobHandler {
  readonly type = BATCH_SEED_JOB;

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const batchId = job.handlerConfiguration ?? '';
    const batches = repository(ctx);
    const batch = await batches.findById(batchId);
    if (!batch) return;
    const configuration = (await batches.configuration(batchId)) ?? { ids: [], settings: null };
    const per = batch.invocationsPerBatchJob;
    const chunk = Math.min(batch.batchJobsPerSeed, batch.totalJobs - batch.jobsCreated);
    for (let index = 0; index < chunk; index++) {
      const start = (batch.jobsCreated + index) * per;
      const config: ExecutionJobConfiguration = { batchId, ids: configuration.ids.slice(start, start + per) };
      await createBatchJob(ctx, batch, batch.type, batch.batchJobDefinitionId!, JSON.stringify(config), { deploymentId: configuration.deploymentId ?? null });
    }
    batch.jobsCreated += chunk;
    await batches.update(batch);
    if (batch.jobsCreated < batch.totalJobs) await createBatchJob(ctx, batch, BATCH_SEED_JOB, batch.seedJobDefinitionId!, batchId);
    else await createBatchJob(ctx, batch, BATCH_MONITOR_JOB, batch.monitorJobDefinitionId!, batchId);
    ctx.emitAfterCommit('batch.changed', { batchId });
  }
}

/** batch-monitor-job: deletes the batch once no execution job is left; otherwise looks again after the poll time. */
@injectable()
export class BatchMonitorJobHandler implements JobHandler {
  readonly type = BATCH_MONITOR_JOB;

  async execute(ctx: CommandContext, job: Job): Promise<void> {
    const batch = await repository(ctx).findById(job.handlerConfiguration ?? '');
    if (!batch) return;
    const left = await ctx.trx
      .selectFrom('trellis_job')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('job_definition_id', '=', batch.batchJobDefinitionId)
      .executeTakeFirstOrThrow();
    if (Number(left.count) === 0 && batch.jobsCreated >= batch.totalJobs) {
      await deleteBatch(ctx, batch, { deleteJobs: false, exceptJobId: job.id, ended: 'completed' });
      return;
    }
    const due = new Date(ctx.clock.now().getTime() + BATCH_DEFAULTS.batchPollTimeMs);
    await createBatchJob(ctx, batch, BATCH_MONITOR_JOB, batch.monitorJobDefinitionId!, batch.id, { dueDate: due });
  }
}

/** The execution job of a batch type: marks the execution start, then works on its ids. */
@injectable()
export abstract class BatchExecutionJobHandler<Settings> implements JobHandler {
  abstract readonly type: string;

  /** Works on the job's ids; `kept`: the handler rescheduled the job to run again (it is not done). */
  protected abstract run(ctx: CommandContext, ids: string[], settings: Settings, job: { job: Job; configuration: ExecutionJobConfiguration }): Promise<JobOutcome>;

  async execute(ctx: CommandContext, job: Job): Promise<JobOutcome> {
    const config = JSON.parse(job.handlerConfiguration ?? '{}') as ExecutionJobConfiguration;
    const batches = repository(ctx);
    const configuration = await batches.configuration(config.batchId);
    if (!configuration) return;
    if (await batches.markExecutionStarted(config.batchId, ctx.clock.now())) {
      await recordBatchExecutionStart(ctx, config.batchId, ctx.clock.now());
      ctx.emitAfterCommit('batch.changed', { batchId: config.batchId });
    }
    // Camunda's batch jobs run their operation with the operation log prevented: the batch's creation logged it.
    const outcome = await UserOperationLog.prevented(ctx, () => this.run(ctx, config.ids, configuration.settings as Settings, { job, configuration: config }));
    ctx.emitAfterCommit('batch.changed', { batchId: config.batchId });
    return outcome;
  }
}

interface MigrationBatchSettings {
  plan: Omit<MigrationPlan, 'variables'>;
  skipCustomListeners: boolean;
  skipIoMappings: boolean;
}

/** instance-migration: migrates each id by the batch's plan (without authorization), plan variables included. */
@injectable()
export class MigrationBatchJobHandler extends BatchExecutionJobHandler<MigrationBatchSettings> {
  readonly type = BatchTypes.instanceMigration;

  constructor(@inject(MigrationService) private readonly migration: MigrationService) {
    super();
  }

  protected async run(ctx: CommandContext, ids: string[], settings: MigrationBatchSettings, { configuration }: { configuration: ExecutionJobConfiguration }): Promise<void> {
    const plan: MigrationPlan = { ...settings.plan, variables: await loadBatchVariables(ctx, configuration.batchId) };
    for (const id of ids) await this.migration.migrateByPlan(ctx, plan, id, settings);
  }
}
