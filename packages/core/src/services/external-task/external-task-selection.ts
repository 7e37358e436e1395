import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException } from '../../errors/exceptions.js';
import type { ProcessInstanceQuery } from '../runtime/process-instance.js';
import { readableInstances } from '../runtime/runtime-service.js';
import type { ExternalTaskQuery } from './external-task.js';
import { historicInstanceIds } from '../history/historic-instance-ids.js';
import type { HistoricProcessInstanceQuery } from '../history/historic-instances.js';

/**
 * Which external tasks a bulk retries update touches (Camunda's UpdateExternalTaskRetriesBuilder):
 * the union of the given ids, a task query, and the tasks of the given or queried process instances.
 */
export interface ExternalTaskSelection {
  externalTaskIds?: ReadonlyArray<string | null> | null;
  processInstanceIds?: readonly string[] | null;
  externalTaskQuery?: ExternalTaskQuery | null;
  processInstanceQuery?: ProcessInstanceQuery | null;
  /** Adds the external tasks of the instances of this history query. */
  historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null;
}

export const isIdList = (selection: readonly string[] | ExternalTaskSelection): selection is readonly string[] => Array.isArray(selection);

/**
 * Camunda's AbstractSetExternalTaskRetriesCmd#collectExternalTaskIds: queries see only what the caller
 * may read; the tasks of the selected instances are then found without that check, as Camunda does.
 */
export async function collectExternalTaskIds(ctx: CommandContext, selection: ExternalTaskSelection): Promise<string[]> {
  const ids = new Set<string>();
  if (selection.externalTaskIds) {
    if (selection.externalTaskIds.some((id) => id === null || id === undefined)) {
      throw new BadUserRequestException('External task id cannot be null: externalTaskIds contains null value');
    }
    for (const id of selection.externalTaskIds) ids.add(id!);
  }
  const now = ctx.clock.now();
  if (selection.externalTaskQuery) {
    for (const task of await ctx.externalTasks.find(ctx.tenantCheck.query(unpaged(selection.externalTaskQuery)), await readableInstances(ctx), now)) ids.add(task.id);
  }
  const instanceIds = new Set<string>(selection.processInstanceIds ?? []);
  if (selection.processInstanceQuery) {
    for (const instance of await ctx.processInstances.find(ctx.tenantCheck.query(unpaged(selection.processInstanceQuery)), await readableInstances(ctx))) instanceIds.add(instance.id);
  }
  if (selection.historicProcessInstanceQuery) for (const id of await historicInstanceIds(ctx, selection.historicProcessInstanceQuery)) instanceIds.add(id);
  if (instanceIds.size > 0) {
    for (const task of await ctx.externalTasks.find({ processInstanceIdIn: [...instanceIds] }, null, now)) ids.add(task.id);
  }
  return [...ids];
}

/** A selection query means every match: paging of a query body does not narrow it. */
export function unpaged<Query extends { firstResult?: number; maxResults?: number }>(query: Query): Query {
  const { firstResult: _first, maxResults: _max, ...rest } = query;
  return rest as Query;
}
