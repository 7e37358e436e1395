import Router from '@koa/router';
import type { InstanceModification } from '@trellis/core';
import { readJsonObject, text, flag } from '../body.js';
import { instructionsFromDto } from '../dto/instructions.js';
import { badUserRequestAs400 as badUserRequestAs400WithCode, InvalidRequestException } from '../errors/rest-exception.js';
import { toBatchDto } from './batch.js';
import { type RestContext } from './context.js';
import { historicQueryOf } from './historic-selection.js';
import { instanceQueryOf } from './process-instance.js';

/**
 * Process instance modification of many instances (POST /modification/execute and executeAsync)
 * and the batch form of one instance's modification (POST /process-instance/{id}/modification-async).
 */
export function modificationRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;

  router.post('/modification/execute', async (ctx) => {
    const modification = modificationOf(await readJsonObject(ctx, bodyLimit));
    await badUserRequestAs400(() => engine.modification.execute(modification));
    ctx.status = 204;
  });

  router.post('/modification/executeAsync', async (ctx) => {
    const modification = modificationOf(await readJsonObject(ctx, bodyLimit));
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.modification.executeAsync(modification)));
  });

  router.post('/process-instance/:id/modification-async', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    // Camunda's ProcessInstanceResourceImpl.modifyProcessInstanceAsync (the typo is Camunda's).
    if (!present(body.instructions) || (Array.isArray(body.instructions) && body.instructions.length === 0)) {
      throw new InvalidRequestException(400, 'The provided instuctions are invalid.');
    }
    const instructions = instructionsFromDto(body.instructions, { allowCancel: true });
    const options = { skipCustomListeners: flag(body.skipCustomListeners), skipIoMappings: flag(body.skipIoMappings), annotation: text(body.annotation) };
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.modification.modifyProcessInstanceAsync(ctx.params.id, instructions, options)));
  });
}

const present = (value: unknown) => value !== undefined && value !== null;

/**
 * ModificationDto → the engine's modification. As in Camunda, a missing processDefinitionId is
 * refused before the instructions are read (the builder is created first).
 */
function modificationOf(body: Record<string, unknown>): InstanceModification {
  if (!present(body.processDefinitionId)) throw new InvalidRequestException(400, 'processDefinitionId is null');
  if (typeof body.processDefinitionId !== 'string') throw new InvalidRequestException(400, "Cannot set 'processDefinitionId': not a string");
  const instructions = instructionsFromDto(body.instructions, { allowCancel: true, forDefinition: true });
  const ids = body.processInstanceIds;
  if (present(ids) && (!Array.isArray(ids) || ids.some((id) => id !== null && typeof id !== 'string'))) {
    throw new InvalidRequestException(400, "Cannot set 'processInstanceIds': not a list of strings");
  }
  return {
    processDefinitionId: body.processDefinitionId,
    instructions,
    processInstanceIds: (ids as Array<string | null> | undefined) ?? null,
    processInstanceQuery: instanceQueryOf(body),
    historicProcessInstanceQuery: historicQueryOf(body),
    skipCustomListeners: flag(body.skipCustomListeners),
    skipIoMappings: flag(body.skipIoMappings),
    annotation: text(body.annotation),
  };
}

/**
 * Camunda's ModificationRestServiceImpl and modification-async resource answer an engine
 * BadUserRequestException as a 400 InvalidRequestException of its message alone (no cause: no code).
 */
const badUserRequestAs400 = <T>(call: () => Promise<T>): Promise<T> => badUserRequestAs400WithCode(call, undefined, { withCode: false });
