import { inject, injectable } from 'inversify';
import { ALL_BITS } from '../../authorization/permissions.js';
import { ANY, Resources } from '../../authorization/resources.js';
import type { CommandContext } from '../../command/command-context.js';
import { CommandExecutor } from '../../command/command-executor.js';
import { NotValidException, NullValueException } from '../../errors/exceptions.js';
import { deleteAuthorizationsOn, ensureValidIndividualResourceId, grantDefault } from '../authorization/default-authorizations.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';
import type { Filter, FilterFields, FilterQuery, FilterQueryCheck } from './filter.js';
import { checkTaskQueryCriteria } from '../../persistence/repositories/task-repository.js';

/**
 * Saved task queries (Camunda's FilterService): create (CREATE on filters; the owner gets every
 * permission on the new filter), read (READ), change (UPDATE) and delete (DELETE, with the filter's
 * authorizations). What a filter finds is its task query, run by the caller through the TaskService.
 */
@injectable()
export class FilterService {
  constructor(@inject(CommandExecutor) private readonly commands: CommandExecutor) {}

  /** Camunda's FilterQuery: only the filters the caller may read. */
  findFilters(query: FilterQuery = {}): Promise<Filter[]> {
    return this.commands.run('FilterQuery', async (ctx) => ctx.filters.find(query, await ctx.authz.readFilter('READ', Resources.FILTER)));
  }

  countFilters(query: FilterQuery = {}): Promise<number> {
    return this.commands.run('FilterQuery', async (ctx) => ctx.filters.count(query, await ctx.authz.readFilter('READ', Resources.FILTER)));
  }

  /** Camunda's GetFilterCmd: READ on the filter is checked before it is looked for; null when there is none. */
  getFilter(id: string): Promise<Filter | null> {
    return this.commands.run('GetFilterCmd', (ctx) => readable(ctx, id));
  }

  /**
   * Camunda's newTaskFilter + SaveFilterCmd: CREATE on filters is checked before the content
   * (NotValidException for an empty name or no query); the owner gets ALL on the new filter.
   */
  createFilter(fields: FilterFields, checkQuery?: FilterQueryCheck): Promise<Filter> {
    return this.commands.run('SaveFilterCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'CREATE', resource: Resources.FILTER, resourceId: ANY });
      const filter: Filter = { id: ctx.ids.next(), ...validated(fields, checkQuery) };
      await ctx.filters.insert(filter);
      OperationLogEntries.filter(ctx, 'Create', filter.id);
      if (filter.owner !== null && ctx.config.authorization.enabled) {
        ensureValidIndividualResourceId(`Cannot create default authorization for filter owner ${filter.owner}`, filter.owner);
        await grantDefault(ctx, { userId: filter.owner, resource: Resources.FILTER, resourceId: filter.id, permissions: ALL_BITS });
      }
      return filter;
    });
  }

  /**
   * Camunda's FilterResourceImpl.updateFilter + SaveFilterCmd: the filter as the caller may read it
   * (NullValueException when there is none), its new content, then UPDATE on it. The resource type stays.
   */
  updateFilter(id: string, fields: Omit<FilterFields, 'resourceType'>, checkQuery?: FilterQueryCheck): Promise<Filter> {
    return this.commands.run('SaveFilterCmd', async (ctx) => {
      const existing = await readable(ctx, id);
      if (!existing) throw filterNotFound(id);
      const filter: Filter = { ...existing, ...validated({ ...fields, resourceType: existing.resourceType }, checkQuery) };
      await ctx.authz.check({ permission: 'UPDATE', resource: Resources.FILTER, resourceId: id });
      await ctx.filters.update(filter);
      OperationLogEntries.filter(ctx, 'Update', id);
      return filter;
    });
  }

  /** Camunda's DeleteFilterCmd: DELETE on the filter first, then the filter and its authorizations go. */
  deleteFilter(id: string): Promise<void> {
    return this.commands.run('DeleteFilterCmd', async (ctx) => {
      await ctx.authz.check({ permission: 'DELETE', resource: Resources.FILTER, resourceId: id });
      const filter = await ctx.filters.findById(id);
      if (!filter) throw filterNotFound(id);
      await deleteAuthorizationsOn(ctx, Resources.FILTER, id);
      await ctx.filters.delete(filter);
      OperationLogEntries.filter(ctx, 'Delete', id);
    });
  }
}

async function readable(ctx: CommandContext, id: string): Promise<Filter | null> {
  await ctx.authz.check({ permission: 'READ', resource: Resources.FILTER, resourceId: id });
  return ctx.filters.findById(id);
}

/** Camunda's FilterManager text for a filter it cannot find. */
const filterNotFound = (id: string) => new NullValueException(`No filter found for filter id '${id}': filter is null`);

/** Camunda's FilterEntity setters, in FilterDto.updateFilter's order: a name, then the query (checked by `checkQuery`), required. */
function validated(fields: FilterFields, checkQuery?: FilterQueryCheck): FilterFields {
  if (!fields.resourceType) throw new NotValidException('Filter resource type must not be null or empty: resourceType is null or empty');
  if (!fields.name) throw new NotValidException('Filter name must not be null or empty: name is null or empty');
  if (fields.query && checkQuery) checkTaskQueryCriteria(checkQuery(fields.query));
  if (fields.query === null || fields.query === undefined) throw new NotValidException('query is null');
  return { resourceType: fields.resourceType, name: fields.name, owner: fields.owner ?? null, query: fields.query, properties: fields.properties ?? null };
}
