import Router from '@koa/router';
import { AuthorizationException, FormFieldValidationException, NotFoundException, NullValueException, ProcessEngineException, BadUserRequestException } from '@trellis/core';
import { readJsonBody, text } from '../body.js';
import { sendDeployedForm, XHTML } from '../dto/content-types.js';
import { toStartFormDto } from '../dto/form-dto.js';
import { selfLink } from '../dto/links.js';
import { toProcessInstanceDto } from '../dto/runtime-dto.js';
import { variablesFromDto, variablesToDto } from '../dto/variables-map.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { baseUrlOf, type RestContext } from './context.js';
import { DEFINITION_PATHS, resolveDefinitionId } from './process-definition.js';


/** The start form endpoints in the three single-definition path forms. */
export function processDefinitionFormRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  for (const path of DEFINITION_PATHS) {
    router.get(`${path}/startForm`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      try {
        ctx.body = toStartFormDto(id, await engine.startForm.getStartFormData(id));
      } catch (error) {
        if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
        throw new InvalidRequestException(400, `Cannot get start form data for process definition ${id}`, 'InvalidRequestException', error.code);
      }
    });

    router.get(`${path}/form-variables`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      const names = ctx.query.variableNames;
      const variableNames = names === undefined ? undefined : String(Array.isArray(names) ? names[0] : names).split(',');
      const deserialize = ctx.query.deserializeValues;
      const deserializeValues = deserialize === undefined || String(Array.isArray(deserialize) ? deserialize[0] : deserialize).toLowerCase() === 'true';
      ctx.body = variablesToDto(await engine.startForm.getStartFormVariables(id, variableNames), deserializeValues);
    });

    router.get(`${path}/rendered-form`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      const html = await engine.startForm.getRenderedStartForm(id);
      if (html === null) throw new InvalidRequestException(404, `No matching rendered start form for process definition with the id ${id} found.`);
      ctx.type = XHTML;
      ctx.body = html;
    });

    router.get(`${path}/deployed-start-form`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      try {
        sendDeployedForm(ctx, await engine.startForm.getDeployedStartForm(id));
      } catch (error) {
        if (error instanceof NotFoundException || error instanceof NullValueException) throw new InvalidRequestException(404, error.message);
        if (error instanceof AuthorizationException) throw new InvalidRequestException(403, error.message);
        if (error instanceof BadUserRequestException) throw new InvalidRequestException(400, error.message);
        throw error;
      }
    });

    router.post(`${path}/submit-form`, async (ctx) => {
      const id = await resolveDefinitionId(rest, ctx);
      const body = ((await readJsonBody(ctx, rest.bodyLimit, { optional: true })) ?? {}) as Record<string, unknown>;
      const prefix = `Cannot instantiate process definition ${id}`;
      const variables = variablesFromDto(body.variables, prefix);
      const businessKey = text(body.businessKey);
      try {
        const instance = await engine.startForm.submitStartForm(id, { businessKey, variables });
        ctx.body = toProcessInstanceDto(instance, selfLink(baseUrlOf(ctx), `/process-instance/${instance.id}`));
      } catch (error) {
        if (error instanceof AuthorizationException || !ProcessEngineException.is(error)) throw error;
        const status = error instanceof FormFieldValidationException ? 400 : 500;
        throw new InvalidRequestException(status, `${prefix}: ${error.message}`, 'RestException', error.code);
      }
    });
  }
}
