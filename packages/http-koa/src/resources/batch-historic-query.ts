import Router from '@koa/router';
import { idList, readJsonObject, text, flag } from '../body.js';
import { toBatchDto } from './batch.js';
import { dueDateOf, retriesOf } from './batch-retries-suspension.js';
import { badUserRequestAs400 } from '../errors/rest-exception.js';
import type { RestContext } from './context.js';
import { historicQueryOf } from './historic-selection.js';

/**
 * The process-instance batches that select by history: POST /process-instance/delete-historic-query-based
 * (DeleteProcessInstancesDto, an instance-deletion batch) and POST
 * /process-instance/job-retries-historic-query-based (SetJobRetriesByProcessDto, a set-job-retries batch).
 * Both take the union of the given ids and the historic query's instances; a processInstanceQuery is
 * not read here, as in Camunda.
 */
export function historicQueryBatchRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;

  router.post('/process-instance/delete-historic-query-based', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const selection = { processInstanceIds: idList(body.processInstanceIds), historicProcessInstanceQuery: historicQueryOf(body) };
    const options = {
      deleteReason: text(body.deleteReason),
      skipCustomListeners: flag(body.skipCustomListeners),
      skipSubprocesses: flag(body.skipSubprocesses),
      skipIoMappings: flag(body.skipIoMappings),
    };
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.instanceBatches.deleteProcessInstancesAsync(selection, options)));
  });

  router.post('/process-instance/job-retries-historic-query-based', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    // Camunda checks `retries` first (a NullValueException, answered as a 400).
    const retries = retriesOf(body);
    const given = idList(body.processInstances)?.filter((id): id is string => id !== null) ?? null;
    const selection = { processInstanceIds: given, historicProcessInstanceQuery: historicQueryOf(body) };
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.asyncRetries.setJobRetriesAsync(selection, retries, dueDateOf(body))));
  });
}
