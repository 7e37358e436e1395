import Router from '@koa/router';
import { AuthorizationException, ProcessEngineException, type ModificationInstruction } from '@trellis/core';
import { instructionsFromDto } from '../dto/instructions.js';
import { readJsonBody, flag, text } from '../body.js';
import { selfLink } from '../dto/links.js';
import { toProcessInstanceDto } from '../dto/runtime-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { baseUrlOf, type RestContext } from './context.js';
import { resolveDefinitionId } from './process-definition.js';

type StartInstruction = Exclude<ModificationInstruction, { type: 'cancel' }>;

const START_PATHS = ['/process-definition/key/:key/tenant-id/:tenantId/start', '/process-definition/key/:key/start', '/process-definition/:id/start'];

/** POST …/start in its three path forms. */
export function processDefinitionStartRoutes(router: Router, rest: RestContext): void {
  for (const path of START_PATHS) {
    router.post(path, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      const body = ((await readJsonBody(ctx, rest.bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
      // Bound with the body, as Jackson binds StartProcessInstanceDto's String (a number is its text).
      const businessKey = text(body.businessKey);
      const prefix = `Cannot instantiate process definition ${id}`;
      // Camunda's order: the variables, then each instruction (its own check first); a bad one is a
      // 400 with the prefix before its message.
      const variables = variablesFromDto(body.variables, prefix);
      let startInstructions: StartInstruction[];
      try {
        startInstructions = instructionsFromDto(body.startInstructions, { allowCancel: false }) as StartInstruction[];
      } catch (error) {
        if (!(error instanceof InvalidRequestException)) throw error;
        throw new InvalidRequestException(error.status, `${prefix}: ${error.message}`);
      }
      const skips = { skipCustomListeners: flag(body.skipCustomListeners), skipIoMappings: flag(body.skipIoMappings) };
      try {
        const instance = await rest.engine.runtime.startProcessInstanceById(id, { businessKey, variables, startInstructions, ...skips });
        const dto = toProcessInstanceDto(instance, selfLink(baseUrlOf(ctx), `/process-instance/${instance.id}`));
        ctx.body = flag(body.withVariablesInReturn) ? { ...dto, variables: variablesToDto(instance.variables, false) } : dto;
      } catch (error) {
        // Camunda's start answers every engine failure (not found and bad requests too) with a 500 RestException.
        if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
        throw new InvalidRequestException(500, `${prefix}: ${error.message}`, 'RestException', error.code);
      }
    });
  }
}
