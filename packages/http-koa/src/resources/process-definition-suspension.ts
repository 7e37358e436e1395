import Router from '@koa/router';
import type { SuspensionTarget } from '@trellis/core';
import type { Context } from 'koa';
import { readJsonBody, flag } from '../body.js';
import { parseIsoDateTime } from '../dto/dates.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { resolveDefinitionId } from './process-definition.js';
import type { RestContext } from './context.js';

interface SuspensionBody {
  suspended?: unknown;
  includeProcessInstances?: unknown;
  executionDate?: unknown;
  processDefinitionId?: unknown;
  processDefinitionKey?: unknown;
}

const SINGLE_PATHS = ['/process-definition/key/:key/tenant-id/:tenantId/suspended', '/process-definition/key/:key/suspended', '/process-definition/:id/suspended'];

/** PUT …/suspended on one definition, and PUT /process-definition/suspended on every version of a key. */
export function suspensionRoutes(router: Router, rest: RestContext): void {
  router.put('/process-definition/suspended', async (ctx) => {
    const body = (await readJsonBody(ctx, rest.bodyLimit)) as SuspensionBody;
    if (body.processDefinitionId != null) {
      throw new InvalidRequestException(400, 'Only processDefinitionKey can be set to update the suspension state.');
    }
    // Camunda's order: the execution date is read before the key is looked for.
    const executionDate = suspensionDateOf(body, (reason) => `Could not update the suspension state of Process Definitions due to: ${reason}`);
    if (typeof body.processDefinitionKey !== 'string') {
      throw new InvalidRequestException(400, 'Either processDefinitionId or processDefinitionKey should be set to update the suspension state.');
    }
    await update(rest, { processDefinitionKey: body.processDefinitionKey }, body, executionDate);
    ctx.status = 204;
  });

  for (const path of SINGLE_PATHS) {
    router.put(path, async (ctx: Context) => {
      const id = await resolveDefinitionId(rest, ctx);
      const body = (await readJsonBody(ctx, rest.bodyLimit)) as SuspensionBody;
      if (body.processDefinitionKey != null) {
        throw new InvalidRequestException(400, 'Only one of processDefinitionId or processDefinitionKey should be set to update the suspension state.');
      }
      const executionDate = suspensionDateOf(
        body,
        (reason) => `The suspension state of Process Definition with id ${id} could not be updated due to: ${reason}`,
      );
      await update(rest, { processDefinitionId: id }, body, executionDate);
      ctx.status = 204;
    });
  }
}

async function update({ engine }: RestContext, target: SuspensionTarget, body: SuspensionBody, executionDate: Date | null) {
  await engine.processDefinition.updateSuspensionState(target, {
    suspended: flag(body.suspended),
    includeProcessInstances: flag(body.includeProcessInstances),
    executionDate,
  });
}

/** Camunda's suspension DTOs: `executionDate` read by Joda's ISO parser ("" is none); one it cannot read is a 400 the message names. */
export function suspensionDateOf(body: { executionDate?: unknown }, message: (reason: string) => string): Date | null {
  const value = body.executionDate;
  if (value === undefined || value === null || value === '') return null;
  const date = typeof value === 'string' ? parseIsoDateTime(value) : null;
  if (!date) throw new InvalidRequestException(400, message(`Invalid format: "${String(value)}"`));
  return date;
}
