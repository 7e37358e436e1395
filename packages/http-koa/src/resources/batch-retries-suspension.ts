import Router from '@koa/router';
import { mapNested, readJsonObject, flag, integer, dateValue } from '../body.js';
import { badUserRequestAs400, InvalidRequestException } from '../errors/rest-exception.js';
import { toBatchDto } from './batch.js';
import { historicQueryOf } from './historic-selection.js';
import { type RestContext } from './context.js';
import { jobQueryFromObject } from './job.js';
import { instanceQueryOf } from './process-instance.js';

/**
 * Batches for retries and suspension: POST /job/retries, POST /process-instance/job-retries and
 * POST /process-instance/suspended-async (POST /external-task/retries-async lives with its group).
 */
export function retriesAndSuspensionBatchRoutes(router: Router, rest: RestContext): void {
  const { engine, bodyLimit } = rest;

  router.post('/job/retries', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const retries = retriesOf(body);
    const selection = { jobIds: stringList(body.jobIds, 'jobIds'), jobQuery: mapNested(body.jobQuery, jobQueryFromObject) };
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.asyncRetries.setJobRetriesAsync(selection, retries, dueDateOf(body))));
  });

  // Camunda reads only processInstances and processInstanceQuery here: a historicProcessInstanceQuery
  // belongs to /process-instance/job-retries-historic-query-based and is ignored, as Camunda does.
  router.post('/process-instance/job-retries', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    const retries = retriesOf(body);
    const selection = { processInstanceIds: stringList(body.processInstances, 'processInstances'), processInstanceQuery: instanceQueryOf(body) };
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.asyncRetries.setJobRetriesAsync(selection, retries, dueDateOf(body))));
  });

  router.post('/process-instance/suspended-async', async (ctx) => {
    const body = await readJsonObject(ctx, bodyLimit);
    if (!present(body.processInstanceIds) && !present(body.processInstanceQuery) && !present(body.historicProcessInstanceQuery)) {
      throw new InvalidRequestException(400, 'Either processInstanceIds, processInstanceQuery or historicProcessInstanceQuery should be set to update the suspension state.');
    }
    if (present(body.processInstanceIds) && !Array.isArray(body.processInstanceIds)) throw new InvalidRequestException(400, "Cannot set 'processInstanceIds': not a list");
    const selection = {
      processInstanceIds: (body.processInstanceIds as Array<string | null> | undefined) ?? null,
      processInstanceQuery: instanceQueryOf(body),
      historicProcessInstanceQuery: historicQueryOf(body),
    };
    // SuspensionStateDto: `suspended` is a primitive boolean, absent means activate.
    ctx.body = toBatchDto(await badUserRequestAs400(() => engine.asyncRetries.updateSuspensionStateAsync(selection, flag(body.suspended))));
  });
}

export const present = (value: unknown) => value !== undefined && value !== null;

/** Camunda checks `retries` before anything else: EnsureUtil's NullValueException, answered as a 400. */
export function retriesOf(body: Record<string, unknown>): number {
  const retries = integer(body.retries);
  if (retries === null) throw new InvalidRequestException(400, 'retries is null');
  return retries;
}

/** JobRetriesDto#isDueDateSet: a `dueDate` key (null included) sets the due date; no key keeps it. */
export const dueDateOf = (body: Record<string, unknown>) => ('dueDate' in body ? dateValue(body.dueDate) : undefined);


function stringList(value: unknown, name: string): string[] {
  if (!present(value)) return [];
  if (!Array.isArray(value) || value.some((each) => typeof each !== 'string')) throw new InvalidRequestException(400, `Cannot set '${name}': not a list of strings`);
  return value as string[];
}

