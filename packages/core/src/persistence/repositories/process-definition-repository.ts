import type { ExpressionBuilder, Selectable, Transaction } from 'kysely';
import type { ProcessDefinition, ProcessDefinitionQuery } from '../../services/process-definition/process-definition.js';
import type { ProcessDefinitionTable, StoreSchema } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { filterProcessDefinitions } from './process-definition-filters.js';
import { applyPage, applySorting, fromBoolean, toBoolean, toDate } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

const SORT_COLUMNS = {
  category: 'category',
  key: 'key',
  id: 'id',
  name: 'name',
  version: 'version',
  deploymentId: 'deployment_id',
  deployTime: 'deploy_time',
  tenantId: 'tenant_id',
  versionTag: 'version_tag',
} as const;

export interface CandidateStarters {
  users: readonly string[];
  groups: readonly string[];
}

type Row = Selectable<ProcessDefinitionTable>;
type Changes = Partial<Pick<ProcessDefinition, 'suspended' | 'historyTimeToLive'>>;

/** Process definitions, within one transaction. Updates check the row's revision. */
export class ProcessDefinitionRepository {
  private readonly revisions = new RevisionTracker('ProcessDefinitionEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(definition: ProcessDefinition, starters: CandidateStarters): Promise<void> {
    await this.trx.insertInto('trellis_process_definition').values(toRow(definition)).execute();
    const links = [
      ...starters.users.map((user_id) => ({ process_definition_id: definition.id, user_id, group_id: null })),
      ...starters.groups.map((group_id) => ({ process_definition_id: definition.id, user_id: null, group_id })),
    ];
    if (links.length > 0) await this.trx.insertInto('trellis_definition_starter').values(links).execute();
    this.revisions.remember(definition.id, 1);
  }

  async findById(id: string): Promise<ProcessDefinition | null> {
    const row = await this.trx.selectFrom('trellis_process_definition').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  /** The highest version of a key for a tenant (null: definitions without tenant). */
  async findLatestByKey(key: string, tenantId: string | null): Promise<ProcessDefinition | null> {
    const row = await this.trx
      .selectFrom('trellis_process_definition')
      .selectAll()
      .where('key', '=', key)
      .where((eb) => sameTenant(eb, tenantId))
      .orderBy('version', 'desc')
      .executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  /** Every version of a key for a tenant, or of every tenant when `tenantId` is undefined. */
  async findAllByKey(key: string, tenantId?: string | null): Promise<ProcessDefinition[]> {
    let select = this.trx.selectFrom('trellis_process_definition').selectAll().where('key', '=', key);
    if (tenantId !== undefined) select = select.where((eb) => sameTenant(eb, tenantId));
    return (await select.orderBy('version').execute()).map((row) => this.remember(row));
  }

  async findByDeployment(deploymentId: string): Promise<ProcessDefinition[]> {
    const rows = await this.trx
      .selectFrom('trellis_process_definition')
      .selectAll()
      .where('deployment_id', '=', deploymentId)
      .orderBy('key')
      .execute();
    return rows.map((row) => this.remember(row));
  }

  async find(query: ProcessDefinitionQuery, readable: ReadFilter = null): Promise<ProcessDefinition[]> {
    const filtered = filterProcessDefinitions(this.trx, query, readable).selectAll('pd');
    const sorted = applySorting(filtered, query.sorting, prefixed(SORT_COLUMNS), 'pd.id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: ProcessDefinitionQuery, readable: ReadFilter = null): Promise<number> {
    const row = await filterProcessDefinitions(this.trx, query, readable)
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirstOrThrow();
    return Number(row.count);
  }

  async findCandidateStarters(id: string): Promise<CandidateStarters> {
    const rows = await this.trx.selectFrom('trellis_definition_starter').selectAll().where('process_definition_id', '=', id).execute();
    return {
      users: rows.flatMap((row) => (row.user_id ? [row.user_id] : [])),
      groups: rows.flatMap((row) => (row.group_id ? [row.group_id] : [])),
    };
  }

  /** The highest version number of a key and tenant, 0 when there is none. */
  async maxVersion(key: string, tenantId: string | null): Promise<number> {
    const row = await this.trx
      .selectFrom('trellis_process_definition')
      .select((eb) => eb.fn.max('version').as('max'))
      .where('key', '=', key)
      .where((eb) => sameTenant(eb, tenantId))
      .executeTakeFirst();
    return Number(row?.max ?? 0);
  }

  /** Writes the changes if the row still has the revision this transaction read. */
  async update(definition: ProcessDefinition, changes: Changes): Promise<ProcessDefinition> {
    const updated = { ...definition, ...changes };
    await this.revisions.update(this.trx, 'trellis_process_definition', definition.id, {
      suspended: fromBoolean(updated.suspended),
      history_time_to_live: updated.historyTimeToLive,
    });
    return updated;
  }

  async delete(definition: ProcessDefinition): Promise<void> {
    const rev = this.revisions.of(definition.id);
    await this.trx.deleteFrom('trellis_definition_starter').where('process_definition_id', '=', definition.id).execute();
    const result = await this.trx
      .deleteFrom('trellis_process_definition')
      .where('id', '=', definition.id)
      .where('rev', '=', rev)
      .executeTakeFirst();
    this.revisions.ensureChanged(definition.id, result.numDeletedRows);
    this.revisions.forget(definition.id);
  }

  private remember(row: Row): ProcessDefinition {
    this.revisions.remember(row.id, row.rev);
    return toProcessDefinition(row);
  }
}

function sameTenant(eb: ExpressionBuilder<StoreSchema, 'trellis_process_definition'>, tenantId: string | null) {
  return tenantId === null ? eb('tenant_id', 'is', null) : eb('tenant_id', '=', tenantId);
}

function prefixed<T extends Record<string, string>>(columns: T): Record<keyof T, string> {
  return Object.fromEntries(Object.entries(columns).map(([field, column]) => [field, `pd.${column}`])) as Record<keyof T, string>;
}

function toRow(definition: ProcessDefinition): ProcessDefinitionTable {
  return {
    id: definition.id,
    rev: 1,
    key: definition.key,
    name: definition.name,
    description: definition.description,
    category: definition.category,
    version: definition.version,
    version_tag: definition.versionTag,
    resource_name: definition.resourceName,
    diagram_resource_name: definition.diagramResourceName,
    deployment_id: definition.deploymentId,
    deploy_time: definition.deploymentTime.getTime(),
    tenant_id: definition.tenantId,
    suspended: fromBoolean(definition.suspended),
    history_time_to_live: definition.historyTimeToLive,
    startable_in_tasklist: fromBoolean(definition.startableInTasklist),
    has_start_form_key: fromBoolean(definition.hasStartFormKey),
  };
}

function toProcessDefinition(row: Row): ProcessDefinition {
  return {
    id: row.id,
    key: row.key,
    name: row.name,
    description: row.description,
    category: row.category,
    version: Number(row.version),
    versionTag: row.version_tag,
    resourceName: row.resource_name,
    diagramResourceName: row.diagram_resource_name,
    deploymentId: row.deployment_id,
    deploymentTime: toDate(row.deploy_time),
    tenantId: row.tenant_id,
    suspended: toBoolean(row.suspended),
    historyTimeToLive: row.history_time_to_live === null ? null : Number(row.history_time_to_live),
    startableInTasklist: toBoolean(row.startable_in_tasklist),
    hasStartFormKey: toBoolean(row.has_start_form_key),
  };
}
