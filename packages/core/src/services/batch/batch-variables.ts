import { checkJavaSerialization, fromJsonStorage, toJsonStorage, type JsonStoredVariables, type TypedValue } from '../../runtime/variables/index.js';

/**
 * Batch variables (Camunda keeps them in ACT_RU_VARIABLE under the batch id): here they live in the
 * batch's JSON configuration (toJsonStorage), so that dates, bytes and files come back as they went
 * in. They go when the batch row goes, that is when the batch completes or is deleted.
 */
export type StoredBatchVariables = JsonStoredVariables;

/** Camunda's VariableUtil#setVariablesByBatchId: refuses Java-serialized objects (ENGINE-17007), then stores. */
export function storeBatchVariables(variables: Record<string, TypedValue>): StoredBatchVariables {
  for (const [name, value] of Object.entries(variables)) checkJavaSerialization(name, value);
  return toJsonStorage(variables);
}

export const loadBatchVariables: (stored: StoredBatchVariables) => Record<string, TypedValue> = fromJsonStorage;
