import Router from '@koa/router';
import type { InstanceRestart, RestartInstruction } from '@trellis/core';
import { idList, readJsonObject, flag } from '../body.js';
import { instructionsFromDto } from '../dto/instructions.js';
import { toBatchDto } from './batch.js';
import { badUserRequestAs400 } from '../errors/rest-exception.js';
import type { RestContext } from './context.js';
import { historicQueryOf } from './historic-selection.js';

/**
 * POST /process-definition/{id}/restart (204) and /restart-async (BatchDto) with a
 * RestartProcessInstanceDto. As in Camunda, an engine BadUserRequestException becomes a 400
 * InvalidRequestException with the engine's message; other refusals keep their own status.
 * The 7.22 contract has no by-key forms of these paths, so neither does Trellis.
 */
export function processDefinitionRestartRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;

  router.post('/process-definition/:id/restart', async (ctx) => {
    const restart = restartOf(ctx.params.id!, await readJsonObject(ctx, bodyLimit));
    await badUserRequestAs400(() => engine.restart.restart(restart));
    ctx.status = 204;
  });

  router.post('/process-definition/:id/restart-async', async (ctx) => {
    const restart = restartOf(ctx.params.id!, await readJsonObject(ctx, bodyLimit));
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.restart.restartAsync(restart)));
  });
}

/**
 * RestartProcessInstanceDto → the engine's request. Camunda fails with a NullPointerException (500)
 * when `instructions` is absent; Trellis reads it as empty, so the engine's 400 answers instead.
 */
function restartOf(processDefinitionId: string, body: Record<string, unknown>): InstanceRestart {
  const instructions = instructionsFromDto(body.instructions, { allowCancel: false, forDefinition: true }) as RestartInstruction[];
  return {
    processDefinitionId,
    instructions,
    processInstanceIds: idList(body.processInstanceIds),
    historicProcessInstanceQuery: historicQueryOf(body),
    initialVariables: flag(body.initialVariables),
    skipCustomListeners: flag(body.skipCustomListeners),
    skipIoMappings: flag(body.skipIoMappings),
    withoutBusinessKey: flag(body.withoutBusinessKey),
  };
}
