import type { HistoricProcessInstanceQuery } from '@trellis/core';
import { mapNested } from '../body.js';
import { historicQueryFromBody } from './history-process-instance.js';

/** A HistoricProcessInstanceQueryDto inside a request body (the JSON of POST /history/process-instance), or null. */
export function historicQueryOf(body: Record<string, unknown>): HistoricProcessInstanceQuery | null {
  return mapNested(body.historicProcessInstanceQuery, historicQueryFromBody);
}
