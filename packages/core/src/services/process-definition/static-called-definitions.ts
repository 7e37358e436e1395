import type { CommandContext } from '../../command/command-context.js';
import type { CallActivityReference } from '../../bpmn/index.js';
import type { ProcessDefinition } from './process-definition.js';

/** A process definition that call activities of another definition call statically. */
export interface CalledProcessDefinition extends ProcessDefinition {
  callingProcessDefinitionId: string;
  calledFromActivityIds: string[];
}

const isDynamic = (value: string | null | undefined) => value != null && /[$#]\{/.test(value);

/**
 * Camunda's GetStaticCalledProcessDefinitionCmd: call activities whose called element resolves
 * without variables (no expressions), grouped by the definition they call. Unresolvable ones are skipped.
 */
export async function findStaticCalledDefinitions(
  ctx: CommandContext,
  caller: ProcessDefinition,
  callActivities: readonly CallActivityReference[],
): Promise<CalledProcessDefinition[]> {
  const called = new Map<string, CalledProcessDefinition>();
  for (const reference of callActivities) {
    const target = await resolveStatically(ctx, caller, reference);
    if (!target) continue;
    let entry = called.get(target.id);
    if (!entry) called.set(target.id, (entry = { ...target, callingProcessDefinitionId: caller.id, calledFromActivityIds: [] }));
    entry.calledFromActivityIds.push(reference.activityId);
  }
  return [...called.values()];
}

async function resolveStatically(
  ctx: CommandContext,
  caller: ProcessDefinition,
  reference: CallActivityReference,
): Promise<ProcessDefinition | null> {
  const { calledElement, binding, version, versionTag, tenantId } = reference;
  if (!calledElement || [calledElement, version, versionTag, tenantId].some(isDynamic)) return null;
  const tenant = tenantId ?? caller.tenantId;
  switch (binding) {
    case 'deployment':
      return (
        (await ctx.processDefinitions.findByDeployment(caller.deploymentId)).find((d) => d.key === calledElement) ?? null
      );
    case 'version': {
      const wanted = Number(version);
      if (!Number.isInteger(wanted)) return null;
      return (await ctx.processDefinitions.findAllByKey(calledElement, tenant)).find((d) => d.version === wanted) ?? null;
    }
    case 'versionTag': {
      const tagged = (await ctx.processDefinitions.findAllByKey(calledElement, tenant)).filter((d) => d.versionTag === versionTag);
      return tagged.at(-1) ?? null;
    }
    default:
      return ctx.processDefinitions.findLatestByKey(calledElement, tenant);
  }
}
