import type { Expression, Selectable, SqlBool, Transaction } from 'kysely';
import type { JobDefinition, JobDefinitionQuery } from '../../services/job-definition/job-definition.js';
import type { JobDefinitionTable, StoreSchema } from '../schema.js';
import { applyPage, applySorting, fromBoolean, nonEmpty, toBoolean } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';
import { applyTenantCheck, requestedTenants } from '../../authorization/tenant-check.js';

type Row = Selectable<JobDefinitionTable>;

const SORT_COLUMNS = {
  jobDefinitionId: 'd.id',
  activityId: 'd.activity_id',
  processDefinitionId: 'd.proc_def_id',
  processDefinitionKey: 'd.proc_def_key',
  jobType: 'd.job_type',
  jobConfiguration: 'd.job_configuration',
  tenantId: 'd.tenant_id',
} as const;

/** A read filter on job definitions by their process definition key column. */
export type DefinitionReadFilter = ((definitionKeyColumn: string) => Expression<SqlBool>) | null;

/** Job definitions, within one transaction; changes are revision-checked. */
export class JobDefinitionRepository {
  private readonly revisions = new RevisionTracker('JobDefinitionEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(definition: JobDefinition): Promise<void> {
    await this.trx.insertInto('trellis_job_definition').values({ ...toRow(definition), rev: 1 }).execute();
    this.revisions.remember(definition.id, 1);
  }

  async findById(id: string): Promise<JobDefinition | null> {
    const row = await this.trx.selectFrom('trellis_job_definition').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  /** The definition a new job of this activity belongs to. */
  async findFor(processDefinitionId: string, activityId: string, jobType: string, configuration?: string): Promise<JobDefinition | null> {
    let select = this.trx
      .selectFrom('trellis_job_definition')
      .selectAll()
      .where('proc_def_id', '=', processDefinitionId)
      .where('activity_id', '=', activityId)
      .where('job_type', '=', jobType);
    if (configuration !== undefined) select = select.where('job_configuration', '=', configuration);
    const row = await select.executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  async find(query: JobDefinitionQuery, readable: DefinitionReadFilter = null): Promise<JobDefinition[]> {
    const rows = await applyPage(applySorting(this.filtered(query, readable).selectAll('d'), query.sorting, SORT_COLUMNS, 'd.id'), query).execute();
    return rows.map((row) => this.remember(row));
  }

  async count(query: JobDefinitionQuery, readable: DefinitionReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async update(definition: JobDefinition): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_job_definition', definition.id, toRow(definition));
  }

  async deleteByProcessDefinition(processDefinitionId: string): Promise<void> {
    await this.trx.deleteFrom('trellis_job_definition').where('proc_def_id', '=', processDefinitionId).execute();
  }

  /** Suspends or activates the jobs of a job definition (their executions' state aside). */
  async setJobsSuspended(jobDefinitionId: string, suspended: boolean): Promise<void> {
    await this.trx
      .updateTable('trellis_job')
      .set((eb) => ({ suspended: fromBoolean(suspended), rev: eb('rev', '+', 1) }))
      .where('job_definition_id', '=', jobDefinitionId)
      .execute();
  }

  /** Suspends or activates the timer start event jobs of process definitions (Camunda's updateStartTimerJobSuspensionState…). */
  async setStartTimerJobsSuspended(processDefinitionIds: readonly string[], suspended: boolean): Promise<void> {
    if (processDefinitionIds.length === 0) return;
    await this.trx
      .updateTable('trellis_job')
      .set((eb) => ({ suspended: fromBoolean(suspended), rev: eb('rev', '+', 1) }))
      .where('process_definition_id', 'in', processDefinitionIds)
      .where('handler_type', '=', 'timer-start-event')
      .execute();
  }

  async setJobsPriority(jobDefinitionId: string, priority: number): Promise<void> {
    await this.trx.updateTable('trellis_job').set((eb) => ({ priority, rev: eb('rev', '+', 1) })).where('job_definition_id', '=', jobDefinitionId).execute();
  }

  private filtered(q: JobDefinitionQuery, readable: DefinitionReadFilter) {
    let select = this.trx.selectFrom('trellis_job_definition as d');
    if (q.jobDefinitionId !== undefined) select = select.where('d.id', '=', q.jobDefinitionId);
    if (q.activityIdIn !== undefined) select = select.where('d.activity_id', 'in', nonEmpty(q.activityIdIn));
    if (q.processDefinitionId !== undefined) select = select.where('d.proc_def_id', '=', q.processDefinitionId);
    if (q.processDefinitionKey !== undefined) select = select.where('d.proc_def_key', '=', q.processDefinitionKey);
    if (q.jobType !== undefined) select = select.where('d.job_type', '=', q.jobType);
    if (q.jobConfiguration !== undefined) select = select.where('d.job_configuration', '=', q.jobConfiguration);
    // One suspension state, as Camunda keeps it: suspended, set after active, wins.
    if (q.suspended) select = select.where('d.suspended', '=', 1);
    else if (q.active) select = select.where('d.suspended', '=', 0);
    if (q.withOverridingJobPriority) select = select.where('d.job_priority', 'is not', null);
    select = applyTenantCheck(select, q, 'd.tenant_id');
    const tenants = requestedTenants(q, 'd.tenant_id', q.includeJobDefinitionsWithoutTenantId === true);
    if (tenants) select = select.where(tenants);
    if (readable) select = select.where(readable('d.proc_def_key'));
    return select;
  }

  private remember(row: Row): JobDefinition {
    this.revisions.remember(row.id, row.rev);
    // A batch's job definitions are stored with empty process columns (earlier versions: the batch id as definition).
    const ofProcess = row.proc_def_key !== '';
    return {
      id: row.id,
      processDefinitionId: ofProcess ? row.proc_def_id : null,
      processDefinitionKey: ofProcess ? row.proc_def_key : null,
      activityId: ofProcess ? row.activity_id : null,
      jobType: row.job_type,
      jobConfiguration: row.job_configuration,
      overridingJobPriority: row.job_priority == null ? null : Number(row.job_priority),
      suspended: toBoolean(row.suspended),
      tenantId: row.tenant_id,
      deploymentId: row.deployment_id,
    };
  }
}

function toRow(definition: JobDefinition): Omit<JobDefinitionTable, 'rev'> {
  return {
    id: definition.id,
    proc_def_id: definition.processDefinitionId ?? '',
    proc_def_key: definition.processDefinitionKey ?? '',
    activity_id: definition.activityId ?? '',
    job_type: definition.jobType,
    job_configuration: definition.jobConfiguration,
    job_priority: definition.overridingJobPriority,
    suspended: fromBoolean(definition.suspended),
    tenant_id: definition.tenantId,
    deployment_id: definition.deploymentId,
  };
}
