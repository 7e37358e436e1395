import Router from '@koa/router';
import { AuthorizationException, BadUserRequestException, NullValueException, ProcessEngineException, type ProcessInstanceSelection } from '@trellis/core';
import { idList, readJsonObject, text, flag } from '../body.js';
import { variablesFromDto } from '../dto/variables-map.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { toBatchDto } from './batch.js';
import { historicQueryOf } from './historic-selection.js';
import { present } from './batch-retries-suspension.js';
import { instanceQueryOf } from './process-instance.js';
import { badUserRequestAs400 } from '../errors/rest-exception.js';
import { type RestContext } from './context.js';

/**
 * Batches over process instances: POST /process-instance/delete (DeleteProcessInstancesDto),
 * POST /process-instance/variables-async (SetVariablesAsyncDto) and POST /process-instance/message-async
 * (CorrelationMessageAsyncDto), each answering a BatchDto.
 */
export function instanceBatchRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;

  // Camunda's deleteAsync passes no historic query to the engine (that is /delete-historic-query-based),
  // so historicProcessInstanceQuery is ignored here, as it is there.
  router.post('/process-instance/delete', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const selection = { processInstanceIds: idList(body.processInstanceIds), processInstanceQuery: instanceQueryOf(body) };
    const options = {
      deleteReason: text(body.deleteReason),
      skipCustomListeners: flag(body.skipCustomListeners),
      skipSubprocesses: flag(body.skipSubprocesses),
      skipIoMappings: flag(body.skipIoMappings),
    };
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.instanceBatches.deleteProcessInstancesAsync(selection, options)));
  });

  // Camunda rethrows BadUserRequestException (400 with its own type) and AuthorizationException; any other
  // engine error (a null map, a Java-serialized value) becomes a 400 InvalidRequestException.
  router.post('/process-instance/variables-async', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const variables = present(body.variables) ? variablesFromDto(body.variables, 'Cannot set variables') : null;
    const selection = selectionOf(body);
    try {
      ctx.body = toBatchDto(await engine.instanceBatches.setVariablesAsync(selection, variables));
    } catch (error) {
      if (ProcessEngineException.is(error) && !(error instanceof BadUserRequestException) && !(error instanceof AuthorizationException)) {
        throw new InvalidRequestException(400, error.message, 'InvalidRequestException', error.code);
      }
      throw error;
    }
  });

  // Camunda turns only a NullValueException into a 400 InvalidRequestException here; a Java-serialized value stays a 500.
  router.post('/process-instance/message-async', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const variables = present(body.variables) ? variablesFromDto(body.variables, 'Cannot set variables') : null;
    const selection = selectionOf(body);
    try {
      ctx.body = toBatchDto(await engine.instanceBatches.correlateMessageAsync(text(body.messageName), selection, variables));
    } catch (error) {
      if (error instanceof NullValueException) throw new InvalidRequestException(400, error.message, 'InvalidRequestException', error.code);
      throw error;
    }
  });
}

/** Ids, runtime query and historic query, as Camunda passes all three to the engine. */
function selectionOf(body: Record<string, unknown>): ProcessInstanceSelection {
  return { processInstanceIds: idList(body.processInstanceIds), processInstanceQuery: instanceQueryOf(body), historicProcessInstanceQuery: historicQueryOf(body) };
}


