import type { InstructionVariables, ModificationInstruction } from '@trellis/core';
import { flag, text as jsonText } from '../body.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { variablesFromDto } from './variables-map.js';

type StartInstruction = Exclude<ModificationInstruction, { type: 'cancel' }>;

/**
 * REST modification / start instructions → engine instructions, with Camunda's 400s for a missing
 * type or id ("For instruction type '<type>': '<field>' must be set"; POST …/start puts its
 * "Cannot instantiate process definition <id>: " before them). `forDefinition` reads POST
 * /modification/execute's instructions (Camunda's ModificationBuilder): a cancel names an activity
 * (and may set cancelCurrentActiveActivityInstances) and starts carry no variables or ancestor.
 */
export function instructionsFromDto(
  list: unknown,
  options: { allowCancel: boolean; forDefinition?: boolean },
): Array<ModificationInstruction & { cancelCurrentActiveActivityInstances?: boolean }> {
  if (list === undefined || list === null) return [];
  if (!Array.isArray(list)) throw new InvalidRequestException(400, '');
  return list.map((raw: Record<string, unknown>) => {
    const type = raw?.type;
    const text = (name: string) => jsonText(raw[name]) ?? undefined;
    const required = (name: string) => {
      const value = text(name);
      if (value) return value;
      throw new InvalidRequestException(400, `For instruction type '${String(type)}': '${name}' must be set`);
    };
    const variables = options.forDefinition ? {} : triggerVariables(raw.variables);
    const ancestorActivityInstanceId = options.forDefinition ? undefined : text('ancestorActivityInstanceId');
    switch (type) {
      case 'cancel':
        if (!options.allowCancel) break;
        if (options.forDefinition) return { type, activityId: required('activityId'), cancelCurrentActiveActivityInstances: flag(raw.cancelCurrentActiveActivityInstances) };
        // Camunda's CancellationInstructionDto.validateParameters: exactly one of the three set (not null).
        if (['activityId', 'activityInstanceId', 'transitionInstanceId'].filter((name) => text(name) !== undefined).length !== 1) {
          throw new InvalidRequestException(400, `For instruction type 'cancel': exactly one, 'activityId', 'activityInstanceId', or 'transitionInstanceId', is required`);
        }
        return { type, activityId: text('activityId'), activityInstanceId: text('activityInstanceId'), transitionInstanceId: text('transitionInstanceId') };
      case 'startBeforeActivity':
      case 'startAfterActivity':
        return { type, activityId: required('activityId'), ancestorActivityInstanceId, ...variables } satisfies StartInstruction;
      case 'startTransition':
        return { type, transitionId: required('transitionId'), ancestorActivityInstanceId, ...variables } satisfies StartInstruction;
    }
    throw new InvalidRequestException(400, `Instruction type '${String(type)}' is not supported`);
  });
}

/**
 * An instruction's `variables` (Camunda's TriggerVariableValueDto map): those marked `local` set on
 * the new path itself, the others as setVariable sets them.
 */
function triggerVariables(map: unknown): InstructionVariables {
  if (map === undefined || map === null) return {};
  if (typeof map !== 'object' || Array.isArray(map)) throw new InvalidRequestException(400, '');
  const [local, visible] = [{} as Record<string, unknown>, {} as Record<string, unknown>];
  for (const [name, dto] of Object.entries(map as Record<string, unknown>)) {
    const isLocal = dto !== null && typeof dto === 'object' && flag((dto as Record<string, unknown>).local);
    (isLocal ? local : visible)[name] = dto;
  }
  return { variables: variablesFromDto(visible), variablesLocal: variablesFromDto(local) };
}
