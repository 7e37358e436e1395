import Router from '@koa/router';
import type { Context } from 'koa';
import { MigrationPlanValidationException } from '@trellis/core';
import { objectOf, readJsonObject, flag } from '../body.js';
import { fromMigrationPlanDto, toMigrationPlanDto, toMigrationPlanReportDto } from '../dto/migration-dto.js';
import { variablesFromDto } from '../dto/variables-map.js';
import { badUserRequestAs400, InvalidRequestException } from '../errors/rest-exception.js';
import { type RestContext } from './context.js';
import { instanceQueryOf } from './process-instance.js';
import { toBatchDto } from './batch.js';

/** Camunda's MigrationRestServiceImpl answers plan-building problems as 400 InvalidRequestException with the engine's message. */
const asInvalidRequest = <T>(call: () => Promise<T>, keepValidationErrors: boolean): Promise<T> =>
  badUserRequestAs400(call, (error) => keepValidationErrors && error instanceof MigrationPlanValidationException);

/** The Migration group: generate and validate plans, migrate instances synchronously. */
export function migrationRoutes(router: Router, rest: RestContext): void {
  const { engine } = rest;

  /** A MigrationExecutionDto → the plan (checked: a bad plan is a 400 InvalidRequestException) and the selection. */
  const executionFromBody = async (ctx: Context) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const input = body.migrationPlan === undefined || body.migrationPlan === null ? null : fromMigrationPlanDto(objectOf(body.migrationPlan));
    if (input) await asInvalidRequest(() => engine.migration.createPlan(input), true);
    if (body.processInstanceIds !== undefined && body.processInstanceIds !== null && !Array.isArray(body.processInstanceIds)) throw new InvalidRequestException(400, '');
    const processInstanceQuery = instanceQueryOf(body);
    const selection = {
      processInstanceIds: (body.processInstanceIds as Array<string | null> | undefined) ?? null,
      processInstanceQuery,
      skipCustomListeners: flag(body.skipCustomListeners),
      skipIoMappings: flag(body.skipIoMappings),
    };
    return { input, selection };
  };

  router.post('/migration/generate', async (ctx) => {
    const body = await readJsonObject(ctx, rest.bodyLimit);
    const variables = body.variables === undefined || body.variables === null ? null : variablesFromDto(body.variables);
    const plan = await asInvalidRequest(
      () =>
        engine.migration.generate({
          sourceProcessDefinitionId: typeof body.sourceProcessDefinitionId === 'string' ? body.sourceProcessDefinitionId : null,
          targetProcessDefinitionId: typeof body.targetProcessDefinitionId === 'string' ? body.targetProcessDefinitionId : null,
          updateEventTriggers: flag(body.updateEventTriggers),
          variables,
        }),
      false,
    );
    ctx.body = toMigrationPlanDto(plan);
  });

  router.post('/migration/validate', async (ctx) => {
    const input = fromMigrationPlanDto(await readJsonObject(ctx, rest.bodyLimit));
    ctx.body = toMigrationPlanReportDto(await asInvalidRequest(() => engine.migration.validate(input), false));
  });

  router.post('/migration/executeAsync', async (ctx) => {
    const { input, selection } = await executionFromBody(ctx);
    ctx.body = toBatchDto(await engine.batch.migrateAsync(input, selection));
  });

  router.post('/migration/execute', async (ctx) => {
    const { input, selection } = await executionFromBody(ctx);
    await engine.migration.execute(input, selection);
    ctx.status = 204;
  });
}
