import type { Selectable, Transaction } from 'kysely';
import type { Filter, FilterQuery } from '../../services/filter/filter.js';
import type { FilterTable, StoreSchema } from '../schema.js';
import type { ReadFilter } from './authorization-repository.js';
import { applyPage, applySorting, likeMatches } from './query-support.js';
import { RevisionTracker } from './revision-tracker.js';

const SORT_COLUMNS = { filterId: 'id', resourceType: 'resource_type', name: 'name', owner: 'owner' } as const;

/** Filters (saved queries), within one transaction. */
export class FilterRepository {
  private readonly revisions = new RevisionTracker('FilterEntity');

  constructor(private readonly trx: Transaction<StoreSchema>) {}

  async insert(filter: Filter): Promise<void> {
    await this.trx.insertInto('trellis_filter').values({ ...toRow(filter), rev: 1 }).execute();
    this.revisions.remember(filter.id, 1);
  }

  async update(filter: Filter): Promise<void> {
    await this.revisions.update(this.trx, 'trellis_filter', filter.id, toRow(filter));
  }

  async delete(filter: Filter): Promise<void> {
    const result = await this.trx.deleteFrom('trellis_filter').where('id', '=', filter.id).where('rev', '=', this.revisions.of(filter.id)).executeTakeFirst();
    this.revisions.ensureChanged(filter.id, result.numDeletedRows);
  }

  async findById(id: string): Promise<Filter | null> {
    const row = await this.trx.selectFrom('trellis_filter').selectAll().where('id', '=', id).executeTakeFirst();
    return row ? this.remember(row) : null;
  }

  /** Camunda's FilterQuery (sorted by id when unsorted); `readable` keeps the filters the caller may read. */
  async find(query: FilterQuery, readable: ReadFilter = null): Promise<Filter[]> {
    const sorted = applySorting(this.filtered(query, readable).selectAll(), query.sorting, SORT_COLUMNS, 'id');
    return (await applyPage(sorted, query).execute()).map((row) => this.remember(row));
  }

  async count(query: FilterQuery, readable: ReadFilter = null): Promise<number> {
    const row = await this.filtered(query, readable).select((eb) => eb.fn.countAll<number>().as('count')).executeTakeFirstOrThrow();
    return Number(row.count);
  }

  private filtered(query: FilterQuery, readable: ReadFilter) {
    let select = this.trx.selectFrom('trellis_filter');
    if (query.filterId !== undefined) select = select.where('id', '=', query.filterId);
    if (query.resourceType !== undefined) select = select.where('resource_type', '=', query.resourceType);
    if (query.name !== undefined) select = select.where('name', '=', query.name);
    if (query.nameLike !== undefined) select = select.where(likeMatches('name', query.nameLike));
    if (query.owner !== undefined) select = select.where('owner', '=', query.owner);
    if (readable) select = select.where(readable('id'));
    return select;
  }

  private remember(row: Selectable<FilterTable>): Filter {
    this.revisions.remember(row.id, row.rev);
    return {
      id: row.id,
      resourceType: row.resource_type,
      name: row.name,
      owner: row.owner,
      query: JSON.parse(row.query) as Record<string, unknown>,
      properties: row.properties === null ? null : (JSON.parse(row.properties) as Record<string, unknown>),
    };
  }
}

function toRow(filter: Filter): Omit<FilterTable, 'rev'> {
  return {
    id: filter.id,
    resource_type: filter.resourceType,
    name: filter.name,
    owner: filter.owner,
    query: JSON.stringify(filter.query),
    properties: filter.properties === null ? null : JSON.stringify(filter.properties),
  };
}
