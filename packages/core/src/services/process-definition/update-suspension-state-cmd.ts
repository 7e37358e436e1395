import type { Command } from '../../command/command.js';
import type { CommandContext } from '../../command/command-context.js';
import { Resources } from '../../authorization/resources.js';
import { checkSuspendInstancesOf } from '../../authorization/instance-checks.js';
import { createJob } from '../../jobs/create-job.js';
import { setJobDefinitionsSuspended } from '../job-definition/job-definition-service.js';
import type { ProcessDefinition } from './process-definition.js';
import { HistoryWriter } from '../../history/history-writer.js';
import {
  ACTIVATE_PROCESS_DEFINITION,
  SUSPEND_PROCESS_DEFINITION,
  type TimerSuspensionConfiguration,
} from './timer-suspension-handlers.js';
import { OperationLogEntries } from '../../history/user-operation-entries.js';

/** Which definitions to suspend or activate: one by id, or every version of a key (optionally of one tenant). */
export type SuspensionTarget =
  | { processDefinitionId: string }
  | { processDefinitionKey: string; tenantId?: string | null };

export interface SuspensionChange {
  suspended: boolean;
  includeProcessInstances?: boolean;
  /** When to apply the change; absent or past means now. */
  executionDate?: Date | null;
}

/** Camunda's Suspend-/ActivateProcessDefinitionCmd: now, or as a timer job when the execution date lies ahead. */
export class UpdateProcessDefinitionSuspensionStateCmd implements Command<ProcessDefinition[]> {
  readonly name: string;

  constructor(
    private readonly target: SuspensionTarget,
    private readonly change: SuspensionChange,
  ) {
    this.name = change.suspended ? 'SuspendProcessDefinitionCmd' : 'ActivateProcessDefinitionCmd';
  }

  async execute(ctx: CommandContext): Promise<ProcessDefinition[]> {
    // Camunda runs its updates whatever they match: an unknown id or key changes nothing (and is no error).
    const found = await this.findTargets(ctx);
    // The tenant check: a definition by id of another tenant fails; by key, Camunda's tenant-checked
    // update leaves other tenants' definitions as they are.
    if ('processDefinitionId' in this.target) {
      for (const definition of found) ctx.tenantCheck.require(definition.tenantId, `update the process definition '${definition.id}'`);
    }
    const definitions = found.filter((definition) => ctx.tenantCheck.isAuthenticatedTenant(definition.tenantId));
    // Camunda: SUSPEND or UPDATE on the definition's key (a key asked for is checked even without
    // definitions); with its instances, their suspension permissions too.
    const keys = 'processDefinitionKey' in this.target ? [this.target.processDefinitionKey] : definitions.map((definition) => definition.key);
    for (const key of keys) {
      await ctx.authz.check(
        { permission: 'SUSPEND', resource: Resources.PROCESS_DEFINITION, resourceId: key },
        { permission: 'UPDATE', resource: Resources.PROCESS_DEFINITION, resourceId: key },
      );
      if (this.change.includeProcessInstances) await checkSuspendInstancesOf(ctx, key);
    }
    // Camunda's log entry for an id needs the definition (without one it fails for a logged-in user).
    if (keys.length > 0) OperationLogEntries.processDefinitionSuspension(ctx, { processDefinitionId: 'processDefinitionId' in this.target ? this.target.processDefinitionId : null, processDefinitionKey: 'processDefinitionKey' in this.target ? this.target.processDefinitionKey : null }, this.change.suspended, this.change.includeProcessInstances === true);
    return setProcessDefinitionSuspensionState(ctx, this.target, this.change, definitions);
  }

  private async findTargets(ctx: CommandContext): Promise<ProcessDefinition[]> {
    if ('processDefinitionId' in this.target) {
      const definition = await ctx.processDefinitions.findById(this.target.processDefinitionId);
      return definition ? [definition] : [];
    }
    return ctx.processDefinitions.findAllByKey(this.target.processDefinitionKey, this.target.tenantId);
  }
}

/**
 * The change itself, without checks or log entry (what Camunda runs without authorization, as
 * DeployCmd does): the definitions' state now, or a timer job when a date is given. Returns the
 * definitions it changed now.
 */
export async function setProcessDefinitionSuspensionState(
  ctx: CommandContext,
  target: SuspensionTarget,
  change: SuspensionChange,
  definitions: readonly ProcessDefinition[],
): Promise<ProcessDefinition[]> {
  // Camunda's AbstractSetStateCmd schedules whenever a date is given (a past one runs with the next acquisition).
  if (change.executionDate) {
    await scheduleSuspensionState(ctx, target, change, definitions, change.executionDate);
    return [];
  }
  const changed: ProcessDefinition[] = [];
  for (const definition of definitions) {
    // Camunda's AbstractSetProcessDefinitionStateCmd: the definition's job definitions (not their
    // jobs) and its timer start event jobs follow it, changed or not.
    const jobDefinitions = await ctx.jobDefinitions.find({ processDefinitionId: definition.id });
    await setJobDefinitionsSuspended(ctx, jobDefinitions, { suspended: change.suspended }, true);
    if (definition.suspended === change.suspended) continue;
    changed.push(await ctx.processDefinitions.update(definition, { suspended: change.suspended }));
  }
  if (change.includeProcessInstances) {
    for (const definition of definitions) {
      await ctx.executions.setSuspendedByDefinition(definition.id, change.suspended);
      await HistoryWriter.processInstanceSuspended(ctx, { processDefinitionId: definition.id }, change.suspended);
    }
  }
  return changed;
}

async function scheduleSuspensionState(
  ctx: CommandContext,
  target: SuspensionTarget,
  change: SuspensionChange,
  definitions: readonly ProcessDefinition[],
  dueDate: Date,
): Promise<void> {
  const configuration: TimerSuspensionConfiguration = { target, includeProcessInstances: change.includeProcessInstances ?? false };
  const single = 'processDefinitionId' in target ? definitions[0] : undefined;
  await createJob(ctx, {
    type: 'timer',
    handlerType: change.suspended ? SUSPEND_PROCESS_DEFINITION : ACTIVATE_PROCESS_DEFINITION,
    handlerConfiguration: JSON.stringify(configuration),
    dueDate,
    processDefinitionId: single?.id ?? null,
    processDefinitionKey: definitions[0]?.key ?? null,
    deploymentId: single?.deploymentId ?? null,
    tenantId: single?.tenantId ?? null,
  });
}
