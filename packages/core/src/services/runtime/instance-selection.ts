import type { CommandContext } from '../../command/command-context.js';
import { BadUserRequestException } from '../../errors/exceptions.js';
import { unpaged } from '../external-task/external-task-selection.js';
import { historicInstanceIds } from '../history/historic-instance-ids.js';
import type { HistoricProcessInstanceQuery } from '../history/historic-instances.js';
import type { ProcessInstanceQuery } from './process-instance.js';
import { readableInstances } from './runtime-service.js';

/** Process instances by id, by a runtime query and by a history query (all of them together). */
export interface InstanceSelection {
  processInstanceIds?: ReadonlyArray<string | null> | null;
  processInstanceQuery?: ProcessInstanceQuery | null;
  /** Adds the instances of this history query. */
  historicProcessInstanceQuery?: HistoricProcessInstanceQuery | null;
}

/**
 * Camunda's AbstractUpdateProcessInstancesSuspendStateCmd.collectProcessInstanceIds: the ids given and
 * those the queries find (as the caller may read them); none, or a null among them, is a bad request
 * (`label`: how the empty check names them — the batch command spells it "process Instance Ids").
 */
export async function selectedInstanceIds(ctx: CommandContext, selection: InstanceSelection, label = 'Process Instance ids'): Promise<string[]> {
  const ids = new Set<string | null>(selection.processInstanceIds ?? []);
  if (selection.processInstanceQuery) {
    for (const instance of await ctx.processInstances.find(ctx.tenantCheck.query(unpaged(selection.processInstanceQuery)), await readableInstances(ctx))) ids.add(instance.id);
  }
  if (selection.historicProcessInstanceQuery) for (const id of await historicInstanceIds(ctx, selection.historicProcessInstanceQuery)) ids.add(id);
  if (ids.size === 0) throw new BadUserRequestException(`No process instance ids given: ${label} is empty`);
  if (ids.has(null) || ids.has(undefined as never)) throw new BadUserRequestException('Cannot be null.: Process Instance ids contains null value');
  return [...ids] as string[];
}
