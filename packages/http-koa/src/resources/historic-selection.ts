import type { HistoricProcessInstanceQuery } from '@trellis/core';
import { mapNested } from '../body.js';
import { InvalidRequestException } from '../errors/rest-exception.js';
import { historicQueryFromBody } from './history-process-instance.js';

const present = (value: unknown) => value !== undefined && value !== null;

/** A HistoricProcessInstanceQueryDto inside a request body (the JSON of POST /history/process-instance), or null. */
export function historicQueryOf(body: Record<string, unknown>): HistoricProcessInstanceQuery | null {
  return mapNested(body.historicProcessInstanceQuery, historicQueryFromBody);
}

/** A JSON List<String> as Jackson reads it: null stays null (not given), numbers become text, null items stay. */
export function idList(value: unknown, name: string): Array<string | null> | null {
  if (!present(value)) return null;
  if (!Array.isArray(value)) throw new InvalidRequestException(400, `Cannot set '${name}': not a list`);
  return value.map((each) => {
    if (each === null || typeof each === 'string') return each;
    if (typeof each === 'number') return String(each);
    throw new InvalidRequestException(400, `Cannot set '${name}': not a list of strings`);
  });
}
