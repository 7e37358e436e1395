import type { Page, Sorting } from '../../persistence/repositories/query-support.js';
import type { TaskQuery } from '../task/task.js';

/** A saved query (Camunda's Filter): of tasks, the only resource type Camunda runs filters of. */
export interface Filter {
  id: string;
  resourceType: string;
  name: string;
  owner: string | null;
  /** The saved task query, as the REST API reads it (a TaskQueryDto object); the engine keeps it as given. */
  query: Record<string, unknown>;
  /** Free properties (Tasklist keeps a color, a description, a priority here); null for none. */
  properties: Record<string, unknown> | null;
}

/** What a new or changed filter holds (Camunda's FilterDto applied to the entity). */
export type FilterFields = Omit<Filter, 'id'>;

/**
 * How a host reads a filter's query while it is saved (Camunda's TaskQueryDto.toQuery), called
 * after the permission and the name are checked: the task query, or what it finds wrong thrown. The
 * engine then refuses contradicting criteria in it as Camunda's query setters do.
 */
export type FilterQueryCheck = (query: Record<string, unknown>) => TaskQuery;

export type FilterSortField = 'filterId' | 'resourceType' | 'name' | 'owner';

export interface FilterQuery extends Page {
  filterId?: string;
  resourceType?: string;
  name?: string;
  nameLike?: string;
  owner?: string;
  sorting?: Sorting<FilterSortField>[];
}
